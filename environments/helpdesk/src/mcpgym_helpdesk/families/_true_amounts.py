"""True amounts a reply may state that the reference leaves out, each in its role.

The amount guards (`_replies.texts_state_no_other_amount`, `_replies.reply_mentions_money`)
allow what the reference's own texts state and the money the episode moved. Some other
amounts are true and said naturally: the charge the customer describes (order-status
expert finds the order by it: "The $172.87 charge on your Visa ... is for order #N"), the
declined item's price ("I can't refund the tent ($279.00) ..."), the shipped order's total
("order #N ($T) has already shipped"). Each is allowed only beside the words of its role
(`mcpgym_grading.AmountRole`), so the same figure stated as a refund is still misplaced
where another role's words are nearer, and never allowed where no such word is.
"""

from __future__ import annotations

CHARGE_CUES = (
    "charge",
    "charged",
    "payment",
    "billed",
    "transaction",
    "statement",
    "card ending",
    "you paid",
)
"""The words of the charge the customer describes (a payment of theirs)."""

DECLINED_CUES = (
    "can't refund",
    "cannot refund",
    "can not refund",
    "couldn't refund",
    "could not refund",
    "unable to refund",
    "not able to refund",
    "not refundable",
    "non-refundable",
    "final sale",
    "final-sale",
    "declined",
    "decline",
    "return window",
    "outside",
)
"""The words that say an item is not refunded (the declined item's price); never
``refund`` alone (the refunded item's role is a refund too)."""

SHIPPED_CUES = (
    "shipped",
    "has shipped",
    "already shipped",
    "on its way",
    "in transit",
    "can't cancel",
    "cannot cancel",
    "couldn't cancel",
    "could not cancel",
    "unable to cancel",
    "order total",
)
"""The words of a shipped order that was not cancelled (its total)."""
