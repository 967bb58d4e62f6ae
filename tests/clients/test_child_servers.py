"""`mcpgym_clients.child_servers`: the local servers of ``mcpgym eval`` in processes of their own.

Real child processes on loopback: they serve and grade an episode as the in-process
servers do, keep their secrets off the command line, stop when the campaign's process
closes them, stop on their own when that process is killed (SIGKILL) without a word,
and are restarted when one of them is killed mid-campaign. Environments built in the
test process (not installed by name) stay in process.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from rich.console import Console

from mcpgym_clients import CampaignStatus, EpisodeDriver, LocalServers, ReferenceAgent, evaluation
from mcpgym_clients.child_servers import serve_in_processes, use_child_processes
from mcpgym_clients.evaluation import EvalOptions, evaluate
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_server import Environment, load_environment

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc, pidfd")


def _children(pid: int) -> list[int]:
    return [
        int(c)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for c in (task / "children").read_text().split()
    ]


def _argv(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode()


def _maps_uvloop(pid: int) -> bool:
    """Whether uvloop's compiled event loop is mapped into process ``pid``."""
    return "uvloop/loop" in Path(f"/proc/{pid}/maps").read_text()


def _exited(pids: list[int], timeout: float = 30.0) -> bool:
    """Whether every process of ``pids`` exits within ``timeout`` seconds (a pidfd turns
    readable when its process terminates, reaped or not)."""
    deadline = time.monotonic() + timeout
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # already gone and reaped
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(fd)
        if not ready:
            return False
    return True


def _ignored(pid: int) -> set[int]:
    """The signals process ``pid`` ignores (``SigIgn`` of /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            mask = int(line.split()[1], 16)
            return {n for n in range(1, 65) if mask >> (n - 1) & 1}
    raise AssertionError(f"no SigIgn line for {pid}")


@pytest.mark.anyio
async def test_child_servers_serve_and_grade_an_episode_and_stop_on_exit(tmp_path: Path) -> None:
    env = load_environment("helpdesk")
    with anyio.fail_after(120):
        async with serve_in_processes(
            "helpdesk",
            tmp_path / "episodes",
            log_path=tmp_path / "servers.log",
            max_requests_per_second=7.5,
            request_burst=300,
        ) as servers:
            kids = _children(os.getpid())
            assert len(kids) == 2
            for pid in kids:  # secrets travel on stdin, never on the command line
                argv = _argv(pid)
                assert servers.grading_token not in argv
                assert servers.control_token not in argv
                # A Ctrl-C or a closing terminal's hang-up reaches the whole process group:
                # the campaign, which takes both as a stop, stops its servers in order.
                assert {signal.SIGINT, signal.SIGHUP} <= _ignored(pid)
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
            ) as driver:
                rec = await driver.run_episode(ReferenceAgent(), "order-status", "easy", 0)
                served = (await driver.server_info()).episode_settings or {}
        # the settings eval passes reach the child (and the run records them)
        assert (served["max_requests_per_second"], served["request_burst"]) == (7.5, 300)
        assert rec.termination == "completed", rec.error
        assert rec.score == 1.0
        assert (tmp_path / "episodes").is_dir()
        assert await anyio.to_thread.run_sync(_exited, kids)  # closing the context stopped both


@pytest.mark.slow
def test_children_stop_when_the_campaign_process_is_killed(tmp_path: Path) -> None:
    script = (
        "import anyio, os, sys\n"
        "from mcpgym_clients.child_servers import serve_in_processes\n"
        "async def main():\n"
        f"    async with serve_in_processes('helpdesk', {str(tmp_path / 'eps')!r},\n"
        f"                                  log_path={str(tmp_path / 'log')!r}) as s:\n"
        "        print(s.env_url, flush=True)\n"
        "        await anyio.sleep_forever()\n"
        "anyio.run(main)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("http://127.0.0.1:")
        kids = _children(proc.pid)
        assert len(kids) == 2 and not _exited(kids, timeout=0)
        proc.send_signal(signal.SIGKILL)  # no clean-up at all: the stdin pipes just close
        proc.wait(30)
        assert _exited(kids), "a child server outlived the campaign process killed with -9"
    finally:
        proc.kill()
        proc.wait()


def test_an_environment_not_installed_by_name_is_served_in_process(toy_env: Environment) -> None:
    assert not use_child_processes(toy_env)  # a child could not load it by name
    helpdesk = load_environment("helpdesk")
    cores = len(os.sched_getaffinity(0))
    assert use_child_processes(helpdesk) is (cores > 1)


@pytest.mark.anyio
async def test_the_driver_drops_idle_connections_before_the_servers_close_them() -> None:
    """A pooled connection reused just as uvicorn closes it (keep-alive timeout) fails
    the request with ``ReadError`` (seen on ``POST /grades``): the clients must give up
    idle connections first."""
    import uvicorn

    server_keep_alive = uvicorn.Config(app=None).timeout_keep_alive
    async with EpisodeDriver("http://127.0.0.1:1", "http://127.0.0.1:2", "t") as driver:
        pools = [
            driver._env_http._transport._pool,  # noqa: SLF001
            driver._grading_http._transport._pool,  # noqa: SLF001
            driver._mcp._http._transport._pool,  # noqa: SLF001
        ]
        for pool in pools:
            assert pool._keepalive_expiry < server_keep_alive  # noqa: SLF001


@pytest.mark.anyio
@pytest.mark.parametrize("setting", ["", "1"])
async def test_child_servers_follow_the_event_loop_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    """Both children run on uvloop when ``MCPGYM_UVLOOP=1`` (they inherit it), on the
    standard loop otherwise: uvloop's compiled loop is mapped into a child exactly then."""
    pytest.importorskip("uvloop")
    monkeypatch.setenv("MCPGYM_UVLOOP", setting)
    with anyio.fail_after(120):
        async with serve_in_processes(
            "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log"
        ):
            kids = _children(os.getpid())
            assert len(kids) == 2
            for pid in kids:
                assert _maps_uvloop(pid) is (setting == "1"), (pid, setting)


