# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe F1 (false fails): honest ledger notes in forms an accountant writes, every figure
true of the work done:
- credit-returned-item: the credit note's net and tax beside its total ("$47.00 net + $4.70
  tax = $51.70") instead of the unit price;
- apply-customer-payment: the invoice's balance after the payment ("now paid in full, $0.00
  open");
- apply-customer-payment: the invoices' totals before the payment ("INV-… ($X) paid").

Run: uv run python adv/round9rub/honest_notes.py [NSEEDS]
Expected: every honest note passes.
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade, report  # noqa: E402

from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")


def m(c):
    return f"${c // 100:,}.{c % 100:02d}"


res = []
for band in ("easy", "medium", "expert"):
    for seed in range(N):
        v = e.variant("credit-returned-item", band, seed)
        cn = next(c for c in v.reference if c.name == "issue_credit_note").arguments
        net = cn["net_cents"]
        total = int(v.params["credit_cents"]) if band != "hard" else None
        tax = total - net
        calls = []
        for c in v.reference:
            if c.name == "add_note":
                body = f"Credit note for {cn['reason'].removeprefix('returned ')} returned: {m(net)} net + {m(tax)} tax = {m(total)}."
                c = ToolCall(c.name, {**c.arguments, "body": body})
            calls.append(c)
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} {body!r}", g))
report("credit-returned-item: net + tax = total", res)

res = []
for band in ("easy", "medium"):
    for seed in range(N):
        v = e.variant("apply-customer-payment", band, seed)
        calls = []
        for c in v.reference:
            if c.name == "add_note":
                c = ToolCall(
                    c.name,
                    {
                        **c.arguments,
                        "body": c.arguments["body"]
                        + " The invoices are now paid in full ($0.00 open).",
                    },
                )
                body = c.arguments["body"]
            calls.append(c)
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} {body!r}", g))
report("apply-customer-payment: '$0.00 open' after", res)
