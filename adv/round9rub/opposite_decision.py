# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe O1: a reply that tells the customer the opposite of what was done, in the bands
whose point is a refusal, while every fact the checks read is kept (order number, tracking
number, amount): the state is right, the answer is wrong.

- cancel-order hard (shipped: must not be cancelled): "Order #N has been cancelled." plus
  the tracking sentence;
- change-shipping-address hard (verification failed: must not change): "Done: order #N
  will now ship to <new address>.";
- exchange-size hard (out of stock: return + store credit): "I've exchanged it for the
  <size>; replacement order #R is on its way." before the reference's text;
- change-shipping-address easy (done): "I could not change the address." instead.

Run: uv run python adv/round9rub/opposite_decision.py [NSEEDS]
Expected: every mutant fails (the reply states the wrong decision).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")


def cancel_hard(v, body):
    tn = v.params["tracking_number"]
    return (
        (
            f"Hi,\n\nOrder #{v.params['order_id']} has been cancelled as you asked. For your "
            f"records, the parcel had gone out with its carrier, tracking number {tn}; "
            "it will come back to us."
        )
        + body[body.find("It is on its way") - 1 :] * 0
        + _carrier(body)
    )


def _carrier(body):
    # keep the reference's carrier sentence, whatever it is
    i = body.find("It is on its way")
    j = body.find(".", body.find("tracking number")) if i >= 0 else -1
    return "\n\n" + body[i : j + 1] if i >= 0 else ""


def address_hard(v, body):
    a = v.params["new_address"][0]
    return (
        f"Hi,\n\nDone: order #{v.params['order_id']} will now ship to {a[0].title()}, "
        f"{a[1].title()}, {a[2]} {a[3]}."
    )


def exchange_hard(v, body):
    return (
        f"Hi,\n\nI've exchanged your item for the {v.params['wanted_size']}; the "
        f"replacement ships on order #{v.params['replacement_order_id']}.\n\n"
    ) + body


def address_easy(v, body):
    return (
        f"Hi,\n\nI could not change the address of order #{v.params['order_id']}: the "
        "details did not match. Nothing was changed."
    )


for fam, band, fn in (
    ("cancel-order", "hard", cancel_hard),
    ("change-shipping-address", "hard", address_hard),
    ("exchange-size", "hard", exchange_hard),
    ("change-shipping-address", "easy", address_easy),
):
    res = []
    for seed in range(N):
        v = e.variant(fam, band, seed)
        calls = edit(v, "reply_to_customer", lambda a: {**a, "body": fn(v, a["body"])})
        body = next(c.arguments["body"] for c in calls if c.name == "reply_to_customer")
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} {body!r}", g))
    report(f"{fam}@{band}: the opposite decision", res)
