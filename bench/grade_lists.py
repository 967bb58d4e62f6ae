"""Benchmark: a grade's text work with and without stop 25's list matching.

Usage::

    uv run python bench/grade_lists.py [--env helpdesk] [--seeds 5] [--rounds 1]

The passes, settings (*first seen*: every cache keyed by a reply's text emptied before each
grade; *repeated*: a regrade), split by check kind and report of `bench/grade_cache.py`,
with its two ways now:

- *off* (the code before stop 25): a forbidden list's values looked for in a reply one by
  one (`TextView.contains` each: ``replies-withdraw-nothing`` makes 429 searches of every
  reply), `mcpgym_grading._stated_words.stated_other` compiling and searching the
  pattern of every phrase it is given, and each answer check's listed values checked and
  deduplicated one by one in Python (`_answer_check._listed` as it was);
- *on*: the list looked for in one pass per text view (`mcpgym_grading._find_many`), a
  phrase with a word the folded text lacks neither compiled nor searched, and the listed
  values deduplicated by ``dict.fromkeys``.

Grades must be identical both ways (printed).
"""

from __future__ import annotations

from typing import Any

import grade_cache

from mcpgym_grading import _answer_check, _find_many, _stated_words
from mcpgym_grading._answer_check import _flat  # noqa: PLC2701
from mcpgym_grading._check_context import _run_sql  # noqa: PLC2701
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError

_MAY_MATCH = _stated_words._may_match  # noqa: SLF001
_LISTED = _answer_check._listed  # noqa: SLF001


def _listed_before(value: Any, sql: str | None, ctx: Any, what: str) -> list[Any]:
    """`_answer_check._listed` as main had it (before stop 25)."""
    values = _flat(resolve(value, ctx.params))
    if sql:
        _, rows = _run_sql(ctx, sql)
        values += [v for row in rows for v in row if v is not None]
    out: list[Any] = []
    seen: set[Any] = set()
    for v in values:
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise CheckEvaluationError(f"{what} value must be a text or number, got {v!r}")
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def _use(on: bool) -> None:
    _find_many.ENABLED = on
    _stated_words._may_match = _MAY_MATCH if on else (lambda _phrase, _plain: True)  # noqa: SLF001
    _answer_check._listed = _LISTED if on else _listed_before  # noqa: SLF001


if __name__ == "__main__":
    grade_cache._use = _use  # noqa: SLF001 - the ways this benchmark compares
    grade_cache.__doc__ = __doc__
    grade_cache.main()
