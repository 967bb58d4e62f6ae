# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe O2: a ledger note stating the opposite decision, the amounts kept (no limit figure
in it, so none of the limit-role work in flight applies):
- enter-vendor-bill hard (above the approval limit: a draft, escalated): "Entered and posted
  bill REF from VENDOR, total $X.";
- write-off-bad-debt hard (above the write-off limit: escalated, not written off): "Wrote off
  $X still open on INV as bad debt (6800)."

Run: uv run python adv/round9rub/ledger_opposite_note.py [NSEEDS]
Expected: every mutant fails (the note records what was not done).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")


def m(c):
    return f"${c // 100:,}.{c % 100:02d}"


def bill_note(v):
    return (
        f"Entered and posted bill {v.params['vendor_ref']}, total "
        f"{m(int(v.params['total_cents']))}."
    )


def writeoff_note(v):
    inv = int(v.params["escalate_invoice_id"])
    return (
        f"Wrote off {m(int(v.params['escalate_cents']))} still open on INV-2026-{inv:04d} "
        "as bad debt (6800)."
    )


for fam, fn in (("enter-vendor-bill", bill_note), ("write-off-bad-debt", writeoff_note)):
    res = []
    for seed in range(N):
        v = e.variant(fam, "hard", seed)
        calls = edit(v, "add_note", lambda a: {**a, "body": fn(v)})
        g, _ = grade(e, v, calls)
        res.append((f"hard#{seed} {fn(v)!r}", g))
    report(f"{fam}@hard: the note states the opposite decision", res)
