"""Benchmark: what a campaign's grades cost in process, and the records readers' part of it.

Usage::

    uv run python bench/grade_parts.py [--seeds 0-4] [--rounds 3]

Each round seals a fresh reference episode of every helpdesk family x band x ``--seeds``
(`EpisodeManager`, bundle key) and grades each bundle in this thread (`read_verified`,
`grade_bundle` with one `ReferenceCache` over the run): round 0 first seen (reference end
states built, every reply new), the later rounds what a campaign's grading service does
with the same variants again (new episodes, the same replies: every cache keyed by a
reply's text hits). Prints thread CPU ms per grade and, inside it, the time in
`_decision_check`'s ``taken_on``, ``on_file`` and ``misbound_claims`` (the records a
decision claim may name, issue 9; wrapped with a timer where `eval_decision_match` calls
them). Grades are not changed.
"""

from __future__ import annotations

import argparse
import functools
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mcpgym_grading._decision_check as decision_check
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import EpisodeManager, EpisodeStore, load_environment

PARTS = ("taken_on", "on_file", "misbound_claims")
spent: dict[str, float] = {}


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.thread_time() - t0

    return timed


def main() -> None:
    """Seal, grade, print."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for name in PARTS:
        setattr(decision_check, name, _timed(name, getattr(decision_check, name)))
    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    keys = [
        (f, b, s)
        for f in env.families
        for b in env.family(f).bands
        for s in range(int(lo), int(hi or lo) + 1)
    ]
    key = secrets.token_urlsafe(32)
    cache = ReferenceCache()
    with tempfile.TemporaryDirectory() as tmp:
        store = EpisodeStore(Path(tmp) / "episodes", sign_key=key)
        manager = EpisodeManager(env, store, max_open=64)
        for r in range(args.rounds):
            ids = []
            for f, b, s in keys:
                variant = env.variant(f, b, s)
                ep = manager.open(f, b, s)
                for c in variant.reference:
                    manager.call(ep.id, c.name, dict(c.arguments))
                manager.seal(ep.id, "submitted", answer=variant.answer)
                ids.append(ep.id)
            spent.clear()
            total = 0.0
            for i in ids:
                bundle, _ = store.read_verified(i, key)
                t0 = time.thread_time()
                grade = grade_bundle(bundle, env, reference_cache=cache)
                total += time.thread_time() - t0
                assert grade.score == 1.0, grade
            n = len(ids)
            parts = ", ".join(f"{k} {spent.get(k, 0.0) * 1000 / n:.2f}" for k in PARTS)
            records = sum(spent.values()) * 1000 / n
            print(
                f"round {r}: {total * 1000 / n:.2f} ms CPU a grade; records readers "
                f"{records:.2f} ({parts}); load {os.getloadavg()[0]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
