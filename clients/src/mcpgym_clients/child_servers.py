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
ignore SIGINT and SIGHUP (a Ctrl-C in the terminal, or the hang-up of a closing terminal,
reaches the whole process group; the parent decides when to stop them) and stop
gracefully on SIGTERM. Their log records and
standard error go to the log file the parent names (``servers.log`` for ``mcpgym
eval``).

A child that dies while the campaign runs (``kill -9``, a crash, the OOM killer) is
started again with the same settings on the same port, at most `MAX_RESTARTS` times per
child; each death and restart is logged (logger ``mcpgym_clients.child_servers`` and the
log file). The campaign's waits before retrying an ``infra_error`` episode also wait for
a restart under way (`ChildServers.retry_policy`), so the retried episodes run on the
new child. Episodes open in an environment server that died are lost (their retries are
fresh episodes); the store's debris is swept by the restarted server.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from anyio.abc import Process

from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.errors import InfraError
from mcpgym_clients.local import LocalServers
from mcpgym_server.runtime import DEFAULT_REQUEST_BURST, DEFAULT_REQUESTS_PER_SECOND

logger = logging.getLogger("mcpgym_clients.child_servers")

START_TIMEOUT = 120.0
"""Seconds a child server may take to import, load its environment and listen."""

STOP_TIMEOUT = 10.0
"""Seconds a child server gets to stop after its standard input closes (then SIGKILL)."""

MAX_RESTARTS = 3
"""Restarts of each child server after it died, per `serve_in_processes` (then its
episodes end ``infra_error`` as before, and the campaign exits incomplete)."""


@dataclasses.dataclass(frozen=True)
class ChildServers(LocalServers):
    """`LocalServers` whose servers are child processes, restarted when they die.

    Attributes:
        children: the supervised children (environment server, grading service).
    """

    children: tuple[_Child, ...] = dataclasses.field(default=(), repr=False, compare=False)

    @property
    def restarts(self) -> dict[str, int]:
        """How many times each child was restarted so far, by role."""
        return {c.role: c.restarts for c in self.children}

    async def wait_up(self) -> None:
        """Return once every child serves: at once, or after a restart under way (or when
        a child will not be restarted again; its requests then fail as before)."""
        for child in self.children:
            await child.wait_up()

    def retry_policy(self, policy: RetryPolicy) -> RetryPolicy:
        """``policy`` whose waits (its ``sleep``) also wait for a restart under way (`wait_up`),
        for the campaign's retries of ``infra_error`` episodes."""
        sleep = policy.sleep

        async def sleep_then_wait_up(seconds: float) -> None:
            await sleep(seconds)
            with anyio.move_on_after(START_TIMEOUT):
                await self.wait_up()

        return dataclasses.replace(policy, sleep=sleep_then_wait_up)


class _Child:
    """One child server: started, made ready, and started again (same settings, same
    port) when it dies, at most ``max_restarts`` times."""

    def __init__(self, settings: dict[str, Any], log: Path, max_restarts: int) -> None:
        self.settings = settings
        self.log = log
        self.role: str = settings["role"]
        self.max_restarts = max_restarts
        self.restarts = 0
        self.proc: Process | None = None
        self.url = ""
        self.closing = False
        self._up = anyio.Event()

    @property
    def name(self) -> str:
        return "environment server" if self.role == "environment" else "grading service"

    async def launch(self) -> None:
        """Start the process and hand it its settings (it is not serving yet)."""
        with self.log.open("ab") as stderr:
            self.proc = await anyio.open_process(
                [sys.executable, "-m", "mcpgym_clients._server_child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
        assert self.proc.stdin is not None
        await self.proc.stdin.send(json.dumps(self.settings).encode() + b"\n")

    async def ready(self) -> None:
        """Wait for the URL the child prints once it serves.

        Raises:
            InfraError: it did not start (the message points at the log file).
        """
        assert self.proc is not None
        self.url = await _ready(self.proc, self.role, self.log)
        self._up.set()

    async def wait_up(self) -> None:
        """Return once the child serves (or will not be restarted again)."""
        while True:
            up = self._up
            await up.wait()
            if up is self._up:
                return

    async def supervise(self) -> None:
        """Wait for the child to die; restart it on its port (see the module docstring)."""
        self.settings = {**self.settings, "port": urlsplit(self.url).port}
        port = self.settings["port"]
        while True:
            assert self.proc is not None
            status = await self.proc.wait()
            if self.closing:
                return
            self._up = anyio.Event()
            with anyio.CancelScope(shield=True):
                await _stop(self.proc)  # its pipes
            if self.restarts >= self.max_restarts:
                self._say(
                    f"the {self.name} process died (exit status {status}); not restarted: "
                    f"it was restarted {self.restarts} time(s) already (at most "
                    f"{self.max_restarts}); the episodes that need it will fail"
                )
                self._up.set()  # nothing to wait for any more
                return
            self.restarts += 1
            self._say(
                f"the {self.name} process died (exit status {status}); restarting it on "
                f"port {port} (restart {self.restarts} of at most {self.max_restarts})"
            )
            try:
                with anyio.CancelScope(shield=True):
                    await self.launch()
                await self.ready()
            except InfraError as exc:
                self._say(f"the {self.name} could not be restarted: {exc}")
                with anyio.CancelScope(shield=True):
                    await _stop(self.proc)
                continue  # counts as a restart: its process has ended
            self._say(f"the {self.name} serves again at {self.url}")

    def _say(self, text: str) -> None:
        """Log ``text`` as a warning and into the servers' log file."""
        logger.warning("%s", text)
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        with contextlib.suppress(OSError), self.log.open("a", encoding="utf-8") as out:
            out.write(f"{stamp} WARNING mcpgym_clients.child_servers: {text}\n")


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
    max_requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND,
    request_burst: int = DEFAULT_REQUEST_BURST,
    max_restarts: int = MAX_RESTARTS,
) -> AsyncIterator[ChildServers]:
    """Start the environment server and the grading service for ``env``, a process each.

    Args:
        env: the name of an installed environment (``mcpgym.environments`` entry point).
        store_dir: the shared episode store (created).
        log_path: the file both children append their log records and standard error to.
        token, idle_ttl, bundle_key, control_token, seed_salt, max_requests_per_second,
            request_burst: as for `serve_locally` (random secrets by default).
        max_restarts: restarts of each child after it died (0: none).

    Yields:
        The servers' `ChildServers`; both stop when the context exits (their standard
        input is closed; SIGKILL after `STOP_TIMEOUT` seconds). A child that dies before
        is restarted on its port (see the module docstring).

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
            "max_requests_per_second": max_requests_per_second,
            "request_burst": request_burst,
        },
        {**common, "role": "grading", "token": token},
    ]
    children = tuple(_Child(s, log, max_restarts) for s in settings)
    try:
        for child in children:  # both start at once, then each is waited for
            with anyio.CancelScope(shield=True):
                await child.launch()
        for child in children:
            await child.ready()
        async with anyio.create_task_group() as tg:
            for child in children:
                tg.start_soon(child.supervise)
            try:
                yield ChildServers(
                    children[0].url, children[1].url, token, store, control_token, children
                )
            finally:
                for child in children:
                    child.closing = True
                tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            for child in children:
                if child.proc is not None:
                    await _stop(child.proc)


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
