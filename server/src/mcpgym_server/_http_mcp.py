"""The environment server's two MCP endpoints (raw ASGI, served through the MCP SDK's
streamable HTTP session manager; the route table is in `mcpgym_server._http`): an episode's
URL ``/episodes/{id}/mcp`` and connect-to-start ``/tasks/{task}/mcp``, plus the MCP server
middleware that ties a request or a session to its episode."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp.server import ServerRequestContext
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcpgym_server._control import control_denied
from mcpgym_server._environment import Environment
from mcpgym_server._episode import EpisodeManager, new_episode_id
from mcpgym_server._errors import (
    CapacityError,
    EpisodeSealedError,
    NotFoundError,
    UnknownBandError,
    UnknownEpisodeError,
)
from mcpgym_server._http_control import MAX_SEED
from mcpgym_server._mcp_bridge import connection_of, episode_instructions
from mcpgym_server._mcp_refusals import (
    refuse,
    refuse_not_found,
    refuse_response,
    refuse_sessionless,
)
from mcpgym_server._session_caps import SessionCaps
from mcpgym_server._session_gate import serve_capped, serve_in_session

EPISODE_ID_HEADER = "mcp-episode-id"
"""Response header carrying the episode id created by the connect-to-start endpoint."""

_SCOPE_EPISODE = "mcpgym.episode_id"
_SCOPE_NEW_EPISODE = "mcpgym.new_episode"
_STATE_EPISODE = "mcpgym.episode_id"

Middleware = Callable[[ServerRequestContext[Any, Any], Any], Awaitable[Any]]


def resolve_episode(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The episode id an MCP request belongs to: its URL's (episode URL) or its session's
    (connect-to-start); ``None`` when neither names one."""
    req = ctx.request
    if req is not None:
        eid = req.scope.get(_SCOPE_EPISODE)
        if eid is not None:
            return eid
    return connection_of(ctx).state.get(_STATE_EPISODE)


def episode_per_session(env: Environment, manager: EpisodeManager) -> Middleware:
    """MCP server middleware opening connect-to-start's episode once its ``initialize``
    succeeds (the instructions then name the task), sealed as ``session_closed`` when the
    session closes. Raises `MCPError` (``INTERNAL_ERROR``) when no episode can be opened."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        spec = None
        if ctx.method == "initialize" and ctx.request is not None:
            spec = ctx.request.scope.get(_SCOPE_NEW_EPISODE)
        if spec is None:
            return await call_next(ctx)
        result = await call_next(ctx)  # a failed handshake raises: no episode is opened
        eid, task, band, seed = spec
        try:
            ep = manager.open(task, band, seed, episode_id=eid)
        except CapacityError as exc:
            raise MCPError(code=INTERNAL_ERROR, message=str(exc)) from exc
        conn = connection_of(ctx)
        conn.state[_STATE_EPISODE] = eid

        async def seal_on_close() -> None:
            if manager.is_open(eid):
                with anyio.CancelScope(shield=True):  # a closing session still seals
                    await manager.seal_async(eid, "session_closed")

        conn.exit_stack.push_async_callback(seal_on_close)
        if isinstance(result, dict):
            result["instructions"] = episode_instructions(env, ep.variant)
        return result

    return middleware


class McpEndpoints:
    """The two MCP endpoints as raw ASGI callables (`episode_mcp`, `connect_to_start`).

    Args:
        env: the environment served. manager: its episodes.
        token: the control token connect-to-start needs (``None``: an open server).
        caps: the live-session counts (`SessionCaps`).
        handle: the MCP transport (``StreamableHTTPSessionManager.handle_request``).
        generator_seed: ``(task, band, requested seed) -> generator seed`` (the salt).
    """

    def __init__(
        self,
        env: Environment,
        manager: EpisodeManager,
        token: bytes | None,
        caps: SessionCaps,
        handle: ASGIApp,
        generator_seed: Callable[[str, str, int], int],
    ) -> None:
        self._env = env
        self._manager = manager
        self._token = token
        self._caps = caps
        self._handle = handle
        self._generator_seed = generator_seed

    async def episode_mcp(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/episodes/{id}/mcp``: both protocol eras; 404 (JSON-RPC) for an unknown id."""
        eid = scope["path_params"]["episode_id"]
        try:
            self._manager.get(eid)
        except EpisodeSealedError:
            pass  # served: calls answer with a clear "episode has ended" error
        except UnknownEpisodeError as exc:
            await refuse_not_found(scope, receive, send, exc)
            return
        scope = {**scope, _SCOPE_EPISODE: eid}
        await serve_capped(self._caps, eid, scope, receive, send, self._handle)

    async def connect_to_start(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/tasks/{task}/mcp?seed=N&band=B``: each 2025-era session opens an episode."""
        env, manager = self._env, self._manager
        request = Request(scope)
        # Opening an episode of a chosen variant is a control action: with a token, an MCP
        # client must be configured with the header (else an agent could open practice copies).
        if (denied := control_denied(request.headers, self._token)) is not None:
            await refuse_response(scope, receive, send, denied)
            return
        task = scope["path_params"]["task"]
        try:
            fam = env.family(task)
            band = request.query_params.get("band") or fam.bands[0]
            if band not in fam.bands:
                raise UnknownBandError(band, list(fam.bands))
        except NotFoundError as exc:
            await refuse_not_found(scope, receive, send, exc)
            return
        raw_seed = request.query_params.get("seed", "0")
        if not (raw_seed.isascii() and raw_seed.isdigit() and int(raw_seed) <= MAX_SEED):
            message = f"query parameter `seed` must be a non-negative integer, got {raw_seed!r}"
            await refuse(scope, receive, send, 422, message, code=INVALID_PARAMS)
            return
        headers = request.headers
        version = headers.get("mcp-protocol-version")
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            # 2026-07-28 has no sessions, so no episode: refuse `server/discover` (an auto
            # client falls back to the handshake) and every other sessionless request (a
            # client pinned to 2026 fails on its first request, saying why)
            await refuse_sessionless(scope, receive, send, version)
            return
        opening = scope["method"] == "POST" and MCP_SESSION_ID_HEADER not in headers
        if not opening:
            await serve_in_session(self._caps, scope, receive, send, self._handle)
            return
        eid = new_episode_id()
        seed = self._generator_seed(task, band, int(raw_seed))
        inner = {**scope, _SCOPE_NEW_EPISODE: (eid, task, band, seed)}

        async def send_with_episode(message: Message) -> None:
            if message["type"] == "http.response.start" and manager.is_open(eid):
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", []),
                        (EPISODE_ID_HEADER.encode(), eid.encode()),
                    ],
                }
            await send(message)

        await serve_capped(self._caps, eid, inner, receive, send_with_episode, self._handle)
