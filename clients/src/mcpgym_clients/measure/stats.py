"""Statistics for runs of episodes: pass@k, pass^k, cluster bootstrap intervals, McNemar.

Pure functions over plain numbers (no run store, no I/O); `mcpgym_clients.measure.metrics`
and `mcpgym_clients.measure.compare` apply them to stored runs.

Sources:

- pass@k, the unbiased estimator of the chance that at least one of k attempts passes:
  M. Chen et al. 2021, "Evaluating Large Language Models Trained on Code" (HumanEval),
  section 2.1: ``1 - C(n-c, k) / C(n, k)`` for n attempts of which c passed.
- pass^k, the chance that all of k attempts pass (consistency):
  S. Yao et al. 2024, "tau-bench: A Benchmark for Tool-Agent-User Interaction in
  Real-World Domains", section 5: ``C(c, k) / C(n, k)``.
- Cluster (block) bootstrap: B. Efron and R. Tibshirani 1993, "An Introduction to the
  Bootstrap"; the epochs of one variant are correlated, so whole variants are resampled
  (as in E. Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640, section 2.3).
  Intervals are 95% percentile intervals from `scipy.stats.bootstrap`.
- McNemar's exact test on paired pass/fail outcomes: Q. McNemar 1947, "Note on the
  sampling error of the difference between correlated proportions or percentages";
  the exact form is a two-sided binomial test of the discordant pairs against 1/2
  (`scipy.stats.binomtest`). With several epochs per variant the pairs of one variant
  are not independent; the clustered McNemar test of V. Durkalski, Y. Palesch,
  S. Lipsitz and P. Rust 2003, "Analysis of clustered matched-pair data", Statistics
  in Medicine 22(15):2417-2428 is used instead (`mcnemar_clustered`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

# numpy and scipy are imported where they are used: scipy.stats alone takes about a
# second to import, which every ``mcpgym`` command would otherwise pay at start-up.

CONFIDENCE = 0.95
"""Confidence level of every interval."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one variant: the chance that some of k attempts drawn from n passes.

    ``1 - C(n-c, k) / C(n, k)`` (Chen et al. 2021, HumanEval, eq. 1), computed as the
    numerically stable product ``1 - prod_{i=n-c+1}^{n} (1 - k / i)`` given in that paper.

    Args:
        n: attempts (episodes) of the variant. c: attempts that passed. k: 1 <= k <= n.

    Raises:
        ValueError: ``k`` outside ``1..n`` or ``c`` outside ``0..n``.
    """
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased pass^k of one variant: the chance that all of k attempts drawn from n pass.

    ``C(c, k) / C(n, k)`` (Yao et al. 2024, tau-bench, section 5).

    Args:
        n: attempts of the variant. c: attempts that passed. k: 1 <= k <= n.

    Raises:
        ValueError: ``k`` outside ``1..n`` or ``c`` outside ``0..n``.
    """
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"passes c={c} must be between 0 and attempts n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"k={k} must be between 1 and attempts n={n}")


def mean_over_variants(
    outcomes: Sequence[tuple[int, int]], k: int, *, hat: bool = False
) -> float | None:
    """pass@k (or pass^k with ``hat``) averaged over variants, as both papers report it.

    Args:
        outcomes: ``(n, c)`` per variant: attempts and passes. Variants with fewer than
            ``k`` attempts (e.g. after infrastructure errors) are left out.
        k: attempts per draw (>= 1).

    Returns:
        The mean, or ``None`` when no variant has ``k`` attempts.
    """
    fn = pass_hat_k if hat else pass_at_k
    values = [fn(n, c, k) for n, c in outcomes if n >= k]
    return math.fsum(values) / len(values) if values else None


class Interval(NamedTuple):
    """A confidence interval ``[low, high]``."""

    low: float
    high: float


