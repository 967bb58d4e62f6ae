# ruff: noqa  (a probe script, not product code)
"""Round 12 (rubrics) probe helpers: round 11's helpdesk (`_q.py`) and ledger (`_r11.py`)
harnesses in one place, plus a tally printed per row: `#### label: passed/total`."""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round11rub")
from _q import E, append  # noqa: E402,F401
from _r11 import B, L, N, ToolCall, arg, edit, final_rows, grade, note, run, then  # noqa: E402,F401

TOTALS: list[tuple[str, int, int]] = []


def rows(label, items):
    """items: [(env, family, bands, mutate)]; prints one tally for the row."""
    tp = tt = 0
    for e, fam, bands, mut in items:
        p, t = run(f"{label} | {fam} {'/'.join(b[0] for b in bands)}", e, fam, bands, mut)
        tp += p
        tt += t
    print(f"#### {label}: {tp}/{tt} passed")
    sys.stdout.flush()
    TOTALS.append((label, tp, tt))
    return tp, tt


def last_reply(fn):
    """mutate(v): the last reply's body replaced by fn(v, body)."""

    def mutate(v):
        calls = list(v.reference)
        idx = [i for i, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        c = calls[idx]
        calls[idx] = ToolCall(c.name, {**c.arguments, "body": fn(v, c.arguments["body"])})
        return calls

    return mutate


def last_note(fn):
    """mutate(v): the last ledger note's body replaced by fn(v, body)."""

    def mutate(v):
        calls = list(v.reference)
        idx = [i for i, c in enumerate(calls) if c.name == "add_note"]
        if not idx:
            return None
        c = calls[idx[-1]]
        calls[idx[-1]] = ToolCall(c.name, {**c.arguments, "body": fn(v, c.arguments["body"])})
        return calls

    return mutate


def summary():
    print("\n==== SUMMARY")
    for label, p, t in TOTALS:
        print(f"{p:>3}/{t:<3} {label}")
