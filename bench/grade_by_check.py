"""Benchmark: a first-seen helpdesk grade's thread CPU by check name (this tree's code only).

Usage::

    uv run python bench/grade_by_check.py SEEDS

The reference episodes of every helpdesk family x band x seeds ``0..SEEDS-1``
(`grade_cache.run_episodes`), each graded once to warm the variant's reference state, then
again with every cache keyed by a reply's text emptied before each grade (the *first seen*
setting of `bench/grade_readers.py`). Prints the mean ms a grade and the 15 costliest checks
(ms a grade, by the check's name). Grades are not changed.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import grade_cache
from _readers_before import TEXT_MEMOS

from mcpgym_grading import ReferenceCache, _checks, grade_bundle

_SPENT: dict[str, float] = defaultdict(float)


def _timed(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(check: Any, ctx: Any) -> Any:
        c0 = time.thread_time()
        try:
            return fn(check, ctx)
        finally:
            _SPENT[getattr(check, "name", None) or type(check).__name__] += time.thread_time() - c0

    return run


def main() -> None:
    """Run the episodes, grade them first seen, print the checks' shares."""
    for kind, fn in list(_checks.EVALUATORS.items()):
        _checks.EVALUATORS[kind] = _timed(fn)
    eps = grade_cache.run_episodes("helpdesk", int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    cache = ReferenceCache()
    for eid in eps.null + eps.ref:
        grade_bundle(eps.store.read(eid), eps.env, reference_cache=cache)
    _SPENT.clear()
    total = 0.0
    for eid in eps.ref:
        for memo in (*grade_cache._TEXT_CACHES, *TEXT_MEMOS):  # noqa: SLF001
            memo.cache_clear()
        bundle = eps.store.read(eid)
        c0 = time.thread_time()
        grade_bundle(bundle, eps.env, reference_cache=cache)
        total += time.thread_time() - c0
    n = len(eps.ref)
    print(f"{n} grades, {total * 1000 / n:.2f} ms a grade; load {os.getloadavg()[0]:.1f}")
    for name, spent in sorted(_SPENT.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {spent * 1000 / n:6.3f} ms  {name}")


if __name__ == "__main__":
    main()
