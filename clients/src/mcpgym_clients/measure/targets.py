"""Failure mining: a run's failures as the next training targets, and fresh variants at the ceiling.

- `failure_targets`: every scored episode that failed, with its variant, band, instruction,
  the checks it failed (expected vs. found) and a transcript reference (run id and
  run-store episode row id), grouped by the set of checks failed.
- `ceiling_variants`: where a family passes at least 90% of its episodes in the hardest
  band it was run in, new variants (seeds not in the run) of that band and of the next
  band up, when the family's generator supports it. Each is validated by replaying its
  reference solution in process (`mcpgym_server.replay`, an `EpisodeManager` over an
  in-memory store) and grading the bundle (`mcpgym_grading.grade_bundle`): it must
  score 1.0 and pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_clients.measure.compare import check_status
from mcpgym_clients.measure.metrics import (
    band_order,
    episode_flags,
    exclusion_reason,
    latest_per_slot,
)
from mcpgym_clients.runstore import RunStore
from mcpgym_grading import grade_bundle
from mcpgym_server import BANDS, Environment, compute_lock
from mcpgym_server.runtime import replay

CEILING = 0.9
"""Pass rate in a family's hardest band at or above which fresh, harder variants are listed."""


def _instruction(row: Mapping[str, Any], env: Environment | None) -> str | None:
    """The instruction the agent saw: the first user message of the transcript."""
    for message in row.get("transcript") or []:
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    if env is not None:
        return env.variant(row["task"], row["band"], row["seed"]).instruction
    return None


def _failed_checks(grade: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    out = []
    for c in (grade or {}).get("checks", []):
        status = check_status(c)
        if status in ("fail", "error"):
            detail = c.get("detail") or {}
            out.append(
                {
                    "check": c["name"],
                    "status": status,
                    "required": c.get("required"),
                    "weight": c.get("weight"),
                    "expected": detail.get("expected"),
                    "found": detail.get("found"),
                    **({"error": c["error"]} if c.get("error") else {}),
                }
            )
    return out


def failure_targets(
    store: RunStore, run_id: str, *, environment: Environment | None = None
) -> list[dict[str, Any]]:
    """The failed episodes of a run, one JSON-ready dict each, grouped by the checks failed.

    Args:
        store: the run store. run_id: the run.
        environment: the installed environment, to regenerate an instruction when a
            transcript has none (optional).

    Returns:
        ``[{"group": "check-a + check-b", "flags", "variant_id", "family", "band", "seed",
        "epoch", "score", "instruction", "failed_checks": [{"check", "status",
        "required", "weight", "expected", "found"}], "transcript": {"run_id",
        "episode": row id}}, ...]``, largest group first, then by family, band, seed,
        epoch. Episodes excluded from scores (infra, grade or model errors) are not
        failures and are left out. ``flags`` lists the episode's `EPISODE_FLAGS`
        (``unparsed_tool_call``, ``context_overflow``); a flagged episode's group starts
        with them in brackets.

    Raises:
        ConfigurationError: no such run.
    """
    run = store.run(run_id)
    items = []
    for row in latest_per_slot(store.episodes(run_id)):
        if exclusion_reason(row) is not None or row["passed"]:
            continue
        failed = _failed_checks(row.get("grade"))
        variant = row.get("variant_id") or f"{run['env']}/{row['task']}@{row['band']}#{row['seed']}"
        flags = episode_flags(row)
        group = " + ".join(c["check"] for c in failed) or "(score below threshold)"
        if flags:  # not a wrong answer as such: a call the harness could not read
            group = f"[{', '.join(flags)}] {group}"
        items.append(
            {
                "group": group,
                "flags": flags,
                "variant_id": variant,
                "family": row["task"],
                "band": row["band"],
                "seed": row["seed"],
                "epoch": row["epoch"],
                "score": row["score"],
                "instruction": _instruction(row, environment),
                "failed_checks": failed,
                "transcript": {"run_id": run_id, "episode": row["id"]},
            }
        )
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item["group"]] = sizes.get(item["group"], 0) + 1
    items.sort(
        key=lambda i: (
            -sizes[i["group"]],
            i["group"],
            i["family"],
            band_order(i["band"]),
            i["seed"],
            i["epoch"],
        )
    )
    return items


