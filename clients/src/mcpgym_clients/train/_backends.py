"""Where rollouts run: the servers in this process (no sockets) or over HTTP.

Both give an `EpisodeDriver`, and every rollout goes through `EpisodeDriver.run_episode`,
the path ``mcpgym eval`` takes: in process the driver's three HTTP clients are wired to
the environment server's and the grading service's ASGI apps (``ASGITransport``), so the
requests, the MCP session and the grade are the same bytes as over the network.
"""

from __future__ import annotations

import contextlib
import secrets
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import httpx2

from mcpgym_clients.driver import EpisodeDriver
from mcpgym_server import Environment, load_environment

IN_PROCESS_ENV_URL = "http://127.0.0.1:9"
"""The base URL the in-process environment server answers on (never a socket)."""
IN_PROCESS_GRADING_URL = "http://127.0.0.1:10"
"""The base URL the in-process grading service answers on (never a socket)."""


@contextlib.asynccontextmanager
async def in_process_driver(
    env: Environment,
    *,
    store_dir: str | Path | None = None,
    episode_timeout: float | None = 600.0,
    idle_ttl: float = 600.0,
) -> AsyncIterator[tuple[EpisodeDriver, Any]]:
    """An `EpisodeDriver` whose servers run in this event loop, reached without sockets.

    Args:
        env: the environment to serve (locked or not: as `mcpgym eval` serves it).
        store_dir: the episode store (default: a temporary directory, removed on exit).
        episode_timeout: the driver's hard cap per episode, seconds.
        idle_ttl: seconds before an idle episode is sealed.

    Yields:
        ``(driver, env_app)``: the driver and the environment server's ASGI app (to mount
        where an outside MCP client must reach it); the servers stop (open episodes
        sealed ``shutdown``) on exit.
    """
    from mcpgym_grading.service import create_app as create_grading_app
    from mcpgym_server.runtime import create_app as create_env_app

    with contextlib.ExitStack() as stack:
        if store_dir is None:
            store_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="mcpgym-rollouts-"))
        store = Path(store_dir)
        token = secrets.token_urlsafe(24)
        key = secrets.token_urlsafe(32)
        control = secrets.token_urlsafe(32)
        env_app = create_env_app(
            env, store, control_token=control, idle_ttl=idle_ttl, bundle_key=key
        )

        def loader(name: str) -> Environment:
            return env if name == env.name else load_environment(name)

        grading_app = create_grading_app(store, token, env_loader=loader, bundle_key=key)
        async with env_app.router.lifespan_context(env_app):
            mcp_http = httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=env_app), timeout=httpx2.Timeout(300.0)
            )
            async with (
                mcp_http,
                EpisodeDriver(
                    IN_PROCESS_ENV_URL,
                    IN_PROCESS_GRADING_URL,
                    token,
                    control_token=control,
                    episode_timeout=episode_timeout,
                    environment=env,
                    env_transport=httpx.ASGITransport(app=env_app),
                    grading_transport=httpx.ASGITransport(app=grading_app),
                    mcp_http=mcp_http,
                ) as driver,
            ):
                yield driver, env_app
