"""Starting and probing the actors of one Ray campaign (`mcpgym_clients.backends.ray`).

`Launcher` holds a campaign's settings and secrets (control token, grading token, bundle
key: random per campaign), starts environment actors (``SPREAD``) and graders (pinned to
a node), builds the `EpisodeDriver` over a pair, probes and kills actors.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import httpx2

from mcpgym_clients.backends._ray_actors import EnvironmentServer, GradingServer
from mcpgym_clients.backends._ray_workers import UV_RUN_HINT, StartFailures, runs_workers_with_uv
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import InfraError
from mcpgym_server import Environment, compute_lock

PROBE_TIMEOUT_S = 30.0
"""Seconds an actor gets to answer a liveness probe before it is taken as dead."""

START_TIMEOUT_S = 180.0
"""Seconds Ray gets to place and start the actors."""

WATCH_EVERY_S = 1.0
"""Seconds between two reads of what Ray's workers printed as they died at start
(`StartFailures`), while actors start."""


@dataclass
class Actor:
    """One started actor: its handle, URL and node."""

    handle: Any
    url: str
    node_id: str
    name: str


class Launcher:
    """Starts actors and drivers with one campaign's settings."""

    def __init__(
        self,
        ray: ModuleType,
        env: Environment,
        store_dir: Path,
        *,
        host: str | None,
        seed_salt: str | None,
        idle_ttl: float,
        max_requests_per_second: float | None,
        request_burst: int,
        episode_timeout: float | None,
        graders_per_node: int,
        actor_cpus: float,
    ) -> None:
        self.ray, self.env, self.store_dir, self.host = ray, env, store_dir, host
        self.seed_salt, self.idle_ttl, self.episode_timeout = seed_salt, idle_ttl, episode_timeout
        self.max_requests_per_second, self.request_burst = max_requests_per_second, request_burst
        self.graders_per_node, self.actor_cpus = graders_per_node, actor_cpus
        self.lock = compute_lock(env)
        self.control_token = secrets.token_urlsafe(32)
        self.grading_token = secrets.token_urlsafe(24)
        self.bundle_key = secrets.token_urlsafe(32)
        self.started: list[Actor] = []
        self.graders: dict[str, list[Actor]] = {}
        self.mcp_http = httpx2.AsyncClient(
            timeout=httpx2.Timeout(60.0, read=300.0), trust_env=host is None
        )
        self._count = 0
        self._tag = secrets.token_hex(3)  # two campaigns on one cluster never share a name
        self._rr = 0

    def _name(self, kind: str) -> str:
        self._count += 1
        return f"mcpgym-{kind}-{self._count}-{self._tag}"

    async def _start(self, handles: Sequence[Any], names: Sequence[str]) -> list[Actor]:
        ray = self.ray

        def wait() -> list[dict[str, Any]]:
            return ray.get([h.start.remote() for h in handles], timeout=START_TIMEOUT_S)

        failures = StartFailures.of(ray)
        infos: list[dict[str, Any]] = []
        failed: Exception | None = None
        died: str | None = None

        async def started(scope: anyio.CancelScope) -> None:
            nonlocal infos, failed
            try:
                # abandoned when cancelled (a stop, a lost cluster, a worker dead at start):
                # actors this driver started are not detached, Ray ends them with it
                infos = await anyio.to_thread.run_sync(wait, abandon_on_cancel=True)
            except Exception as exc:  # Ray's errors: the actor's own exception, a timeout
                failed = exc
            scope.cancel()

        async def watch(scope: anyio.CancelScope) -> None:
            nonlocal died
            while True:  # a file Ray writes: polled
                await anyio.sleep(WATCH_EVERY_S)
                if (died := failures.error()) is not None:
                    scope.cancel()
                    return

        async with anyio.create_task_group() as tg:
            tg.start_soon(started, tg.cancel_scope)
            if failures.path is not None:
                tg.start_soon(watch, tg.cancel_scope)
        if failed is not None or died is not None:
            for h in handles:
                await self.kill(h)
            what = f"actors {', '.join(names)} did not start"
            if failed is not None:
                raise InfraError("ray", f"{what}: {failed}") from failed
            # Ray itself would start another worker a minute later, and so on
            hint = f"; {UV_RUN_HINT}" if runs_workers_with_uv(ray) else ""
            raise InfraError(
                "ray",
                f"{what}: Ray's worker process died at start ({died}, printed to "
                f"{failures.path}){hint}",
            )
        actors = [
            Actor(h, i["url"], i["node_id"], n)
            for h, i, n in zip(handles, infos, names, strict=True)
        ]
        self.started += actors
        return actors

    async def environments(self, n: int) -> list[Actor]:
        """Start ``n`` environment actors, spread over the cluster's nodes."""
        remote = self.ray.remote(EnvironmentServer)
        names = [self._name("env") for _ in range(n)]
        handles = [
            remote.options(
                name=name, num_cpus=self.actor_cpus, scheduling_strategy="SPREAD"
            ).remote(
                self.env.name,
                self.lock,
                str(self.store_dir),
                control_token=self.control_token,
                bundle_key=self.bundle_key,
                seed_salt=self.seed_salt,
                idle_ttl=self.idle_ttl,
                max_requests_per_second=self.max_requests_per_second,
                request_burst=self.request_burst,
                host=self.host,
            )
            for name in names
        ]
        return await self._start(handles, names)

    async def environment(self) -> Actor:
        """Start one environment actor (a replacement)."""
        return (await self.environments(1))[0]

    async def grader(self, node_id: str) -> Actor:
        """Start one grader pinned to ``node_id`` (soft: elsewhere if that node is gone)."""
        # optional (the `ray` extra): not installed where CI type-checks
        from ray.util.scheduling_strategies import (  # pyright: ignore[reportMissingImports]
            NodeAffinitySchedulingStrategy,
        )

        remote = self.ray.remote(GradingServer)
        name = self._name("grader")
        handle = remote.options(
            name=name,
            num_cpus=self.actor_cpus,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=True),
        ).remote(
            str(self.store_dir),
            token=self.grading_token,
            bundle_key=self.bundle_key,
            host=self.host,
        )
        (actor,) = await self._start([handle], [name])
        self.graders[node_id] = [*self.graders.get(node_id, []), actor]
        return actor

    def drop_grader(self, grader: Actor) -> None:
        """Take a dead grader out of its node's pool."""
        pool = self.graders.get(grader.node_id, [])
        self.graders[grader.node_id] = [a for a in pool if a is not grader]

    async def grader_for(self, node_id: str) -> Actor:
        """A grader of ``node_id`` (started if the node has none), round robin."""
        pool = self.graders.get(node_id) or [await self.grader(node_id)]
        self._rr += 1
        return pool[self._rr % len(pool)]

    def driver(self, env: Actor, grader: Actor) -> EpisodeDriver:
        """An `EpisodeDriver` over one environment actor and one grader."""
        return EpisodeDriver(
            env.url,
            grader.url,
            self.grading_token,
            control_token=self.control_token,
            episode_timeout=self.episode_timeout,
            environment=self.env,
            mcp_http=self.mcp_http,
        )

    async def alive(self, handle: Any) -> bool:
        """Whether the actor answers a probe within `PROBE_TIMEOUT_S`."""
        ray = self.ray

        def probe() -> bool:
            try:
                ray.get(handle.ping.remote(), timeout=PROBE_TIMEOUT_S)
            except Exception:  # RayActorError (dead), GetTimeoutError (hung)
                return False
            return True

        # abandoned when cancelled: a stop does not wait out a probe of a lost cluster
        return await anyio.to_thread.run_sync(probe, abandon_on_cancel=True)

    async def kill(self, handle: Any) -> None:
        """Kill an actor (no restart); an actor already gone is fine."""
        with contextlib.suppress(Exception):
            await anyio.to_thread.run_sync(self.ray.kill, handle)

    async def stop_all(self, *, wait: float = 30.0, kill: bool = True) -> None:
        """Stop every actor gracefully (open episodes are sealed), waiting at most ``wait``
        seconds, then kill them (``kill``; not without Ray's GCS, which kills them)."""
        ray = self.ray
        handles = [a.handle for a in self.started]

        def stop() -> None:
            refs = [h.stop.remote() for h in handles]
            with contextlib.suppress(Exception):
                ray.wait(refs, num_returns=len(refs), timeout=wait)
            for h in handles if kill else ():
                with contextlib.suppress(Exception):
                    ray.kill(h)

        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(stop)
            await self.mcp_http.aclose()
