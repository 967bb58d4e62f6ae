"""Campaigns on Ray: ``mcpgym eval ... --backend ray [--ray-address ADDRESS]``.

Environment servers run as Ray actors (`EnvironmentServer`, placed with the ``SPREAD``
strategy), each serving many episodes on a port of its node; grading services run as
an actor pool beside them (`GradingServer`, ``graders_per_node`` on each node that
holds environment actors, pinned to it, reading that node's episode store). The driver
process keeps everything else: `run_campaign` with its run store, resume, infra-error
retries, progress output and exit status, unchanged. `RayEpisodeRunner` is the
`EpisodeRunner` it drives: one `EpisodeDriver` per environment actor (the agent loop
talks MCP to the actor's URL, as with the local backend), each episode sent to the
live actor with the fewest episodes in flight.

Fault tolerance: an actor that dies (``ray.kill``, a crashed node) breaks the HTTP and
MCP connections of its episodes in flight, so they end as ``infra_error`` like on any
lost server. After such an episode the runner probes the actor (and its grader); a
dead one is replaced by a fresh actor (at most ``max_replacements`` in a campaign),
and the campaign's retry (``--infra-retries``) runs the episode again on a live actor.

Ray is an optional extra: ``uv pip install 'mcpgym-clients[ray]'``. Without it,
`import_ray` raises a one-line `ConfigurationError` naming the extra.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio

from mcpgym_clients.backends._ray_gcs import (
    ClusterLostError,
    gcs_probe,
    lost_after,
    ray_reconnect_s,
    watch_gcs,
)
from mcpgym_clients.backends._ray_launch import START_TIMEOUT_S, Actor, Launcher
from mcpgym_clients.backends._ray_workers import UV_RUN_SETTING, uv_run_setting_applied
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import ConfigurationError, InfraError
from mcpgym_clients.progress import LiveEpisode
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord, ServerInfo
from mcpgym_server import Environment
from mcpgym_server.runtime import DEFAULT_REQUEST_BURST, DEFAULT_REQUESTS_PER_SECOND

ACTOR_CPUS = 0.25
"""Logical CPUs each actor asks Ray for: 4 actors per core by default (an actor is one
event loop mostly waiting on its clients); raise it to pack fewer actors per node."""

LOST_STOP_S = 10.0
"""Seconds the actors get to stop (sealing their open episodes), then Ray to shut down,
once Ray's GCS is lost (`mcpgym_clients.backends._ray_gcs`): each bounded, as Ray ends the
process soon after."""

INSTALL_HINT = (
    "--backend ray needs Ray: install the `ray` extra: uv pip install 'mcpgym-clients[ray]'"
)


def import_ray() -> ModuleType:
    """The ``ray`` module.

    Raises:
        ConfigurationError: Ray is not installed (one line naming the extra).
    """
    # Ray ships the working directory to workers of a driver started with `uv run` and
    # runs them with `uv run` there (slow, and not this package's installed copy): off
    # unless asked for. Read when Ray is first imported: `ray_backend` applies it to a Ray
    # the caller imported before (`uv_run_setting_applied`).
    os.environ.setdefault(UV_RUN_SETTING, "0")
    try:
        # optional (the `ray` extra): not installed where CI type-checks
        import ray  # pyright: ignore[reportMissingImports]
    except ImportError:
        raise ConfigurationError(INSTALL_HINT) from None
    return ray


@dataclass
class _Slot:
    """An environment actor, the grader it is paired with, and the driver over both."""

    env: Actor
    grader: Actor
    driver: EpisodeDriver
    in_flight: int = 0
    alive: bool = True


class RayEpisodeRunner:
    """Runs a campaign's episodes on environment actors; an `EpisodeRunner`.

    Build it with `ray_backend` (which starts and stops the actors).

    Attributes:
        replacements: replacements of dead actors started so far (at most
            ``max_replacements``).
    """

    def __init__(self, launcher: Launcher, slots: list[_Slot], max_replacements: int) -> None:
        self._launcher = launcher
        self._slots = slots
        self._max_replacements = max_replacements
        self.replacements = 0
        self._replacing = 0
        self._lock = anyio.Lock()
        self._changed = anyio.Event()
        self._old_drivers: list[EpisodeDriver] = []
        self._running: set[anyio.CancelScope] = set()
        self.lost: ClusterLostError | None = None

    def cluster_lost(self, reason: str) -> None:
        """Ray's cluster is lost (`watch_gcs`): every episode in flight, and every one
        asked for from now on, raises `ClusterLostError` with ``reason``, which stops the
        campaign (its slots not played stored unscored, the run resumable)."""
        self.lost = ClusterLostError(reason)
        for scope in self._running:
            scope.cancel()

    @property
    def actors(self) -> list[Any]:
        """The handles of the live environment actors, in start order."""
        return [s.env.handle for s in self._slots if s.alive]

    @property
    def urls(self) -> list[str]:
        """The base URLs of the live environment actors."""
        return [s.env.url for s in self._slots if s.alive]

    @property
    def episode_timeout(self) -> float | None:
        """The drivers' hard cap per episode, seconds (``None``: none)."""
        return self._launcher.episode_timeout

    async def server_info(self) -> ServerInfo:
        """``GET /tasks`` of the first live environment actor (all serve the same lock)."""
        return await (await self._pick()).driver.server_info()

    async def check_control(self) -> None:
        """`EpisodeDriver.check_control` on every environment actor."""
        for slot in self._slots:
            await slot.driver.check_control()

    async def check_grading(self) -> None:
        """`EpisodeDriver.check_grading` on every grader."""
        for slot in self._slots:
            await slot.driver.check_grading()

    async def run_episode(
        self,
        agent: Agent,
        task: str,
        band: str,
        seed: int,
        *,
        epoch: int = 0,
        live: LiveEpisode | None = None,
    ) -> EpisodeRecord:
        """Run one episode on the live actor with the fewest in flight (see the module doc);
        ``live`` is passed on to `EpisodeDriver.run_episode` (the progress display).

        Returns:
            The `EpisodeRecord`; ``infra_error`` when its actor died (it is then replaced)
            or when no actor is left alive and no replacement can be made.

        Raises:
            ClusterLostError: Ray's GCS stopped answering (`cluster_lost`), before or
                while the episode ran.
        """
        scope = anyio.CancelScope()
        self._running.add(scope)
        try:
            with scope:
                if self.lost is None:
                    return await self._run(agent, task, band, seed, epoch=epoch, live=live)
        finally:
            self._running.discard(scope)
        assert self.lost is not None  # only `cluster_lost` cancels the scope
        raise self.lost

    async def _run(
        self,
        agent: Agent,
        task: str,
        band: str,
        seed: int,
        *,
        epoch: int,
        live: LiveEpisode | None,
    ) -> EpisodeRecord:
        """`run_episode` while the cluster is not lost."""
        try:
            slot = await self._pick()
        except InfraError as exc:
            rec = EpisodeRecord(agent=agent.name, task=task, band=band, seed=seed, epoch=epoch)
            rec.started_at = rec.ended_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            rec.error = str(exc)
            return rec
        slot.in_flight += 1
        try:
            rec = await slot.driver.run_episode(agent, task, band, seed, epoch=epoch, live=live)
        finally:
            slot.in_flight -= 1
        if rec.termination == "infra_error":
            replaced = await self._check(slot)
            if replaced:
                rec.error = f"{rec.error} [{replaced}]"
        return rec

    async def _pick(self) -> _Slot:
        """The live slot with the fewest episodes in flight; waits for a replacement
        being started when none is live.

        Raises:
            InfraError: no actor is live and none is being started.
        """
        with anyio.move_on_after(START_TIMEOUT_S):
            while True:
                live = [s for s in self._slots if s.alive]
                if live:
                    return min(live, key=lambda s: s.in_flight)
                if self._replacing == 0:
                    break
                await self._changed.wait()
        raise InfraError(
            "ray",
            f"no environment actor is alive ({self.replacements} of the "
            f"{self._max_replacements} replacements allowed made)",
        )

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def _check(self, slot: _Slot) -> str | None:
        """Probe the slot's actors after an infra_error; replace the dead ones.

        Returns:
            What was replaced (for the episode's error), or ``None``.
        """
        async with self._lock:  # one check at a time: slots share graders
            if not slot.alive:  # a replacement failed or none was left
                return f"environment actor {slot.env.name} is gone"
            env_ok = await self._launcher.alive(slot.env.handle)
            grader_ok = await self._launcher.alive(slot.grader.handle)
            if env_ok and grader_ok:
                return None
            slot.alive = False
            self._notify()
            if self.replacements >= self._max_replacements:
                return f"an actor of {slot.env.name} died; no replacement left"
            what: list[str] = []
            self._replacing += 1
            self.replacements += 1
            try:
                if not grader_ok:
                    await self._launcher.kill(slot.grader.handle)
                    self._launcher.drop_grader(slot.grader)
                    grader = await self._launcher.grader(slot.grader.node_id)
                    what.append(f"grader {slot.grader.name} died; replaced by {grader.name}")
                    for other in self._slots:
                        if other is not slot and other.grader.handle is slot.grader.handle:
                            other.grader = grader
                            self._rebuild(other)
                    slot.grader = grader
                if not env_ok:
                    await self._launcher.kill(slot.env.handle)
                    env = await self._launcher.environment()
                    what.append(f"environment actor {slot.env.name} died; replaced by {env.name}")
                    slot.env = env
                    if env.node_id != slot.grader.node_id:
                        slot.grader = await self._launcher.grader_for(env.node_id)
                self._rebuild(slot)
                slot.alive = True
            except InfraError as exc:  # the slot stays dead; the other actors go on
                what.append(f"its replacement failed: {exc}")
            finally:
                self._replacing -= 1
                self._notify()
            return "; ".join(what)

    def _rebuild(self, slot: _Slot) -> None:
        self._old_drivers.append(slot.driver)
        slot.driver = self._launcher.driver(slot.env, slot.grader)

    async def aclose(self) -> None:
        """Close every driver (the actors are stopped by `ray_backend`)."""
        with anyio.CancelScope(shield=True):
            for driver in [*self._old_drivers, *(s.driver for s in self._slots)]:
                await driver.aclose()


