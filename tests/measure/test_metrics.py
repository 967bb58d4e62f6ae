"""run_metrics over synthetic grades in a real SQLite run store, checked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgym_clients import ConfigurationError, RunStore
from mcpgym_clients.measure import run_metrics
from mcpgym_clients.measure.stats import pass_at_k, pass_hat_k

from .synthetic import rec, store_run

# Two families, three epochs. refund@easy#0 passes 3/3, refund@easy#1 passes 1/3,
# refund@hard#0 passes 0/2 (its third epoch was an infra error), cancel@easy#0 2/3
# (its third epoch a grade error: not scored), plus a model error on cancel@easy#1.
EPISODES = [
    rec("refund", "easy", 0, 0, 1.0, True),
    rec("refund", "easy", 0, 1, 1.0, True),
    rec("refund", "easy", 0, 2, 1.0, True),
    rec("refund", "easy", 1, 0, 1.0, True),
    rec("refund", "easy", 1, 1, 0.5, False),
    rec("refund", "easy", 1, 2, 0.0, False),
    rec("refund", "hard", 0, 0, 0.25, False),
    rec("refund", "hard", 0, 1, 0.75, False),
    rec("refund", "hard", 0, 2, None, termination="infra_error"),
    rec("cancel", "easy", 0, 0, 1.0, True),
    rec("cancel", "easy", 0, 1, 1.0, True),
    rec("cancel", "easy", 0, 2, None),
    rec("cancel", "easy", 1, 0, 0.0, False, termination="model_error"),
]


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    with RunStore(tmp_path / "runs.db") as s:
        yield s  # type: ignore[misc]


def test_overall_figures_leave_errors_out_and_count_them(store: RunStore) -> None:
    run = store_run(store, EPISODES, epochs=3)
    m = run_metrics(store, run, resamples=500)
    overall = m["overall"]
    assert overall["episodes"] == 10 and overall["variants"] == 4 and overall["epochs"] == 3
    assert overall["excluded"] == 3
    assert m["excluded"] == {"infra_error": 1, "grade_error": 1, "other": 1}
    assert overall["mean_score"] == pytest.approx((3 + 1.5 + 1.0 + 2) / 10)
    assert overall["pass_rate"] == pytest.approx(6 / 10)
    # per variant (n, c): (3, 3), (3, 1), (2, 0), (2, 2); every k is averaged over the
    # same two variants, those with all three epochs scored
    assert overall["pass_k_variants"] == 2
    outcomes = [(3, 3), (3, 1)]
    for k in (1, 2, 3):
        assert overall["pass_at_k"][str(k)] == pytest.approx(
            sum(pass_at_k(n, c, k) for n, c in outcomes) / 2
        )
        assert overall["pass_hat_k"][str(k)] == pytest.approx(
            sum(pass_hat_k(n, c, k) for n, c in outcomes) / 2
        )
    assert overall["pass_at_k"]["3"] == pytest.approx(1.0)
    assert overall["pass_hat_k"]["3"] == pytest.approx((1 + 0) / 2)
    lo, hi = overall["mean_score_ci"]
    assert lo <= overall["mean_score"] <= hi and 0 <= lo < hi <= 1
    assert m["run"]["id"] == run and m["run"]["agent"] == "openai" and m["baseline"] is None


def test_groups_by_band_family_and_family_at_band(store: RunStore) -> None:
    m = run_metrics(store, store_run(store, EPISODES, epochs=3), resamples=200)
    assert list(m["by_band"]) == ["easy", "hard"]
    assert list(m["by_family"]) == ["refund", "cancel"]
    assert list(m["by_family_band"]) == ["cancel@easy", "refund@easy", "refund@hard"]
    hard = m["by_band"]["hard"]
    assert (hard["episodes"], hard["variants"], hard["mean_score"]) == (2, 1, 0.5)
    assert hard["mean_score_ci"] is None  # one variant: no interval
    # its only variant lost an epoch to an infra error: no k is averaged over it
    assert hard["pass_at_k"] == {"1": None, "2": None, "3": None}
    assert hard["pass_k_variants"] == 0
    cancel = m["by_family"]["cancel"]
    assert (cancel["episodes"], cancel["excluded"], cancel["pass_rate"]) == (2, 2, 1.0)
    assert m["by_family_band"]["refund@easy"]["pass_hat_k"]["2"] == pytest.approx((1.0 + 0.0) / 2)


def test_the_null_baseline_figures_sit_beside(store: RunStore) -> None:
    run = store_run(store, EPISODES, epochs=3)
    null = [rec("refund", "easy", s, 0, 0.2, agent="null") for s in (0, 1)]
    store_run(store, null, agent="null", baseline_of=run)
    base = run_metrics(store, run, resamples=200)["baseline"]
    assert base["run"]["agent"] == "null" and base["baseline"] is None
    assert base["overall"]["mean_score"] == pytest.approx(0.2)
    assert base["overall"]["pass_at_k"] == {"1": 0.0}
    assert base["overall"]["mean_score_ci"] == [pytest.approx(0.2), pytest.approx(0.2)]


def test_metrics_are_reproducible_with_a_seed(store: RunStore) -> None:
    run = store_run(store, EPISODES, epochs=3)
    assert run_metrics(store, run, seed=3) == run_metrics(store, run, seed=3)


def test_a_retried_slot_counts_once_the_last_stored_wins(store: RunStore) -> None:
    run = store_run(store, [rec("refund", "easy", 0, 0, None, termination="infra_error")])
    store.add_episode(run, rec("refund", "easy", 0, 0, 1.0, True), attempts=2)
    rows = store.episodes(run)
    assert len(rows) == 1 and rows[0]["attempts"] == 2
    m = run_metrics(store, run)
    assert m["overall"]["episodes"] == 1 and m["excluded"]["infra_error"] == 0


def test_a_run_with_nothing_scored_has_null_figures(store: RunStore) -> None:
    run = store_run(store, [rec("refund", "easy", 0, 0, None, termination="infra_error")])
    overall = run_metrics(store, run)["overall"]
    assert overall["mean_score"] is None and overall["pass_rate"] is None
    assert overall["mean_score_ci"] is None and overall["pass_at_k"] == {"1": None}


def test_an_unknown_run_is_a_configuration_error(store: RunStore) -> None:
    with pytest.raises(ConfigurationError, match="unknown run 'nope'"):
        run_metrics(store, "nope")


def test_the_eval_summary_shows_pass_at_k_as_show_does(store: RunStore) -> None:
    from mcpgym_clients.records import record_from_row
    from mcpgym_clients.summary import summarize_records

    run = store_run(store, EPISODES, epochs=3)
    m = run_metrics(store, run, resamples=100)
    records = [record_from_row(r) for r in store.episodes(run)]
    overall = summarize_records(records, epochs=3)[-1].agent
    assert overall.epochs == 3  # the run's epochs, not the most scored of one variant
    assert overall.pass_at_k == pytest.approx(m["overall"]["pass_at_k"]["3"])
    assert overall.pass_hat_k == pytest.approx(m["overall"]["pass_hat_k"]["3"])
    assert overall.pass_k_variants == m["overall"]["pass_k_variants"] == 2
    hard = summarize_records([r for r in records if r.band == "hard"], epochs=3)[-1].agent
    assert (hard.epochs, hard.pass_at_k, hard.pass_k_variants) == (3, None, 0)
