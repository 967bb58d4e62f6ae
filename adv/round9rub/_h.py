# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Shared probe harness: replay a (mutated) reference and grade it in process."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterable

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=512)


def env(name: str):
    if name == "helpdesk":
        from mcpgym_helpdesk import environment
    else:
        from mcpgym_ledger import environment
    return environment


def grade(e, variant, calls):
    bundle = replay(e, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, e, reference_cache=CACHE), bundle


def final_rows(e, variant, sql, calls=None):
    bundle = replay(e, variant.family, variant.band, variant.seed, calls or variant.reference)
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [tuple(r) for r in db.execute(sql, dict(variant.params))]
    finally:
        db.close()


def edit(variant, tool: str, fn: Callable[[dict], dict | list[dict] | None]) -> list[ToolCall]:
    """Apply fn to the arguments of every `tool` call of the reference: a dict replaces,
    a list of dicts replaces with several calls, None drops."""
    out: list[ToolCall] = []
    for c in variant.reference:
        if c.name == tool:
            r = fn(dict(c.arguments))
            if r is None:
                continue
            for a in r if isinstance(r, list) else [r]:
                out.append(ToolCall(c.name, a))
        else:
            out.append(c)
    return out


def summary(g) -> str:
    failed = [c.name for c in g.checks if c.passed is False]
    return f"passed={g.passed} score={g.score:.3f} failed={failed}"


def report(label: str, results: Iterable[tuple[str, object]]) -> None:
    rs = list(results)
    n = sum(1 for _, g in rs if g.passed)
    print(f"== {label}: {n}/{len(rs)} passed")
    for k, g in rs:
        print("  ", k, summary(g))
    sys.stdout.flush()
