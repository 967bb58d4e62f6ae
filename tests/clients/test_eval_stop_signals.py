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
from pathlib import Path
from typing import Any

import pytest

from mcpgym_clients import RunStore
from mcpgym_clients.stopping import stop_signals
from tests.clients._eval_process import eval_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


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
    """`eval_until` on this file's campaign."""
    return eval_until(tmp, ARGS, marker, group=True)


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
        rows = [e for r in runs for e in store.episodes(r["id"])]
    stored = sum(not (e["error"] or "").startswith("not run to its end") for e in rows)
    assert all(r["finished_at"] is None for r in runs)  # left resumable
    assert stored >= 3
    assert len(rows) == 802  # every planned slot is one row, those not played unscored
    assert (
        f"interrupted by {signum.name}: {stored} of 802 episodes completed are in runs.db "
        f"(run {main['id']}"
    ) in text, text
    assert f"the other {802 - stored} are stored unscored as not run" in text, text
    # The same command resumes that run (stopped again once it says so).
    again, lines = _eval_until(tmp_path, f"resuming run {main['id']}")
    _stop(again, signal.SIGINT)
    assert again.returncode == 130, "".join(lines)


def test_the_interrupted_line_writes_every_count_with_thousands_separators(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A stop of a large plan said "0 of 224056 episodes completed ... and 224,040 never
    # started": one count grouped, the other not, in the same line.
    from types import SimpleNamespace

    from mcpgym_clients.campaign import CampaignStatus
    from mcpgym_clients.commands import evaluate

    status = CampaignStatus(run_id="r1", total=224_056, stored=1_200, not_run=16)
    status.not_started = 222_840
    opts: Any = SimpleNamespace(store=Path("runs.db"))
    interrupted = evaluate._interrupted  # pyright: ignore[reportPrivateUsage]
    interrupted(opts, status, signal.SIGINT)
    text = " ".join(capsys.readouterr().err.split())
    assert "interrupted: 1,200 of 224,056 episodes completed are in runs.db" in text, text
    assert "16 in flight are stored unscored as not run and 222,840 never started" in text
    status = CampaignStatus(run_id="r1", total=2_400, stored=1, not_run=2_399)
    interrupted(opts, status, signal.SIGINT)
    text = " ".join(capsys.readouterr().err.split())
    assert "1 of 2,400 episodes completed" in text and "the other 2,399 are stored" in text
