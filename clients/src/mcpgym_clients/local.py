"""Run the environment server and the grading service in process, on loopback.

`serve_locally` starts both as uvicorn servers on free ports of 127.0.0.1, inside
the caller's event loop (asyncio backend), sharing one episode store directory,
and stops them on exit. ``mcpgym eval`` (without URLs) and ``mcpgym demo`` use it.
The grading service grades with the served `Environment` object itself, so
environments not installed through entry points (test fixtures) work too.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from mcpgym_clients.errors import InfraError
from mcpgym_server import Environment, ServerStartError, load_environment
from mcpgym_server.runtime import DEFAULT_REQUEST_BURST, DEFAULT_REQUESTS_PER_SECOND, serve


@dataclass(frozen=True)
class LocalServers:
    """Where the in-process servers listen.

    Attributes:
        env_url: environment server base URL. grading_url: grading service base URL.
        grading_token: the grading bearer token. store_dir: the shared episode store.
        control_token: the environment server's control token (``Authorization: Bearer``
            on ``POST /episodes``, ``/end`` and connect-to-start; see `mcpgym_server._http`).
    """

    env_url: str
    grading_url: str
    grading_token: str
    store_dir: Path
    control_token: str

    @property
    def control_headers(self) -> dict[str, str]:
        """``{"authorization": "Bearer <control token>"}`` for the control routes."""
        return {"authorization": f"Bearer {self.control_token}"}


@contextlib.asynccontextmanager
async def serve_locally(
    env: Environment,
    store_dir: str | Path,
    *,
    token: str | None = None,
    idle_ttl: float = 600.0,
    unlocked: bool = False,
    host: str = "127.0.0.1",
    bundle_key: str | None = None,
    control_token: str | None = None,
    seed_salt: str | None = None,
    max_requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND,
    request_burst: int = DEFAULT_REQUEST_BURST,
) -> AsyncIterator[LocalServers]:
    """Start the environment server and the grading service for ``env``.

    Args:
        env: the environment to serve. store_dir: the shared episode store (created).
        token: the grading token (default: a random `secrets.token_urlsafe`).
        idle_ttl: seconds before an idle episode is sealed. unlocked: development mode.
        host: loopback address to bind.
        bundle_key: the key both servers share to sign and verify bundles (default: a
            random one, so the grading service only grades what this server sealed).
        control_token: the environment server's control token (default: a random one;
            only the caller, never the agent, gets it through `LocalServers`).
        seed_salt: the environment server's secret seed salt (`mcpgym_server._seeds`).
        max_requests_per_second, request_burst: the environment server's request rate per
            episode (`create_app`; ``None``: no limit).

    Yields:
        The servers' `LocalServers`; both stop when the context exits.

    Raises:
        InfraError: a server could not start.
    """
    from mcpgym_grading.service import create_app as create_grading_app
    from mcpgym_server.runtime import create_app as create_env_app

    store = Path(store_dir)
    token = token or secrets.token_urlsafe(24)
    bundle_key = bundle_key or secrets.token_urlsafe(32)
    control_token = control_token or secrets.token_urlsafe(32)
    env_app = create_env_app(
        env,
        store,
        control_token=control_token,
        idle_ttl=idle_ttl,
        unlocked=unlocked,
        bundle_key=bundle_key,
        seed_salt=seed_salt,
        max_requests_per_second=max_requests_per_second,
        request_burst=request_burst,
    )

    def env_loader(name: str) -> Environment:
        return env if name == env.name else load_environment(name)

    grading_app = create_grading_app(store, token, env_loader=env_loader, bundle_key=bundle_key)
    try:
        async with (
            serve(env_app, host=host, name="environment server") as env_url,
            serve(grading_app, host=host, name="grading service") as grading_url,
        ):
            yield LocalServers(env_url, grading_url, token, store, control_token)
    except ServerStartError as exc:
        raise InfraError("local", str(exc)) from exc
