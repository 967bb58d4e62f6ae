# ruff: noqa  (a probe script, not product code)
"""Shared probe harness for round 10: round 9's replay-and-grade helpers plus a runner that
edits the reference of (family, band, seed) variants and prints one line per grade."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round9rub")
from _h import CACHE, edit, env, final_rows, grade, report, summary  # noqa: E402,F401

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2


def reply(v, fn: Callable[[object, str], str]):
    """The reference with every reply body replaced by fn(v, body)."""
    return edit(v, "reply_to_customer", lambda a: {**a, "body": fn(v, a["body"])})


def note_tool_edit(v, tool: str, key: str, fn):
    return edit(v, tool, lambda a: {**a, key: fn(v, a[key])} if key in a else a)


def run(label: str, e, fam: str, bands: Iterable[str], mutate, seeds=None, where=None, show=False):
    """Grade mutate(v) -> calls (None: skip the variant) for each band and seed; `where(v)`
    filters variants. Prints the count and each grade; returns (passed, total)."""
    res = []
    for band in bands:
        for seed in seeds if seeds is not None else range(N):
            v = e.variant(fam, band, seed)
            if where is not None and not where(v):
                continue
            calls = mutate(v)
            if calls is None:
                continue
            g, _ = grade(e, v, calls)
            res.append((f"{fam} {band} #{seed}", g))
            if show:
                for c in calls:
                    if c.name in ("reply_to_customer", "add_note", "escalate_ticket"):
                        print("     >", c.name, dict(c.arguments))
    report(label, res)
    return sum(1 for _, g in res if g.passed), len(res)
