"""Running ASGI apps (environment server, grading service) on loopback inside an event loop."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Generator
from typing import Any

import anyio
import uvicorn


class _Server(uvicorn.Server):
    """A uvicorn server that reports readiness through an event and leaves signals alone."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = anyio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A bound TCP socket (``port=0`` picks a free port); read it with ``getsockname()``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


@contextlib.asynccontextmanager
async def serve(
    app: Any, *, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"
) -> AsyncIterator[str]:
    """Serve an ASGI app with uvicorn in the current event loop until the block exits.

    Args:
        app: the ASGI app. host: interface to bind. port: TCP port (0: a free one).
        log_level: uvicorn's log level.

    Yields:
        The base URL, e.g. ``"http://127.0.0.1:53117"``, once the server accepts connections.

    Raises:
        OSError: the address cannot be bound.
        RuntimeError: the server stopped before it became ready (e.g. lifespan failure).
    """
    sock = bind_socket(host, port)
    bound_port = sock.getsockname()[1]
    server = _Server(uvicorn.Config(app, log_level=log_level, lifespan="on", timeout_graceful_shutdown=5))
    async with anyio.create_task_group() as tg:

        async def run() -> None:
            try:
                await server.serve(sockets=[sock])
            finally:
                server.ready.set()  # unblock the waiter if startup failed

        tg.start_soon(run)
        await server.ready.wait()
        if not server.started:
            raise RuntimeError("the server stopped before it was ready; see its log")
        shown = f"[{host}]" if ":" in host else host
        try:
            yield f"http://{shown}:{bound_port}"
        finally:
            server.should_exit = True
    sock.close()
