"""An oversized MCP message is refused inside the protocol, as the sender's fault.

The MCP SDK's transport refuses a request body over its limit (4 MiB) with a bare HTTP 413
``Request body too large``, which its own client turns into ``-32603`` (internal error,
"Server returned an error response"): a harness cannot tell it from a broken server, so a
model that sends one huge tool call would turn its episode into an ``infra_error`` (retried,
left unscored) instead of a refused call. `limit_body` refuses first, at the same limit,
with HTTP 413 and a JSON-RPC error ``-32602`` (invalid params: the request's own fault)
whose message names the limit and the size, so an MCP client shows it and a harness
answers it to the model as a tool error. A body with more than `MAX_MESSAGE_ITEMS` JSON items
is refused the same way, before the SDK parses it (`mcpgym_server._item_limit`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

import anyio.to_thread
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp_types import INVALID_PARAMS
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from mcpgym_server._item_limit import (
    COUNT_FROM_BYTES,
    MAX_MESSAGE_ITEMS,
    count_items,
    too_many_items_message,
)

MAX_MCP_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE
"""Largest body of one MCP HTTP request (bytes, 4 MiB): a tool call with larger arguments
is refused with ``-32602`` (`limit_body`)."""

DRAIN_LIMIT = 64 * 1024 * 1024
"""Bytes of an oversized body read (and dropped) before the refusal is sent, so that a
client still uploading reads the answer instead of a reset connection; past it the answer
is sent at once."""

AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def too_large_message(size: int | None, limit: int, *, at_least: bool = False) -> str:
    """The refusal's explanation: the limit and the size (``None``: unknown)."""
    if size is None:
        what = "the request body"
    else:
        what = f"the request body ({'over ' if at_least else ''}{size:,} bytes)"
    return (
        f"{what} is larger than this server's limit of {limit:,} bytes for one MCP message: "
        "the call was not run; send smaller tool arguments"
    )


async def _refuse(scope: Scope, receive: Receive, send: Send, message: str, data: dict) -> None:
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_PARAMS, "message": message}}
    body["error"]["data"] = data
    await JSONResponse(body, status_code=413)(scope, receive, send)


async def _drain(receive: Receive, seen: int) -> int:
    """Read and drop the rest of a body (up to `DRAIN_LIMIT`); the bytes seen in all."""
    while seen <= DRAIN_LIMIT:
        message = await receive()
        if message["type"] != "http.request":
            break
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return seen


async def limit_body(
    app: AsgiApp,
    scope: Scope,
    receive: Receive,
    send: Send,
    limit: int = MAX_MCP_BODY,
    max_items: int | None = MAX_MESSAGE_ITEMS,
) -> None:
    """Serve ``app`` for an MCP request whose body is at most ``limit`` bytes and holds at most
    ``max_items`` JSON items (`mcpgym_server._item_limit`; ``None``: no item limit).

    A larger body is refused with HTTP 413 and JSON-RPC ``-32602`` (``data``: ``limit``,
    ``size`` in bytes; ``size`` is what was read when the body was longer than `DRAIN_LIMIT`);
    a body with more items the same way (``data``: ``item_limit``, ``items_at_least``: the
    count when counting stopped). Items are
    counted in a worker thread, only for bodies over `COUNT_FROM_BYTES`, before ``app`` (the
    SDK's JSON parser) sees the body.
    """
    if scope["type"] != "http" or scope.get("method") != "POST":
        await app(scope, receive, send)
        return
    declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
    if declared is not None and declared.isdigit():
        size = int(declared)
        if size > limit:
            await _drain(receive, 0)
            data = {"limit": limit, "size": size}
            await _refuse(scope, receive, send, too_large_message(size, limit), data)
            return
        if max_items is None or size <= COUNT_FROM_BYTES:
            await app(scope, receive, send)  # the HTTP parser holds the body to its length
            return
    kept: deque[Message] = deque()
    size = 0
    while True:
        message = await receive()
        kept.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if size > limit:
            seen = await _drain(receive, size)
            over = seen > DRAIN_LIMIT
            data = {"limit": limit, "size": seen}
            await _refuse(scope, receive, send, too_large_message(seen, limit, at_least=over), data)
            return
        if not message.get("more_body", False):
            break
    if max_items is not None and size > COUNT_FROM_BYTES:
        body = b"".join(m.get("body", b"") for m in kept if m["type"] == "http.request")
        items = await anyio.to_thread.run_sync(lambda: count_items(body, stop=max_items))
        if items > max_items:
            data = {"item_limit": max_items, "items_at_least": items}
            await _refuse(scope, receive, send, too_many_items_message(max_items), data)
            return

    async def replay() -> Message:
        return kept.popleft() if kept else await receive()

    await app(scope, replay, send)
