"""Benchmark: a grade's text work with and without the search indexes and the SQL function memo.

Usage::

    uv run python bench/grade_cache.py [--env helpdesk] [--seeds 2] [--rounds 1]

Reference and null episodes of every family x band x ``--seeds`` run in process; the null
bundles are graded first (reference end states built, kept connections made). Then each
reference bundle is graded *off* (what grading did before: every search of a reply scans
every token and atom, `mcpgym_grading._view_index` unused; each needle's run planned per
search; every grading SQL function called each time) and *on*, the order alternating
bundle by bundle, in two settings:

- *first seen*: before every grade, each way, the caches keyed by a reply's text are
  emptied (the views `_text._cached_view` and `_values._view`, `_email_leak._folded`,
  `_money._money_mentions` and `_scanned`, `_mentions._readings`, `_decisions._read`,
  `_quoted.unquoted`, `_relative_dates.dated`, `_decision_results._stated_sentences`,
  `_withdrawal.withdrawal`, `_without._has` and `_clauses`, the SQL function memo, and the
  check results `_sqlmemo` keeps by a database's content): each reply is new, as another
  agent's would be. What is kept per value, rubric or variant
  (patterns, value forms, reference states, compiled statements) stays, as it does over a
  campaign;
- *repeated*: the same bundles again, every cache as the previous pass left it (a regrade).

Each grade's thread CPU is split by check: *state* (`NoCollateralChanges`,
`StateMatchesReference` and `SqlCheck`s that call no grading SQL function: the page-delta
part), *text* (`AnswerMatch`, `DecisionMatch`, `MentionMatch` and `SqlCheck`s that read
replies through a grading SQL function: issue 9's checks), *tool* (call-log checks), and
the rest (*engine*: opening the final state, regenerating the variant, scoring). Prints
medians and means per way and setting, the ratio on/off, the load, and whether every grade
is identical both ways.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from _grade_ab import Episodes, run_episodes

from mcpgym_grading import (
    ReferenceCache,
    _checks,
    _decision_objects,
    _decision_results,
    _decision_scopes,
    _decisions,
    _email_leak,
    _mentions,
    _money,
    _quoted,
    _relative_dates,
    _skeleton,
    _sqlmemo,
    _text,
    _values,
    _withdrawal,
    _without,
    grade_bundle,
)
from mcpgym_grading._sql_function_memo import SQL_FUNCTION_MEMO
from mcpgym_grading.rubric import (
    AnswerMatch,
    DecisionMatch,
    MentionMatch,
    NoCollateralChanges,
    SqlCheck,
    StateMatchesReference,
)


class _ByContent:
    """The check results `_sqlmemo` keeps by a database's content (a database never graded
    before has none)."""

    @staticmethod
    def cache_clear() -> None:
        _sqlmemo.clear_content()


_PLAN = _skeleton._plan  # noqa: SLF001
_STARTS = _text.TextView._starts  # noqa: SLF001
_ATOM_STARTS = _text.TextView._atom_starts  # noqa: SLF001
_TEXT_CACHES: tuple[Any, ...] = (
    _text._cached_view,  # noqa: SLF001
    _values._view,  # noqa: SLF001
    _email_leak._folded,  # noqa: SLF001
    _money._money_mentions,  # noqa: SLF001
    _money._scanned,  # noqa: SLF001
    _mentions._readings,  # noqa: SLF001
    _decisions._read,  # noqa: SLF001
    _quoted.unquoted,
    _relative_dates.dated,
    _withdrawal.withdrawal,
    _without._has,  # noqa: SLF001
    _without._clauses,  # noqa: SLF001
    _text._folded,  # noqa: SLF001
    _decision_objects.changed_record,
    _decision_scopes._clauses,  # noqa: SLF001
    _decision_results._stated_sentences,  # noqa: SLF001
    SQL_FUNCTION_MEMO,
    _ByContent(),
)


def _use(on: bool) -> None:
    SQL_FUNCTION_MEMO.enabled = on
    _skeleton._plan = _PLAN if on else _PLAN.__wrapped__  # type: ignore[attr-defined]  # noqa: SLF001
    view = _text.TextView
    view._starts = _STARTS if on else (lambda _self, _name, _toks: None)  # type: ignore[method-assign]  # noqa: SLF001
    view._atom_starts = _ATOM_STARTS if on else (lambda _self: None)  # type: ignore[method-assign]  # noqa: SLF001


def _part(check: Any) -> str:
    if isinstance(check, NoCollateralChanges | StateMatchesReference):
        return "state"
    if isinstance(check, SqlCheck):
        return "text" if "mcpgym_" in check.sql else "state"
    if isinstance(check, AnswerMatch | DecisionMatch | MentionMatch):
        return "text"
    return "tool"


_SPENT: dict[str, float] = defaultdict(float)


def _timed(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(check: Any, ctx: Any) -> Any:
        c0 = time.thread_time()
        try:
            return fn(check, ctx)
        finally:
            _SPENT[_part(check)] += time.thread_time() - c0

    return run


def _grade_pass(
    eps: Episodes, cache: ReferenceCache, fresh: bool, rnd: int
) -> tuple[dict[str, list[dict[str, float]]], bool]:
    rows: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    digests = {k: hashlib.sha256() for k in rows}
    for n, eid in enumerate(eps.ref):
        for way in ("on", "off") if (n + rnd) % 2 else ("off", "on"):
            _use(way == "on")
            if fresh:
                for memo in _TEXT_CACHES:
                    memo.cache_clear()
            bundle = eps.store.read(eid)
            _SPENT.clear()
            c0 = time.thread_time()
            grade = grade_bundle(bundle, eps.env, reference_cache=cache)
            total = (time.thread_time() - c0) * 1000
            row = {k: v * 1000 for k, v in _SPENT.items()}
            row["total"] = total
            row["engine"] = total - sum(v * 1000 for v in _SPENT.values())
            rows[way].append(row)
            dump = grade.model_dump()
            dump.pop("episode_id")
            digests[way].update(json.dumps(dump, sort_keys=True, default=str).encode())
    _use(True)
    return rows, digests["on"].digest() == digests["off"].digest()


def _report(name: str, rows: dict[str, list[dict[str, float]]], identical: bool) -> str:
    lines = [f"{name}: {len(rows['on'])} grades each way; grades identical: {identical}"]
    for part in ("total", "state", "text", "tool", "engine"):
        off = [r.get(part, 0.0) for r in rows["off"]]
        on = [r.get(part, 0.0) for r in rows["on"]]
        ratio = statistics.mean(on) / statistics.mean(off) if statistics.mean(off) else 0.0
        lines.append(
            f"  {part:7s} off median {statistics.median(off):6.2f} mean {statistics.mean(off):6.2f}"
            f" | on median {statistics.median(on):6.2f} mean {statistics.mean(on):6.2f}"
            f" | on/off mean x{ratio:.3f}"
        )
    tot_off = [r["total"] for r in rows["off"]]
    tot_on = [r["total"] for r in rows["on"]]
    ratios = [a / b for a, b in zip(tot_on, tot_off, strict=True)]
    lines.append(f"  total median of ratios x{statistics.median(ratios):.3f}")
    return "\n".join(lines)


def main() -> None:
    """Run the episodes, grade them both ways in both settings, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    for t, fn in list(_checks.EVALUATORS.items()):
        _checks.EVALUATORS[t] = _timed(fn)
    eps = run_episodes(args.env, args.seeds)
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
            rows, identical = _grade_pass(eps, cache, fresh, rnd)
            merged["off"] += rows["off"]
            merged["on"] += rows["on"]
            same = same and identical
        name = "first seen" if fresh else "repeated"
        print(_report(f"{args.env} {name}", merged, same))
    print(f"load {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")


if __name__ == "__main__":
    main()
