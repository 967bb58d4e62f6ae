"""Metrics and comparison dicts in the shapes of BRIEF_H5_SHAPES, with hand-set figures.

The renderer's tests use them to check that what the page shows is what the dicts say
(independently of how `run_metrics` / `compare_runs` compute the figures).
"""

from __future__ import annotations

from typing import Any


def group(
    mean: float | None, ci: list[float] | None, rate: float | None, n: int = 2
) -> dict[str, Any]:
    """A metrics group ``G`` with the given mean score, its interval and pass rate."""
    return {
        "episodes": n,
        "variants": n,
        "epochs": 1,
        "mean_score": mean,
        "mean_score_ci": ci,
        "pass_rate": rate,
        "pass_rate_ci": None if rate is None else [max(rate - 0.25, 0.0), min(rate + 0.25, 1.0)],
        "pass_at_k": {"1": rate or 0.0},
        "pass_hat_k": {"1": rate or 0.0},
        "pass_k_variants": n,
        "excluded": 0,
    }


def run_row(run_id: str, agent: str, *, lock: str = "lock-1") -> dict[str, Any]:
    """A ``runs`` row."""
    return {
        "id": run_id,
        "env": "helpdesk",
        "env_version": "1.0.0",
        "lock": lock,
        "agent": agent,
        "model": None,
        "settings": {"temperature": 0.0},
        "selection": {"epochs": 1},
        "created_at": "2026-11-30T12:00:00Z",
        "finished_at": "2026-11-30T12:01:00Z",
    }


def metrics(run_id: str = "run-a", *, baseline: bool = True) -> dict[str, Any]:
    """Metrics of a run over families ``alpha``, ``beta`` and bands easy, medium, hard."""
    out: dict[str, Any] = {
        "run": run_row(run_id, "reference"),
        "overall": group(0.8125, [0.7, 0.9], 0.75, n=6),
        "by_band": {
            "hard": group(0.5, [0.25, 0.75], 0.5),
            "easy": group(1.0, [1.0, 1.0], 1.0),
            "medium": group(0.9375, [0.875, 1.0], 0.75),
        },
        "by_family": {"alpha": group(0.6, [0.4, 0.8], 0.5, 3), "beta": group(1.0, None, 1.0, 3)},
        "by_family_band": {},
        "baseline": None,
        "excluded": {"infra_error": 1, "grade_error": 0, "other": 0},
    }
    if baseline:
        out["baseline"] = {
            "run": run_row(run_id + "-null", "null"),
            "overall": group(0.25, [0.2, 0.3], 0.0, n=6),
            "by_band": {b: group(0.25, [0.2, 0.3], 0.0) for b in ("easy", "medium", "hard")},
            "by_family": {f: group(0.25, [0.2, 0.3], 0.0, 3) for f in ("alpha", "beta")},
            "by_family_band": {},
            "baseline": None,
            "excluded": {"infra_error": 0, "grade_error": 0, "other": 0},
        }
    return out


def cgroup(delta: float, ci: list[float], p: float) -> dict[str, Any]:
    """A comparison group ``C``."""
    return {
        "pairs": 4,
        "mean_a": 0.5,
        "mean_b": 0.5 + delta,
        "delta": delta,
        "delta_ci": ci,
        "pass_a": 1,
        "pass_b": 2,
        "flips_to_pass": 2,
        "flips_to_fail": 1,
        "mcnemar_p": p,
        "mcnemar_test": "exact",
    }
