"""What runs inside the Ray actors of ``--backend ray``: the servers, unchanged, on a port.

An `EnvironmentServer` actor hosts the environment server's ASGI app
(`mcpgym_server.http.create_app`) and a `GradingServer` actor the grading service's
(`mcpgym_grading.service.create_app`), each on uvicorn in a thread of the actor's
process, on a free port of the actor's node. The driver talks to them over HTTP and
MCP exactly as to the local backend's servers (`mcpgym_clients.local`): one code path.
This module does not import Ray; `mcpgym_clients.backends.ray` wraps these classes with
``ray.remote``, so a Ray worker imports them by reference from the installed package.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel

START_TIMEOUT_S = 120.0
"""Seconds an actor's server gets to accept connections."""


class _ServedApp:
    """An ASGI app on uvicorn (`mcpgym_server.serving.serve`) in a thread with its own loop."""

    def __init__(self, make_app: Callable[[], Any], host: str, name: str) -> None:
        self._make_app, self._host, self._name = make_app, host, name
        self._ready = threading.Event()
        self._url: str | None = None
        self._error: BaseException | None = None
        self._token: anyio.lowlevel.EventLoopToken | None = None
        self._stop: anyio.Event | None = None
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)

    def start(self) -> str:
        """Start serving; return the base URL.

        Raises:
            RuntimeError: the server did not start (why, from its error) in time.
        """
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise RuntimeError(f"the {self._name} did not start in {START_TIMEOUT_S:.0f} s")
        if self._url is None:
            raise RuntimeError(f"the {self._name} could not start: {self._error!r}")
        return self._url

    def stop(self, timeout: float = 30.0) -> None:
        """Stop gracefully (the environment server seals open episodes); wait for it."""
        if self._token is not None and self._stop is not None and self._thread.is_alive():
            anyio.from_thread.run_sync(self._stop.set, token=self._token)
            self._thread.join(timeout)

    def _main(self) -> None:
        try:
            anyio.run(self._serve, backend="asyncio")
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._error = exc
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        from mcpgym_server.runtime import serve

        self._token = anyio.lowlevel.current_token()
        self._stop = anyio.Event()
        async with serve(self._make_app(), host=self._host, name=self._name) as url:
            self._url = url
            self._ready.set()
            await self._stop.wait()


def _node() -> dict[str, Any]:
    # optional (the `ray` extra): not installed where CI type-checks
    import ray  # pyright: ignore[reportMissingImports]

    ctx = ray.get_runtime_context()
    return {"node_id": ctx.get_node_id(), "pid": os.getpid()}


def _host(host: str | None) -> str:
    if host is not None:
        return host
    # optional (the `ray` extra): not installed where CI type-checks
    import ray  # pyright: ignore[reportMissingImports]

    return ray.util.get_node_ip_address()


class EnvironmentServer:
    """A Ray actor serving one environment: the environment server on a port of its node.

    Serves many episodes at once (the server's own ``max_open_episodes`` limit applies).

    Args:
        env_name: the installed environment to serve (`load_environment`).
        lock: the lock the driver expects; a different installed environment refuses.
        store_dir: the episode store (created); the graders of this node read it.
        control_token, bundle_key, seed_salt, idle_ttl, max_requests_per_second,
            request_burst: as for `create_app`.
        host: the address to bind (``None``: the node's IP, for a driver on another node).
    """

    def __init__(
        self,
        env_name: str,
        lock: str,
        store_dir: str,
        *,
        control_token: str,
        bundle_key: str,
        seed_salt: str | None,
        idle_ttl: float,
        max_requests_per_second: float | None,
        request_burst: int,
        host: str | None,
    ) -> None:
        from mcpgym_server import compute_lock, load_environment
        from mcpgym_server.runtime import create_app

        env = load_environment(env_name)
        found = compute_lock(env)
        if found != lock:
            raise RuntimeError(
                f"the {env_name} installed on this Ray node has lock {found}, the driver's "
                f"{lock}: install the same version of it on every node"
            )
        Path(store_dir).mkdir(parents=True, exist_ok=True)
        bind = _host(host)
        loopback = bind.startswith("127.") or bind in ("localhost", "::1")
        self._app = _ServedApp(
            lambda: create_app(
                env,
                store_dir,
                control_token=control_token,
                idle_ttl=idle_ttl,
                bundle_key=bundle_key,
                seed_salt=seed_salt,
                max_requests_per_second=max_requests_per_second,
                request_burst=request_burst,
                allowed_hosts=None if loopback else [f"{bind}:*"],
            ),
            bind,
            "environment server",
        )

    def start(self) -> dict[str, Any]:
        """Start the server: ``{"url", "node_id", "pid"}``."""
        return {"url": self._app.start(), **_node()}

    def ping(self) -> int:
        """The actor's pid (a liveness probe)."""
        return os.getpid()

    def stop(self) -> None:
        """Stop the server: its open episodes are sealed (termination ``shutdown``)."""
        self._app.stop()


class GradingServer:
    """A Ray actor running the grading service over an episode store of its node.

    Args:
        store_dir: the episode store the environment actors of this node write (created).
        token: the grading bearer token. bundle_key: the environment servers' bundle key.
        host: the address to bind (``None``: the node's IP).
    """

    def __init__(self, store_dir: str, *, token: str, bundle_key: str, host: str | None) -> None:
        from mcpgym_grading.service import create_app

        Path(store_dir).mkdir(parents=True, exist_ok=True)
        self._app = _ServedApp(
            lambda: create_app(store_dir, token, bundle_key=bundle_key),
            _host(host),
            "grading service",
        )

    def start(self) -> dict[str, Any]:
        """Start the service: ``{"url", "node_id", "pid"}``."""
        return {"url": self._app.start(), **_node()}

    def ping(self) -> int:
        """The actor's pid (a liveness probe)."""
        return os.getpid()

    def stop(self) -> None:
        """Stop the service."""
        self._app.stop()
