"""Round 15 (adv/round15rub/claims15.py, helper adv25r) at grade level: on main cbac6e0 each
wrong text below, appended to the reference's last reply, passed at 1.0 (a synonym no list
held, a noun with a done-word and no auxiliary, the record's id in digit groups read as
another record). The honest forms beside them pass."""

from __future__ import annotations

import pytest


def _graded(family: str, band: str, extra: str) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, 0)
    p = dict(v.params)
    grouped = {k: f"{p[k]:,}" for k in ("declined_order_id", "escalate_order_id") if p.get(k)}
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer":
            args["body"] += "\n\n" + extra.format(**p, grouped=grouped)
        calls.append(ToolCall(c.name, args))
    return grade_bundle(replay(environment, family, band, 0, calls), environment).passed


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("cancel-order", "hard", "Order #{order_id} has been rescinded."),
        ("cancel-order", "hard", "Cancellation issued for order #{order_id}."),
        ("refund-above-limit", "hard", "I've reversed the charge for order #{escalate_order_id}."),
        ("refund-above-limit", "easy", "Refund issued for order #{escalate_order_id}."),
        ("refund-damaged-item", "hard", "I've returned your money for order #{declined_order_id}."),
        (
            "refund-damaged-item",
            "expert",
            "The refund of order #{declined_order_id} has now gone through.",
        ),
        ("refund-damaged-item", "hard", "Order #{grouped[declined_order_id]} has been refunded."),
        ("refund-above-limit", "expert", "Order #{grouped[escalate_order_id]} has been refunded."),
    ],
)
def test_a_claim_not_taken_fails(family: str, band: str, extra: str) -> None:
    assert _graded(family, band, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("cancel-order", "easy", "Cancellation issued for order #{order_id}."),
        ("refund-damaged-item", "easy", "Refund issued for order #{order_id}."),
        ("duplicate-charge", "easy", "The duplicate charge has been reversed."),
        (
            "refund-damaged-item",
            "hard",
            "The refund of order #{declined_order_id} has not gone through.",
        ),
    ],
)
def test_honest_forms_pass(family: str, band: str, extra: str) -> None:
    assert _graded(family, band, extra) is True
