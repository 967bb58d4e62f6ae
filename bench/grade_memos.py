"""Benchmark: grading with its memos on and off, in one process, bundle by bundle interleaved.

Usage::

    uv run python bench/grade_memos.py [--env helpdesk] [--seeds 2] [--rounds 1]

Reference and null episodes of every family x band (easy..expert) x ``--seeds`` run in
process; the null bundles are graded first (the reference end states built), then each
reference bundle is graded with the memos off (the plain functions: what grading did
before them) and on, the order alternating. Memos: `mcpgym_grading._sqlmemo` (check queries
over tables equal to the snapshot's, answered once per snapshot), `money_mentions` per text,
the skeleton's character likeness. ``--rounds 1``: every text is new to the memos (another
agent's replies); more rounds regrade the same bundles (texts met before). Prints the
thread CPU per grade (median, mean), the ratio on/off, and whether the grades are equal.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from mcpgym_grading import (
    ReferenceCache,
    _checks,
    _money,
    _roles,
    _skeleton,
    _sqlmemo,
    grade_bundle,
)
from mcpgym_server import EpisodeManager, EpisodeStore, load_environment

_ON = {
    "key": _sqlmemo._memo_key,  # noqa: SLF001
    "mentions": _money.money_mentions,
    "plain": _skeleton._alike_plain,  # noqa: SLF001
    "long": _skeleton._alike_long,  # noqa: SLF001
}


def _plain_mentions(text: str, *, bare: bool = False, candidates: Any = ()) -> list[Any]:
    key = frozenset(candidates) if bare else frozenset()
    return list(_money._money_mentions.__wrapped__(text, bare, key))  # noqa: SLF001


_OFF = {
    "key": lambda *_a: None,
    "mentions": _plain_mentions,
    "plain": lambda s, w: _skeleton._alike_of(s, w, None),  # noqa: SLF001
    "long": lambda s, w: _skeleton._alike_of(s, w, _skeleton.LONG_DIGIT_LIKE),  # noqa: SLF001
}


def _use(ways: dict[str, Any]) -> None:
    _sqlmemo._memo_key = ways["key"]  # noqa: SLF001
    for module in (_money, _checks, _roles):
        module.money_mentions = ways["mentions"]  # type: ignore[attr-defined]
    _skeleton._alike_plain = ways["plain"]  # noqa: SLF001
    _skeleton._alike_long = ways["long"]  # noqa: SLF001


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    env = load_environment(args.env)
    store = EpisodeStore(Path(tempfile.mkdtemp(prefix="mcpgym-bench-")))
    manager = EpisodeManager(env, store, max_open=10)
    ref: list[str] = []
    null: list[str] = []
    for fam in sorted(env.families):
        for band in ("easy", "medium", "hard", "expert"):
            for seed in range(args.seeds):
                try:
                    v = env.variant(fam, band, seed)
                except Exception:  # noqa: BLE001 - a band the family lacks
                    continue
                for agent in ("null", "reference"):
                    ep = manager.open(fam, band, seed)
                    for c in v.reference if agent == "reference" else ():
                        if manager.is_open(ep.id):
                            manager.call(ep.id, c.name, dict(c.arguments))
                    answer = v.answer if agent == "reference" else None
                    manager.seal(ep.id, "ended", answer=answer)
                    (ref if agent == "reference" else null).append(ep.id)
    cache = ReferenceCache()
    _use(_OFF)
    for eid in null:
        grade_bundle(store.read(eid), env, reference_cache=cache)
    ms: dict[str, list[float]] = {"off": [], "on": []}
    digests = {k: hashlib.sha256() for k in ms}
    for rnd in range(args.rounds):
        for n, eid in enumerate(ref):
            for way in ("on", "off") if (n + rnd) % 2 else ("off", "on"):
                _use(_ON if way == "on" else _OFF)
                bundle = store.read(eid)
                c0 = time.thread_time()
                grade = grade_bundle(bundle, env, reference_cache=cache)
                ms[way].append((time.thread_time() - c0) * 1000)
                dump = grade.model_dump()
                dump.pop("episode_id")
                digests[way].update(json.dumps(dump, sort_keys=True, default=str).encode())
    _use(_ON)
    on, off = ms["on"], ms["off"]
    ratios = [a / b for a, b in zip(on, off, strict=True)]
    print(
        f"{args.env}: {len(on)} grades; CPU ms per grade off median {statistics.median(off):.2f} "
        f"mean {statistics.mean(off):.2f}, on median {statistics.median(on):.2f} mean "
        f"{statistics.mean(on):.2f}; on/off mean x{statistics.mean(on) / statistics.mean(off):.3f}"
        f", median of ratios x{statistics.median(ratios):.3f}"
        f"; grades equal: {digests['on'].digest() == digests['off'].digest()}"
    )


if __name__ == "__main__":
    main()
