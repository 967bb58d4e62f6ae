"""Run the environment server and the grading service as child processes, on loopback.

`serve_in_processes` is `mcpgym_clients.local.serve_locally` with each server in a
process of its own: the campaign's driver, the environment server and the grading
service then run on separate cores instead of sharing one interpreter lock (on this
project's 2-core reference machine a reference campaign runs ~1.5-2x faster; see
``docs/benchmarks.md``). ``mcpgym eval`` and ``mcpgym demo`` use it when the
environment is installed by name and the machine has more than one core
(`use_child_processes`).

Each child is ``python -m mcpgym_clients._server_child``; it reads its settings (the
secrets included: tokens, bundle key, seed salt) as one JSON line on its standard
input, so that nothing secret is on a command line, prints ``{"url": ...}`` once it
accepts connections, and serves until its standard input closes. The parent keeps
that pipe open for the children's whole life: when the parent exits, however it exits
(``kill -9`` included), the pipe closes and the children stop on their own. They
ignore SIGINT (a Ctrl-C in the terminal reaches the whole process group; the parent
decides when to stop them) and stop gracefully on SIGTERM. Their log records and
standard error go to the log file the parent names (``servers.log`` for ``mcpgym
eval``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process

from mcpgym_clients.errors import InfraError
from mcpgym_clients.local import LocalServers

START_TIMEOUT = 120.0
"""Seconds a child server may take to import, load its environment and listen."""

STOP_TIMEOUT = 10.0
"""Seconds a child server gets to stop after its standard input closes (then SIGKILL)."""


def use_child_processes(env: Any) -> bool:
    """Whether to serve ``env`` in child processes: it is the environment installed under
    its name (a child loads it by name) and this process may run on more than one core.

    An environment object built in this process (a test fixture, a patched loader) is
    served in process instead (`mcpgym_clients.local.serve_locally`).
    """
    import mcpgym_server
    from mcpgym_server import MCPGymError

    try:
        installed = mcpgym_server.load_environment(env.name)
    except MCPGymError:
        return False
    if installed is not env:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return cores > 1


@contextlib.asynccontextmanager
async def serve_in_processes(
    env: str,
    store_dir: str | Path,
    *,
    log_path: str | Path,
    token: str | None = None,
    idle_ttl: float = 600.0,
    bundle_key: str | None = None,
    control_token: str | None = None,
    seed_salt: str | None = None,
) -> AsyncIterator[LocalServers]:
    """Start the environment server and the grading service for ``env``, a process each.

    Args:
        env: the name of an installed environment (``mcpgym.environments`` entry point).
        store_dir: the shared episode store (created).
        log_path: the file both children append their log records and standard error to.
        token, idle_ttl, bundle_key, control_token, seed_salt: as for `serve_locally`
            (random secrets by default).

    Yields:
        The servers' `LocalServers`; both stop when the context exits (their standard
        input is closed; SIGKILL after `STOP_TIMEOUT` seconds).

    Raises:
        InfraError: a server could not start (the message points at ``log_path``).
    """
    store, log = Path(store_dir), Path(log_path)
    await anyio.Path(store).mkdir(parents=True, exist_ok=True)
    await anyio.Path(log.parent).mkdir(parents=True, exist_ok=True)
    token = token or secrets.token_urlsafe(24)
    bundle_key = bundle_key or secrets.token_urlsafe(32)
    control_token = control_token or secrets.token_urlsafe(32)
    common = {"env": env, "store": str(store), "log": str(log), "bundle_key": bundle_key}
    settings = [
        {
            **common,
            "role": "environment",
            "control_token": control_token,
            "idle_ttl": idle_ttl,
            "seed_salt": seed_salt,
        },
        {**common, "role": "grading", "token": token},
    ]
    async with contextlib.AsyncExitStack() as stack:
        procs = [await stack.enter_async_context(_child(s, log)) for s in settings]
        urls: list[str] = []
        for proc, s in zip(procs, settings, strict=True):
            urls.append(await _ready(proc, s["role"], log))
        yield LocalServers(urls[0], urls[1], token, store, control_token)


@contextlib.asynccontextmanager
async def _child(settings: dict[str, Any], log: Path) -> AsyncIterator[Process]:
    """One child server, its settings written; stopped (stdin closed, then killed) on exit."""
    with log.open("ab") as stderr:
        proc = await anyio.open_process(
            [sys.executable, "-m", "mcpgym_clients._server_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
    try:
        assert proc.stdin is not None
        await proc.stdin.send(json.dumps(settings).encode() + b"\n")
        yield proc
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(proc)


async def _stop(proc: Process) -> None:
    """Close the child's standard input (it stops gracefully), then kill it if it lingers."""
    if proc.stdin is not None:
        with contextlib.suppress(Exception):
            await proc.stdin.aclose()
    with anyio.move_on_after(STOP_TIMEOUT):
        await proc.wait()
        return
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    await proc.wait()


async def _ready(proc: Process, role: str, log: Path) -> str:
    """The URL a child prints once it serves."""
    assert proc.stdout is not None
    line = b""
    with anyio.move_on_after(START_TIMEOUT):
        while not line.endswith(b"\n"):
            try:
                line += await proc.stdout.receive()
            except anyio.EndOfStream:
                break
    try:
        return str(json.loads(line)["url"])
    except (ValueError, KeyError, TypeError):
        raise InfraError(
            "local", f"the {role} process did not start (exit status {proc.returncode}); see {log}"
        ) from None
