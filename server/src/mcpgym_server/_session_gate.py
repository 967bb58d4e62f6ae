"""The HTTP side of the session caps (`mcpgym_server._session_caps`): which MCP requests
take a slot, the refusal at a cap, and the middleware that keeps a 2025-era session's slot
until its connection closes."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.connection import Connection
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import Message, Receive, Scope, Send

from mcpgym_server._mcp_refusals import refuse
from mcpgym_server._session_caps import SESSION_CAP_ERROR, CapRefusal, SessionCaps, Slot

SCOPE_SLOT = "mcpgym.session_slot"
"""ASGI scope key carrying the `Slot` reserved for an opening request."""

SESSION_NOT_FOUND = "Session not found"
"""The message of a refused session id: the MCP SDK's own for an unknown session, so a
session sent to another URL tells nothing about where it lives."""

logger = logging.getLogger(__name__)

_VERSION_HEADER = b"mcp-protocol-version"
_SESSION_HEADER = b"mcp-session-id"


def opens_session(scope: Scope) -> bool:
    """Whether an MCP request takes a slot: any 2026-07-28 request (its own connection),
    or a 2025-era POST without ``Mcp-Session-Id`` (it opens a session)."""
    headers = dict(scope.get("headers") or [])
    version = headers.get(_VERSION_HEADER)
    if version is not None and version.decode("latin-1") not in HANDSHAKE_PROTOCOL_VERSIONS:
        return True
    return scope.get("method") == "POST" and _SESSION_HEADER not in headers


async def serve_capped(
    caps: SessionCaps,
    episode_id: str,
    scope: Scope,
    receive: Receive,
    send: Send,
    handle: Callable[[Scope, Receive, Send], Awaitable[None]],
) -> None:
    """Serve one MCP request of ``episode_id`` with ``handle`` within the session caps.

    A request that opens a session (`opens_session`) reserves a slot first; at a cap it
    is refused (`CapRefusal`: 429 or 503, a JSON-RPC error ``SESSION_CAP_ERROR``) and
    ``handle`` never sees it. The slot goes back when the request ends, unless the request
    established a 2025-era session (`session_slot_middleware` holds it): then when a
    ``DELETE`` of that session succeeds (here, once the SDK has forgotten it) or its
    connection closes, whichever comes first.
    """
    if not opens_session(scope):
        await serve_in_session(caps, scope, receive, send, handle)
        return
    slot = caps.reserve(episode_id, scope.get("path"))
    if isinstance(slot, CapRefusal):
        await refuse(
            scope, receive, send, slot.status, slot.message, code=SESSION_CAP_ERROR, data=slot.data
        )
        return
    try:
        await handle({**scope, SCOPE_SLOT: slot}, receive, send)
    finally:
        if not slot.held:
            slot.release()


async def serve_in_session(
    caps: SessionCaps,
    scope: Scope,
    receive: Receive,
    send: Send,
    handle: Callable[[Scope, Receive, Send], Awaitable[None]],
) -> None:
    """Serve an MCP request that opens no session; a successful ``DELETE`` of a session
    frees its slot as soon as the SDK has forgotten the session (see `serve_capped`).

    A session belongs to the URL it was opened on: its id sent to another MCP URL (episode
    A's session on episode B's ``mcp_url``, adversarial round 11, S3-1) is answered as the
    SDK answers an unknown session (404 ``Session not found``), and the request is not
    served."""
    session_id = dict(scope.get("headers") or []).get(_SESSION_HEADER)
    if session_id is not None:
        opened_on = caps.endpoint_of(session_id.decode("latin-1"))
        if opened_on is not None and opened_on != scope.get("path"):
            logger.info(
                "refused a request to %s with a session opened on another MCP URL",
                scope.get("path"),
            )
            await refuse(scope, receive, send, 404, SESSION_NOT_FOUND)
            return
    if scope.get("method") != "DELETE" or session_id is None:
        await handle(scope, receive, send)
        return
    status: list[int] = []

    async def watch(message: Message) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
        await send(message)

    await handle(scope, receive, watch)
    if status and status[0] < 400:
        caps.release_session(session_id.decode("latin-1"))


def session_slot_middleware(
    connection_of: Callable[[ServerRequestContext[Any, Any]], Connection],
) -> Callable[[ServerRequestContext[Any, Any], Any], Awaitable[Any]]:
    """MCP server middleware: an ``initialize`` that carries a slot (`serve_capped`)
    keeps it for the life of its connection, released by the connection's exit stack
    (which every end of a session unwinds: DELETE, idle timeout, a refused handshake,
    shutdown; a DELETE frees it sooner, `serve_capped`)."""

    async def hold_slot(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        if ctx.method == "initialize" and ctx.request is not None:
            slot = ctx.request.scope.get(SCOPE_SLOT)
            if isinstance(slot, Slot) and not slot.held:
                connection = connection_of(ctx)
                connection.exit_stack.callback(slot.release)
                slot.hold(connection.session_id)
        return await call_next(ctx)

    return hold_slot