def _listener(port: int) -> int:
    """The pid of this process's child listening on 127.0.0.1:``port``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local.split(":")[1], 16) == port:  # LISTEN
            inodes.add(f"socket:[{inode}]")
    for pid in _children(os.getpid()):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return pid
    raise AssertionError(f"no child listens on port {port}")


class _KillingReference(ReferenceAgent):
    """The reference agent, which kill -9s one child server as its 3rd episode starts."""

    def __init__(self, servers: list[LocalServers], which: str) -> None:
        self.servers, self.which, self.started = servers, which, 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.started += 1
        if self.started == 3:
            url = (
                self.servers[0].env_url
                if self.which == "environment"
                else (self.servers[0].grading_url)
            )
            os.kill(_listener(int(url.rsplit(":", 1)[1])), signal.SIGKILL)
        return await super().run(ctx)


@pytest.mark.parametrize("which", ["environment", pytest.param("grading", marks=pytest.mark.slow)])
def test_a_child_killed_mid_campaign_is_restarted_and_the_retries_run_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    served: list[LocalServers] = []
    real = serve_in_processes

    @contextlib.asynccontextmanager
    async def recorded(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with real(*args, **kwargs) as servers:
            served.append(servers)
            yield servers

    monkeypatch.setattr(evaluation, "serve_in_processes", recorded)
    opts = EvalOptions(
        env="helpdesk",
        agent=_KillingReference(served, which),
        tasks=["order-status"],
        bands=["easy"],
        seeds=[0, 1, 2, 3],
        epochs=1,
        concurrency=1,
        env_url=None,
        grading_url=None,
        grading_token=None,
        store=tmp_path / "runs" / "mcpgym.db",
        episodes=tmp_path / "runs" / "episodes",
        baseline=False,
        timeout=60.0,
        argv=["test"],
        infra_retry_wait=0.2,
        servers="processes",
    )

    async def main() -> Any:
        with anyio.fail_after(240):
            return await evaluate(opts, Console(quiet=True), CampaignStatus())

    out = anyio.run(main)
    assert out is not None
    log = (tmp_path / "runs" / "servers.log").read_text()
    terms = [(r.seed, r.termination) for r in out[0].records]
    assert terms == [(s, "completed") for s in range(4)], (terms, log[-3000:])
    assert all(r.score == 1.0 for r in out[0].records)
    role = "environment server" if which == "environment" else "grading service"
    assert f"the {role} process died (exit status -9); restarting it on port" in log
    assert f"the {role} serves again at" in log
    assert not _children(os.getpid())  # the restarted child stopped with the campaign
