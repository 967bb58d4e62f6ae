"""`mcpgym_clients.child_servers`: the local servers of ``mcpgym eval`` in processes of their own.

Real child processes on loopback: they serve and grade an episode as the in-process
servers do, keep their secrets off the command line, stop when the campaign's process
closes them, and stop on their own when that process is killed (SIGKILL) without a
word. Environments built in the test process (not installed by name) stay in process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from mcpgym_clients import EpisodeDriver, ReferenceAgent
from mcpgym_clients.child_servers import serve_in_processes, use_child_processes
from mcpgym_server import Environment, load_environment

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def _children(pid: int) -> list[int]:
    return [
        int(c)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for c in (task / "children").read_text().split()
    ]


def _alive(pid: int) -> bool:
    """Running (a zombie nobody reaped is not running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


async def _gone(pids: list[int]) -> None:
    """Return once none of ``pids`` runs (bounded by the caller's ``fail_after``)."""
    while any(_alive(p) for p in pids):
        await anyio.sleep(0.05)


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
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
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
        await _gone(kids)  # closing the context stopped both


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
        assert len(kids) == 2 and all(_alive(p) for p in kids)
        proc.send_signal(signal.SIGKILL)  # no clean-up at all: the stdin pipes just close
        proc.wait(30)

        async def wait() -> None:
            with anyio.fail_after(30):
                await _gone(kids)

        anyio.run(wait)
    finally:
        proc.kill()
        proc.wait()


def test_an_environment_not_installed_by_name_is_served_in_process(toy_env: Environment) -> None:
    assert not use_child_processes(toy_env)  # a child could not load it by name
    helpdesk = load_environment("helpdesk")
    cores = len(os.sched_getaffinity(0))
    assert use_child_processes(helpdesk) is (cores > 1)
