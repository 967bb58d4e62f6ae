"""Running ASGI apps (environment server, grading service): inside an event loop, or as a process.

`serve` runs an app inside the caller's event loop and leaves signals to the caller;
`run_until_stopped` is the blocking form for a server process (``mcpgym serve``):
SIGTERM or SIGINT stop it gracefully, and its ``on_stop`` hook (the environment server
seals every open episode there) runs before the process exits, even when a second
Ctrl-C forces the stop.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Generator
from typing import Any

import anyio
import uvicorn
from uvicorn.config import STARTUP_FAILURE

from mcpgym_server._errors import ServerStartError

__all__ = ["ServerStartError", "bind_socket", "run_until_stopped", "serve"]


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


class _StoppableServer(uvicorn.Server):
    """A uvicorn server (signals captured as usual) that calls ``on_stop`` after shutdown.

    uvicorn skips the application's lifespan shutdown when a second Ctrl-C forces the
    stop; ``on_stop`` runs on every path, inside the signal capture, so a signal that
    stopped the server is re-raised (and ends the process) only after it returned.
    """

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], object]) -> None:
        super().__init__(config)
        self._on_stop = on_stop

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
        finally:
            self._on_stop()


def run_until_stopped(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    on_stop: Callable[[], object] = lambda: None,
    graceful_timeout: float = 10.0,
) -> None:
    """Serve an ASGI app with uvicorn in a new event loop until SIGTERM or SIGINT.

    A signal stops accepting connections, lets requests in flight finish (at most
    ``graceful_timeout`` seconds, then they are cancelled), runs the app's lifespan
    shutdown, then ``on_stop`` (synchronous; also after a forced stop, a second Ctrl-C,
    which skips the lifespan shutdown). uvicorn then re-raises the signal: SIGTERM ends
    the process with its usual status; SIGINT's `KeyboardInterrupt` is swallowed here, as
    ``uvicorn.run`` does, so the call returns.

    Args:
        app: the ASGI app. host: interface to bind. port: TCP port.
        log_level: uvicorn's log level (its default log format).
        on_stop: called once after the server stopped, before the process exits.
        graceful_timeout: seconds requests in flight get to finish after a signal.

    Raises:
        SystemExit: the server could not start (port taken, lifespan failed; uvicorn
            logs why), with uvicorn's start-up failure status (3).
    """
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        lifespan="on",
        # uvicorn annotates int but waits with anyio (a float works)
        timeout_graceful_shutdown=graceful_timeout,  # pyright: ignore[reportArgumentType]
    )
    server = _StoppableServer(config, on_stop)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


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
