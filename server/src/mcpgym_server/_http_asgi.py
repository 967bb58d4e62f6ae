"""ASGI pieces of the environment server's app (`mcpgym_server._http`): the ``Host`` /
``Origin`` check in front of every route, the marker that lets a `Route` serve a raw ASGI
callable, and the JSON error body of the control routes."""

from __future__ import annotations

import contextlib
import fnmatch
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from mcpgym_server._mcp_refusals import refuse


def json_error(status: int, message: str, **extra: Any) -> JSONResponse:
    """A control route's error: ``{"error": message, **extra}`` with HTTP ``status``."""
    return JSONResponse({"error": message, **extra}, status_code=status)


class HostCheck:
    """Refuse requests whose ``Host`` (or ``Origin``) is not an allowed one: 421 JSON.

    Guards the control routes against DNS rebinding the way the MCP transport
    guards its own; patterns are ``host:port`` with ``*`` wildcards. Verdicts are
    remembered per value (at most `VERDICTS` of them, so a flood of odd ``Host`` values
    cannot grow it): every request of an episode sends the same ``Host``.
    """

    VERDICTS = 256

    def __init__(self, app: Any, hosts: list[str]) -> None:
        self._app = app
        self._hosts = hosts
        self._verdicts: dict[str, bool] = {}

    def _allowed(self, host: str) -> bool:
        verdict = self._verdicts.get(host)
        if verdict is None:
            verdict = any(fnmatch.fnmatchcase(host, pattern) for pattern in self._hosts)
            if len(self._verdicts) >= self.VERDICTS:
                self._verdicts.clear()
            self._verdicts[host] = verdict
        return verdict

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host, origin = "", None
            for name, value in scope["headers"]:  # what `Headers.get` finds: the first
                if name == b"host" and not host:
                    host = value.decode("latin-1")
                elif name == b"origin" and origin is None:
                    origin = value.decode("latin-1")
            origin_host = origin.split("://", 1)[-1] if origin else None
            if not self._allowed(host) or (
                origin_host is not None and not self._allowed(origin_host)
            ):
                bad = host if not self._allowed(host) else origin
                message = (
                    f"host or origin {bad!r} is not allowed; serve with --allowed-host to add it"
                )
                if scope.get("path", "").endswith("/mcp"):  # an MCP client shows only JSON-RPC
                    await refuse(scope, receive, send, 421, message)
                else:
                    await json_error(421, message)(scope, receive, send)
                return
        await self._app(scope, receive, send)


class AsgiEndpoint:
    """Marks a raw ASGI callable so Starlette's `Route` passes it scope/receive/send.

    A response the callable started and returned from without its last body message is
    ended here (an empty ``more_body: False``). The MCP SDK's SSE streams (a 2025-era
    session's ``GET`` stream) return that way when the server stops: sse-starlette cancels
    them on uvicorn's exit flag, and uvicorn then logged ``ASGI callable returned without
    completing response`` once per live session on every graceful stop (adversarial
    round 11, S2-5). Ended, the client sees its stream close cleanly.
    """

    def __init__(self, app: Any) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        open_response = False

        async def tracked(message: Message) -> None:
            nonlocal open_response
            if message["type"] == "http.response.start":
                open_response = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                open_response = False
            await send(message)

        await self._app(scope, receive, tracked)
        if open_response:
            with contextlib.suppress(OSError):  # the client left: nothing to end
                await send({"type": "http.response.body", "body": b"", "more_body": False})
