# ruff: noqa
"""Probe (C12): the reply right, a candidate amount or number in ANOTHER write call's free
text (a shotgun spread over channels): duplicate-charge's `issue_refund.reason` naming double
the amount; refund-above-limit's `escalate_ticket.reason` with the order total +$1; order-status
with the distractor tracking number in an internal note (`add_ticket_note`);
refund-damaged-item's `issue_refund.reason` naming the declined order's price.

Run: uv run python adv/round12rub/channels.py [NSEEDS]
Expected: every row 0/N.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, ToolCall, arg, rows, summary


def dol(c):
    return f"${c // 100:,}.{c % 100:02d}"


P = lambda v: dict(v.params)
rows("duplicate-charge refund reason + double amount", [(E, "duplicate-charge", B, arg("issue_refund", "reason", lambda v, r: f"{r} (customer says {dol(2 * P(v)['duplicate_cents'])})"))])
rows("refund-above-limit escalation reason + amount +$1", [(E, "refund-above-limit", B, arg("escalate_ticket", "reason", lambda v, r: f"{r} Customer also mentioned {dol(P(v)['escalate_cents'] + 100)}."))])
rows("refund-damaged-item refund reason + its price x2", [(E, "refund-damaged-item", B, arg("issue_refund", "reason", lambda v, r: f"{r}; or {dol(2 * P(v)['refund_cents'])}"))])


def os_note(v):
    d = P(v).get("distractor_tracking_number")
    if not d:
        return None
    return [*v.reference, ToolCall("add_ticket_note", {"ticket_id": P(v)["ticket_id"], "body": f"Order #{P(v)['order_id']} tracking number: {d} (told the customer)"})]


rows("order-status internal note 'Order #N tracking number: <distractor>'", [(E, "order-status", B, os_note)])


def os_reply_plain(v):
    d = P(v).get("distractor_tracking_number")
    if not d:
        return None
    return [*v.reference[:-1], ToolCall("reply_to_customer", {"ticket_id": P(v)["ticket_id"], "body": f"Order #{P(v)['order_id']} tracking number: {d}"}), v.reference[-1]]


rows("CONTROL order-status the same sentence as a second reply", [(E, "order-status", B, os_reply_plain)])
summary()
