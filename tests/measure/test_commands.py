"""Two real runs of the demo agents on helpdesk (reference, and null as its baseline), measured
through the library and the ``mcpgym`` commands: show, runs, compare, targets."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.cli import app
from mcpgym_clients.measure import compare_runs, run_metrics
from mcpgym_clients.records import record_from_row

runner = CliRunner()
SELECTION = ["--tasks", "order-status,cancel-order", "--bands", "easy,hard", "--seeds", "0-1"]
PAIRS = 2 * 2 * 2


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``{"db": path, "reference": run id, "null": its baseline run id}``."""
    db = tmp_path_factory.mktemp("measure") / "mcpgym.db"
    result = runner.invoke(
        app, ["eval", "helpdesk", "--agent", "reference", *SELECTION, "--store", str(db)]
    )
    assert result.exit_code == 0, result.output
    with RunStore(db) as store:
        (ref,) = [r["id"] for r in store.runs() if r["agent"] == "reference"]
        null = store.baseline_run(ref)
    return {"db": db, "reference": ref, "null": null}


def cli(runs: dict[str, Any], *args: str) -> Any:
    return runner.invoke(app, [*args, "--store", str(runs["db"])], env={"COLUMNS": "160"})


def test_reference_against_null_is_a_significant_gain_with_every_pair_flipping(
    runs: dict[str, Any],
) -> None:
    with RunStore(runs["db"]) as store:
        c = compare_runs(store, runs["null"], runs["reference"], resamples=1000)
    overall = c["overall"]
    assert (overall["pairs"], overall["pass_a"], overall["pass_b"]) == (PAIRS, 0, PAIRS)
    assert (overall["flips_to_pass"], overall["flips_to_fail"]) == (PAIRS, 0)
    assert overall["mcnemar_p"] == pytest.approx(binomtest(PAIRS, PAIRS, 0.5).pvalue)
    assert overall["mean_b"] == 1.0 and 0 < overall["mean_a"] < 1
    assert overall["delta_ci"][0] > 0  # the whole interval is a gain
    assert [b for b in c["by_band"]] == ["easy", "hard"]
    assert len(c["newly_solved"]) == PAIRS and c["regressed"] == []
    assert all(v["changed_checks"] and v["passed_b"] for v in c["newly_solved"])
    assert all(ch["b"] == "pass" for v in c["newly_solved"] for ch in v["changed_checks"])
    assert c["unpaired"] == {"only_a": 0, "only_b": 0, "excluded": 0}
    with RunStore(runs["db"]) as store:
        back = compare_runs(store, runs["reference"], runs["null"], resamples=200)
    assert len(back["regressed"]) == PAIRS and back["overall"]["delta"] < 0


