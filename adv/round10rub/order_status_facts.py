# ruff: noqa
"""Probe: order-status replies with the tracking number and carrier right but another fact
wrong: the ETA date, the order number, the parcel "delivered", another customer's parcel.

Run: uv run python adv/round10rub/order_status_facts.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run, final_rows

e = env("helpdesk")
B = ("easy", "medium", "hard", "expert")


def wrong_date(v, body):
    return re.sub(r"2026-\d\d-\d\d", "2026-09-30", body)


def other_order(v, body):
    rows = final_rows(
        e,
        v,
        "SELECT id FROM orders WHERE customer_id = :customer_id AND id <> :order_id ORDER BY id LIMIT 1",
    )
    return body.replace(f"#{v.params['order_id']}", f"#{rows[0][0]}") if rows else None


def delivered(v, body):
    return body + "\n\nOur records show it was delivered yesterday and left at your front door."


def stranger(v, body):
    rows = final_rows(
        e,
        v,
        "SELECT s.tracking_number, o.id FROM shipments s JOIN orders o ON o.id = s.order_id WHERE o.customer_id <> :customer_id AND LENGTH(s.tracking_number) >= 8 ORDER BY s.id LIMIT 1",
    )
    t, o = rows[0]
    return body + f"\n\nYour other order #{o} is on its way too, tracking number {t}."


for label, fn in (
    ("wrong ETA date", wrong_date),
    ("another order number of the customer", other_order),
    ("says delivered", delivered),
    ("another customer's order and tracking", stranger),
):

    def mut(v, fn=fn):
        b = fn(v, [c for c in v.reference if c.name == "reply_to_customer"][0].arguments["body"])
        return None if b is None else reply(v, lambda v, _b: b)

    run(label, e, "order-status", B, mut)