@contextlib.asynccontextmanager
async def ray_backend(
    env: Environment,
    store_dir: str | Path,
    *,
    actors: int = 2,
    address: str | None = None,
    graders_per_node: int = 1,
    seed_salt: str | None = None,
    idle_ttl: float = 600.0,
    max_requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND,
    request_burst: int = DEFAULT_REQUEST_BURST,
    episode_timeout: float | None = 600.0,
    actor_cpus: float = ACTOR_CPUS,
    max_replacements: int | None = None,
    num_cpus: int | None = None,
) -> AsyncIterator[RayEpisodeRunner]:
    """Start environment and grading actors on Ray; yield the runner; stop them on exit.

    Args:
        env: the environment (installed: the actors load it by name and check its lock).
        store_dir: the episode store path on every node (created); on a cluster, each
            node's graders read what that node's environment actors sealed there.
        actors: environment actors (>= 1). address: a Ray cluster to join (``"auto"``,
            ``"ray://head:10001"``...); ``None``: start a local Ray (or use the one this
            process already started), the actors then listen on loopback only.
        graders_per_node: grading actors on each node that holds environment actors.
        seed_salt, idle_ttl, max_requests_per_second, request_burst: the environment
            servers' (see `create_app`; a rate of ``None``: no limit).
        episode_timeout: the drivers' hard cap per episode (`EpisodeDriver`).
        actor_cpus: logical CPUs each actor asks Ray for (`ACTOR_CPUS`).
        max_replacements: dead actors the campaign may replace (default ``2 * actors``).
        num_cpus: CPUs of a local Ray started here (default: the machine's).

    Yields:
        The `RayEpisodeRunner`.

    Raises:
        ConfigurationError: Ray is not installed, or a count is below 1.
        InfraError: Ray could not start or the actors did not start.
    """
    ray = import_ray()
    if actors < 1 or graders_per_node < 1:
        raise ConfigurationError(
            f"--ray-actors and graders per node must be at least 1, got {actors}, "
            f"{graders_per_node}"
        )
    store = Path(store_dir)
    own = not ray.is_initialized()
    if own:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # an instrument stays offline
        uv_run_setting_applied(ray)  # workers in this interpreter, unless asked otherwise

        def init() -> None:
            ray.init(
                address=address,
                num_cpus=num_cpus if address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )

        try:
            await anyio.to_thread.run_sync(init)
        except Exception as exc:  # Ray's own start-up or connection errors
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise InfraError("ray", f"could not start or join {where}: {exc}") from exc
    launcher = Launcher(
        ray,
        env,
        store,
        host="127.0.0.1" if address is None else None,
        seed_salt=seed_salt,
        idle_ttl=idle_ttl,
        max_requests_per_second=max_requests_per_second,
        request_burst=request_burst,
        episode_timeout=episode_timeout,
        graders_per_node=graders_per_node,
        actor_cpus=actor_cpus,
    )
    runner: RayEpisodeRunner | None = None
    try:
        envs = await launcher.environments(actors)
        for node_id in dict.fromkeys(a.node_id for a in envs):
            for _ in range(graders_per_node):
                await launcher.grader(node_id)
        slots: list[_Slot] = []
        for a in envs:
            grader = await launcher.grader_for(a.node_id)
            slots.append(_Slot(a, grader, launcher.driver(a, grader)))
        runner = RayEpisodeRunner(
            launcher, slots, 2 * actors if max_replacements is None else max_replacements
        )
        probe = gcs_probe(ray)
        async with anyio.create_task_group() as watching:
            if probe is not None:  # Ray's GCS lost: stop before Ray ends this process
                ray_wait = ray_reconnect_s()
                watching.start_soon(
                    functools.partial(
                        watch_gcs,
                        probe,
                        runner.cluster_lost,
                        after=lost_after(ray_wait),
                        ray_wait=ray_wait,
                    )
                )
            try:
                yield runner
            finally:
                watching.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            lost = runner is not None and runner.lost is not None
            if runner is not None:
                await runner.aclose()
            # without the GCS, Ray cannot kill actors and ends this process soon: bounded
            await launcher.stop_all(wait=LOST_STOP_S if lost else 30.0, kill=not lost)
            if own:
                with anyio.move_on_after(LOST_STOP_S if lost else math.inf):
                    await anyio.to_thread.run_sync(ray.shutdown, abandon_on_cancel=True)
