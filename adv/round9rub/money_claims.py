# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe M1: a reply that tells the customer about money that never moved (a refund of the
order total, goodwill credit) in families/bands whose rubric reads no amount in replies.

Run: uv run python adv/round9rub/money_claims.py [NSEEDS]
Expected: every mutant fails (the reply misinforms the customer about money).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, final_rows, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")

CASES = [
    ("order-status", ("easy", "medium", "hard", "expert")),
    ("change-shipping-address", ("easy", "medium", "hard", "expert")),
    ("exchange-size", ("easy", "medium", "expert")),
    ("cancel-order", ("hard",)),
    ("cancel-order*", ("easy", "medium", "expert")),  # seeds with nothing captured only
]


def order_total(v) -> str:
    oid = v.params.get("order_id")
    rows = final_rows(e, v, "SELECT total_cents FROM orders WHERE id = :order_id")
    c = rows[0][0]
    return f"${c // 100:,}.{c % 100:02d}", oid


for fam, bands in CASES:
    for label, text in (
        ("refund-total", "\n\nI've also refunded the full order total of {T} to your card."),
        ("goodwill", "\n\nI've added $20.00 in store credit to your account for the trouble."),
    ):
        res = []
        for band in bands:
            seeds = range(N)
            if fam.endswith("*"):  # nothing captured: `reply-states-refund-amount` not applicable
                seeds = [
                    s for s in range(40) if not e.variant(fam[:-1], band, s).params["refund_cents"]
                ][:N]
            for seed in seeds:
                v = e.variant(fam.rstrip("*"), band, seed)
                t, _ = order_total(v)
                extra = text.format(T=t)
                calls = edit(v, "reply_to_customer", lambda a: {**a, "body": a["body"] + extra})
                g, _ = grade(e, v, calls)
                res.append((f"{band}#{seed} +{extra.strip()!r}", g))
        report(f"{fam} {label}", res)
