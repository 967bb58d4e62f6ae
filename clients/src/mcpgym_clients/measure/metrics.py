"""Metrics of a stored run: overall, per band, per family and per family@band.

For each group of episodes: mean score and pass rate with 95% cluster-bootstrap
intervals (variants resampled with their epochs), pass@k (Chen et al. 2021,
"Evaluating Large Language Models Trained on Code") and pass^k (Yao et al. 2024,
"tau-bench") for k = 1..epochs averaged over the variants with every epoch scored
(``pass_k_variants`` of them), and the same figures for the
run's `null` baseline beside them. See `mcpgym_clients.measure.stats` for the
estimators and their sources.

Episodes that measure the instrument rather than the agent are excluded from every
figure and counted: ``infra_error`` (a server failed), ``grade_error`` (a check could
not be evaluated) and ``other`` (``model_error``: the model endpoint failed, or an
episode left ungraded for another reason).

Scored episodes that ended in a way worth telling apart from a plain wrong answer are
counted under ``flagged`` (`EPISODE_FLAGS`): ``unparsed_tool_call``, an episode whose final
message looked like a tool call that no parser could read, and ``context_overflow``, one
the model server's context window ended after its first request (see
`mcpgym_clients.agents.model`); they stay in the figures, scored as given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from mcpgym_clients.measure.stats import cluster_bootstrap_ci, k_coverage, k_table
from mcpgym_clients.measure.usage import usage_of_rows
from mcpgym_clients.runstore import RunStore
from mcpgym_server import BANDS

EXCLUSION_REASONS = ("infra_error", "grade_error", "other")
"""Why an episode is left out of the figures (the keys of ``excluded``)."""

RUN_FIELDS = (
    "id",
    "env",
    "env_version",
    "lock",
    "agent",
    "model",
    "settings",
    "selection",
    "created_at",
    "finished_at",
)
"""The run columns copied into the ``run`` entry of `run_metrics`."""


def variant_key(row: Mapping[str, Any]) -> tuple[str, str, int]:
    """``(task, band, seed)`` of an episode row: the variant it attempted."""
    return (str(row["task"]), str(row["band"]), int(row["seed"]))


EPISODE_FLAGS = ("unparsed_tool_call", "context_overflow")
"""Flags an episode row may carry (the keys of ``flagged``; see `episode_flags`)."""


def episode_flags(row: Mapping[str, Any]) -> list[str]:
    """The `EPISODE_FLAGS` of an episode row, read from its transcript (the model loop
    marks the final assistant message ``mcpgym_unparsed_tool_call: true``, and the last
    message of an episode the context window ended ``mcpgym_context_overflow: true``)."""
    transcript = row.get("transcript") or []
    if isinstance(transcript, str):  # an undecoded row
        import json

        try:
            transcript = json.loads(transcript)
        except ValueError:
            return []
    flags = []
    for flag in EPISODE_FLAGS:
        key = f"mcpgym_{flag}"
        if any(isinstance(m, Mapping) and m.get(key) is True for m in transcript):
            flags.append(flag)
    return flags


def exclusion_reason(row: Mapping[str, Any]) -> str | None:
    """Why an episode row is excluded from scores (`EXCLUSION_REASONS`), or ``None`` if scored."""
    if row.get("scored"):
        return None
    if row.get("termination") == "infra_error":
        return "infra_error"
    grade = row.get("grade")
    if (
        row.get("termination") != "model_error"
        and isinstance(grade, Mapping)
        and grade.get("status") == "error"
    ):
        return "grade_error"
    return "other"


def latest_per_slot(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One row per (variant, epoch), the last stored (row order), in first-seen order."""
    slots: dict[tuple[str, str, int, int], Mapping[str, Any]] = {}
    for row in rows:
        slots[(*variant_key(row), int(row["epoch"]))] = row
    return list(slots.values())


def band_order(band: str) -> tuple[int, str]:
    """Sort key of a band: easiest first, unknown names last."""
    return (BANDS.index(band) if band in BANDS else len(BANDS), band)


