"""Benchmark: a grade with the text readers' internals of stop 26 (perfB26) and without.

Usage::

    uv run python bench/grade_readers.py [--env helpdesk] [--seeds 2] [--rounds 1] [--cold]

The passes, settings and report of `bench/grade_cache.py` (*first seen*: every cache keyed
by a reply's text emptied before each grade, the new ones of this stop too; *repeated*: a
regrade), with its two ways now:

- *off*: the readers' code as main had it before stop 26 (`bench/_readers_before.py`
  swapped in wherever a module holds it);
- *on*: the code of this tree.

``--cold``: the memos of this stop kept per value (a variant's records, patterns) are
emptied before each grade too, as for a variant met for the first time.

Grades must be identical both ways (printed).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import grade_cache
from _readers_before import BEFORE, TEXT_MEMOS, VALUE_MEMOS

from mcpgym_grading import ReferenceCache, _checks, grade_bundle

_NEW = [(module, name, vars(module)[name], before) for module, name, before in BEFORE]


def _use(on: bool) -> None:
    grading = [m for n, m in list(sys.modules.items()) if n.startswith("mcpgym_grading")]
    for module, name, new, before in _NEW:
        want, other = (new, before) if on else (before, new)
        setattr(module, name, want)
        if isinstance(module, type):
            continue  # a class's own attribute (a method)
        for held in grading:  # every module that imported it by name
            for attr, value in list(vars(held).items()):
                if value is other:
                    setattr(held, attr, want)


def main() -> None:
    """Run the episodes, grade them both ways in both settings, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    memos: tuple[Any, ...] = (*grade_cache._TEXT_CACHES, *TEXT_MEMOS)  # noqa: SLF001
    grade_cache._TEXT_CACHES = (*memos, *VALUE_MEMOS) if args.cold else memos  # noqa: SLF001
    grade_cache._use = _use  # noqa: SLF001
    for t, fn in list(_checks.EVALUATORS.items()):
        _checks.EVALUATORS[t] = grade_cache._timed(fn)  # noqa: SLF001
    eps = grade_cache.run_episodes(args.env, args.seeds)
    cache = ReferenceCache()
    for eid in eps.null:
        grade_bundle(eps.store.read(eid), eps.env, reference_cache=cache)
    for fresh in (True, False):
        if not fresh:  # every reply met once before the repeated pass
            for eid in eps.ref:
                grade_bundle(eps.store.read(eid), eps.env, reference_cache=cache)
        merged: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
        same = True
        for rnd in range(args.rounds):
            rows, identical = grade_cache._grade_pass(eps, cache, fresh, rnd)  # noqa: SLF001
            merged["off"] += rows["off"]
            merged["on"] += rows["on"]
            same = same and identical
        name = "first seen" if fresh else "repeated"
        print(grade_cache._report(f"{args.env} {name}", merged, same))  # noqa: SLF001
    print(f"load {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")


if __name__ == "__main__":
    main()
