"""The child side of `mcpgym_clients.child_servers`: one server in a process of its own.

Run as ``python -m mcpgym_clients._server_child``. The first line of standard input is
the JSON settings `mcpgym_clients.child_servers.serve_in_processes` writes (role,
environment name, store, log file, secrets); the child loads the environment, warms
what its first request would otherwise pay for (the grading service's lock), serves on
a free loopback port (or the ``port`` of its settings: a restart), prints
``{"url": ...}`` and serves until standard input closes (the parent closed it, or died)
or SIGTERM. SIGINT and SIGHUP are ignored: a Ctrl-C, or the hang-up of a closing terminal
or SSH session, reaches the whole process group, and the parent, which takes both as a
request to stop the campaign (`mcpgym_clients.stopping`), stops its servers in order.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel

from mcpgym_clients.server_logs import SERVER_LOGGERS


def _app(settings: dict[str, Any]) -> Any:
    """The ASGI app a child serves, as `serve_locally` builds it."""
    from mcpgym_server import load_environment

    env = load_environment(settings["env"])
    if settings["role"] == "environment":
        from mcpgym_server.runtime import create_app

        return create_app(
            env,
            settings["store"],
            control_token=settings["control_token"],
            idle_ttl=settings["idle_ttl"],
            bundle_key=settings["bundle_key"],
            seed_salt=settings["seed_salt"],
            max_requests_per_second=settings["max_requests_per_second"],
            request_burst=settings["request_burst"],
        )
    from mcpgym_grading.engine import environment_lock
    from mcpgym_grading.service import create_app as create_grading_app

    environment_lock(env)  # computed on the first grade otherwise (~1 s: it generates variants)
    return create_grading_app(
        settings["store"],
        settings["token"],
        env_loader=load_environment,
        bundle_key=settings["bundle_key"],
    )


async def _serve_child(settings: dict[str, Any]) -> None:
    from mcpgym_server.runtime import serve

    app = _app(settings)
    stop = anyio.Event()
    token = anyio.lowlevel.current_token()

    def watch_stdin() -> None:  # EOF: the parent closed the pipe or died
        # The file descriptor, not `sys.stdin.buffer`: a daemon thread blocked in the
        # buffered reader holds its lock, and the interpreter's shutdown after SIGTERM
        # then aborted ("Fatal Python error: _enter_buffered_busy", exit status -6;
        # adversarial round 20, S20-2). The parent sends nothing after the settings line.
        with contextlib.suppress(Exception):
            while os.read(sys.stdin.fileno(), 65536):
                pass
        with contextlib.suppress(RuntimeError):  # the loop already ended
            anyio.from_thread.run_sync(stop.set, token=token)

    threading.Thread(target=watch_stdin, daemon=True).start()
    name = "environment server" if settings["role"] == "environment" else "grading service"
    # a restarted child takes its predecessor's port: the campaign holds its URL
    async with serve(app, name=name, port=int(settings.get("port") or 0)) as url:
        sys.stdout.write(json.dumps({"url": url}) + "\n")
        sys.stdout.flush()
        os.dup2(2, 1)  # nobody reads the pipe any more: later output goes to the log
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            async with anyio.create_task_group() as tg:

                async def on_signal() -> None:
                    async for _ in signals:
                        stop.set()

                tg.start_soon(on_signal)
                await stop.wait()
                tg.cancel_scope.cancel()


def main() -> None:
    """The child's entry point: settings from the first line of stdin, then serve."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    settings = json.loads(sys.stdin.buffer.readline())
    handler = logging.FileHandler(settings["log"], encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
    from mcpgym_server.runtime import run

    run(_serve_child, settings)


if __name__ == "__main__":
    main()
