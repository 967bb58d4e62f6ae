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
from typing import Any

from _grade_ab import grade_both_ways, run_episodes, summary

from mcpgym_grading import (
    _answer_check,
    _money,
    _roles,
    _skeleton,
    _sqlmemo,
)

_BANDS = ("easy", "medium", "hard", "expert")

_ON = {
    "key": _sqlmemo._memo_key,  # noqa: SLF001
    "mentions": _money.money_mentions,
    "plain": _skeleton._alike_plain,  # noqa: SLF001
    "long": _skeleton._alike_long,  # noqa: SLF001
    "scan": _money._scanned,  # noqa: SLF001
}


def _plain_mentions(text: str, *, bare: bool = False, candidates: Any = ()) -> list[Any]:
    key = frozenset(candidates) if bare else frozenset()
    return list(_money._money_mentions.__wrapped__(text, bare, key))  # noqa: SLF001


_OFF = {
    "key": lambda *_a: None,
    "mentions": _plain_mentions,
    "plain": lambda s, w: _skeleton._alike_of(s, w, None),  # noqa: SLF001
    "long": lambda s, w: _skeleton._alike_of(s, w, _skeleton.LONG_DIGIT_LIKE),  # noqa: SLF001
    "scan": _money._scan,  # noqa: SLF001
}


def _use(ways: dict[str, Any]) -> None:
    _sqlmemo._memo_key = ways["key"]  # noqa: SLF001
    _money._scanned = ways["scan"]  # noqa: SLF001
    for module in (_money, _answer_check, _roles):
        module.money_mentions = ways["mentions"]  # type: ignore[attr-defined]
    _skeleton._alike_plain = ways["plain"]  # noqa: SLF001
    _skeleton._alike_long = ways["long"]  # noqa: SLF001


def _use_memos(on: bool) -> None:
    _use(_ON if on else _OFF)


def main() -> None:
    """Run the episodes, grade them with the memos off and on, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    eps = run_episodes(args.env, args.seeds, lambda _env, _fam: _BANDS)
    ms, identical = grade_both_ways(eps, args.rounds, _use_memos)
    print(summary(args.env, ms, identical))


if __name__ == "__main__":
    main()
