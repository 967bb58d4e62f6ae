"""One campaign per run at a time: a second process resuming a run being run is refused.

Round 11 S1-2: two `mcpgym eval` commands started at once both resumed the same unfinished
run and both ran its missing episodes (40 served for 20 slots, both exit 0). The claim is
a real ``flock`` held by a real second process here.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.cli import app
from mcpgym_clients.run_claims import RunBusyError, claim_run, release_run

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")

LOOP = """
from mcpgym_clients import HarnessContext

async def loop(task: HarnessContext) -> str:
    if task.variant_id.endswith("#1"):
        raise RuntimeError("the lab's loop broke on this one")
    return "no idea"
"""


def _holder(store: Path, run_id: str) -> subprocess.Popen[str]:
    """A process that claims ``run_id`` and holds it until its stdin closes."""
    code = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from mcpgym_clients.run_claims import claim_run
        claim_run(Path({str(store)!r}), {run_id!r})
        print("held", flush=True)
        sys.stdin.read()
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_claim_held_by_another_process_is_refused_and_dropped_when_it_ends(
    tmp_path: Path,
) -> None:
    store = tmp_path / "runs.db"
    holder = _holder(store, "r1")
    try:
        with pytest.raises(RunBusyError, match=rf"run r1 .* process {holder.pid}.*--new-run"):
            claim_run(store, "r1")
        claim_run(store, "r2")  # another run of the same store is free
        release_run(store, "r2")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    claim_run(store, "r1")  # the holder ended: its lock went with it
    claim_run(store, "r1")  # this process may claim a run it holds again
    release_run(store, "r1")
    release_run(store, "r1")
    other = _holder(store, "r1")  # released twice: another process can claim it
    assert other.stdin is not None
    other.stdin.close()
    other.wait(timeout=30)


def test_the_same_command_run_while_its_run_is_being_run_is_refused(tmp_path: Path) -> None:
    harness = tmp_path / "half_broken.py"
    harness.write_text(LOOP, encoding="utf-8")
    store = tmp_path / "runs.db"
    args = ["eval", "helpdesk", "--agent", f"{harness}:loop", "--tasks", "order-status"]
    args += ["--bands", "easy", "--seeds", "0-1", "--no-baseline", "--store", str(store)]
    runner = CliRunner()
    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == 3, first.output  # one slot unscored: the run is resumable
    with RunStore(store) as runs:
        (run,) = runs.runs()

    holder = _holder(store, run["id"])  # as if another `mcpgym eval` were running it now
    try:
        busy = runner.invoke(app, args, env={"COLUMNS": "200"})
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    text = " ".join(busy.output.split())
    assert busy.exit_code == 1, busy.output
    assert f"run {run['id']}" in text and f"process {holder.pid}" in text, text
    with RunStore(store) as runs:
        assert [r["id"] for r in runs.runs()] == [run["id"]]  # no second run started
        assert len(runs.episodes(run["id"])) == 2  # and nothing run twice

    again = runner.invoke(app, args, env={"COLUMNS": "200"})  # the holder is gone
    assert again.exit_code == 3, again.output
    assert f"resuming run {run['id']}" in " ".join(again.output.split())