def cluster_bootstrap_ci(
    clusters: Sequence[Sequence[float]],
    *,
    resamples: int = 2000,
    seed: int = 0,
    confidence: float = CONFIDENCE,
) -> Interval | None:
    """Percentile bootstrap interval of the mean of all values, resampling whole clusters.

    The statistic is the pooled mean (sum of values / number of values) of the clusters
    drawn; clusters are variants and values their episodes (scores, or 1/0 for passes),
    so correlated epochs of one variant stay together. Reproducible for a given ``seed``.
    Uses `scipy.stats.bootstrap` (``paired=True`` over per-cluster sums and counts,
    ``method="percentile"``).

    Args:
        clusters: the values of each cluster (empty clusters are ignored).
        resamples: bootstrap resamples. seed: seed of the `numpy.random.Generator`.
        confidence: the confidence level (default 0.95).

    Returns:
        The interval, or ``None`` with fewer than two non-empty clusters (one cluster
        says nothing about the spread between variants).
    """
    import numpy as np
    from scipy import stats as scipy_stats

    groups = [list(c) for c in clusters if len(c)]
    if len(groups) < 2:
        return None
    sums = np.array([math.fsum(g) for g in groups], dtype=float)
    counts = np.array([len(g) for g in groups], dtype=float)
    if np.all(sums / counts == sums[0] / counts[0]):
        value = float(sums[0] / counts[0])  # every resample has this mean
        return Interval(value, value)

    def pooled_mean(s: np.ndarray, n: np.ndarray, axis: int = -1) -> np.ndarray:
        return s.sum(axis=axis) / n.sum(axis=axis)

    res = scipy_stats.bootstrap(
        (sums, counts),
        pooled_mean,
        n_resamples=resamples,
        paired=True,
        vectorized=True,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return Interval(float(res.confidence_interval.low), float(res.confidence_interval.high))


def mcnemar_exact(flips_to_pass: int, flips_to_fail: int) -> float:
    """Two-sided p-value of McNemar's exact test for paired pass/fail outcomes.

    Only the discordant pairs count: under the null hypothesis (both runs pass equally
    often) each is a flip either way with probability 1/2, so the p-value is that of a
    two-sided binomial test of ``flips_to_pass`` successes in ``flips_to_pass +
    flips_to_fail`` trials (McNemar 1947; `scipy.stats.binomtest`).

    Args:
        flips_to_pass: pairs failed in run A and passed in run B.
        flips_to_fail: pairs passed in run A and failed in run B.

    Returns:
        The p-value in [0, 1]; 1.0 when there is no discordant pair.
    """
    from scipy import stats as scipy_stats

    trials = flips_to_pass + flips_to_fail
    if trials == 0:
        return 1.0
    result = scipy_stats.binomtest(flips_to_pass, trials, 0.5, alternative="two-sided")
    return float(result.pvalue)


def mcnemar_clustered(discordant: Sequence[tuple[int, int]]) -> float:
    """p-value of the clustered McNemar test of Durkalski et al. (2003).

    For clusters k (variants) with ``b_k`` pairs failed in A and passed in B and
    ``c_k`` pairs passed in A and failed in B (a variant's epochs are one cluster)::

        X^2 = (sum_k (b_k - c_k))^2 / sum_k (b_k - c_k)^2

    referred to a chi-square distribution with 1 degree of freedom (`scipy.stats.chi2`).
    V. Durkalski, Y. Palesch, S. Lipsitz and P. Rust 2003, "Analysis of clustered
    matched-pair data", Statistics in Medicine 22(15):2417-2428. Repeating every pair of
    a cluster (deterministic epochs) scales numerator and denominator alike, so the
    p-value does not shrink with the number of epochs; with one pair per cluster it is
    McNemar's chi-square ``(b - c)^2 / (b + c)`` (without continuity correction).

    Args:
        discordant: ``(b_k, c_k)`` per cluster.

    Returns:
        The p-value in [0, 1]; 1.0 when no cluster has a net flip either way
        (no discordance at all, or every cluster's flips cancel out).
    """
    from scipy import stats as scipy_stats

    diffs = [b - c for b, c in discordant]
    denominator = sum(d * d for d in diffs)
    if denominator == 0:
        return 1.0
    statistic = sum(diffs) ** 2 / denominator
    return float(scipy_stats.chi2.sf(statistic, 1))


MCNEMAR_EXACT = "exact"
MCNEMAR_CLUSTERED = "clustered (Durkalski 2003)"


def mcnemar_test(discordant: Sequence[tuple[int, int]], *, clustered: bool) -> tuple[str, float]:
    """McNemar's test of paired pass/fail outcomes grouped in clusters (variants).

    Args:
        discordant: ``(flips_to_pass, flips_to_fail)`` per cluster.
        clustered: the clusters hold several pairs (epochs): use `mcnemar_clustered`;
            otherwise every pair is independent: use `mcnemar_exact` on the totals.

    Returns:
        ``(test, p)`` with test `MCNEMAR_EXACT` (``"exact"``) or `MCNEMAR_CLUSTERED`
        (``"clustered (Durkalski 2003)"``).
    """
    if clustered:
        return MCNEMAR_CLUSTERED, mcnemar_clustered(discordant)
    b = sum(x for x, _ in discordant)
    c = sum(y for _, y in discordant)
    return MCNEMAR_EXACT, mcnemar_exact(b, c)


def k_table(
    outcomes: Sequence[tuple[int, int]], epochs: int, *, hat: bool = False
) -> dict[str, float | None]:
    """``{"1": value, ..., str(epochs): value}`` of `mean_over_variants` for k = 1..epochs.

    Every k is averaged over the same variants: those with at least ``epochs`` attempts
    (`k_coverage`), so pass@k never falls and pass^k never rises as k grows because of
    a change in which variants are counted. Values are ``None`` when no variant has
    ``epochs`` attempts.
    """
    full = [(n, c) for n, c in outcomes if n >= epochs]
    return {str(k): mean_over_variants(full, k, hat=hat) for k in range(1, epochs + 1)}


def k_coverage(outcomes: Sequence[tuple[int, int]], epochs: int) -> int:
    """Variants that `k_table` averages over: those with at least ``epochs`` attempts."""
    return sum(1 for n, _ in outcomes if n >= max(epochs, 1))
