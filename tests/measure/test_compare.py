"""compare_runs over synthetic grades in a real run store: pairing, flips, McNemar, locks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from scipy.stats import binomtest, chi2

from mcpgym_clients import ConfigurationError, RunStore
from mcpgym_clients.measure import IncomparableRunsError, compare_runs

from .synthetic import rec, store_run

PASS = {"state": "pass", "reply": "pass"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "runs.db") as s:
        yield s


def releases(store: RunStore, **kw_b: object) -> tuple[str, str]:
    """Run A (release N) and run B (release N+1) on ten easy and two hard variants.

    Easy seeds 0-5 flip fail -> pass, seed 6 flips pass -> fail, seeds 7-9 pass in both;
    hard seed 0 passes in both, hard seed 1 is an infra error in B (unpaired). A has an
    extra variant B never ran.
    """
    a, b = [], []
    for s in range(6):
        a.append(rec("refund", "easy", s, 0, 0.5, False, checks={"state": "fail", "reply": "pass"}))
        b.append(rec("refund", "easy", s, 0, 1.0, True, checks=PASS))
    a.append(rec("refund", "easy", 6, 0, 1.0, True, checks=PASS))
    b.append(rec("refund", "easy", 6, 0, 0.0, False, checks={"state": "fail", "reply": "skip"}))
    for s in (7, 8, 9):
        a.append(rec("refund", "easy", s, 0, 1.0, True, checks=PASS))
        b.append(rec("refund", "easy", s, 0, 1.0, True, checks=PASS))
    a.append(rec("refund", "hard", 0, 0, 1.0, True))
    b.append(rec("refund", "hard", 0, 0, 0.75, True))
    a.append(rec("refund", "hard", 1, 0, 0.5, False))
    b.append(rec("refund", "hard", 1, 0, None, termination="infra_error"))
    a.append(rec("cancel", "easy", 0, 0, 1.0, True))
    return store_run(store, a), store_run(store, b, **kw_b)  # type: ignore[arg-type]


def test_pairs_deltas_flips_and_mcnemar_match_hand_values(store: RunStore) -> None:
    run_a, run_b = releases(store)
    c = compare_runs(store, run_a, run_b, resamples=1000)
    assert (c["run_a"], c["run_b"], c["forced"], c["lock_differences"]) == (run_a, run_b, False, [])
    overall = c["overall"]
    assert overall["pairs"] == 11
    assert overall["mean_a"] == pytest.approx((6 * 0.5 + 1 + 3 + 1) / 11)
    assert overall["mean_b"] == pytest.approx((6 + 0 + 3 + 0.75) / 11)
    assert overall["delta"] == pytest.approx(overall["mean_b"] - overall["mean_a"])
    lo, hi = overall["delta_ci"]
    assert lo <= overall["delta"] <= hi
    assert (overall["pass_a"], overall["pass_b"]) == (5, 10)
    assert (overall["flips_to_pass"], overall["flips_to_fail"]) == (6, 1)
    # two-sided exact binomial of 6 successes in 7: 2 * (C(7,0) + C(7,1)) / 2^7
    assert overall["mcnemar_p"] == pytest.approx(16 / 128)
    assert overall["mcnemar_p"] == pytest.approx(binomtest(6, 7, 0.5).pvalue)
    assert c["unpaired"] == {"only_a": 1, "only_b": 0, "excluded": 1}


def test_the_same_figures_per_band_and_family(store: RunStore) -> None:
    c = compare_runs(store, *releases(store), resamples=500)
    assert list(c["by_band"]) == ["easy", "hard"] and list(c["by_family"]) == ["refund"]
    hard = c["by_band"]["hard"]
    assert (hard["pairs"], hard["delta"], hard["flips_to_pass"], hard["flips_to_fail"]) == (
        1,
        -0.25,
        0,
        0,
    )
    assert hard["delta_ci"] is None and hard["mcnemar_p"] == 1.0
    easy = c["by_band"]["easy"]
    assert (easy["pairs"], easy["flips_to_pass"], easy["flips_to_fail"]) == (10, 6, 1)


def test_newly_solved_and_regressed_variants_name_the_checks_that_changed(
    store: RunStore,
) -> None:
    c = compare_runs(store, *releases(store), resamples=200)
    assert [v["variant_id"] for v in c["newly_solved"]] == [
        f"toy/refund@easy#{s}" for s in range(6)
    ]
    assert c["newly_solved"][0]["changed_checks"] == [{"check": "state", "a": "fail", "b": "pass"}]
    (regressed,) = c["regressed"]
    assert regressed["variant_id"] == "toy/refund@easy#6" and regressed["epoch"] == 0
    assert (regressed["score_a"], regressed["score_b"]) == (1.0, 0.0)
    assert regressed["changed_checks"] == [
        {"check": "state", "a": "pass", "b": "fail"},
        {"check": "reply", "a": "pass", "b": "skip"},
    ]
    assert store.episode(regressed["episode_b"])["seed"] == 6


def test_different_locks_are_refused_naming_the_component(store: RunStore) -> None:
    comps = {"env": "toy", "version": "1.0.0", "families": {"refund": {"rubric_digest": "1" * 64}}}
    other = {"env": "toy", "version": "1.0.0", "families": {"refund": {"rubric_digest": "2" * 64}}}
    a = store_run(store, [rec("refund", "easy", 0, 0, 0.0)], lock_components=comps)
    b = store_run(
        store, [rec("refund", "easy", 0, 0, 1.0, True)], lock="b" * 64, lock_components=other
    )
    with pytest.raises(IncomparableRunsError) as info:
        compare_runs(store, a, b)
    assert isinstance(info.value, ConfigurationError)
    assert info.value.differences == [
        "lock aaaaaaaaaaaa vs bbbbbbbbbbbb",
        "lock component families.refund.rubric_digest: 111111111111 vs 222222222222",
    ]
    assert "pass --force" in str(info.value)
    forced = compare_runs(store, a, b, force=True)
    assert forced["forced"] is True and forced["overall"]["flips_to_pass"] == 1


def test_a_different_version_is_named_without_components(store: RunStore) -> None:
    a = store_run(store, [rec("refund", "easy", 0, 0, 0.0)])
    b_id = store.create_run(env="toy", env_version="1.1.0", lock="c" * 64, agent="openai")
    with pytest.raises(IncomparableRunsError, match=r"version 1\.0\.0 vs 1\.1\.0; lock aaaa"):
        compare_runs(store, a, b_id)


def epochs_run(store: RunStore, epochs: int, *, passed_b: dict[int, bool]) -> tuple[str, str]:
    """A fails every variant; B's deterministic agent passes or fails each on every epoch."""
    a = [rec("refund", "easy", s, e, 0.0, False) for s in passed_b for e in range(epochs)]
    b = [
        rec("refund", "easy", s, e, float(p), p) for s, p in passed_b.items() for e in range(epochs)
    ]
    return store_run(store, a, epochs=epochs), store_run(store, b, epochs=epochs)


def test_mcnemar_p_does_not_shrink_with_more_deterministic_epochs(store: RunStore) -> None:
    outcome = {0: True, 1: True, 2: True, 3: False, 4: False}
    one = compare_runs(store, *epochs_run(store, 1, passed_b=outcome), resamples=100)["overall"]
    assert one["mcnemar_test"] == "exact"
    assert one["mcnemar_p"] == pytest.approx(binomtest(3, 3, 0.5).pvalue)
    figures = [
        compare_runs(store, *epochs_run(store, n, passed_b=outcome), resamples=100)["overall"]
        for n in (2, 4)
    ]
    assert [f["flips_to_pass"] for f in figures] == [6, 12]
    assert {f["mcnemar_test"] for f in figures} == {"clustered (Durkalski 2003)"}
    # three variants flipped, one pair per cluster's worth: X^2 = 3^2 / 3 on 1 df
    assert figures[0]["mcnemar_p"] == pytest.approx(figures[1]["mcnemar_p"])
    assert figures[0]["mcnemar_p"] == pytest.approx(chi2.sf(3.0, 1))
