"""HTTP transports of the harness whose idle-connection check is one ``poll``.

Before each request, and again when a response is closed, the connection pool of
``httpcore`` (behind ``httpx``) and ``httpcore2`` (behind ``httpx2``) asks every idle
connection whether the server closed it (``get_extra_info("is_readable")``). Over anyio
each answer first builds the socket's whole attribute table, with a ``getpeername``
system call, to find the raw socket: with 16 episodes in flight that is ~20 idle
connections asked twice per request, ~4.5% of the campaign process's CPU (py-spy of a
reference campaign, issue 12 §2). The streams made here remember their raw socket and
answer ``is_readable`` with the same ``poll`` (`is_socket_readable`), so a connection the
server closed is still never reused; every other call goes to the library's own stream.

The same streams send each request in one write. ``httpcore`` writes an HTTP/1.1
request as its head, then its body, then the body's end (nothing, for a body of declared
length): three writes, each a trip through the event loop and two of them a system call,
and on the server's side the head arrives alone, wakes it, and the body wakes it again
(at 9.9 requests per episode, socket writes were ~12% of the campaign process's CPU:
py-spy, issue 12 §2).
A request head that announces a body is held until the body's first bytes and sent with
them, and an empty write is not sent (`Stream.write`). Nothing waits on it: whatever is
held is sent before the stream is read (`Stream.read`), so a request always leaves whole
before its answer is awaited; the bytes on the wire are the same.

`http_transport` (``httpx``) and `http2_transport` (``httpx2``) make such transports;
where a library version keeps its pool elsewhere they are the library's plain transport.
"""

# ruff: noqa: ASYNC109 - the `timeout` parameters are httpcore's network-backend interface
from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import Any

import httpx
import httpx2

_HEAD_WITH_BODY = re.compile(
    rb"[A-Z]+ [^ ]+ HTTP/1\.1\r\n(?:.*\r\n)*?"
    rb"(?:content-length: *0*[1-9][0-9]*|transfer-encoding:[^\r]*)\r\n(?:.*\r\n)*\r\n\Z",
    re.IGNORECASE,
)
"""An HTTP/1.1 request head (the whole write) whose headers announce a body: a
``Content-Length`` above 0 or a ``Transfer-Encoding``."""


def announces_body(buffer: bytes) -> bool:
    """Whether ``buffer`` is exactly one HTTP/1.1 request head announcing a body to follow."""
    return buffer.endswith(b"\r\n\r\n") and _HEAD_WITH_BODY.match(buffer) is not None


@cache
def _backend_class(core: ModuleType) -> type:
    """The network backend wrapper for one of ``httpcore`` / ``httpcore2`` (``core``)."""
    readable = importlib.import_module(core.__name__ + "._utils").is_socket_readable

    class Stream(core.AsyncNetworkStream):  # type: ignore[misc, name-defined]
        """A pooled connection's stream that remembers its raw socket and sends each
        request in one write (see the module)."""

        def __init__(self, inner: Any) -> None:
            self._inner = inner
            self._sock = inner.get_extra_info("socket")
            self._held = b""  # a request head waiting for its body's first bytes
            self._request_starts = True  # the next write starts a request (after a read)

        async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            if self._held:  # never wait for an answer to a request not wholly sent
                held, self._held = self._held, b""
                await self._inner.write(held, timeout)
            self._request_starts = True
            return await self._inner.read(max_bytes, timeout)  # type: ignore[no-any-return]

        async def write(self, buffer: bytes, timeout: float | None = None) -> None:
            if not buffer:  # the end of a body of declared length: no bytes
                return
            starts, self._request_starts = self._request_starts, False
            if self._held:
                buffer, self._held = self._held + buffer, b""
            elif starts and announces_body(buffer):
                self._held = buffer
                return
            await self._inner.write(buffer, timeout)

        async def aclose(self) -> None:
            self._held = b""
            await self._inner.aclose()

        async def start_tls(
            self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
        ) -> Stream:
            return Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

        def get_extra_info(self, info: str) -> Any:
            if info == "is_readable" and self._sock is not None:
                return readable(self._sock)
            return self._inner.get_extra_info(info)

    class Backend(core.AsyncNetworkBackend):  # type: ignore[misc, name-defined]
        """The library's own network backend, its streams wrapped in `Stream`."""

        stream_class = Stream  # what its connections are (bench/campaign_ab.py patches it)

        def __init__(self, inner: Any) -> None:
            self._inner = inner

        async def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Iterable[Any] | None = None,
        ) -> Stream:
            return Stream(
                await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
            )

        async def connect_unix_socket(
            self,
            path: str,
            timeout: float | None = None,
            socket_options: Iterable[Any] | None = None,
        ) -> Stream:
            return Stream(await self._inner.connect_unix_socket(path, timeout, socket_options))

        async def sleep(self, seconds: float) -> None:
            await self._inner.sleep(seconds)

    return Backend


def _quick_idle_checks(transport: Any, core: ModuleType) -> Any:
    """``transport`` with its pool's network backend wrapped (see the module docstring);
    unchanged where the pool is not the library's plain `AsyncConnectionPool` (a proxy)
    or keeps its backend elsewhere (another library version)."""
    pool = getattr(transport, "_pool", None)
    if (
        pool is not None
        and type(pool) is core.AsyncConnectionPool
        and hasattr(pool, "_network_backend")
    ):
        pool._network_backend = _backend_class(core)(pool._network_backend)  # noqa: SLF001
    return transport


def http_transport(*, limits: httpx.Limits, trust_env: bool) -> httpx.AsyncHTTPTransport:
    """An ``httpx`` transport (TCP, TLS as ``httpx``'s default) with quick idle checks.

    Args:
        limits: the pool's connection limits (an ``httpx.AsyncClient`` given a transport
            ignores its own ``limits``). trust_env: honour ``SSL_CERT_FILE`` and the like.
    """
    import httpcore

    return _quick_idle_checks(  # type: ignore[no-any-return]
        httpx.AsyncHTTPTransport(limits=limits, trust_env=trust_env), httpcore
    )


def http2_transport(*, limits: httpx2.Limits, trust_env: bool) -> httpx2.AsyncHTTPTransport:
    """`http_transport` for ``httpx2`` (the MCP SDK's HTTP client)."""
    import httpcore2

    return _quick_idle_checks(  # type: ignore[no-any-return]
        httpx2.AsyncHTTPTransport(limits=limits, trust_env=trust_env), httpcore2
    )
