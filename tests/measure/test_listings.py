"""What `mcpgym runs`, `show --episodes`, `compare` and the report list and say: episodes
in variant order, `runs --json`, and one wording for usage the model API did not report."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.measure.usage import usage_legend, usage_notice
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.runstore import RunStore

from .synthetic import rec, store_run

runner = CliRunner()
# stored as a campaign finishes them: not in task, band, seed, epoch order
STORED = [
    ("refund", "hard", 1, 0),
    ("refund", "easy", 2, 0),
    ("cancel", "medium", 0, 1),
    ("refund", "easy", 10, 0),
    ("cancel", "medium", 0, 0),
    ("refund", "expert", 0, 0),
    ("refund", "easy", 1, 0),
]


def _used(r: Any, prompt: int) -> Any:
    usage = {"requests": 1, "prompt_tokens": prompt, "completion_tokens": 5}
    return dataclasses.replace(r, usage=usage, duration_s=1.0)


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, str, str]:
    """Run A: only two of its seven episodes reported usage; run B (its successor, model
    m2): all did."""
    db = tmp_path / "l.db"
    records = [rec(t, b, s, e, 1.0, True) for t, b, s, e in STORED]
    with RunStore(db) as s:
        a = store_run(
            s, [_used(r, 100) if i in (1, 3) else r for i, r in enumerate(records)], epochs=2
        )
        b = store_run(s, [_used(r, 10) for r in records], epochs=2, model="m2")
    return db, a, b


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_show_episodes_lists_them_by_task_band_seed_and_epoch(
    store: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, a, _ = store
    out = tmp_path / "e.json"
    result = runner.invoke(
        app,
        ["show", a, "--episodes", "--json", str(out), "--store", str(db)],
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 0, result.output
    expected = [
        ("cancel@medium#0", 0),
        ("cancel@medium#0", 1),
        ("refund@easy#1", 0),
        ("refund@easy#2", 0),
        ("refund@easy#10", 0),  # seeds as numbers, not as text
        ("refund@hard#1", 0),  # bands easiest first, not alphabetically
        ("refund@expert#0", 0),
    ]
    listing = json.loads(out.read_text())["episodes"]
    assert [(e["variant"], e["epoch"]) for e in listing] == expected
    printed = [line.split()[0] for line in result.output.splitlines() if "@" in line]
    assert printed[: len(expected)] == [v for v, _ in expected]


def test_runs_json_lists_each_run_with_its_figures_in_the_table_order(
    store: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, a, b = store
    out = tmp_path / "runs.json"
    result = runner.invoke(app, ["runs", "--json", str(out), "--store", str(db)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["store"] == str(db)
    assert [r["run"]["id"] for r in data["runs"]] == [b, a]  # newest first, as printed
    newest, oldest = data["runs"]
    assert newest["run"]["model"] == "m2" and newest["run"]["baseline_of"] is None
    assert newest["short_id"] in result.output and newest["state"] == "done"
    assert (newest["episodes"], newest["scored"], newest["pass_rate"]) == (7, 7, 1.0)
    assert newest["usage"] == {"episodes": 7, "reported": 7, "total_tokens": 105, "cost_usd": None}
    assert oldest["usage"]["reported"] == 2 and oldest["usage"]["total_tokens"] == 210


def test_usage_that_was_not_reported_is_worded_one_way_everywhere(
    store: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, a, b = store
    notice = usage_notice(7, 2)
    assert notice == (
        "usage not reported for 5 of 7 episodes: the sums cover the other 2; "
        "- = not reported by the model API (unknown, never counted as zero)"
    )
    assert usage_notice(7, 7) is None and usage_notice(0, 0) is None
    assert usage_notice(3, 0, legend=False) == "usage not reported for any of the 3 episodes"

    shown = runner.invoke(app, ["show", a, "--store", str(db)], env={"COLUMNS": "200"})
    assert notice in _flat(shown.output) and "usage reported" in shown.output
    shown_b = runner.invoke(app, ["show", b, "--store", str(db)], env={"COLUMNS": "200"})
    assert usage_legend() in _flat(shown_b.output) and "usage not reported" not in shown_b.output
    listed = runner.invoke(app, ["runs", "--store", str(db)], env={"COLUMNS": "200"})
    assert usage_notice(14, 9) in _flat(listed.output)
    compared = runner.invoke(app, ["compare", a, b, "--store", str(db)], env={"COLUMNS": "200"})
    assert f"A (openai): {notice}" in _flat(compared.output)
    assert "B (openai (m2)): usage not reported" not in compared.output

    page = tmp_path / "r.html"
    args = ["report", a, "--vs", b, "--store", str(db), "--out", str(page)]
    assert runner.invoke(app, args).exit_code == 0
    html = _flat(page.read_text())
    assert usage_legend("–") in html and "<th>usage reported</th>" in html
    assert usage_notice(7, 2, legend=False) in html


def test_runs_of_agents_without_a_model_show_no_usage(tmp_path: Path) -> None:
    # reference, null and random make no model calls: no table of dashes, no
    # "usage not reported" line under `show` or `runs`.
    db = tmp_path / "ref.db"
    with RunStore(db) as s:
        ref = store_run(
            s, [rec(t, b, sd, e, 1.0, True) for t, b, sd, e in STORED], agent="reference"
        )
    shown = runner.invoke(app, ["show", ref, "--store", str(db)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    listed = runner.invoke(app, ["runs", "--store", str(db)], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, listed.output
    for out in (shown.output, listed.output):
        assert "usage not reported" not in out and "usage reported" not in out


def test_slots_a_stopped_campaign_never_played_are_said_so_and_count_for_no_usage(
    tmp_path: Path,
) -> None:
    # Stop 25, F7: `show` said "unfinished (16 episodes stored, not every planned one)"
    # when every slot held a row, and `runs` "usage not reported for 15 of 16" counting
    # the 15 rows of slots never played (no model request to report).
    db = tmp_path / "s.db"
    names = [f"refund@easy#{s}" for s in range(16)]
    with RunStore(db) as s:
        run_id = s.create_run(
            env="toy",
            env_version="1.0.0",
            lock="l",
            agent="openai",
            model="m",
            selection={"variants": names, "epochs": 1},
        )
        s.add_episode(run_id, _used(rec("refund", "easy", 0, 0, 1.0, True), 100))
        template = EpisodeRecord(  # as `store_not_run` stores them
            agent="openai", task="", band="", seed=0, error="not run to its end: stopped"
        )
        s.add_unplayed(run_id, template, [("refund", "easy", n, 0) for n in range(1, 16)])
    listed = runner.invoke(app, ["runs", "--store", str(db)], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, listed.output
    assert "not reported for" not in _flat(listed.output), listed.output
    shown = runner.invoke(app, ["show", run_id, "--store", str(db)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    text = _flat(shown.output)
    assert "not every planned one" not in text
    assert (
        "is unfinished (each of its 16 planned episodes holds a row; 15 of them unscored as "
        "not run" in text
    ), text
    assert "not reported for" not in text


def test_usage_counts_are_written_with_thousands_separators() -> None:
    assert usage_notice(64_000, 32, legend=False) == (
        "usage not reported for 63,968 of 64,000 episodes: the sums cover the other 32"
    )


def test_runs_on_a_store_without_a_run_says_so(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    RunStore(db).close()  # what an `eval` that failed before its first run leaves
    out = tmp_path / "runs.json"
    result = runner.invoke(app, ["runs", "--store", str(db), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert _flat(result.output) == f"the run store {db} holds no run yet: `mcpgym eval` makes one"
    assert json.loads(out.read_text())["runs"] == []