def test_show_prints_the_metrics_beside_the_baseline_and_writes_json(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "m.json"
    result = cli(runs, "show", runs["reference"][:-2], "--json", str(out))  # a prefix
    assert result.exit_code == 0, result.output
    assert "null mean/pass" in result.output and "order-status@hard" in result.output
    with RunStore(runs["db"]) as store:
        assert json.loads(out.read_text()) == run_metrics(store, runs["reference"])
    data = json.loads(out.read_text())
    assert data["overall"]["pass_rate"] == 1.0 and data["baseline"]["overall"]["pass_rate"] == 0


def test_show_episodes_lists_every_episode_with_its_time_and_tool_calls(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "e.json"
    result = cli(runs, "show", runs["reference"], "--episodes", "--json", str(out))
    assert result.exit_code == 0, result.output
    listing = json.loads(out.read_text())["episodes"]
    assert len(listing) == PAIRS
    assert {e["variant"] for e in listing} >= {"order-status@easy#0", "cancel-order@hard#1"}
    assert all(e["outcome"] == "scored" and e["seconds"] > 0 for e in listing)
    assert all(e["tool_calls"] > 0 for e in listing)
    header = next(line for line in result.output.splitlines() if "variant" in line)
    assert header.split() == [
        "variant",
        "outcome",
        "time",
        "turns",
        "tool",
        "calls",
        "retries",
        "tokens",
    ]
    assert "order-status@easy#0" in result.output


def test_runs_lists_each_run_with_its_baseline(runs: dict[str, Any]) -> None:
    result = cli(runs, "runs")
    assert result.exit_code == 0, result.output
    assert runs["reference"] in result.output and runs["null"] in result.output
    assert "null baseline" in result.output


def test_compare_prints_the_table_and_writes_the_json(runs: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    result = cli(runs, "compare", runs["null"], runs["reference"], "--json", str(out))
    assert result.exit_code == 0, result.output
    assert (
        f"+{PAIRS} / -0" in result.output
        and f"newly solved by B = reference ({PAIRS})" in result.output
    )
    assert "FORCED" not in result.output
    with RunStore(runs["db"]) as store:
        assert json.loads(out.read_text()) == compare_runs(store, runs["null"], runs["reference"])


def other_lock_copy(runs: dict[str, Any]) -> str:
    """The null run copied under another lock whose rubric of one family differs."""
    with RunStore(runs["db"]) as store:
        run = store.run(runs["null"])
        comps = json.loads(json.dumps(run["lock_components"]))
        comps["families"]["order-status"]["rubric_digest"] = "0" * 64
        copy = store.create_run(
            env=run["env"],
            env_version=run["env_version"],
            lock="f" * 64,
            agent="null",
            lock_components=comps,
        )
        for row in store.episodes(runs["null"]):
            store.add_episode(copy, record_from_row(row))
    return copy


def test_compare_refuses_different_locks_and_says_forced_on_every_line(
    runs: dict[str, Any],
) -> None:
    copy = other_lock_copy(runs)
    refused = cli(runs, "compare", copy, runs["reference"])
    assert refused.exit_code == 1
    (line,) = refused.output.strip().splitlines()
    assert line.startswith(f"error: runs {copy} and {runs['reference']} ran on different locks")
    assert "lock ffffffffffff vs " in line
    assert "lock component families.order-status.rubric_digest: 000000000000 vs " in line
    forced = cli(runs, "compare", copy, runs["reference"], "--force")
    assert forced.exit_code == 0, forced.output
    lines = forced.output.splitlines()
    assert len(lines) > PAIRS and all(ln.startswith("FORCED (different locks) | ") for ln in lines)
    assert any("families.order-status.rubric_digest" in ln for ln in lines)


def test_targets_export_failed_checks_with_expected_found_and_transcript(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "targets.jsonl"
    result = cli(runs, "targets", runs["null"], "--out", str(out), "--fresh", "1")
    assert result.exit_code == 0, result.output
    lines = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert len(lines) == PAIRS
    assert f"{PAIRS} failed episodes in" in result.output
    with RunStore(runs["db"]) as store:
        for t in lines:
            assert t["instruction"] and t["failed_checks"]
            assert all({"expected", "found"} <= set(c) for c in t["failed_checks"])
            assert t["group"] == " + ".join(c["check"] for c in t["failed_checks"])
            episode = store.episode(t["transcript"]["episode"])
            assert t["transcript"]["run_id"] == runs["null"] == episode["run_id"]
            assert episode["variant_id"] == t["variant_id"] and episode["transcript"]
    assert "below the ceiling" in result.output


def test_targets_list_fresh_variants_validated_where_a_family_is_at_the_ceiling(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "t.json"
    result = cli(runs, "targets", runs["reference"], "--json", str(out), "--fresh", "2")
    assert result.exit_code == 0, result.output
    assert "0 failed episodes" in result.output
    ceiling = json.loads(out.read_text())["ceiling"]
    assert [f["family"] for f in ceiling] == ["order-status", "cancel-order"]
    for fam in ceiling:
        assert fam["at_ceiling"] and fam["hardest_band"] == "hard" and fam["pass_rate"] == 1.0
        # helpdesk's generators go up to `expert`: the band after `hard` is listed, validated
        assert [(v["band"], v["seed"]) for v in fam["fresh"]] == [
            ("hard", 2),
            ("hard", 3),
            ("expert", 2),
            ("expert", 3),
        ]
        assert all(v["validated"] and v["reference_score"] == 1.0 for v in fam["fresh"])
        assert all(v["variant_id"].endswith(f"@{v['band']}#{v['seed']}") for v in fam["fresh"])
        assert fam["unsupported"] == []
    assert "does not support band" not in result.output
    assert "expert" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "nope"], "error: unknown run 'nope'; `mcpgym runs` lists the runs"),
        (["compare", "2", "nope"], "is ambiguous"),
    ],
)
def test_bad_run_references_are_one_line_errors(
    runs: dict[str, Any], args: list[str], message: str
) -> None:
    result = cli(runs, *args)
    assert result.exit_code == 2  # a usage error: the argument names no run
    (line,) = result.output.strip().splitlines()
    assert message in line


def test_a_missing_store_is_a_one_line_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", "latest", "--store", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: no run store at {tmp_path / 'none.db'}; run `mcpgym eval` first or pass --store"
    )
    assert not (tmp_path / "none.db").exists()


