"""Tokens, cost and episode time: summed per run and family, unknown never shown as zero."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients.cli import app
from mcpgym_clients.measure import compare_runs, run_metrics
from mcpgym_clients.measure.usage import (
    format_cost,
    format_count,
    format_seconds,
    usage_delta,
    usage_figures,
    usage_notice,
)
from mcpgym_clients.runstore import RunStore

from .synthetic import rec, store_run

runner = CliRunner()


def _row(usage: dict[str, object] | None, duration: float | None = 1.0, task: str = "t") -> dict:
    return {"task": task, "usage": usage, "duration_s": duration}


def test_counts_are_summed_and_a_count_nobody_reported_stays_unknown() -> None:
    rows = [
        _row({"requests": 2, "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}),
        _row({"requests": 1, "prompt_tokens": 50, "completion_tokens": 5, "cached_tokens": 40}),
        _row(None, duration=3.0),  # a harness that reported nothing
    ]
    u = usage_figures(rows)
    assert (u["episodes"], u["reported"]) == (3, 2)
    assert (u["requests"], u["prompt_tokens"], u["completion_tokens"]) == (3, 150, 25)
    assert u["cached_tokens"] == 40
    assert u["reasoning_tokens"] is None and u["cost_usd"] is None  # unknown, not 0
    assert u["total_tokens"] == 120  # only what was reported as total
    assert u["tokens_per_episode"] == pytest.approx(60.0)
    assert u["duration_s"]["max"] == 3.0 and u["duration_s"]["median"] == 1.0


def test_a_server_that_reports_no_usage_is_not_counted_as_reporting() -> None:
    # llama-cpp-python's stream carries no usage: the episode row has the harness's own
    # request count only (adv/round20sys/REAL_MODEL.md, 3 real episodes: "usage reported 3")
    rows = [_row({"requests": 3, "retries": 0, "retry_wait_ms": 0}) for _ in range(3)]
    u = usage_figures(rows)
    assert (u["episodes"], u["reported"], u["requests"]) == (3, 0, 9)
    assert u["prompt_tokens"] is None and u["tokens_per_episode"] is None
    assert usage_notice(u["episodes"], u["reported"], legend=False) == (
        "usage not reported for any of the 3 episodes"
    )


def test_totals_are_derived_from_prompt_and_completion_when_no_total_was_reported() -> None:
    u = usage_figures([_row({"prompt_tokens": 10, "completion_tokens": 2, "cost_usd": 0.25})])
    assert u["total_tokens"] == 12 and u["cost_usd"] == 0.25


def test_non_numbers_in_usage_are_ignored_not_summed() -> None:
    u = usage_figures([_row({"prompt_tokens": "12", "completion_tokens": True, "requests": 1})])
    assert u["prompt_tokens"] is None and u["completion_tokens"] is None and u["requests"] == 1


def test_delta_is_b_minus_a_and_unknown_where_either_side_is() -> None:
    a = usage_figures([_row({"prompt_tokens": 100, "cost_usd": 1.0}, duration=2.0)])
    b = usage_figures([_row({"prompt_tokens": 80}, duration=5.0)])
    d = usage_delta(a, b)
    assert d["prompt_tokens"] == -20 and d["cost_usd"] is None
    assert d["mean_duration_s"] == pytest.approx(3.0)


@pytest.mark.parametrize(
    ("value", "text"), [(None, "-"), (950, "950"), (12_345, "12.3k"), (4_560_000, "4.56M")]
)
def test_token_counts_read_at_a_glance(value: float | None, text: str) -> None:
    assert format_count(value) == text


def test_cost_and_seconds_formats() -> None:
    assert (format_cost(None), format_cost(0.0123), format_cost(12.5)) == ("-", "$0.0123", "$12.50")
    assert (format_seconds(0.5), format_seconds(42.0), format_seconds(245)) == (
        "0.50s",
        "42.0s",
        "4m05s",
    )


def _with_usage(prompt: int, cost: float | None, duration: float, **kw: object):
    r = rec("refund", "easy", kw.pop("seed", 0), 0, 1.0, True, **kw)  # type: ignore[arg-type]
    usage = {"requests": 1, "prompt_tokens": prompt, "completion_tokens": 10}
    if cost is not None:
        usage["cost_usd"] = cost
    return dataclasses.replace(r, usage=usage, duration_s=duration)


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, str, str]:
    db = tmp_path / "u.db"
    with RunStore(db) as s:
        a = store_run(s, [_with_usage(1000, 0.01, 2.0, seed=i) for i in range(3)])
        b = store_run(
            s, [_with_usage(400, 0.004, 1.0, seed=i) for i in range(3)], model="new-model"
        )
    return db, a, b


def test_show_runs_and_compare_give_tokens_cost_and_time(store: tuple[Path, str, str]) -> None:
    db, a, b = store
    with RunStore.open_read_only(db) as s:
        m = run_metrics(s, b, resamples=100)
        c = compare_runs(s, a, b, resamples=100)
    assert m["usage"]["overall"]["prompt_tokens"] == 1200
    assert m["usage"]["by_family"]["refund"]["cost_usd"] == pytest.approx(0.012)
    assert c["usage"]["delta"]["prompt_tokens"] == 1200 - 3000
    assert c["usage"]["delta"]["mean_duration_s"] == pytest.approx(-1.0)
    assert c["label_b"] == "openai (new-model)" and c["label_a"] == "openai"

    out = runner.invoke(
        app, ["show", b, "--store", str(db), "--json", str(db.with_suffix(".json"))]
    )
    assert out.exit_code == 0, out.output
    assert "tokens, cost and time" in out.output and "$0.0120" in out.output
    assert json.loads(db.with_suffix(".json").read_text())["usage"]["overall"]["requests"] == 3
    listed = runner.invoke(app, ["runs", "--store", str(db)])
    assert "3,030" in listed.output and "$0.0300" in listed.output  # 3 x (1000 + 10), run A
    compared = runner.invoke(app, ["compare", a, b, "--store", str(db)])
    assert compared.exit_code == 0, compared.output
    assert "B - A" in compared.output and "-1,800" in compared.output


def test_show_says_when_a_run_is_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "open.db"
    with RunStore(db) as s:
        run = s.create_run(env="toy", env_version="1.0.0", lock="a" * 64, agent="reference")
        s.add_episode(run, _with_usage(10, None, 1.0))
    out = runner.invoke(app, ["show", run, "--store", str(db)])
    assert out.exit_code == 0, out.output
    assert f"note: run {run} is unfinished (1 episodes stored" in " ".join(out.output.split())


def test_differences_carry_their_sign() -> None:
    assert (format_count(1200, signed=True), format_count(-12_345, signed=True)) == (
        "+1,200",
        "-12.3k",
    )
    assert (format_cost(0.01, signed=True), format_cost(-0.01, signed=True)) == (
        "+$0.0100",
        "-$0.0100",
    )
    assert (format_seconds(1.0, signed=True), format_seconds(-130, signed=True)) == (
        "+1.00s",
        "-2m10s",
    )
    assert format_count(None, signed=True) == "-" and format_count(5) == "5"
