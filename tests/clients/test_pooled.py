"""`mcpgym_clients._pooled`: the harness's HTTP pools check idle connections with one poll.

The driver's three clients (control routes, grading, MCP) get streams that remember their
raw socket (issue 12 §2: the library's check rebuilt the socket's attributes, with a
``getpeername``, for every idle connection before and after every request). What the
check is for must still hold: a pooled connection the server closed while it was idle is
not reused (a raw loopback server that answers one request per connection, then closes).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from anyio.abc import SocketStream

from mcpgym_clients import EpisodeDriver
from mcpgym_clients._pooled import http2_transport, http_transport

pytestmark = pytest.mark.anyio


class OneShotServer:
    """HTTP on loopback: each connection gets one ``200 {}`` (keep-alive implied), then
    the server closes it and sets `closed`; `connections` counts those accepted."""

    def __init__(self) -> None:
        self.connections = 0
        self.closed = anyio.Event()
        self.port = 0

    async def handle(self, stream: SocketStream) -> None:
        self.connections += 1
        data = b""
        async with stream:
            while b"\r\n\r\n" not in data:
                data += await stream.receive()
            head, _, body = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            while len(body) < length:
                body += await stream.receive()
            await stream.send(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
            )
        self.closed.set()


@pytest.fixture
async def server() -> AsyncIterator[OneShotServer]:
    srv = OneShotServer()
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    srv.port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, srv.handle)
        yield srv
        tg.cancel_scope.cancel()


async def _twice(server: OneShotServer, get: Callable[[str], Awaitable[Any]]) -> None:
    url = f"http://127.0.0.1:{server.port}/x"
    with anyio.fail_after(10):
        assert (await get(url)).status_code == 200
        await server.closed.wait()  # the first connection is closed, idle in the pool
        assert (await get(url)).status_code == 200  # a new connection, not the closed one
    assert server.connections == 2


async def test_httpx_transport_does_not_reuse_a_connection_the_server_closed(
    server: OneShotServer,
) -> None:
    limits = httpx.Limits(max_keepalive_connections=5, keepalive_expiry=60)
    async with httpx.AsyncClient(transport=http_transport(limits=limits, trust_env=False)) as c:
        await _twice(server, c.get)


async def test_httpx2_transport_does_not_reuse_a_connection_the_server_closed(
    server: OneShotServer,
) -> None:
    limits = httpx2.Limits(max_keepalive_connections=5, keepalive_expiry=60)
    async with httpx2.AsyncClient(transport=http2_transport(limits=limits, trust_env=False)) as c:
        await _twice(server, c.get)


async def test_the_driver_clients_check_idle_connections_with_the_remembered_socket(
    server: OneShotServer,
) -> None:
    """All three of the driver's pools use the wrapped backend (a library upgrade that
    moves the pool's backend drops the saving silently; this says so)."""
    async with EpisodeDriver("http://127.0.0.1:1", "http://127.0.0.1:2", "t") as driver:
        clients = [driver._env_http, driver._grading_http]  # noqa: SLF001
        for http in [*clients, driver._mcp._http]:  # noqa: SLF001
            backend = http._transport._pool._network_backend  # noqa: SLF001
            assert type(backend).__qualname__ == "_backend_class.<locals>.Backend"
        await _twice(server, driver._mcp._http.get)  # noqa: SLF001


class Recorded:
    """A network stream that records the writes it is given and answers every read with
    one ``200 {}``; `writes_before_read` is how many writes had come when each read came."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.writes_before_read: list[int] = []

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        self.writes_before_read.append(len(self.writes))
        return b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        self.writes.append(buffer)

    async def aclose(self) -> None:
        pass

    def get_extra_info(self, info: str) -> Any:
        return None


class RecordedBackend:
    """A network backend whose connections are `Recorded` streams."""

    def __init__(self) -> None:
        self.streams: list[Recorded] = []

    async def connect_tcp(self, *args: Any, **kwargs: Any) -> Recorded:
        self.streams.append(Recorded())
        return self.streams[-1]

    async def sleep(self, seconds: float) -> None:
        pass


@pytest.mark.parametrize("core_name", ["httpcore", "httpcore2"])
async def test_each_request_leaves_in_one_write_and_before_its_answer_is_read(
    core_name: str,
) -> None:
    """A request with a body is written once, head and body together (issue 12 §2: three
    writes before, the head alone waking the server); one without a body too; the bytes
    are those the library made; a held head is sent before the stream is read."""
    import importlib

    from mcpgym_clients._pooled import _backend_class  # pyright: ignore[reportPrivateUsage]

    core = importlib.import_module(core_name)
    recorded = RecordedBackend()
    backend = _backend_class(core)(recorded)
    async with core.AsyncConnectionPool(network_backend=backend) as pool:
        body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}'
        await pool.request("POST", "http://127.0.0.1:9/mcp", content=body)
        await pool.request("GET", "http://127.0.0.1:9/healthz")
        await pool.request("POST", "http://127.0.0.1:9/episodes", content=b"{}")
    [stream] = recorded.streams
    assert len(stream.writes) == 3 and stream.writes_before_read == [1, 2, 3]
    post, get, short = stream.writes
    assert post.startswith(b"POST /mcp HTTP/1.1\r\n") and post.endswith(b"\r\n\r\n" + body)
    assert get.startswith(b"GET /healthz HTTP/1.1\r\n") and get.endswith(b"\r\n\r\n")
    assert short.endswith(b"\r\n\r\n{}")

    stream = Recorded()  # a head whose body never comes still leaves before a read
    wrapped = backend.stream_class(stream)
    head = b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"
    await wrapped.write(head)
    assert stream.writes == []
    await wrapped.read(100)
    assert stream.writes == [head] and stream.writes_before_read == [1]
