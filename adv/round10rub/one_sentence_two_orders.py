# ruff: noqa
"""Probe: false fails in multi-order bands. The `about=` decision checks read every sentence
that names the order, whole; an honest sentence that states both decisions (one per order)
reads as claiming and denying both. Sentences are cut only at . ! ? and line breaks, so a
semicolon or a bullet list on one line joins them too.

Run: uv run python adv/round10rub/one_sentence_two_orders.py [NSEEDS]
Expected: every reply passes (each states the right decision for each order).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")


def co(form):
    def fn(v, b):
        mm = re.search(r"with (\w+) \(([^)]+)\), tracking number (\w+)", b)
        money = (
            f" The ${v.params['refund_cents'] / 100:,.2f} you paid goes back to your original payment method within 5-10 business days."
            if v.params["refund_cents"]
            else " Your card was not charged yet."
        )
        return (
            b.split("\n\n")[0]
            + "\n\n"
            + form.format(o=v.params["order_id"], s=v.params["shipped_order_id"])
            + money
            + f" The shipped one is on its way with {mm.group(1)} ({mm.group(2)}), tracking number {mm.group(3)}."
        )

    return fn


for form in (
    "I've cancelled order #{o}, but order #{s} had already shipped, so I couldn't cancel it.",
    "Order #{o} is cancelled; order #{s} has already shipped and can no longer be cancelled.",
    "Order #{o} has been cancelled, while order #{s} had already left our warehouse and could not be cancelled.",
):
    run(
        f"cancel-order expert: {form}",
        h,
        "cancel-order",
        ("expert",),
        lambda v, form=form: reply(v, co(form)),
    )


def ral(form):
    def fn(v, b):
        mm = re.search(r"for the faulty (.*?) \(order #(\d+)\) to your (.*?);", b)
        return (
            b.split("\n\n")[0]
            + "\n\n"
            + form.format(
                r=f"${v.params['refund_cents'] / 100:,.2f}",
                item=mm.group(1),
                ro=mm.group(2),
                card=mm.group(3),
                e=f"${v.params['escalate_cents'] / 100:,.2f}",
                eo=v.params["escalate_order_id"],
            )
            + " Billing will follow up with you within 2 business days."
        )

    return fn


for form in (
    "I've refunded {r} for the faulty {item} (order #{ro}) to your {card}, and your refund request of {e} for order #{eo} is above my limit, so I've passed it to our billing team.",
    "I've refunded {r} for order #{ro} to your {card}; the {e} for order #{eo} is above the amount I can refund myself, so I've passed it to our billing team.",
):
    run(
        f"refund-above-limit h/x: {form}",
        h,
        "refund-above-limit",
        ("hard", "expert"),
        lambda v, form=form: reply(v, ral(form)),
    )
