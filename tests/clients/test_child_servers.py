"""`mcpgym_clients.child_servers`: the local servers of ``mcpgym eval`` in processes of their own.

Real child processes on loopback: they serve and grade an episode as the in-process
servers do, keep their secrets off the command line, stop when the campaign's process
closes them, and stop on their own when that process is killed (SIGKILL) without a
word. Environments built in the test process (not installed by name) stay in process.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from mcpgym_clients import EpisodeDriver, ReferenceAgent
from mcpgym_clients.child_servers import serve_in_processes, use_child_processes
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


@pytest.mark.anyio
async def test_child_servers_serve_and_grade_an_episode_and_stop_on_exit(tmp_path: Path) -> None:
    env = load_environment("helpdesk")
    with anyio.fail_after(120):
        async with serve_in_processes(
            "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log"
        ) as servers:
            kids = _children(os.getpid())
            assert len(kids) == 2
            for pid in kids:  # secrets travel on stdin, never on the command line
                argv = _argv(pid)
                assert servers.grading_token not in argv
                assert servers.control_token not in argv
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
            ) as driver:
                rec = await driver.run_episode(ReferenceAgent(), "order-status", "easy", 0)
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
