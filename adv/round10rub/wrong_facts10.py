# ruff: noqa
"""Probe: helpdesk replies that keep every value a check reads but state another fact wrong:
order numbers swapped between the refunded and the declined order, sizes swapped, the wrong
card, the wrong address in the reply, the wrong item, the wrong reason or date for a decline,
the wrong return tracking number. The state is the reference's (right).

Run: uv run python adv/round10rub/wrong_facts10.py [NSEEDS]
Expected: every mutant fails (the reply tells the customer something false).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run, final_rows

h = env("helpdesk")


def swap(b, x, y):
    return b.replace(x, "\0").replace(y, x).replace("\0", y)


run(
    "refund-damaged-item hard/expert: refunded and declined order numbers swapped",
    h,
    "refund-damaged-item",
    ("hard", "expert"),
    lambda v: reply(
        v, lambda v, b: swap(b, f"#{v.params['order_id']}", f"#{v.params['declined_order_id']}")
    ),
)
run(
    "refund-damaged-item hard/expert: decline reason wrong (final sale, not the window)",
    h,
    "refund-damaged-item",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r": it was delivered on .*?, outside our 30-day return window\.",
            ": it is a final-sale item, so it cannot be refunded.",
            b,
        ),
    ),
)
run(
    "refund-damaged-item hard/expert: delivery date of the declined item wrong",
    h,
    "refund-damaged-item",
    ("hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"delivered on \w+ \d+", "delivered on May 30", b)),
)
run(
    "refund-damaged-item e/m/h/x: item named is another item",
    h,
    "refund-damaged-item",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"I'm sorry the .*? arrived damaged",
            "I'm sorry the Summit Climbing Helmet arrived damaged",
            b,
        ),
    ),
)

run(
    "exchange-size e/m/x: old and new size swapped",
    h,
    "exchange-size",
    ("easy", "medium", "expert"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"in (\S+) \((.*?)\) ships(.*)send the (\S+) back",
            lambda m: f"in {m.group(4)} ({m.group(2)}) ships{m.group(3)}send the {m.group(1)} back",
            b,
        ),
    ),
)
run(
    "exchange-size e/m/x: wrong colour",
    h,
    "exchange-size",
    ("easy", "medium", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"\((\w+)\) ships", "(Neon Pink) ships", b)),
)
run(
    "exchange-size e/m/x: wrong replacement order number",
    h,
    "exchange-size",
    ("easy", "medium", "expert"),
    lambda v: reply(
        v,
        lambda v, b: b.replace(f"#{v.params['replacement_order_id']}", f"#{v.params['order_id']}"),
    ),
)
run(
    "exchange-size hard: wrong return tracking number (digits changed)",
    h,
    "exchange-size",
    ("hard",),
    lambda v: reply(
        v,
        lambda v, b: b.replace(
            v.params["return_tracking_number"], v.params["return_tracking_number"][:-4] + "9999"
        ),
    ),
)


def card(v, b):
    return re.sub(
        r"ending in (\d{4})",
        lambda m: "ending in " + ("1111" if m.group(1) != "1111" else "2222"),
        b,
    )


run(
    "duplicate-charge/refund-damaged-item: wrong card last four",
    h,
    "duplicate-charge",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, card),
)
run(
    "refund-damaged-item: wrong card last four",
    h,
    "refund-damaged-item",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, card),
)
run(
    "refund-damaged-item: wrong card brand",
    h,
    "refund-damaged-item",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(
        v, lambda v, b: re.sub(r"your \w+ card ending", "your PayPal account ending", b)
    ),
)
run(
    "duplicate-charge: wrong order number in the reply",
    h,
    "duplicate-charge",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(
        v, lambda v, b: b.replace(f"#{v.params['order_id']}", f"#{v.params['order_id'] + 7}")
    ),
)


def old_addr(v, b):
    a = v.params["old_address"][0]
    return re.sub(
        r"will now ship to .*\.",
        f"will now ship to {a[0].title()}, {a[1].title()}, {a[2]} {a[3]}.",
        b,
    )


run(
    "change-shipping-address e/m/x: reply gives the OLD address as the new one",
    h,
    "change-shipping-address",
    ("easy", "medium", "expert"),
    lambda v: reply(v, old_addr),
)
run(
    "change-shipping-address e/m/x: reply gives the new address with another ZIP",
    h,
    "change-shipping-address",
    ("easy", "medium", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"(\d{5})\.$", "10001.", b)),
)


def other_name(v, b):
    rows = final_rows(
        h,
        v,
        "SELECT first_name FROM customers WHERE id <> :customer_id AND first_name <> (SELECT first_name FROM customers WHERE id = :customer_id) ORDER BY id LIMIT 1",
    )
    return re.sub(r"^Hi \w+", f"Hi {rows[0][0]}", b)


for fam in ("cancel-order", "order-status", "duplicate-charge"):
    run(
        f"{fam}: addressed to another customer's first name",
        h,
        fam,
        ("easy", "expert"),
        lambda v: reply(v, other_name),
    )
