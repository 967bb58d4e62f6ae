# ruff: noqa
"""Probe: the earlier refund the customer mentions (duplicate-charge hard/expert,
refund-damaged-item expert) is an allowed amount bound to its role. Replies that state it in
the role of this episode's refund.

Run: uv run python adv/round10rub/earlier_refund_roles.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")


def m(c):
    return f"${c / 100:,.2f}"


run(
    "duplicate-charge h/x: + 'I've also refunded $P today for the item you returned.' (the earlier refund's amount)",
    h,
    "duplicate-charge",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nI've also refunded {m(v.params['prior_refund_cents'])} today for the item you returned."
        ),
    ),
)
run(
    "duplicate-charge h/x: the duplicate's refund and the earlier refund swapped",
    h,
    "duplicate-charge",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: (
            b.replace(m(v.params["duplicate_cents"]), m(v.params["prior_refund_cents"]))
            + f"\n\nThe earlier refund of {m(v.params['duplicate_cents'])} on this order is separate."
        ),
    ),
)
run(
    "refund-damaged-item x: + 'and another $P today as a price adjustment'",
    h,
    "refund-damaged-item",
    ("expert",),
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nI've also refunded another {m(v.params['prior_refund_cents'])} today as a price adjustment."
        ),
    ),
)
