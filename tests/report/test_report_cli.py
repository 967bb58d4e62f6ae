"""``mcpgym report`` on the real runs: where the file goes, what it holds, and one-line errors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.runstore import RunStore

from .conftest import Campaign

runner = CliRunner()


@pytest.fixture
def store_copy(campaign: Campaign, tmp_path: Path) -> Path:
    """A private copy of the campaign's run store (tests that add runs use it)."""
    with RunStore(campaign.store) as store:
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "runs" / "mcpgym.db"
    copy.parent.mkdir()
    shutil.copy(campaign.store, copy)
    return copy


def test_report_writes_next_to_the_store_and_prints_the_path(store_copy: Path) -> None:
    with RunStore(store_copy) as store:
        run = next(r for r in store.runs() if r["agent"] == "reference")
        baseline = next(r for r in store.runs() if r["baseline_of"] == run["id"])
        n_episodes = len(store.episodes(run["id"])) + len(store.episodes(baseline["id"]))
    result = runner.invoke(app, ["report", run["id"], "--store", str(store_copy)])
    assert result.exit_code == 0, result.output
    path = store_copy.parent / "reports" / f"{run['id']}.html"
    assert result.output == f"{path}\n"
    html = path.read_text()
    assert html.startswith("<!DOCTYPE html>") and f"run {run['id']}" in html
    assert html.count('<details class="episode"') == n_episodes  # the run's and its baseline's
    assert 'id="comparison"' not in html
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    # again: the file is replaced, no temporary file is left behind
    assert runner.invoke(app, ["report", run["id"], "--store", str(store_copy)]).exit_code == 0
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_report_vs_writes_the_comparison_where_asked(campaign: Campaign, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "cmp.html"
    result = runner.invoke(
        app,
        [
            "report",
            campaign.reference[:-2],  # a unique prefix will do
            "--vs",
            campaign.hostile,  # the baseline: A
            "--store",
            str(campaign.store),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    html = out.read_text()
    # `report NEW --vs BASELINE`: A is the baseline, B the run reported, delta = B - A
    assert f"(run {campaign.hostile}), B = <b>reference</b> (run {campaign.reference})" in html
    assert "Newly solved by B (reference): 8," in html and "Regressed in B (reference): 0," in html
    assert "FORCED" not in html


def test_report_vs_its_own_baseline_shows_each_episode_once(campaign: Campaign) -> None:
    out = campaign.store.parent / "vs-baseline.html"
    args = ["report", campaign.reference, "--vs", campaign.baseline, "--store", str(campaign.store)]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    ids = re.findall(r'<details class="episode" id="(ep-\d+)"', html)
    assert len(ids) == len(set(ids)) == 16 + 8  # reference (2 epochs) and null (1 epoch)
    # A is the --vs run (the null baseline), B the reference: its wins are B's, by agent
    assert "Newly solved by B (reference): 8, failed by A (null)" in html


def test_an_unknown_run_is_a_one_line_error(campaign: Campaign) -> None:
    result = runner.invoke(app, ["report", "no-such-run", "--store", str(campaign.store)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: unknown run 'no-such-run'; `mcpgym runs` lists the runs"
    ]


def test_a_missing_store_is_a_one_line_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", "r", "--store", str(tmp_path / "nope.db")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"error: no run store at {tmp_path / 'nope.db'}; run `mcpgym eval` first or pass --store"
    ]


def test_runs_on_different_locks_are_refused_unless_forced(store_copy: Path) -> None:
    with RunStore(store_copy) as store:
        run = next(r for r in store.runs() if r["agent"] == "reference")
        other = store.create_run(
            env="helpdesk", env_version="1.0.0", lock="0" * 64, agent="reference"
        )
        rows = [dict(e, run_id=other) for e in store.episodes(run["id"])]
        for row in rows:  # the same episodes, stored as another run
            del row["id"]
            for col in ("grade", "transcript", "usage", "timings"):
                row[col] = None if row[col] is None else json.dumps(row[col])
        store.db.table("episodes").insert_all(rows)
    args = ["report", run["id"], "--vs", other, "--store", str(store_copy)]
    refused = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert refused.exit_code == 1
    (line,) = refused.output.strip().splitlines()
    assert line.startswith("error: runs ") and "different locks" in line and "--force" in line
    assert f"(lock {'0' * 12} vs {run['lock'][:12]})" in line  # A = the --vs run
    forced = runner.invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    html = Path(forced.output.strip()).read_text()
    assert "FORCED" in html and "Regressed in B (reference): 0" in html
    assert "Newly solved by B (reference): 0" in html
