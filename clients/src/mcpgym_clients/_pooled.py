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

`http_transport` (``httpx``) and `http2_transport` (``httpx2``) make such transports;
where a library version keeps its pool elsewhere they are the library's plain transport.
"""

# ruff: noqa: ASYNC109 - the `timeout` parameters are httpcore's network-backend interface
from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import Any

import httpx
import httpx2


@cache
def _backend_class(core: ModuleType) -> type:
    """The network backend wrapper for one of ``httpcore`` / ``httpcore2`` (``core``)."""
    readable = importlib.import_module(core.__name__ + "._utils").is_socket_readable

    class Stream(core.AsyncNetworkStream):  # type: ignore[misc, name-defined]
        """A pooled connection's stream that remembers its raw socket."""

        def __init__(self, inner: Any) -> None:
            self._inner = inner
            self._sock = inner.get_extra_info("socket")

        async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return await self._inner.read(max_bytes, timeout)  # type: ignore[no-any-return]

        async def write(self, buffer: bytes, timeout: float | None = None) -> None:
            await self._inner.write(buffer, timeout)

        async def aclose(self) -> None:
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
