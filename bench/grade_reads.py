"""Benchmark: a grade's query results, cue patterns and text answers read once, on and off.

Usage::

    uv run python bench/grade_reads.py [--env helpdesk] [--seeds 2] [--rounds 2]

Reference and null episodes of every family x band x ``--seeds`` run in process; the
null bundles are graded first (reference end states built, texts met), then each
reference bundle is graded with the two memos of issue 12 §2 off (the code before them)
and on, the order alternating bundle by bundle:

- ``_checks._run_sql`` answers a query a grade already ran from `CheckContext.sql_results`
  (off: every check runs its SQL again, as before);
- ``_clauses._cue_pattern`` is remembered per cue (off: built and looked up in ``re``'s
  cache on every call, as before);
- ``TextView.contains`` remembers its answers per value (off: the value looked for again);
- text views are kept up to `VIEW_CACHE_CHARS` characters (off: the 256 views kept before;
  each way has its own cache, so a way's rounds find what it kept).

The first round's texts are new to the views' answers only when this process has not
graded them: the null bundles graded first are other texts, so round 1 measures new
replies and later rounds regrades (the same replies: epochs, RL groups, campaigns again).

Prints the thread CPU per grade (median, mean), the mean ratio on/off, the median of the
per-bundle ratios, and whether the grades (JSON, episode id left out) are byte-identical.
"""

from __future__ import annotations

import argparse
import functools
from typing import Any

from _grade_ab import grade_both_ways, run_episodes, summary

from mcpgym_grading import (
    _answer_check,
    _check_context,
    _checks,
    _clauses,
    _roles,
    _sqlmemo,
    _text,
    _value_roles,
)
from mcpgym_grading._text import TextView
from mcpgym_grading._values import bind_sql
from mcpgym_grading.errors import CheckEvaluationError

_RUN_SQL = _checks._run_sql  # noqa: SLF001
_CUE = _clauses._cue_pattern  # noqa: SLF001
_CONTAINS = TextView.contains


def _run_sql_each_time(ctx: Any, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """`_checks._run_sql` before the per-grade memo."""
    columns, rows = _sqlmemo.query(ctx.final_db, sql, bind_sql(sql, ctx.params))  # noqa: SLF001
    if columns is None:
        raise CheckEvaluationError("the SQL statement returns no columns; use a SELECT")
    return list(columns), rows


def _contains_each_time(self: TextView, value: str) -> bool:
    """`TextView.contains` before its answers were remembered."""
    found = self._contains(value)  # noqa: SLF001
    return found or (self._source is not None and self._source._contains(value))  # noqa: SLF001


_VIEWS = _text._cached_view  # noqa: SLF001
_VIEWS_256 = functools.lru_cache(maxsize=256)(TextView._build)  # noqa: SLF001


def _use(on: bool) -> None:
    _text._cached_view = _VIEWS if on else _VIEWS_256  # type: ignore[assignment]  # noqa: SLF001
    for module in (_check_context, _checks, _answer_check):  # every module that reads it
        module._run_sql = _RUN_SQL if on else _run_sql_each_time  # type: ignore[attr-defined]  # noqa: SLF001
    TextView.contains = _CONTAINS if on else _contains_each_time  # type: ignore[method-assign]
    cue = _CUE if on else _CUE.__wrapped__
    for module in (_roles, _value_roles):
        module._cue_pattern = cue  # type: ignore[attr-defined]  # noqa: SLF001


def main() -> None:
    """Run the episodes, grade them both ways, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    eps = run_episodes(args.env, args.seeds)
    ms, identical = grade_both_ways(eps, args.rounds, _use)
    print(summary(args.env, ms, identical))


if __name__ == "__main__":
    main()
