"""Benchmark: a grade's SQL side with and without stop 26's changes, in one process.

Usage::

    uv run python bench/grade_sql.py [--env helpdesk] [--seeds 3] [--rounds 1]
    uv run python bench/grade_sql.py --direct 14 [--rounds 3]

The passes, settings and split of `bench/grade_cache.py` (*first seen*: every cache keyed
by a reply's text emptied before each grade, and now the check results kept by content too;
*repeated*: a regrade), with its two ways now:

- *off* (main's code before stop 26): a `DecisionMatch.records` query's rows (a helpdesk
  grade: ~1,200, every order on file and every action taken before the episode) each
  folded, and each record's pattern built, on every grade; a check query kept only when
  every table it reads is the snapshot's (`mcpgym_grading._sqlmemo` per snapshot);
  a final database held in hand (the sealed sandbox the trainer's direct path passes as
  ``final_db``) graded on it, a fresh connection that compiles every check's statements;
- *on*: record names and patterns kept per process (`_decision_records.record_name`,
  `record_pattern`), a check query over changed tables kept by the database's content
  (`_sqlmemo.content_key`: served again on a database with the same bytes), and a held
  final database graded on a kept mapped connection (`engine.MAP_HELD`).

``--direct N``: instead, the trainer's direct path (`bench/rollouts.py --floor`'s loop: the
reference solution of ``N`` easy rows, one per family in turn, the sealed sandbox graded in
place, ``hash_final=False``), each episode run once per way and graded, ``--rounds`` times,
the order alternating; thread CPU of the grade only, in two settings: *new content* (before
each grade the caches keyed by a reply's text and the results kept by content emptied: a
rollout unlike the others) and *same content* (nothing emptied: a group of rollouts of one
variant ending alike, as the reference policy's do).

Grades must be identical both ways (printed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from typing import Any

import grade_cache

from mcpgym_grading import _decision_records, _sqlmemo, engine
from mcpgym_grading._statepages import StateConnection

_NAME = _decision_records.record_name
_PATTERN = _decision_records.record_pattern
_TAKEN = _decision_records._taken_on  # noqa: SLF001
_ON_FILE = _decision_records._on_file  # noqa: SLF001
_MEMO_KEY = _sqlmemo._memo_key  # noqa: SLF001


def _memo_key_before(db: Any, sql: str, bound: dict[str, Any]) -> tuple[Any, ...] | None:
    """`_sqlmemo._memo_key` as main had it: per snapshot only, no grading function but
    `mcpgym_fold`, `mcpgym_mentions` and `mcpgym_without`."""
    if not isinstance(db, StateConnection) or db.index is None or db.base_sha256 is None:
        return None
    if not db.schema_is_base or not db.same_as_base:
        return None
    reads = _sqlmemo._reads(db, sql, bound)  # noqa: SLF001
    if reads is None or reads[1] or not reads[0] <= db.same_as_base:
        return None
    return (db.base_sha256, sql, _sqlmemo._param_key(bound))  # noqa: SLF001


def _use(on: bool) -> None:
    _decision_records.record_name = _NAME if on else _NAME.__wrapped__  # type: ignore[attr-defined]
    _decision_records._taken_on = _TAKEN if on else _decision_records._read_taken  # noqa: SLF001
    _decision_records._on_file = _ON_FILE if on else _decision_records._read_on_file  # noqa: SLF001
    _decision_records.record_pattern = _PATTERN if on else _PATTERN.__wrapped__  # type: ignore[attr-defined]
    _decision_records._record_patterns.cache_clear()  # noqa: SLF001 (patterns kept per taken)
    _sqlmemo._memo_key = _MEMO_KEY if on else _memo_key_before  # noqa: SLF001
    engine.MAP_HELD = on


def direct(n_rows: int, rounds: int) -> None:
    """The trainer's direct path, both ways (see the module docstring); prints the figures."""
    from rollouts import pick_rows

    from mcpgym_grading import ReferenceCache, grade_bundle
    from mcpgym_server import MemoryEpisodeStore, load_environment
    from mcpgym_server.runtime import EpisodeManager

    env = load_environment("helpdesk")
    store = MemoryEpisodeStore()
    manager = EpisodeManager(
        env,
        store,
        connection_factory=StateConnection,
        keep_final_db=True,
        max_open=16,
        hash_final=False,
    )
    cache = ReferenceCache()
    rows = pick_rows("helpdesk", n_rows)
    caches = grade_cache._TEXT_CACHES  # noqa: SLF001 (the results kept by content too)

    def one(row: Any, on: bool, fresh: bool) -> tuple[float, bytes]:
        _use(on)
        v = env.variant(row.task, row.band, row.seed)
        ep = manager.open(row.task, row.band, row.seed)
        for c in v.reference:
            manager.call(ep.id, c.name, dict(c.arguments))
        manager.call(ep.id, "submit", {} if v.answer is None else {"answer": v.answer})
        db = manager.take_final_db(ep.id)
        bundle = store.take(ep.id)
        if fresh:
            for memo in caches:
                memo.cache_clear()
        c0 = time.thread_time()
        grade = grade_bundle(bundle, env, reference_cache=cache, final_db=db)
        ms = (time.thread_time() - c0) * 1000
        assert db is not None
        db.close()
        dump = grade.model_dump()
        dump.pop("episode_id")
        return ms, json.dumps(dump, sort_keys=True, default=str).encode()

    for row in rows:  # variants, reference end states, statements of both ways
        one(row, True, False)
        one(row, False, False)
    for fresh in (True, False):
        ms: dict[bool, list[float]] = {False: [], True: []}
        digests = {k: hashlib.sha256() for k in ms}
        for rnd in range(rounds):
            for i, row in enumerate(rows):
                for on in (True, False) if (i + rnd) % 2 else (False, True):
                    t, dump = one(row, on, fresh)
                    ms[on].append(t)
                    digests[on].update(dump)
        off, on_ = ms[False], ms[True]
        ratios = [a / b for a, b in zip(on_, off, strict=True)]
        print(
            f"direct, {'new' if fresh else 'same'} content: {len(on_)} grades each way; grade "
            f"CPU ms off median {statistics.median(off):.2f} mean {statistics.mean(off):.2f} | "
            f"on median {statistics.median(on_):.2f} mean {statistics.mean(on_):.2f} | on/off "
            f"mean x{statistics.mean(on_) / statistics.mean(off):.3f}, median of ratios "
            f"x{statistics.median(ratios):.3f}; grades identical: "
            f"{digests[True].digest() == digests[False].digest()}"
        )
    _use(True)
    print(f"load {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")


if __name__ == "__main__":
    if "--direct" in sys.argv:
        parser = argparse.ArgumentParser()
        parser.add_argument("--direct", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=3)
        args = parser.parse_args()
        direct(args.direct, args.rounds)
        sys.exit(0)
    grade_cache._use = _use  # noqa: SLF001 - the ways this benchmark compares
    grade_cache.__doc__ = __doc__
    grade_cache.main()
