"""Running ASGI apps (environment server, grading service) on loopback inside an event loop."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Generator
from typing import Any

import anyio
import uvicorn

from mcpgym_server.errors import ServerStartError

__all__ = ["ServerStartError", "bind_socket", "serve"]


class _Server(uvicorn.Server):
    """A uvicorn server that reports readiness through an event and leaves signals alone."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = anyio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().startup(sockets)
        finally:
            self.ready.set()

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A bound TCP socket (``port=0`` picks a free port); read it with ``getsockname()``.

    The socket is created with ``proto=IPPROTO_TCP``: asyncio only sets
    ``TCP_NODELAY`` on accepted connections whose protocol says TCP, and without
    it small responses on a reused connection wait ~40 ms for delayed ACKs.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


@contextlib.asynccontextmanager
async def serve(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    log_level: str = "warning",
    name: str = "server",
) -> AsyncIterator[str]:
    """Serve an ASGI app with uvicorn in the current event loop until the block exits.

    Args:
        app: the ASGI app. host: interface to bind. port: TCP port (0: a free one).
        log_level: uvicorn's log level. name: used in error messages.

    Yields:
        The base URL, e.g. ``"http://127.0.0.1:53117"``, once the server accepts connections.

    Raises:
        OSError: the address cannot be bound.
        ServerStartError: the server stopped before it was ready (e.g. lifespan failure).
    """
    sock = bind_socket(host, port)
    bound_port = sock.getsockname()[1]
    server = _Server(
        uvicorn.Config(
            app,
            log_config=None,
            log_level=log_level,
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
    )
    failed: list[BaseException] = []
    raised: list[BaseException] = []
    async with anyio.create_task_group() as tg:

        async def run() -> None:
            try:
                await server.serve(sockets=[sock])
            except SystemExit as exc:  # uvicorn exits when start-up fails
                failed.append(exc)
            finally:
                server.ready.set()
                sock.close()

        tg.start_soon(run)
        await server.ready.wait()
        if failed or not server.started:
            tg.cancel_scope.cancel()
            raised.append(
                ServerStartError(f"{name} could not start on {host}:{bound_port}; see its log")
            )
        else:
            shown = f"[{host}]" if ":" in host else host
            try:
                yield f"http://{shown}:{bound_port}"
            except BaseException as exc:  # noqa: BLE001 - re-raised below, after a clean stop
                raised.append(exc)
            finally:
                server.should_exit = True  # graceful: the task group waits for the server
    if raised:
        raise raised[0]
