"""Refusals on the MCP endpoints, written as JSON-RPC errors so that every client shows them.

An MCP client reads the body of a non-2xx answer only when it is a JSON-RPC error: given
the plain ``{"error": "..."}`` of the control routes, the Python SDK shows its own stand-in
("Not Found", "Server returned an error response") and the explanation is lost. So the
MCP endpoints (``/episodes/{id}/mcp``, ``/tasks/{task}/mcp``) answer a refusal with the
HTTP status it has always had and a body ``{"jsonrpc": "2.0", "id": <the request's id or
null>, "error": {"code", "message", "data"}}``, ``data`` holding what the control routes
put beside ``error`` (``kind``, ``name``, ``choices``...).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INVALID_PARAMS, INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from mcpgym_server._errors import NotFoundError

MAX_ID_BODY = 64 * 1024
"""Largest request body read to find the JSON-RPC id of a refused request (bytes); past it
the refusal carries ``id: null`` (clients answer with their own request's id anyway)."""

SESSIONLESS_ON_CONNECT_TO_START = (
    "the connect-to-start URL {path} opens one episode per MCP session, and the "
    "{version} protocol has no sessions, so it is not served here. Use the episode URL "
    "instead (`POST /episodes` with the control token answers with its `mcp_url`, which "
    "serves both protocol eras), or connect here with the 2025 handshake (the SDKs' "
    "default auto mode falls back to it; the Python SDK: `Client(url)` or "
    '`mode="legacy"`).'
)
"""The explanation a 2026-07-28 client gets on ``/tasks/{task}/mcp`` (``{path}``,
``{version}``: the URL path and the protocol version it asked for)."""


async def _request_id(scope: Scope, receive: Receive) -> Any:
    """The JSON-RPC id of a POSTed request, or ``None`` (not a POST, not JSON, too big)."""
    if scope.get("method") != "POST":
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_ID_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    try:
        body = json.loads(b"".join(chunks))
    except ValueError:
        return None
    rid = body.get("id") if isinstance(body, dict) else None
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


async def refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    status: int,
    message: str,
    *,
    code: int = INVALID_REQUEST,
    data: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    """Answer an MCP request with HTTP ``status`` and a JSON-RPC error (see the module).

    Args:
        scope, receive, send: the ASGI request (its body is read to echo the request id).
        status: the HTTP status (404 unknown episode, 401/403 control token, ...).
        message: the explanation, shown by the client as the error message.
        code: the JSON-RPC error code (default ``-32600``, invalid request).
        data: extra fields for ``error.data``.
        headers: extra response headers (``WWW-Authenticate`` on a 401).
    """
    rid = await _request_id(scope, receive)
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        error["data"] = data
    body = {"jsonrpc": "2.0", "id": rid, "error": error}
    await JSONResponse(body, status_code=status, headers=headers)(scope, receive, send)


UNKNOWN_EPISODE_HINT = (
    ": this server never opened an episode with this id. An episode URL is the `mcp_url` "
    "that `POST /episodes` answers with, on the server that answered it"
)
"""Appended to the message of an unknown episode on its MCP URL."""


async def refuse_not_found(scope: Scope, receive: Receive, send: Send, exc: NotFoundError) -> None:
    """404 for an unknown episode, task or band, naming the valid choices (``-32602``);
    an unknown episode's message says where episode URLs come from."""
    data = {"kind": exc.kind, "name": exc.name, "choices": exc.choices}
    message = str(exc) + (UNKNOWN_EPISODE_HINT if exc.kind == "episode" else "")
    await refuse(scope, receive, send, 404, message, code=INVALID_PARAMS, data=data)


async def refuse_response(scope: Scope, receive: Receive, send: Send, resp: JSONResponse) -> None:
    """Re-send a control route's ``{"error": ...}`` refusal (a 401 or 403 of
    `mcpgym_server.control.control_denied`, a 422) as a JSON-RPC error, keeping its status
    and its ``WWW-Authenticate`` header."""
    payload = json.loads(bytes(resp.body))
    message = payload.pop("error", "request refused")
    keep = {k: v for k, v in resp.headers.items() if k.lower() == "www-authenticate"}
    await refuse(scope, receive, send, resp.status_code, message, data=payload, headers=keep)


async def refuse_sessionless(scope: Scope, receive: Receive, send: Send, version: str) -> None:
    """Refuse a 2026-07-28 (sessionless) request on connect-to-start: 400 with ``-32022``
    (unsupported protocol version) naming the handshake versions, so an auto-mode client
    falls back to ``initialize`` and a client pinned to 2026 reads why (see
    `SESSIONLESS_ON_CONNECT_TO_START`)."""
    message = SESSIONLESS_ON_CONNECT_TO_START.format(path=scope.get("path", ""), version=version)
    data = {"supported": list(HANDSHAKE_PROTOCOL_VERSIONS), "requested": version}
    await refuse(scope, receive, send, 400, message, code=UNSUPPORTED_PROTOCOL_VERSION, data=data)