def group_targets(targets: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`failure_targets` summarised per group: ``[{"group", "episodes", "variants": [id]}]``."""
    groups: dict[str, dict[str, Any]] = {}
    for t in targets:
        g = groups.setdefault(t["group"], {"group": t["group"], "episodes": 0, "variants": []})
        g["episodes"] += 1
        if t["variant_id"] not in g["variants"]:
            g["variants"].append(t["variant_id"])
    return list(groups.values())


def _validated(env: Environment, family: str, band: str, seed: int) -> dict[str, Any]:
    variant = env.variant(family, band, seed)
    bundle = replay(env, family, band, seed, variant.reference, answer=variant.answer)
    grade = grade_bundle(bundle, env)
    return {
        "variant_id": variant.id,
        "family": family,
        "band": band,
        "seed": seed,
        "instruction": variant.instruction,
        "reference_score": grade.score,
        "validated": grade.status == "graded" and grade.score == 1.0 and grade.passed,
    }


def ceiling_variants(
    store: RunStore,
    run_id: str,
    environment: Environment,
    *,
    fresh: int = 3,
    threshold: float = CEILING,
) -> list[dict[str, Any]]:
    """Families at the ceiling of a run, with fresh variants validated by their reference.

    For each family, the hardest band it was run in (by `mcpgym_server.BANDS` order) and
    its pass rate there (scored episodes only). At or above ``threshold``: ``fresh`` new
    seeds (the smallest not used by the family in the run) of that band and of the next
    band up, the latter only if the family's generator supports it.

    Args:
        store: the run store. run_id: the run. environment: the installed environment
            (its generators and rubrics make and validate the variants).
        fresh: new seeds per band. threshold: the ceiling pass rate.

    Returns:
        One dict per family run, in the run's planned order: ``{"family",
        "hardest_band", "pass_rate", "episodes", "at_ceiling", "fresh": [{"variant_id",
        "family", "band", "seed", "instruction", "reference_score", "validated"}],
        "unsupported": [band], "notes": [str]}``.

    Raises:
        ConfigurationError: no such run.
    """
    run = store.run(run_id)
    lock_note = (
        []
        if compute_lock(environment) == run.get("lock")
        else [
            f"the installed {environment.name} {environment.version} is not on the run's "
            f"lock: fresh variants come from the installed generators"
        ]
    )
    per_family: dict[str, list[Mapping[str, Any]]] = {}
    for row in latest_per_slot(store.episodes(run_id)):
        per_family.setdefault(str(row["task"]), []).append(row)
    # Families in the order the campaign planned them (its episodes finish in any order).
    planned = [str(v).partition("@")[0] for v in (run.get("selection") or {}).get("variants", [])]
    rank = {f: i for i, f in enumerate(dict.fromkeys(planned))}
    result = []
    for family, rows in sorted(per_family.items(), key=lambda kv: rank.get(kv[0], len(rank))):
        hardest = max((str(r["band"]) for r in rows), key=band_order)
        scored = [r for r in rows if r["band"] == hardest and exclusion_reason(r) is None]
        rate = sum(1 for r in scored if r["passed"]) / len(scored) if scored else None
        entry: dict[str, Any] = {
            "family": family,
            "hardest_band": hardest,
            "pass_rate": rate,
            "episodes": len(scored),
            "at_ceiling": rate is not None and rate >= threshold,
            "fresh": [],
            "unsupported": [],
            "notes": list(lock_note),
        }
        result.append(entry)
        if not entry["at_ceiling"]:
            continue
        fam = environment.families.get(family)
        if fam is None:
            entry["notes"].append(f"the installed {environment.name} has no family `{family}`")
            continue
        bands = [hardest] if hardest in fam.bands else []
        if hardest in BANDS and BANDS.index(hardest) + 1 < len(BANDS):
            up = BANDS[BANDS.index(hardest) + 1]
            if up in fam.bands:
                bands.append(up)
            else:
                entry["unsupported"].append(up)
                entry["notes"].append(
                    f"the generator of `{family}` does not support band `{up}` "
                    f"(bands: {', '.join(fam.bands)}); only fresh `{hardest}` seeds are listed"
                )
        else:
            entry["notes"].append(f"`{hardest}` is the hardest band there is")
        used = {int(r["seed"]) for r in rows}
        seeds = [s for s in range(len(used) + fresh) if s not in used][:fresh]
        entry["fresh"] = [_validated(environment, family, b, s) for b in bands for s in seeds]
    return result
