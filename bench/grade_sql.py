"""Benchmark: a grade's SQL side with and without stop 26's changes, in one process.

Usage::

    uv run python bench/grade_sql.py [--env helpdesk] [--seeds 3] [--rounds 1]

The passes, settings and split of `bench/grade_cache.py` (*first seen*: every cache keyed
by a reply's text emptied before each grade, and now the check results kept by content too;
*repeated*: a regrade), with its two ways now:

- *off* (main's code before stop 26): a `DecisionMatch.records` query's rows (a helpdesk
  grade: ~1,200, every order on file and every action taken before the episode) each
  folded, and each record's pattern built, on every grade; a check query kept only when
  every table it reads is the snapshot's (`mcpgym_grading._sqlmemo` per snapshot);
- *on*: record names and patterns kept per process (`_decision_records.record_name`,
  `record_pattern`), and a check query over changed tables kept by the database's content
  (`_sqlmemo.content_key`: served again on a database with the same bytes).

Grades must be identical both ways (printed).
"""

from __future__ import annotations

from typing import Any

import grade_cache

from mcpgym_grading import _decision_check, _decision_records, _sqlmemo
from mcpgym_grading._statepages import StateConnection

_NAME = _decision_records.record_name
_PATTERN = _decision_records.record_pattern
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
    _decision_check.record_pattern = _PATTERN if on else _PATTERN.__wrapped__  # type: ignore[attr-defined]
    _sqlmemo._memo_key = _MEMO_KEY if on else _memo_key_before  # noqa: SLF001


class _ByContent:
    """The results `_sqlmemo` keeps by content, emptied where `grade_cache` empties the
    caches keyed by a reply's text (a database never graded before)."""

    @staticmethod
    def cache_clear() -> None:
        _sqlmemo.clear_content()


if __name__ == "__main__":
    grade_cache._use = _use  # noqa: SLF001 - the ways this benchmark compares
    grade_cache._TEXT_CACHES = (*grade_cache._TEXT_CACHES, _ByContent())  # noqa: SLF001
    grade_cache.__doc__ = __doc__
    grade_cache.main()
