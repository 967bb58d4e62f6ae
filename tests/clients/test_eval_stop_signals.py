"""``mcpgym eval`` stops gracefully on every signal that would end it, not only INT and TERM.

Issue 9 §2 (adversarial round 11, S2-2/S2-3, for the servers): a SIGHUP (the terminal or
SSH session closed) or a SIGUSR1 sent to a running ``mcpgym eval`` ended its process at
once, by the signal, without a word on what was kept. Now it stops as on Ctrl-C: what
finished is stored, the run is left unfinished and the same command resumes it, the
process exits with ``128 + signum``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mcpgym_clients import RunStore
from mcpgym_clients.stopping import stop_signals

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

MCPGYM = Path(sys.executable).with_name("mcpgym")


def test_the_campaign_takes_the_servers_stop_signals() -> None:
    import mcpgym_server

    assert stop_signals() == mcpgym_server.stop_signals()
    assert signal.SIGHUP in stop_signals() and signal.SIGUSR1 in stop_signals()
    assert signal.SIGQUIT not in stop_signals() and signal.SIGSEGV not in stop_signals()
    previous = signal.signal(signal.SIGUSR2, signal.SIG_IGN)  # someone else's: left to it
    try:
        assert signal.SIGUSR2 not in stop_signals()
        assert signal.SIGHUP in stop_signals()
    finally:
        signal.signal(signal.SIGUSR2, previous)


ARGS = ["eval", "helpdesk", "--tasks", "order-status", "--bands", "easy"]
ARGS += ["--seeds", "0-400", "--concurrency", "1", "--yes", "--store", "runs.db"]


def _eval_until(tmp: Path, marker: str) -> tuple[subprocess.Popen[str], list[str]]:
    """Start ``mcpgym eval`` in a process group of its own (as a terminal's job) and
    return once a stderr line containing ``marker`` appeared."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(MCPGYM), *ARGS],
        cwd=tmp,
        process_group=0,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    seen = threading.Event()
    watchdog = threading.Timer(120, proc.kill)  # a hung start fails the test, never hangs it
    watchdog.start()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if marker in line:
                seen.set()
        seen.set()

    threading.Thread(target=read, daemon=True).start()
    seen.wait()
    watchdog.cancel()
    assert any(marker in line for line in lines), "".join(lines)
    return proc, lines


def _stop(proc: subprocess.Popen[str], signum: int, *, group: bool = False) -> None:
    if group:  # a closing terminal hangs up its job: the campaign and its child servers
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


@pytest.mark.slow  # two real campaigns with their child servers (45-100 s at load 10)
@pytest.mark.parametrize(
    ("signum", "group"), [(signal.SIGHUP, True), (signal.SIGUSR1, False)], ids=["HUP", "USR1"]
)
def test_a_hangup_stops_the_campaign_cleanly_and_the_same_command_resumes_it(
    signum: signal.Signals, group: bool, tmp_path: Path
) -> None:
    proc, lines = _eval_until(tmp_path, "reference 3/401")
    _stop(proc, signum, group=group)
    text = "".join(lines)
    assert proc.returncode == 128 + signum, text  # not -signum: it did not die by the signal
    with RunStore(tmp_path / "runs.db") as store:
        runs = store.runs()
        main = next(r for r in runs if r["baseline_of"] is None)
        stored = sum(len(store.episodes(r["id"])) for r in runs)
    assert all(r["finished_at"] is None for r in runs)  # left resumable
    assert stored >= 3
    assert (
        f"interrupted by {signum.name}: {stored} of 802 episodes completed are in runs.db "
        f"(run {main['id']}"
    ) in text, text
    # The same command resumes that run (stopped again once it says so).
    again, lines = _eval_until(tmp_path, f"resuming run {main['id']}")
    _stop(again, signal.SIGINT)
    assert again.returncode == 130, "".join(lines)
