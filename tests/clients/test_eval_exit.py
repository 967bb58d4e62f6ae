"""`mcpgym eval` says how many planned episodes are unscored, exits 3; a rerun retries them."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.campaign import EXIT_INCOMPLETE
from mcpgym_clients.cli import app

LOOP = """
from mcpgym_clients import HarnessContext

async def loop(task: HarnessContext) -> str:
    if task.variant_id.endswith("#1"):
        raise RuntimeError("the lab's loop broke on this one")
    return "no idea"
"""


def test_unscored_episodes_give_exit_3_and_the_same_command_retries_them(tmp_path: Path) -> None:
    harness = tmp_path / "half_broken.py"
    harness.write_text(LOOP, encoding="utf-8")
    store = tmp_path / "runs.db"
    args = ["eval", "helpdesk", "--agent", f"{harness}:loop", "--tasks", "order-status"]
    args += ["--bands", "easy", "--seeds", "0-1", "--no-baseline", "--store", str(store)]
    runner = CliRunner()

    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == EXIT_INCOMPLETE == 3, first.output
    with RunStore(store) as runs:
        (run,) = runs.runs()
        rows = runs.episodes(run["id"])
    assert sorted((r["seed"], r["termination"], r["scored"]) for r in rows) == [
        (0, "completed", 1),
        (1, "model_error", 0),
    ]
    assert run["finished_at"] is not None  # every slot has its outcome; one is unscored
    text = " ".join(first.output.split())
    assert (
        "incomplete: 1 of 2 planned episodes are unscored (model_error 1); run the same "
        f"command again to resume run {run['id']} and retry them"
    ) in text

    again = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert again.exit_code == 3, again.output
    text = " ".join(again.output.split())
    assert f"resuming run {run['id']}: 1 of 2 episodes done; retrying 1 model_error episodes" in (
        text
    )
    with RunStore(store) as runs:
        assert [r["id"] for r in runs.runs()] == [run["id"]]
        retried = runs.episodes(run["id"])
    assert len(retried) == 2
    assert {r["episode_id"] for r in retried if r["seed"] == 0} == {
        r["episode_id"] for r in rows if r["seed"] == 0
    }  # the scored episode was kept, not run again
