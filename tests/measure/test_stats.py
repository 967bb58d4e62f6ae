"""The statistics against brute force, hand-worked values and simulation."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from scipy.stats import chi2

from mcpgym_clients.measure.stats import (
    Interval,
    cluster_bootstrap_ci,
    k_coverage,
    k_table,
    mcnemar_clustered,
    mcnemar_exact,
    mcnemar_test,
    mean_over_variants,
    pass_at_k,
    pass_hat_k,
)


def brute_force(n: int, c: int, k: int, *, every: bool) -> float:
    """Over all k-subsets of n attempts (c passing): the share with any (every) pass."""
    attempts = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(attempts, k))
    hits = [all(s) if every else any(s) for s in subsets]
    return sum(hits) / len(subsets)


CASES = [(n, c, k) for n in range(1, 8) for c in range(n + 1) for k in range(1, n + 1)]


@pytest.mark.parametrize(("n", "c", "k"), CASES)
def test_pass_at_k_is_the_share_of_k_subsets_with_a_pass(n: int, c: int, k: int) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(brute_force(n, c, k, every=False), abs=1e-12)


@pytest.mark.parametrize(("n", "c", "k"), CASES)
def test_pass_hat_k_is_the_share_of_k_subsets_that_all_pass(n: int, c: int, k: int) -> None:
    assert pass_hat_k(n, c, k) == pytest.approx(brute_force(n, c, k, every=True), abs=1e-12)


def test_hand_worked_values_of_both_estimators() -> None:
    # n=5, c=2, k=2: C(3,2)/C(5,2) = 3/10 of pairs have no pass; C(2,2)/C(5,2) = 1/10 all pass
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1)
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3) == pass_hat_k(10, 3, 1)
    assert pass_at_k(4, 0, 4) == 0.0 and pass_at_k(4, 1, 4) == 1.0 and pass_hat_k(4, 3, 4) == 0.0


@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 4), (3, 1, 0), (3, 4, 1), (3, -1, 1)])
def test_impossible_arguments_are_value_errors(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError, match="must be between"):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError, match="must be between"):
        pass_hat_k(n, c, k)


def test_averages_over_variants_skip_variants_with_fewer_than_k_attempts() -> None:
    outcomes = [(3, 1), (3, 3), (2, 1)]
    assert mean_over_variants(outcomes, 1) == pytest.approx((1 / 3 + 1 + 1 / 2) / 3)
    assert mean_over_variants(outcomes, 3) == pytest.approx((1 + 1) / 2)
    assert mean_over_variants(outcomes, 3, hat=True) == pytest.approx((0 + 1) / 2)
    assert mean_over_variants(outcomes, 4) is None
    # k_table averages every k over the same variants: those with `epochs` attempts
    assert k_table(outcomes, 2, hat=True) == {
        "1": pytest.approx((1 / 3 + 1 + 1 / 2) / 3),
        "2": pytest.approx((0 + 1 + 0) / 3),
    }
    assert k_table(outcomes, 3) == {
        "1": pytest.approx((1 / 3 + 1) / 2),
        "2": pytest.approx((2 / 3 + 1) / 2),
        "3": pytest.approx((1 + 1) / 2),
    }
    assert k_coverage(outcomes, 3) == 2 and k_coverage(outcomes, 2) == 3


def test_pass_at_k_never_falls_as_k_grows_when_some_variants_lost_epochs() -> None:
    # a variant that passed its only scored epoch (the others were infra errors) and one
    # that failed all three: averaging k = 1 over both and k = 2 over one made pass@k fall
    outcomes = [(1, 1), (3, 0)]
    at, hat = k_table(outcomes, 3), k_table(outcomes, 3, hat=True)
    assert [at[str(k)] for k in (1, 2, 3)] == [0.0, 0.0, 0.0]
    assert [hat[str(k)] for k in (1, 2, 3)] == [0.0, 0.0, 0.0]
    rng = random.Random(5)
    for _ in range(200):
        epochs = rng.randint(2, 6)
        outcomes = [(n, rng.randint(0, n)) for n in (rng.randint(1, epochs) for _ in range(5))]
        at, hat = k_table(outcomes, epochs), k_table(outcomes, epochs, hat=True)
        if k_coverage(outcomes, epochs) == 0:
            assert set(at.values()) == {None}
            continue
        values = [at[str(k)] for k in range(1, epochs + 1)]
        hats = [hat[str(k)] for k in range(1, epochs + 1)]
        assert values == sorted(values) and hats == sorted(hats, reverse=True)


@pytest.mark.parametrize(("to_pass", "to_fail"), [(8, 1), (1, 8), (5, 0), (3, 3), (12, 4)])
def test_mcnemar_exact_is_the_two_sided_binomial_of_the_discordant_pairs(
    to_pass: int, to_fail: int
) -> None:
    n, low = to_pass + to_fail, min(to_pass, to_fail)
    tail = math.fsum(math.comb(n, i) for i in range(low + 1)) / 2**n
    assert mcnemar_exact(to_pass, to_fail) == pytest.approx(min(1.0, 2 * tail))


def test_mcnemar_hand_values() -> None:
    assert mcnemar_exact(8, 1) == pytest.approx(20 / 512)  # 2 * (C(9,0) + C(9,1)) / 2^9
    assert mcnemar_exact(5, 0) == pytest.approx(2 / 32)
    assert mcnemar_exact(0, 0) == 1.0


def test_two_clusters_give_the_percentiles_of_their_four_resamples() -> None:
    # resamples of ([1], [0]): means 1, 0.5, 0.5, 0 -> the 95% interval spans [0, 1]
    assert cluster_bootstrap_ci([[1.0], [0.0]], resamples=4000, seed=1) == Interval(0.0, 1.0)


def test_degenerate_inputs_give_no_interval_or_a_point() -> None:
    assert cluster_bootstrap_ci([[0.3, 0.5]]) is None
    assert cluster_bootstrap_ci([[], [1.0]]) is None
    assert cluster_bootstrap_ci([[0.5, 0.5], [0.5]]) == Interval(0.5, 0.5)


def test_the_bootstrap_is_reproducible_with_a_seed_and_varies_without() -> None:
    data = [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0], [0.5, 0.0, 1.0]]
    first = cluster_bootstrap_ci(data, resamples=500, seed=7)
    assert first == cluster_bootstrap_ci(data, resamples=500, seed=7)
    assert first != cluster_bootstrap_ci(data, resamples=500, seed=8)


def simulated_runs(rng: np.random.Generator, variants: int, epochs: int) -> list[list[float]]:
    """Pass/fail outcomes where each variant has its own pass chance (mean 0.6)."""
    chances = rng.beta(3.0, 2.0, size=variants)  # mean 3 / (3 + 2) = 0.6
    return [[float(x) for x in rng.random(epochs) < p] for p in chances]


def test_the_cluster_bootstrap_interval_covers_the_true_pass_rate_about_95_percent() -> None:
    rng = np.random.default_rng(2024)
    trials, covered = 200, 0
    for i in range(trials):
        interval = cluster_bootstrap_ci(simulated_runs(rng, 60, 3), resamples=1000, seed=i)
        assert interval is not None and interval.low <= interval.high
        covered += interval.low <= 0.6 <= interval.high
    assert 0.89 <= covered / trials <= 0.99, covered


def test_clustered_mcnemar_with_one_pair_per_cluster_is_mcnemars_chi_square() -> None:
    # 7 variants flipped to pass, 2 to fail, 5 concordant: X^2 = (7 - 2)^2 / (7 + 2)
    clusters = [(1, 0)] * 7 + [(0, 1)] * 2 + [(0, 0)] * 5
    assert mcnemar_clustered(clusters) == pytest.approx(chi2.sf(25 / 9, 1))
    assert mcnemar_clustered(clusters) == pytest.approx(0.0956, abs=5e-4)  # chi2(1) table
    assert mcnemar_clustered([(0, 0), (0, 0)]) == 1.0
    assert mcnemar_clustered([(2, 2), (1, 1)]) == 1.0  # flips cancel within each variant


@pytest.mark.parametrize("epochs", [2, 5, 20])
def test_duplicated_deterministic_epochs_leave_the_clustered_p_unchanged(epochs: int) -> None:
    one = [(1, 0), (1, 0), (1, 0), (0, 1), (0, 0)]
    many = [(b * epochs, c * epochs) for b, c in one]
    assert mcnemar_clustered(many) == pytest.approx(mcnemar_clustered(one))
    # counting every (variant, epoch) pair as independent shrinks p as epochs grow
    assert mcnemar_exact(3 * epochs, epochs) < mcnemar_exact(3, 1)


def test_mcnemar_test_names_the_test_it_used() -> None:
    assert mcnemar_test([(1, 0), (1, 0), (0, 0)], clustered=False) == (
        "exact",
        pytest.approx(mcnemar_exact(2, 0)),
    )
    name, p = mcnemar_test([(2, 0), (2, 0), (0, 1)], clustered=True)
    assert name == "clustered (Durkalski 2003)"
    assert p == pytest.approx(chi2.sf((2 + 2 - 1) ** 2 / (4 + 4 + 1), 1))
