# ruff: noqa
"""Probe: where the money goes (policy 9.2 "the amount and where it goes"). Round 9's O3 fix
reads it in duplicate-charge and refund-damaged-item only. Here: the cancellation refund
(policy 3.2: always to the original method) and the small refund in refund-above-limit
described as store credit; the ledger overpayment (held as customer credit) described as
refunded to the customer.

Run: uv run python adv/round10rub/money_destination.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")


def seeds_with_refund(fam, band, n=2, key="refund_cents"):
    out, s = [], 0
    while len(out) < n and s < 40:
        if h.variant(fam, band, s).params[key]:
            out.append(s)
        s += 1
    return out


for band in ("easy", "medium", "expert"):
    run(
        f"cancel-order {band} (captured): refund 'added to your account as store credit'",
        h,
        "cancel-order",
        (band,),
        lambda v: reply(
            v,
            lambda v, b: b.replace(
                "goes back to your original payment method within 5-10 business days",
                "has been added to your account as store credit, ready to use",
            ),
        ),
        seeds=seeds_with_refund("cancel-order", band),
    )
run(
    "refund-above-limit h/x: small refund 'as store credit on your account'",
    h,
    "refund-above-limit",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"to your \w+ card ending in \d+; it should show within 5-10 business days",
            "as store credit on your account, ready to use right away",
            b,
        ),
    ),
)
run(
    "ledger apply-customer-payment expert: overpayment 'refunded to the customer' (it is held as credit)",
    L,
    "apply-customer-payment",
    ("expert",),
    lambda v: edit(
        v,
        "add_note",
        lambda a: {
            **a,
            "body": a["body"].replace(
                "is held as customer credit", "was refunded to the customer by bank transfer"
            ),
        },
    ),
)