def group_figures(
    rows: Sequence[Mapping[str, Any]],
    *,
    epochs: int | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """The figures ``G`` of a group of episode rows (see the module docstring).

    Args:
        rows: episode rows (``RunStore.episodes``), one per (variant, epoch).
        epochs: the largest k of pass@k and pass^k (default: the most scored
            episodes of one variant).
        resamples, seed: of the bootstrap.

    Returns:
        ``{"episodes": scored episodes, "variants": variants with a scored episode,
        "epochs": epochs, "mean_score", "mean_score_ci", "pass_rate", "pass_rate_ci",
        "pass_at_k": {"1": ...}, "pass_hat_k": {"1": ...}, "pass_k_variants": int,
        "excluded": int}``; figures are ``None`` where no episode was scored, intervals
        ``None`` below two variants. Every k of pass@k and pass^k is averaged over the
        same ``pass_k_variants`` variants: those with ``epochs`` scored episodes (a
        variant with an infrastructure error in some epoch is left out of all k), so the
        figures stay monotone in k.
    """
    scores: dict[tuple[str, str, int], list[float]] = {}
    passes: dict[tuple[str, str, int], list[bool]] = {}
    excluded = 0
    for row in rows:
        if exclusion_reason(row) is not None:
            excluded += 1
            continue
        key = variant_key(row)
        scores.setdefault(key, []).append(float(row["score"]))
        passes.setdefault(key, []).append(bool(row["passed"]))
    flat = [s for v in scores.values() for s in v]
    flat_pass = [p for v in passes.values() for p in v]
    k_max = epochs if epochs is not None else max((len(v) for v in scores.values()), default=0)
    outcomes = [(len(v), sum(v)) for v in passes.values()]

    def ci(clusters: Iterable[Sequence[float]]) -> list[float] | None:
        interval = cluster_bootstrap_ci(list(clusters), resamples=resamples, seed=seed)
        return None if interval is None else [interval.low, interval.high]

    return {
        "episodes": len(flat),
        "variants": len(scores),
        "epochs": k_max,
        "mean_score": math.fsum(flat) / len(flat) if flat else None,
        "mean_score_ci": ci(scores.values()),
        "pass_rate": sum(flat_pass) / len(flat_pass) if flat_pass else None,
        "pass_rate_ci": ci([float(p) for p in v] for v in passes.values()),
        "pass_at_k": k_table(outcomes, k_max),
        "pass_hat_k": k_table(outcomes, k_max, hat=True),
        "pass_k_variants": k_coverage(outcomes, k_max),
        "excluded": excluded,
    }


def _grouped(
    rows: Sequence[Mapping[str, Any]],
    key: Callable[[Mapping[str, Any]], str],
    order: Callable[[str], Any] | None = None,
) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    names = sorted(groups, key=order) if order else list(groups)
    return {name: groups[name] for name in names}


def metrics_of_rows(
    rows: Sequence[Mapping[str, Any]],
    *,
    epochs: int | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """``overall``, ``by_band``, ``by_family``, ``by_family_band``, ``flagged`` and
    ``excluded`` of rows.

    Args:
        rows: episode rows of one run (duplicates of a (variant, epoch) slot: the last wins).
        epochs, resamples, seed: as `group_figures`.
    """
    rows = latest_per_slot(rows)

    def g(group: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return group_figures(group, epochs=epochs, resamples=resamples, seed=seed)

    def family_band(name: str) -> tuple[str, tuple[int, str]]:
        family, band = name.rsplit("@", 1)
        return (family, band_order(band))

    excluded: dict[str, int] = dict.fromkeys(EXCLUSION_REASONS, 0)
    flagged: dict[str, int] = dict.fromkeys(EPISODE_FLAGS, 0)
    for row in rows:
        reason = exclusion_reason(row)
        if reason is not None:
            excluded[reason] += 1
        for flag in episode_flags(row):
            flagged[flag] += 1
    by_family = _grouped(rows, lambda r: str(r["task"]))
    return {
        "overall": g(rows),
        "by_band": {
            b: g(grp) for b, grp in _grouped(rows, lambda r: str(r["band"]), band_order).items()
        },
        "by_family": {f: g(grp) for f, grp in by_family.items()},
        "by_family_band": {
            fb: g(grp)
            for fb, grp in _grouped(rows, lambda r: f"{r['task']}@{r['band']}", family_band).items()
        },
        "flagged": flagged,
        "excluded": excluded,
    }


def run_epochs(run: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> int:
    """The epochs of a run: from its selection, else the most episodes of one variant."""
    selection = run.get("selection") or {}
    if isinstance(selection, Mapping) and isinstance(selection.get("epochs"), int):
        return int(selection["epochs"])
    counts: dict[tuple[str, str, int], int] = {}
    for row in latest_per_slot(rows):
        counts[variant_key(row)] = counts.get(variant_key(row), 0) + 1
    return max(counts.values(), default=0)


def run_metrics(
    store: RunStore, run_id: str, *, resamples: int = 2000, seed: int = 0
) -> dict[str, Any]:
    """Every figure of a stored run, JSON-ready, with its null baseline's beside.

    Args:
        store: the run store. run_id: a run id.
        resamples: bootstrap resamples per interval. seed: bootstrap seed (the same
            seed gives the same intervals).

    Returns:
        ``{"run": {id, env, env_version, lock, agent, model, settings, selection,
        created_at, finished_at}, "overall": G, "by_band": {band: G}, "by_family":
        {family: G}, "by_family_band": {"family@band": G}, "baseline": <this shape for
        the baseline run, its "baseline" null> | None, "usage": {"overall": U,
        "by_family": {family: U}}, "flagged": {"unparsed_tool_call": n}, "excluded":
        {"infra_error", "grade_error", "other"}}`` with G as `group_figures` returns and U
        as `mcpgym_clients.measure.usage.usage_figures` (tokens, cost and episode time over
        every stored episode of the run).

    Raises:
        ConfigurationError: no such run.
    """
    run = store.run(run_id)
    rows = store.episodes(run_id)
    result: dict[str, Any] = {"run": {k: run.get(k) for k in RUN_FIELDS}}
    result.update(
        metrics_of_rows(rows, epochs=run_epochs(run, rows), resamples=resamples, seed=seed)
    )
    baseline_id = store.baseline_run(run_id)
    result["baseline"] = (
        None
        if baseline_id is None
        else run_metrics(store, baseline_id, resamples=resamples, seed=seed)
    )
    result["usage"] = usage_of_rows(rows)
    # keep the documented key order: flagged, then excluded last
    result["flagged"] = result.pop("flagged")
    result["excluded"] = result.pop("excluded")
    return result
