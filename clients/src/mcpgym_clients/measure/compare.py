"""Paired comparison of two stored runs on the same lock (release N against release N+1).

Episodes are paired by variant and epoch (``task@band#seed``, epoch); a pair counts
when both episodes were scored. For the pairs, overall and per band and family:

- the mean score of each run and the delta (B - A) with a 95% paired bootstrap
  interval: the per-pair differences are resampled by variant, epochs kept together
  (`mcpgym_clients.measure.stats.cluster_bootstrap_ci`; Efron and Tibshirani 1993);
- pass counts and pass flips (fail -> pass, pass -> fail) with McNemar's test: with one
  pair per variant the exact test, a two-sided binomial test of the discordant pairs
  (McNemar 1947; `scipy.stats.binomtest`); with several epochs per variant the clustered
  test of Durkalski et al. 2003 ("Analysis of clustered matched-pair data", Statistics
  in Medicine 22(15)), as epochs of one variant are not independent
  (`mcpgym_clients.measure.stats.mcnemar_test`); ``mcnemar_test`` names the one used;
- newly solved and regressed pairs, each with the checks whose result changed.

Runs on different locks, or whose seeds served different variants (different seed salts),
are refused (`IncomparableRunsError`, naming what differs) unless ``force`` is given; the
result then says ``"forced": true``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from mcpgym_clients.errors import IncomparableRunsError
from mcpgym_clients.measure.metrics import band_order, exclusion_reason, latest_per_slot
from mcpgym_clients.measure.stats import cluster_bootstrap_ci, mcnemar_test
from mcpgym_clients.measure.usage import usage_delta, usage_figures
from mcpgym_clients.runstore import RunStore

Slot = tuple[str, str, int, int]
"""(task, band, seed, epoch): one attempt of one variant."""


def _slot(row: Mapping[str, Any]) -> Slot:
    return (str(row["task"]), str(row["band"]), int(row["seed"]), int(row["epoch"]))


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: value}


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] if len(text) == 64 else text


def run_label(run: Mapping[str, Any]) -> str:
    """How a run is named to a person: its agent, with the model where there is one.

    ``reference``, ``null``, ``openai (gpt-4.1)``; the id stays the key, this is the label.
    """
    agent = str(run.get("agent") or "?")
    return agent + (f" ({run['model']})" if run.get("model") else "")


def lock_differences(run_a: Mapping[str, Any], run_b: Mapping[str, Any]) -> list[str]:
    """What differs between the locks of two runs, one readable item each (empty: same lock).

    Names the environment, its version and the lock digest; when both runs recorded
    their lock components, also every component that differs (e.g.
    ``lock component families.refund.rubric_digest: 3f2a... vs 9c1b...``).
    """
    diffs: list[str] = []
    if run_a.get("env") != run_b.get("env"):
        diffs.append(f"env {run_a.get('env')} vs {run_b.get('env')}")
    if run_a.get("env_version") != run_b.get("env_version"):
        diffs.append(f"version {run_a.get('env_version')} vs {run_b.get('env_version')}")
    if run_a.get("lock") != run_b.get("lock"):
        diffs.append(f"lock {_short(run_a.get('lock'))} vs {_short(run_b.get('lock'))}")
        comp_a, comp_b = run_a.get("lock_components"), run_b.get("lock_components")
        if isinstance(comp_a, Mapping) and isinstance(comp_b, Mapping):
            flat_a, flat_b = _flatten(comp_a), _flatten(comp_b)
            for name in sorted(set(flat_a) | set(flat_b)):
                if name in ("env", "version") or flat_a.get(name) == flat_b.get(name):
                    continue
                diffs.append(
                    f"lock component {name}: {_short(flat_a.get(name, 'absent'))} "
                    f"vs {_short(flat_b.get(name, 'absent'))}"
                )
    return diffs


def variant_differences(
    rows_a: Iterable[Mapping[str, Any]], rows_b: Iterable[Mapping[str, Any]]
) -> list[str]:
    """Seeds that served different variants in the two runs (servers with different seed
    salts, `mcpgym_server._seeds`): one item naming how many and the first, or none."""
    ids_a = {_slot(r)[:3]: r.get("variant_id") for r in rows_a if r.get("variant_id")}
    differ = sorted(
        (slot, ids_a[slot], r.get("variant_id"))
        for r in rows_b
        if (slot := _slot(r)[:3]) in ids_a and r.get("variant_id") not in (None, ids_a[slot])
    )
    if not differ:
        return []
    (task, band, seed), va, vb = differ[0]
    count = len({d[0] for d in differ})
    return [
        f"{count} seed(s) served different variants (e.g. {task}@{band} seed {seed}: {va} vs "
        f"{vb}): the servers had different seed salts (--seed-salt)"
    ]


def check_status(check: Mapping[str, Any]) -> str:
    """``pass``, ``fail``, ``skip`` (not applicable) or ``error`` for one check result."""
    if check.get("applicable") is False:
        return "skip"
    if check.get("error") is not None or check.get("passed") is None:
        return "error"
    return "pass" if check.get("passed") else "fail"


def changed_checks(
    grade_a: Mapping[str, Any] | None, grade_b: Mapping[str, Any] | None
) -> list[dict[str, str]]:
    """The checks whose status differs between two grades, in rubric order.

    Returns:
        ``[{"check": name, "a": status, "b": status}, ...]`` with statuses from
        `check_status` (``absent`` for a check one grade does not have).
    """
    a = {c["name"]: check_status(c) for c in (grade_a or {}).get("checks", [])}
    b = {c["name"]: check_status(c) for c in (grade_b or {}).get("checks", [])}
    names = list(a) + [n for n in b if n not in a]
    return [
        {"check": n, "a": a.get(n, "absent"), "b": b.get(n, "absent")}
        for n in names
        if a.get(n, "absent") != b.get(n, "absent")
    ]


def _pair_figures(
    pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], *, resamples: int, seed: int
) -> dict[str, Any]:
    """The figures ``C`` of a group of pairs."""
    diffs: dict[tuple[str, str, int], list[float]] = {}
    flips: dict[tuple[str, str, int], list[int]] = {}
    for a, b in pairs:
        diffs.setdefault(_slot(a)[:3], []).append(float(b["score"]) - float(a["score"]))
        counts = flips.setdefault(_slot(a)[:3], [0, 0])
        counts[0] += int(not a["passed"] and bool(b["passed"]))
        counts[1] += int(bool(a["passed"]) and not b["passed"])
    n = len(pairs)
    to_pass = sum(1 for a, b in pairs if not a["passed"] and b["passed"])
    to_fail = sum(1 for a, b in pairs if a["passed"] and not b["passed"])
    mean_a = math.fsum(float(a["score"]) for a, _ in pairs) / n if n else None
    mean_b = math.fsum(float(b["score"]) for _, b in pairs) / n if n else None
    interval = cluster_bootstrap_ci(list(diffs.values()), resamples=resamples, seed=seed)
    test, p = mcnemar_test(
        [(x, y) for x, y in flips.values()], clustered=any(len(d) > 1 for d in diffs.values())
    )
    return {
        "pairs": n,
        "mean_a": mean_a,
        "mean_b": mean_b,
        "delta": None if mean_a is None or mean_b is None else mean_b - mean_a,
        "delta_ci": None if interval is None else [interval.low, interval.high],
        "pass_a": sum(1 for a, _ in pairs if a["passed"]),
        "pass_b": sum(1 for _, b in pairs if b["passed"]),
        "flips_to_pass": to_pass,
        "flips_to_fail": to_fail,
        "mcnemar_p": p,
        "mcnemar_test": test,
    }


def _variant(a: Mapping[str, Any], b: Mapping[str, Any], env: str | None) -> dict[str, Any]:
    task, band, seed, epoch = _slot(a)
    return {
        "variant_id": a.get("variant_id") or b.get("variant_id") or f"{env}/{task}@{band}#{seed}",
        "family": task,
        "band": band,
        "seed": seed,
        "epoch": epoch,
        "score_a": float(a["score"]),
        "score_b": float(b["score"]),
        "passed_a": bool(a["passed"]),
        "passed_b": bool(b["passed"]),
        "episode_a": a["id"],
        "episode_b": b["id"],
        "changed_checks": changed_checks(a.get("grade"), b.get("grade")),
    }


def _by(
    pairs: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]],
    key: Callable[[Mapping[str, Any]], str],
    order: Callable[[str], Any] | None = None,
) -> dict[str, list[tuple[Mapping[str, Any], Mapping[str, Any]]]]:
    groups: dict[str, list[tuple[Mapping[str, Any], Mapping[str, Any]]]] = {}
    for a, b in pairs:
        groups.setdefault(key(a), []).append((a, b))
    return {k: groups[k] for k in (sorted(groups, key=order) if order else groups)}


def compare_rows(
    rows_a: Sequence[Mapping[str, Any]],
    rows_b: Sequence[Mapping[str, Any]],
    *,
    env: str | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """The paired comparison of two runs' episode rows (see `compare_runs` for the shape).

    Args:
        rows_a, rows_b: episode rows (``RunStore.episodes``) of runs A and B.
        env: environment name, for variant ids of rows that lack one.
        resamples, seed: of the paired bootstrap.
    """
    slots_a = {_slot(r): r for r in latest_per_slot(rows_a)}
    slots_b = {_slot(r): r for r in latest_per_slot(rows_b)}
    pairs: list[tuple[Mapping[str, Any], Mapping[str, Any]]] = []
    excluded = 0
    for slot, a in slots_a.items():
        b = slots_b.get(slot)
        if b is None:
            continue
        if exclusion_reason(a) is None and exclusion_reason(b) is None:
            pairs.append((a, b))
        else:
            excluded += 1
    pairs.sort(key=lambda p: (p[0]["task"], band_order(p[0]["band"]), p[0]["seed"], p[0]["epoch"]))

    def figures(group: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> dict[str, Any]:
        return _pair_figures(group, resamples=resamples, seed=seed)

    return {
        "overall": figures(pairs),
        "by_band": {
            k: figures(g) for k, g in _by(pairs, lambda r: str(r["band"]), band_order).items()
        },
        "by_family": {k: figures(g) for k, g in _by(pairs, lambda r: str(r["task"])).items()},
        "newly_solved": [_variant(a, b, env) for a, b in pairs if not a["passed"] and b["passed"]],
        "regressed": [_variant(a, b, env) for a, b in pairs if a["passed"] and not b["passed"]],
        "unpaired": {
            "only_a": sum(1 for s in slots_a if s not in slots_b),
            "only_b": sum(1 for s in slots_b if s not in slots_a),
            "excluded": excluded,
        },
    }


def compare_runs(
    store: RunStore,
    run_a: str,
    run_b: str,
    *,
    force: bool = False,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """Compare run B against run A, paired by variant and epoch, JSON-ready.

    Args:
        store: the run store. run_a, run_b: run ids (A is the old release, B the new).
        force: compare even when the locks differ (the result says ``"forced": true``).
        resamples, seed: of the paired bootstrap (the same seed gives the same intervals).

    Returns:
        ``{"run_a", "run_b", "label_a", "label_b" (`run_label`), "forced": bool,
        "lock_differences": [str], "overall": C, "by_band": {band: C}, "by_family":
        {family: C}, "newly_solved": [V], "regressed": [V], "unpaired": {"only_a",
        "only_b", "excluded"}, "usage": {"a": U, "b": U, "delta": D}}`` where C =
        ``{"pairs", "mean_a", "mean_b", "delta", "delta_ci",
        "pass_a", "pass_b", "flips_to_pass", "flips_to_fail", "mcnemar_p", "mcnemar_test"}``
        (``mcnemar_test``: ``"exact"`` with one pair per variant, ``"clustered (Durkalski
        2003)"`` with several epochs per variant; see `mcpgym_clients.measure.stats`; means,
        delta and interval ``None`` without pairs; interval ``None`` below two variants)
        and V = ``{"variant_id", "family", "band", "seed", "epoch", "score_a",
        "score_b", "passed_a", "passed_b", "episode_a", "episode_b", "changed_checks":
        [{"check", "a", "b"}]}`` (episode ids are run-store row ids). ``unpaired``
        counts episodes of one run without a partner in the other, and pairs left out
        because either episode was excluded (infra, grade or model error). U is
        `mcpgym_clients.measure.usage.usage_figures` over every stored episode of a run
        (tokens, cost, episode time) and D their difference B - A (`usage_delta`).

    Raises:
        IncomparableRunsError: the runs ran on different locks and ``force`` is false, or
            on different environments (``force`` or not: nothing pairs).
        ConfigurationError: no such run.
    """
    a, b = store.run(run_a), store.run(run_b)
    if a.get("env") != b.get("env"):
        envs = (str(a.get("env")), str(b.get("env")))
        raise IncomparableRunsError(run_a, run_b, lock_differences(a, b), envs=envs)
    rows_a, rows_b = store.episodes(run_a), store.episodes(run_b)
    differences = lock_differences(a, b) + variant_differences(rows_a, rows_b)
    if differences and not force:
        raise IncomparableRunsError(run_a, run_b, differences)
    rows_a, rows_b = store.episodes(run_a), store.episodes(run_b)
    body = compare_rows(
        rows_a,
        rows_b,
        env=str(a.get("env")),
        resamples=resamples,
        seed=seed,
    )
    return {
        "run_a": run_a,
        "run_b": run_b,
        "label_a": run_label(a),
        "label_b": run_label(b),
        "forced": bool(differences),
        "lock_differences": differences,
        **body,
        "usage": _usage_pair(rows_a, rows_b),
    }


def _usage_pair(
    rows_a: Sequence[Mapping[str, Any]], rows_b: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    ua, ub = usage_figures(rows_a), usage_figures(rows_b)
    return {"a": ua, "b": ub, "delta": usage_delta(ua, ub)}
