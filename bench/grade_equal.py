"""Grades of the demo matrix and the ship gate's mutants, as digests: compare two codes.

Usage::

    uv run python bench/grade_equal.py --env helpdesk --out new.json [--seeds 5]
    PYTHONPATH=/tmp/base/grading/src uv run python bench/grade_equal.py ... --out old.json
    uv run python bench/grade_equal.py --compare old.json new.json

Every family x band x seed ``0..seeds-1`` runs the reference and the null agent; every
family x band at seed 0 runs the ship gate's control mutants
(`mcpgym_clients.instrument.controls.mutants`) and adversarial mutants
(`mcpgym_clients.instrument.adversarial.adversaries`). Each episode is sealed to a store
on disk (page-delta bundles, as the servers seal them) and graded in process, in order,
twice (``--passes``); each grade's JSON (episode id left out) is hashed. ``--compare``
prints how many grades are equal and the first ones that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.controls import mutants
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import SUBMIT_TOOL, EpisodeManager, EpisodeStore, load_environment


def _run(manager: EpisodeManager, fam: str, band: str, seed: int, calls: list[Any]) -> str:
    ep = manager.open(fam, band, seed)
    answer = None
    for name, args in calls:
        if name == SUBMIT_TOOL:
            answer = args.get("answer") if isinstance(args.get("answer"), str) else None
            break
        if manager.is_open(ep.id):
            manager.call(ep.id, name, dict(args))
    manager.seal(ep.id, "ended", answer=answer)
    return ep.id


def dump(
    env_name: str, seeds: int, passes: int, families: list[str] | None = None
) -> dict[str, str]:
    """``{label: sha256 of the grade's JSON}`` for every episode (see the module docstring);
    ``families``: only these (default: all)."""
    env = load_environment(env_name)
    store = EpisodeStore(Path(tempfile.mkdtemp(prefix="mcpgym-equal-")))
    manager = EpisodeManager(env, store, max_open=10)
    episodes: list[tuple[str, str]] = []
    for fam in sorted(families or env.families):
        for band in env.family(fam).bands:
            for seed in range(seeds):
                v = env.variant(fam, band, seed)
                ref = [(c.name, dict(c.arguments)) for c in v.reference]
                ref.append((SUBMIT_TOOL, {"answer": v.answer}))
                at = f"{fam}/{band}/{seed}"
                episodes.append((f"{at}/reference", _run(manager, fam, band, seed, ref)))
                episodes.append((f"{at}/null", _run(manager, fam, band, seed, [])))
            v = env.variant(fam, band, 0)
            for label, calls in mutants(env, v):
                lab = f"{fam}/{band}/0/mutant/{label}"
                episodes.append((lab, _run(manager, fam, band, 0, calls)))
            for adv in adversaries(env, v):
                lab = f"{fam}/{band}/0/adversarial/{adv.label}"
                episodes.append((lab, _run(manager, fam, band, 0, list(adv.calls))))
    cache = ReferenceCache()
    out: dict[str, str] = {}
    t0 = time.perf_counter()
    import mcpgym_grading

    print(f"grading code: {Path(mcpgym_grading.__file__).parent}", file=sys.stderr)
    for p in range(passes):
        for i, (label, eid) in enumerate(episodes):
            grade = grade_bundle(store.read(eid), env, reference_cache=cache)
            d = grade.model_dump()
            d.pop("episode_id")
            digest = hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()
            out[f"{i:05d} {label}" + (f" #pass{p}" if p else "")] = digest
    print(
        f"{env_name}: {len(episodes)} episodes x {passes} passes graded in "
        f"{time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
    return out


def main() -> None:
    """Dump digests, or compare two dumps."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--env", default="helpdesk")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--families", help="comma-separated families (default: all)")
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2)
    args = ap.parse_args()
    if args.compare:
        a, b = (json.loads(Path(f).read_text()) for f in args.compare)
        same = [k for k in a if b.get(k) == a[k]]
        differ = sorted(set(a) ^ set(b) | {k for k in a if k in b and a[k] != b[k]})
        print(f"{len(same)} of {len(a)} / {len(b)} grades equal; {len(differ)} differ")
        for k in differ[:20]:
            print("  differs:", k)
        raise SystemExit(1 if differ else 0)
    Path(args.out).write_text(
        json.dumps(
            dump(
                args.env,
                args.seeds,
                args.passes,
                args.families.split(",") if args.families else None,
            ),
            indent=0,
        )
    )


if __name__ == "__main__":
    main()
