"""Benchmark: a grade's text work with and without stop 25's list matching.

Usage::

    uv run python bench/grade_lists.py [--env helpdesk] [--seeds 5] [--rounds 1]

The passes, settings (*first seen*: every cache keyed by a reply's text emptied before each
grade; *repeated*: a regrade), split by check kind and report of `bench/grade_cache.py`,
with its two ways now:

- *off* (the code before stop 25): a forbidden list's values looked for in a reply one by
  one (`TextView.contains` each: ``replies-withdraw-nothing`` makes 429 searches of every
  reply), and `mcpgym_grading._stated_words.stated_other` compiling and searching the
  pattern of every phrase it is given;
- *on*: the list looked for in one pass per text view (`mcpgym_grading._find_many`), and
  a phrase with a word the folded text lacks neither compiled nor searched.

Grades must be identical both ways (printed).
"""

from __future__ import annotations

import grade_cache

from mcpgym_grading import _find_many, _stated_words

_MAY_MATCH = _stated_words._may_match  # noqa: SLF001


def _use(on: bool) -> None:
    _find_many.ENABLED = on
    _stated_words._may_match = _MAY_MATCH if on else (lambda _phrase, _plain: True)  # noqa: SLF001


if __name__ == "__main__":
    grade_cache._use = _use  # noqa: SLF001 - the ways this benchmark compares
    grade_cache.__doc__ = __doc__
    grade_cache.main()