def _shown_numbers(g: dict[str, Any]) -> list[str]:
    """How `show` prints the figures of one group (JSON ``G``)."""
    out = [str(g["episodes"]), str(g["variants"])]
    if g["mean_score"] is not None:
        out.append(f"{g['mean_score']:.3f}")
        out.append(f"{g['pass_rate']:.0%}")
    if g["mean_score_ci"]:
        out.append("[{:.2f},{:.2f}]".format(*g["mean_score_ci"]))
        out.append("[{:.0%},{:.0%}]".format(*g["pass_rate_ci"]))
    if g["epochs"] > 1:
        for key in ("pass_at_k", "pass_hat_k"):
            out += ["-" if v is None else f"{v:.2f}" for v in g[key].values()]
    return out


def test_piped_tables_fit_120_columns_and_print_every_number_whole(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    from .synthetic import rec, store_run

    db = tmp_path / "three.db"
    with RunStore(db) as store:  # three epochs and a baseline: the widest `show` table
        records = [
            rec(task, band, seed, e, 0.25 * ((seed + e) % 4) + 0.0625, (seed + e) % 3 == 0)
            for task in ("order-status", "cancel-order")
            for band in ("easy", "medium", "hard")
            for seed in range(3)
            for e in range(3)
        ]
        run = store_run(store, records, epochs=3, model="vendor:a-rather-long-model-name")
        store_run(
            store,
            [rec(*r, 0.0, False) for r in {(x.task, x.band, x.seed, 0) for x in records}],
            agent="null",
            baseline_of=run,
        )
    out = tmp_path / "m.json"
    env = {"COLUMNS": "80"}
    shown = runner.invoke(
        app, ["show", run, "--json", str(out), "--store", str(db), "--resamples", "200"], env=env
    )
    assert shown.exit_code == 0, shown.output
    m = json.loads(out.read_text())
    groups = [m["overall"], *m["by_band"].values(), *m["by_family_band"].values()]
    for g in groups:
        for number in _shown_numbers(g):
            assert number in shown.output, (number, shown.output)
    assert "…" not in shown.output
    widest = max(len(line) for line in shown.output.splitlines())
    assert widest <= 120, f"piped output is {widest} columns wide"

    cmp_json = tmp_path / "c.json"
    compared = runner.invoke(
        app,
        [
            "compare",
            runs["null"],
            runs["reference"],
            "--json",
            str(cmp_json),
            "--store",
            str(runs["db"]),
        ],
        env=env,
    )
    assert compared.exit_code == 0, compared.output
    c = json.loads(cmp_json.read_text())
    for g in [c["overall"], *c["by_band"].values(), *c["by_family"].values()]:
        numbers = [
            f"{g['mean_a']:.3f}",
            f"{g['mean_b']:.3f}",
            f"{g['delta']:+.3f}",
            f"{g['mcnemar_p']:.3g}",
        ]
        if g["delta_ci"]:
            numbers.append("[{:+.3f},{:+.3f}]".format(*g["delta_ci"]))
        for number in numbers:
            assert number in compared.output, (number, compared.output)
        assert g["mcnemar_test"] in compared.output
    assert "…" not in compared.output


@pytest.mark.parametrize("command", [["show", "latest"], ["runs"], ["targets", "latest"]])
def test_read_only_commands_refuse_a_file_that_is_not_a_run_store_and_leave_it_alone(
    tmp_path: Path, command: list[str]
) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    result = runner.invoke(app, [*command, "--store", str(other)])
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {other} is not a run store (no runs or episodes table)")
    assert other.read_bytes() == before  # no tables created, still not in WAL mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]

    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 10)
    result = runner.invoke(app, [*command, "--store", str(text)])
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {text} is not a run store: cannot read it as SQLite")
    assert text.read_text() == "not a database at all\n" * 10


