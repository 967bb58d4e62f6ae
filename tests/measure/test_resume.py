"""A campaign killed midway (SIGKILL) resumes with the same command and skips what is done."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.cli import app
from mcpgym_server import load_environment

ROOT = Path(__file__).resolve().parents[2]
MCPGYM = str(Path(sys.executable).with_name("mcpgym"))  # the console script of this venv
SELECTION = ["--tasks", "order-status", "--seeds", "0-1", "--epochs", "2"]
AGENT_EPISODES = len(load_environment("helpdesk").families["order-status"].bands) * 2 * 2
"""bands x seeds x epochs of the campaign below."""


def stored(db: Path) -> int:
    """Episodes of the reference run committed so far (0 before the store exists)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(
            conn.execute(
                "SELECT count(*) FROM episodes JOIN runs ON runs.id = episodes.run_id "
                "WHERE runs.agent = 'reference'"
            ).fetchone()[0]
        )
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        conn.close()


def command(db: Path) -> list[str]:
    return [MCPGYM, "eval", "helpdesk", "--agent"] + [
        "reference",
        *SELECTION,
        "--concurrency",
        "1",
        "--store",
        str(db),
    ]


@pytest.mark.anyio
async def test_a_killed_campaign_resumes_and_ends_with_one_episode_per_slot(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runs" / "mcpgym.db"
    env = {**os.environ, "COLUMNS": "200"}
    with anyio.fail_after(60):
        proc = await anyio.open_process(
            command(db), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        async with proc:
            while stored(db) < 3:  # bounded poll of the store: kill once some are committed
                assert proc.returncode is None, "the campaign ended before it could be killed"
                await anyio.sleep(0.02)
            proc.send_signal(signal.SIGKILL)
            assert await proc.wait() == -signal.SIGKILL
    with RunStore(db) as runs:
        (first,) = [r for r in runs.runs() if r["agent"] == "reference"]
        kept = {e["id"]: e for e in runs.episodes(first["id"])}
    assert first["finished_at"] is None
    assert 3 <= len(kept) < AGENT_EPISODES

    with anyio.fail_after(90):
        result = await anyio.run_process(command(db), cwd=ROOT, env=env, check=False)
    out = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 0, out
    assert f"resuming run {first['id']}: {len(kept)} of {AGENT_EPISODES} episodes done" in out
    assert "pass@2/^2" in out  # the summary of a two-epoch run shows pass@k and pass^k

    with RunStore(db) as runs:
        reference = [r for r in runs.runs() if r["agent"] == "reference"]
        assert [r["id"] for r in reference] == [first["id"]]  # resumed, not a new run
        episodes = runs.episodes(first["id"])
        baseline = runs.baseline_run(first["id"])
        assert baseline is not None and runs.run(baseline)["finished_at"] is not None
        base_episodes = runs.episodes(baseline)
        assert runs.run(first["id"])["finished_at"] is not None
    slots = [(e["variant_id"], e["epoch"]) for e in episodes]
    assert len(slots) == len(set(slots)) == AGENT_EPISODES
    variants = {e["variant_id"] for e in base_episodes}
    assert len(variants) == len(base_episodes) == AGENT_EPISODES // 2  # one epoch
    # the episodes stored before the kill were skipped, not run again
    after = {e["id"]: e for e in episodes}
    for row_id, row in kept.items():
        assert after[row_id]["episode_id"] == row["episode_id"]
    assert all(e["score"] == 1.0 for e in episodes)


def test_new_run_starts_afresh_instead_of_resuming(tmp_path: Path) -> None:
    db = tmp_path / "mcpgym.db"
    args = ["eval", "helpdesk", "--tasks", "order-status", "--bands", "easy", "--seeds", "0"]
    args += ["--no-baseline", "--store", str(db)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    with RunStore(db) as runs:
        (unfinished,) = [r["id"] for r in runs.runs()]
    conn = sqlite3.connect(db)  # what a crash before its only episode was stored leaves
    with conn:
        conn.execute("DELETE FROM episodes")
        conn.execute("UPDATE runs SET finished_at = NULL")  # concurrency does not matter:
        conn.execute("UPDATE runs SET selection = json_set(selection, '$.concurrency', 9)")
    conn.close()
    fresh = CliRunner().invoke(app, [*args, "--new-run"])
    assert fresh.exit_code == 0, fresh.output
    assert "resuming" not in fresh.output
    with RunStore(db) as runs:
        (new,) = [r for r in runs.runs() if r["id"] != unfinished]
        assert new["finished_at"] is not None and len(runs.episodes(new["id"])) == 1
        assert runs.run(unfinished)["finished_at"] is None  # left as it was: still resumable
        keys = ("env", "lock", "agent", "model", "settings", "selection", "conditions")
        assert runs.find_resumable(**{k: new[k] for k in keys}) == unfinished
