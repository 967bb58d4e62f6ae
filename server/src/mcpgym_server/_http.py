"""The environment server over HTTP: control routes plus MCP endpoints (Starlette ASGI app).

Routes (see ARCHITECTURE.md, "The path of one episode"); *control* marks the routes that
need the control token (``Authorization: Bearer <token>``) when the server has one:

=====================================  =========  ======================================
``GET  /healthz``                                 liveness, environment name, version, lock
``GET  /tasks``                        (control)  task families and bands (never solutions);
                                                  with the token also ``episode_settings``
``POST /episodes``                     control    ``{"task", "band", "seed"}`` -> 201 episode
                                                  (``seed``: the generator seed served,
                                                  ``requested_seed``: the one asked for,
                                                  ``episode_settings`` as ``GET /tasks``,
                                                  ``server_instructions``: what the
                                                  episode URL's ``server/discover`` and
                                                  ``initialize`` answer as instructions)
``GET  /episodes/{id}``                (control)  ``{"episode_id", "state", "steps"}``; with
                                                  the token also ``variant_id``, ``termination``
``POST /episodes/{id}/end``            control    seal the episode -> its metadata
``POST /episodes/{id}/keepalive``      control    the idle TTL starts again (the harness,
                                                  while its model thinks) -> ``{"state":
                                                  "open"}`` or ``"sealed"`` + ``termination``
``/episodes/{id}/mcp``                            MCP streamable HTTP for that episode
``/tasks/{task}/mcp?seed=N&band=B``    control    connect-to-start: each MCP session is a
                                                  new episode (2025 handshake era only)
=====================================  =========  ======================================

Both protocol eras are served on an episode URL, with the same server instructions (the
environment's, then the episode's task). Connect-to-start serves only the 2025 handshake
era, whose session is the episode: a 2026-07-28 request there (``server/discover`` first)
is refused with ``-32022`` naming the handshake versions, so that an auto-mode client
falls back to ``initialize`` and a client pinned to 2026 is told to use the episode URL
on its first request, before any tool call.

The control token keeps everything that names the variant (its id, seed, band, the
episode metadata) away from whoever holds only an episode's ``mcp_url``: an agent can
reach every route of this server, but without the token it can neither learn which variant
it is solving nor open a practice copy of one (docs/security.md). A missing token is a 401
(``WWW-Authenticate: Bearer``), a wrong one a 403.

Errors are JSON ``{"error": "...", ...}``: 404 for unknown tasks, bands and
episodes (naming the valid choices), 400 for malformed JSON, 422 for bad fields. On the
two MCP endpoints the same refusals are JSON-RPC errors (``{"jsonrpc", "id", "error":
{"code", "message", "data"}}``, `mcpgym_server._mcp_refusals`), the one body MCP clients
show; a request body over `MAX_MCP_BODY` (4 MiB) is refused with 413 and ``-32602``
naming the limit and the size (`mcpgym_server._body_limit`). An episode holds at most
``max_sessions_per_episode`` live MCP sessions (a 429
refusal past it, 503 past the server's total; `mcpgym_server._session_caps`), and is sent at
most ``max_requests_per_second`` requests a second after a burst of ``request_burst`` (a 429
refusal past it, held 1 s; `mcpgym_server._rate_limit`).

This module assembles the app; the control routes are in `mcpgym_server._http_control`, the
MCP endpoints in `mcpgym_server._http_mcp`, the ``Host`` check and the raw-ASGI route marker
in `mcpgym_server._http_asgi`, the session caps' HTTP side in `mcpgym_server._session_gate`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import anyio
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from mcpgym_server._body_limit import MAX_MCP_BODY, limit_body
from mcpgym_server._bundle import EpisodeStore
from mcpgym_server._environment import Environment
from mcpgym_server._episode import SANDBOX_POOL, EpisodeManager
from mcpgym_server._http_asgi import AsgiEndpoint, HostCheck
from mcpgym_server._http_control import MAX_SEED, EndRequest, EpisodeRequest, control_routes
from mcpgym_server._http_mcp import (
    EPISODE_ID_HEADER,
    McpEndpoints,
    episode_per_session,
    resolve_episode,
)
from mcpgym_server._item_limit import MAX_MESSAGE_ITEMS
from mcpgym_server._logcap import LOG_BUDGET, LOG_VALUE_CAP
from mcpgym_server._mcp_bridge import build_mcp_server, connection_of
from mcpgym_server._rate_limit import (
    DEFAULT_REQUEST_BURST,
    DEFAULT_REQUESTS_PER_SECOND,
    RequestRate,
)
from mcpgym_server._seeds import salt_fingerprint, salted_seed
from mcpgym_server._session_caps import DEFAULT_SESSIONS_PER_EPISODE, SessionCaps
from mcpgym_server._session_gate import session_slot_middleware

__all__ = ["EPISODE_ID_HEADER", "MAX_SEED", "EndRequest", "EpisodeRequest", "create_app"]

logger = logging.getLogger("mcpgym.http")

_HostCheck = HostCheck  # its old name here (tests/server/test_http.py)


def create_app(
    env: Environment,
    store_dir: str | Path,
    *,
    control_token: str | None,
    idle_ttl: float = 600.0,
    unlocked: bool = False,
    reap_interval: float | None = None,
    allowed_hosts: list[str] | None = None,
    max_open_episodes: int | None = None,
    bundle_key: str | None = None,
    seed_salt: str | None = None,
    log_value_cap: int = LOG_VALUE_CAP,
    log_budget: int = LOG_BUDGET,
    max_sessions_per_episode: int = DEFAULT_SESSIONS_PER_EPISODE,
    max_sessions: int | None = None,
    max_message_items: int | None = MAX_MESSAGE_ITEMS,
    max_requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND,
    request_burst: int = DEFAULT_REQUEST_BURST,
) -> Starlette:
    """Build the environment server's ASGI app.

    Args:
        env: the environment to serve.
        store_dir: episode store directory (sealed bundles are written there).
        control_token: the secret the harness sends (``Authorization: Bearer``) on the control
            routes (see the module docstring). Required, so that no caller serves without one
            by accident: ``None`` opts in to an open server (anyone who can reach it, agents
            included, can open episodes and read their variant ids), for a loopback sandbox.
        idle_ttl: seconds without a tool call (or ``POST /episodes/{id}/keepalive``)
            before an open episode is sealed with termination ``timeout``; also the MCP
            session idle timeout.
        unlocked: mark bundles as served unlocked (development).
        reap_interval: how often to look for idle episodes (default ``min(idle_ttl / 4, 30)``).
        allowed_hosts: extra ``Host`` values accepted besides loopback (DNS-rebinding
            protection, on every route), e.g. ``["gym.internal:*"]`` behind a proxy.
        max_open_episodes: most episodes open at once; beyond it ``POST /episodes``
            answers 503 (each open episode holds its database in memory). ``None``: from
            the memory given and the snapshot's size (`mcpgym_server._capacity`).
        bundle_key: secret shared with the grading service; every sealed bundle is signed
            with it (HMAC-SHA256, see `mcpgym_server._bundle`). ``None``: unsigned bundles.
        seed_salt: secret mapping each requested seed to the generator seed served
            (`mcpgym_server._seeds`); ``None``: requested seeds are generator seeds.
        log_value_cap, log_budget: the tool-call log's caps (see `EpisodeManager` and
            `mcpgym_server._logcap`): 64 KiB per argument set or result, 16 MiB per episode.
        max_sessions_per_episode: most live MCP sessions per episode URL (2025-era sessions
            plus 2026-era requests in flight); past it an opening request is a 429
            JSON-RPC error (`mcpgym_server._session_caps`). Closed sessions free their slot.
        max_sessions: most live MCP sessions on the server, connect-to-start included (503
            past it); ``None``: the episode cap (``max_open_episodes`` or its memory-derived
            default) times ``max_sessions_per_episode``.
        max_message_items: most JSON items (object members plus list items) in one MCP
            message; a request with more is refused before it is parsed, with HTTP 413 and
            ``-32602`` (`mcpgym_server._item_limit`). ``None``: no such limit (benchmarks).
        max_requests_per_second, request_burst: the request rate one episode may send to
            its MCP URL, a token bucket of ``request_burst`` requests refilled at
            ``max_requests_per_second`` (default 20 a second, bursts of 200); a request
            past it is a 429 JSON-RPC error (`mcpgym_server._rate_limit`), logged once per
            episode and counted in its bundle (``rate_limited``). ``None``: no such limit.

    Returns:
        A Starlette app; ``app.state.manager`` is the `EpisodeManager` and
        ``app.state.mcp_server`` the low-level MCP `Server` (`build_mcp_server`),
        ``app.state.session_caps`` the live-session counts (`SessionCaps`),
        ``app.state.request_rate`` the per-episode request rate (`RequestRate` or
        ``None``). Its lifespan shutdown seals every open episode (termination
        ``shutdown``) on every transport;
        ``app.state.seal_all()`` does the same for a host that may skip the lifespan
        shutdown (`mcpgym_server._serving.run_until_stopped` calls it after a forced stop).

    Raises:
        ValueError: ``control_token`` or ``seed_salt`` is an empty string; the log caps
            are out of range (see `EpisodeManager`); a session cap is below 1; the request
            rate is not a positive number or the burst is below 1.
    """
    if control_token is not None and not control_token.strip():
        raise ValueError("the control token must not be empty (or pass None for an open server)")
    token = control_token.strip().encode() if control_token is not None else None
    if token is None:
        logger.warning(
            "serving %s without a control token: anyone who can reach the server, agents "
            "included, can open episodes and read their variant ids",
            env.name,
        )
    if seed_salt is not None and not seed_salt:
        raise ValueError("the seed salt must not be empty (or pass None for none)")

    def generator_seed(task: str, band: str, seed: int) -> int:
        return seed if seed_salt is None else salted_seed(seed_salt, task, band, seed)

    manager = EpisodeManager(
        env,
        EpisodeStore(store_dir, sign_key=bundle_key),
        idle_ttl=idle_ttl,
        unlocked=unlocked,
        max_open=max_open_episodes,
        log_value_cap=log_value_cap,
        log_budget=log_budget,
        sandbox_pool=SANDBOX_POOL,
    )

    caps = SessionCaps(
        max_sessions_per_episode,
        max_sessions if max_sessions is not None else manager.max_open * max_sessions_per_episode,
    )

    mcp_server = build_mcp_server(
        manager,
        resolve_episode,
        middleware=[session_slot_middleware(connection_of), episode_per_session(env, manager)],
    )
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*", *(allowed_hosts or [])]
    sessions = StreamableHTTPSessionManager(
        app=mcp_server,
        json_response=True,
        max_request_body_size=MAX_MCP_BODY,  # `limit_body` refuses larger ones first
        session_idle_timeout=idle_ttl,
        # a backstop only: `caps` refuses first, with an explanation (the SDK's 503 has none)
        max_sessions=caps.total + caps.per_episode,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=[f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts],
        ),
    )

    # What decides how this server's episodes go besides the lock: the harness records it
    # with a run and resumes the run only under the same (the salt as a keyed fingerprint).
    episode_settings = {
        "seed_salt": salt_fingerprint(seed_salt),
        "idle_ttl": idle_ttl,
        "log_value_cap": log_value_cap,
        "log_budget": log_budget,
        "max_sessions_per_episode": max_sessions_per_episode,
        # the per-episode request rate (`mcpgym_server._rate_limit`): ``None`` when off
        "max_requests_per_second": max_requests_per_second,
        "request_burst": request_burst if max_requests_per_second is not None else None,
    }
    control = control_routes(env, manager, token, generator_seed, episode_settings)
    rate = (
        RequestRate(max_requests_per_second, request_burst)
        if max_requests_per_second is not None
        else None
    )
    mcp = McpEndpoints(env, manager, token, caps, sessions.handle_request, generator_seed, rate)

    def seal_all_for_shutdown() -> None:
        sealed = manager.close_all("shutdown")
        if sealed:
            logger.info("sealed %d open episode(s) (shutdown)", len(sealed))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        interval = reap_interval if reap_interval is not None else min(idle_ttl / 4, 30.0)
        try:
            async with anyio.create_task_group() as tg:
                async with sessions.run():

                    async def reaper() -> None:
                        while True:
                            await anyio.sleep(interval)
                            # in worker threads, yielding between episodes: /healthz and
                            # other episodes' calls keep their latency while many expire
                            for eid in await manager.reap_idle_async():
                                logger.info("sealed idle episode %s (timeout)", eid)

                    tg.start_soon(reaper)
                    try:
                        yield
                    finally:
                        # Seal first, while MCP sessions are still open: closing them would
                        # seal connect-to-start episodes as `session_closed`, and the
                        # cancellation that closes them must not skip any sealing.
                        seal_all_for_shutdown()
                        tg.cancel_scope.cancel()
        finally:
            seal_all_for_shutdown()  # anything opened while the sessions were closing

    app = Starlette(
        middleware=[Middleware(HostCheck, hosts=hosts)],
        routes=[
            # a request past its episode's rate is refused before it is read, an oversized
            # MCP message as the sender's fault (`limit_body`); the episode URL first:
            # every tool call is matched against the routes in order
            Route(
                "/episodes/{episode_id}/mcp",
                AsgiEndpoint(
                    mcp.rate_limited(
                        mcp.url_episode,
                        partial(limit_body, mcp.episode_mcp, max_items=max_message_items),
                    )
                ),
            ),
            *control,
            Route(
                "/tasks/{task}/mcp",
                AsgiEndpoint(
                    mcp.rate_limited(
                        mcp.session_episode,
                        partial(limit_body, mcp.connect_to_start, max_items=max_message_items),
                    )
                ),
            ),
        ],
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.mcp_server = mcp_server
    app.state.session_caps = caps
    app.state.request_rate = rate
    app.state.seal_all = seal_all_for_shutdown
    return app