def test_read_only_commands_do_not_write_to_the_run_store(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    src = sqlite3.connect(runs["db"])
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.execute("PRAGMA journal_mode=DELETE")  # rollback journal: a WAL switch would show
    dst.close()
    before = copy.read_bytes()
    fast = ["--resamples", "100"]
    for args in (
        ["runs"],
        ["show", "latest", *fast],
        ["compare", runs["null"], runs["reference"], *fast],
    ):
        result = runner.invoke(app, [*args, "--store", str(copy)])
        assert result.exit_code == 0, result.output
    assert copy.read_bytes() == before
    conn = sqlite3.connect(copy)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_runs_labels_stored_and_scored_episodes_as_show_does(tmp_path: Path) -> None:
    from .synthetic import rec, store_run

    db = tmp_path / "r.db"
    with RunStore(db) as store:
        run = store_run(
            store,
            [
                rec("refund", "easy", 0, 0, 1.0, True),
                rec("refund", "easy", 1, 0, 0.5, False),
                rec("refund", "easy", 2, 0, None, termination="infra_error"),
            ],
        )
    listed = runner.invoke(app, ["runs", "--store", str(db)], env={"COLUMNS": "80"})
    assert listed.exit_code == 0, listed.output
    header = next(ln for ln in listed.output.splitlines() if "agent" in ln).split()
    row = next(ln for ln in listed.output.splitlines() if ln.strip().startswith(run)).split()
    assert header[:7] == ["run", "short", "agent", "episodes", "scored", "mean", "pass"]
    assert row[1] == run.rsplit("-", 1)[1]  # the short name `show` and `compare` accept
    assert row[3:7] == ["3", "2", "0.750", "50%"]
    shown = runner.invoke(app, ["show", run, "--store", str(db)], env={"COLUMNS": "80"})
    assert "scored" in shown.output and "infra_error 1" in shown.output


def test_compare_of_two_environments_says_so_in_one_short_line(runs: dict[str, Any]) -> None:
    with RunStore(runs["db"]) as store:
        run = store.run(runs["null"])
        other = store.create_run(env="ledger", env_version="1.0.0", lock="e" * 64, agent="null")
    for args in (("compare", other, runs["null"]), ("report", runs["null"], "--vs", other)):
        for force in ((), ("--force",)):
            refused = cli(runs, *args, *force)
            assert refused.exit_code == 1
            (line,) = refused.output.strip().splitlines()
            assert line == (  # A = other (the baseline), B = null, for both commands
                f"error: runs {other} and {runs['null']} are on different environments (ledger vs "
                f"{run['env']}): their episodes cannot be paired; compare two runs of one "
                "environment"
            )
