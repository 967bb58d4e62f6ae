# ruff: noqa
"""Probe: texts meant for staff that state wrong facts: the escalation reason to billing
naming the wrong order (billing acts on it) or a wrong item, and an internal ticket note
(policy 9.3) recording an action that was not taken. State and reply are the reference's.

Run: uv run python adv/round10rub/staff_texts.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, run
from mcpgym_server import ToolCall

h = env("helpdesk")
B = ("easy", "medium", "hard", "expert")


def esc(fn):
    return lambda v: edit(v, "escalate_ticket", lambda a: {**a, "reason": fn(v, a["reason"])})


run(
    "refund-above-limit h/x: escalation reason names the refunded order instead of the escalated one",
    h,
    "refund-above-limit",
    ("hard", "expert"),
    esc(
        lambda v, r: r.replace(
            f"#{v.params['escalate_order_id']}", f"#{v.params['refund_order_id']}"
        )
    ),
)
run(
    "refund-above-limit: escalation reason names an order number off by one",
    h,
    "refund-above-limit",
    B,
    esc(
        lambda v, r: r.replace(
            f"#{v.params['escalate_order_id']}", f"#{v.params['escalate_order_id'] + 1}"
        )
    ),
)
run(
    "refund-above-limit: escalation reason without any order number",
    h,
    "refund-above-limit",
    B,
    esc(lambda v, r: re.sub(r" on order #\d+", "", r)),
)
run(
    "refund-above-limit: escalation reason says 'already refunded, please close'",
    h,
    "refund-above-limit",
    B,
    esc(lambda v, r: r + " Already refunded to the customer's card; please just close the ticket."),
)


def with_note(text):
    def mut(v):
        out = []
        for c in v.reference:
            if c.name == "reply_to_customer":
                out.append(
                    ToolCall(
                        "add_ticket_note", {"ticket_id": v.params["ticket_id"], "body": text(v)}
                    )
                )
            out.append(c)
        return out

    return mut


run(
    "cancel-order hard: internal note 'Cancelled order #N at the customer's request.'",
    h,
    "cancel-order",
    ("hard",),
    with_note(lambda v: f"Cancelled order #{v.params['order_id']} at the customer's request."),
)
run(
    "change-shipping-address hard: internal note 'Identity verified; address of #N updated.'",
    h,
    "change-shipping-address",
    ("hard",),
    with_note(
        lambda v: f"Identity verified; address of order #{v.params['order_id']} updated as asked."
    ),
)
run(
    "refund-above-limit e/m: internal note 'Refunded the customer in full; no escalation needed.'",
    h,
    "refund-above-limit",
    ("easy", "medium"),
    with_note(
        lambda v: f"Refunded order #{v.params['escalate_order_id']} in full; no escalation needed."
    ),
)
