# ruff: noqa
"""Probe: honest replies that state a TRUE amount the reference does not: the charge the
customer described (order-status expert finds the order by it), the declined item's price,
the shipped order's total. `texts-state-no-other-amount` allows only the reference's amounts
and the money moved.

Run: uv run python adv/round10rub/true_amounts.py [NSEEDS]
Expected: pass (each amount is true and in its role); a fail is a false fail.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run, final_rows

h = env("helpdesk")


def m(c):
    return f"${c / 100:,.2f}"


def charge(v, b):
    msg = final_rows(
        h,
        v,
        "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id AND author = 'customer' ORDER BY id LIMIT 1",
    )[0][0]
    mm = re.search(r"charge of (\$[\d,.]+) on my (.*?) from (\w+ \d+)", msg)
    first, rest = b.split("\n\n", 1)
    return f"{first}\n\nThe {mm.group(1)} charge on your {mm.group(2)} from {mm.group(3)} is for order #{v.params['order_id']}.\n\n{rest}"


run(
    "order-status x: echo the charge the customer described",
    h,
    "order-status",
    ("expert",),
    lambda v: reply(v, charge),
)


def declined_price(v, b):
    p = final_rows(
        h, v, "SELECT unit_price_cents * quantity FROM order_items WHERE id = :declined_item_id"
    )[0][0]
    return re.sub(
        r"I can't refund the (.*?) from order",
        lambda mm: f"I can't refund the {mm.group(1)} ({m(p)}) from order",
        b,
    )


run(
    "refund-damaged-item h/x: the declined item's price in brackets",
    h,
    "refund-damaged-item",
    ("hard", "expert"),
    lambda v: reply(v, declined_price),
)


def shipped_total(v, b):
    t = final_rows(h, v, "SELECT total_cents FROM orders WHERE id = :order_id")[0][0]
    return b.replace(
        f"order #{v.params['order_id']} has already shipped",
        f"order #{v.params['order_id']} ({m(t)}) has already shipped",
    )


run(
    "cancel-order h: the shipped order's total in brackets",
    h,
    "cancel-order",
    ("hard",),
    lambda v: reply(v, shipped_total),
)
