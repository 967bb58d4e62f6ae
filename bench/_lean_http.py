"""A bench-only HTTP/1.1 transport for ``httpx2``: what the client's HTTP stack could cost.

`LeanTransport` sends each request on a kept-alive asyncio stream to the request's
``host:port`` (plain ``http`` only) and reads a ``Content-Length`` answer whole: no
``httpcore2`` pool, no ``h11``, no anyio scopes per read and write, no timeouts, no
chunked bodies, no TLS, no proxies. It is the floor under the library stack for the
requests a reference campaign makes on loopback (`bench/sdk_floor.py`'s ``*-lean``
ways), not something to run against a server one does not control.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import httpx2

_MADE: dict[str, Any] = {}


def lean_transport_class(lib: ModuleType) -> Any:
    """`LeanTransport` for ``lib`` (``httpx`` or ``httpx2``: the same transport interface)."""
    if lib.__name__ in _MADE:
        return _MADE[lib.__name__]

    class Body(lib.AsyncByteStream):  # type: ignore[misc, name-defined]
        def __init__(self, data: bytes) -> None:
            self._data = data

        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield self._data

    class Lean(_Lean, lib.AsyncBaseTransport):  # type: ignore[misc, name-defined]
        body = Body
        response = lib.Response

    _MADE[lib.__name__] = Lean
    return Lean


_Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class _Lean:
    """Kept-alive HTTP/1.1 over asyncio streams, one idle list per origin (see the module)."""

    body: Any
    response: Any

    def __init__(self) -> None:
        self._idle: dict[tuple[str, int], list[_Conn]] = {}

    async def handle_async_request(self, request: Any) -> Any:
        url = request.url
        key = (url.host, url.port or 80)
        idle = self._idle.setdefault(key, [])
        while idle:
            reader, writer = idle.pop()
            if not reader.at_eof() and not writer.is_closing():
                break
            writer.close()
        else:
            reader, writer = await asyncio.open_connection(*key)
        body = await request.aread()
        lines = [f"{request.method} {url.raw_path.decode('ascii')} HTTP/1.1".encode()]
        lines += [k + b": " + v for k, v in request.headers.raw]
        writer.write(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head[:-4].split(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        headers = [tuple(h.split(b": ", 1)) for h in header_lines]
        length = next(int(v) for k, v in headers if k.lower() == b"content-length")
        content = await reader.readexactly(length)
        if any(k.lower() == b"connection" and v.lower() == b"close" for k, v in headers):
            writer.close()
        else:
            idle.append((reader, writer))
        return self.response(
            status,
            headers=headers,
            stream=self.body(content),
            extensions={"http_version": b"HTTP/1.1"},
        )

    async def aclose(self) -> None:
        for conns in self._idle.values():
            for _, writer in conns:
                writer.close()
        self._idle.clear()


LeanTransport = lean_transport_class(httpx2)
"""The ``httpx2`` transport (`lean_transport_class`)."""
