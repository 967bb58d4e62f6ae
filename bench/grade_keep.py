"""Benchmark: final-state connections kept across bundles, and email leak forms per value.

Usage::

    uv run python bench/grade_keep.py [--env helpdesk] [--seeds 5] [--rounds 2]

Reference and null episodes of every family x band x ``--seeds`` run in process; the null
bundles are graded first (reference end states built), then each reference bundle is
graded the way before this change (*off*: every bundle on a fresh connection, its rubric
statements compiled again; `email_leaked` reading each forbidden value and folding the
text on every call) and this way (*on*: `mcpgym_grading._cow.reopen_cow` / `keep_cow`, and
`_email_leak`'s memos), the order alternating bundle by bundle. The *off* grades neither
take nor give back kept connections, so the *on* grades see what a run of *on* grades
would. Prints the thread CPU per grade (median, mean), the ratio on/off, and whether the
grades are equal.
"""

from __future__ import annotations

import argparse
from typing import Any

from _grade_ab import grade_both_ways, run_episodes, summary

from mcpgym_grading import _cow, _email_leak, engine

_ON: dict[str, Any] = {
    "reopen": _cow.reopen_cow,
    "keep": _cow.keep_cow,
    "form": _email_leak._value_form,  # noqa: SLF001
    "folded": _email_leak._folded,  # noqa: SLF001
}
_OFF: dict[str, Any] = {
    "reopen": lambda *_a: None,
    "keep": lambda *_a: False,
    "form": _email_leak._value_form.__wrapped__,  # noqa: SLF001
    "folded": _email_leak._folded.__wrapped__,  # noqa: SLF001
}


def _use(on: bool) -> None:
    ways = _ON if on else _OFF
    engine.reopen_cow = ways["reopen"]  # type: ignore[attr-defined]
    engine.keep_cow = ways["keep"]  # type: ignore[attr-defined]
    _email_leak._value_form = ways["form"]  # type: ignore[attr-defined]  # noqa: SLF001
    _email_leak._folded = ways["folded"]  # type: ignore[attr-defined]  # noqa: SLF001


def main() -> None:
    """Run the episodes, grade them both ways, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    eps = run_episodes(args.env, args.seeds)
    ms, identical = grade_both_ways(eps, args.rounds, _use)
    print(summary(args.env, ms, identical))
    print(f"kept connections at the end: {sum(len(v) for v in _cow._kept.values())}")  # noqa: SLF001


if __name__ == "__main__":
    main()
