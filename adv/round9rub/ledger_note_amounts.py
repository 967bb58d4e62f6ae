# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe N1: ledger notes (policy 10.1: the record of what was done) that state a wrong
amount, where no check reads them: families with `note_left` but no `note_says_money`, and
the second record's note in credit-returned-item hard.

Run: uv run python adv/round9rub/ledger_note_amounts.py [NSEEDS]
Expected: every mutant fails (the note records a wrong amount).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade, report  # noqa: E402

from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")
BANDS = ("easy", "medium", "hard", "expert")


def m(c: int) -> str:
    return f"${c // 100:,}.{c % 100:02d}"


def notes_replaced(v, fn, only_index=None):
    out, k = [], 0
    for c in v.reference:
        if c.name == "add_note":
            if only_index is None or k == only_index:
                c = ToolCall(c.name, {**c.arguments, "body": fn(c.arguments["body"])})
            k += 1
        out.append(c)
    return out


for fam, amount_param in (
    ("accrue-expense", "accrued_cents"),
    ("correct-misposted-entry", "amount_cents"),
    ("closed-period-posting", None),
):
    res = []
    for band in BANDS:
        for seed in range(N):
            v = e.variant(fam, band, seed)
            if amount_param:
                right = int(v.params[amount_param])
                wrong = right * 2 + 1
                calls = notes_replaced(v, lambda b: b.replace(m(right), m(wrong)))
                lbl = f"{m(right)}->{m(wrong)}"
            else:
                calls = notes_replaced(v, lambda b: b + " Amount posted: $99,999.99.")
                lbl = "+$99,999.99"
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed} {lbl}", g))
    report(f"{fam}: the note states a wrong amount", res)

# credit-returned-item hard: two invoices credited; the second invoice's note states a wrong amount
res = []
for seed in range(N):
    v = e.variant("credit-returned-item", "hard", seed)
    notes = [c for c in v.reference if c.name == "add_note"]
    if len(notes) < 2:
        continue
    calls = notes_replaced(v, lambda b: b + " Credited $9,999.00 in total.", only_index=1)
    g, _ = grade(e, v, calls)
    res.append((f"hard#{seed} second note + 'Credited $9,999.00 in total.'", g))
report("credit-returned-item hard: the second invoice's note", res)

# apply-customer-payment: a second note on an allocated invoice with another amount
res = []
for band in BANDS:
    for seed in range(N):
        v = e.variant("apply-customer-payment", band, seed)
        rec = next(c for c in v.reference if c.name == "record_customer_payment")
        inv = rec.arguments["allocations"][0]["invoice_id"]
        amt = int(v.params["amount_cents"])
        extra = ToolCall(
            "add_note",
            {
                "entity": "invoice",
                "entity_id": inv,
                "body": f"Paid {m(amt * 3)} on this invoice from the receipt.",
            },
        )
        g, _ = grade(e, v, [*v.reference, extra])
        res.append((f"{band}#{seed} invoice {inv} note 'Paid {m(amt * 3)}'", g))
report("apply-customer-payment: a note on the invoice with a wrong amount", res)
