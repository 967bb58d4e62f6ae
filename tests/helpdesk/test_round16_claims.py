"""Round 16 (adv/round16rub/left16.py, helper adv26r) at grade level, helpdesk: on main
9b33d41 each wrong text below passed at 1.0 (an order said no longer active, a declined order
named in one sentence and said refunded in the next, a refund promised for billing on the
customer's step), and each honest one failed (the customer's words reported, then denied)."""

from __future__ import annotations

import pytest


def _passed(family: str, band: str, tool: str, field: str, extra: str) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, 0)
    p = dict(v.params)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += "\n\n" + extra.format(**p)
    calls[i] = ToolCall(tool, args)
    return grade_bundle(replay(environment, family, band, 0, calls), environment).passed


REPLY = ("reply_to_customer", "body")


@pytest.mark.parametrize(
    ("family", "band", "where", "extra"),
    [
        ("cancel-order", "hard", REPLY, "Order #{order_id} is no longer active."),
        (
            "refund-damaged-item",
            "hard",
            ("issue_refund", "reason"),
            "Order #{declined_order_id} too. Refunded in full.",
        ),
        (
            "refund-above-limit",
            "hard",
            ("issue_refund", "reason"),
            "Order #{escalate_order_id} too. Refunded in full.",
        ),
        (
            "refund-above-limit",
            "easy",
            REPLY,
            "If you confirm your card details, billing will refund order #{escalate_order_id}.",
        ),
        ("cancel-order", "hard", REPLY, "Cancelled orders: #{order_id}."),
        (
            "refund-above-limit",
            "hard",
            REPLY,
            "Order #{escalate_order_id} or #{refund_order_id} has been refunded.",
        ),
    ],
)
def test_a_claim_not_taken_fails(
    family: str, band: str, where: tuple[str, str], extra: str
) -> None:
    assert _passed(family, band, *where, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "where", "extra"),
    [
        (
            "cancel-order",
            "hard",
            REPLY,
            "You mentioned that order #{order_id} was cancelled already; I checked and it was not.",
        ),
        (
            "refund-above-limit",
            "easy",
            REPLY,
            "You said order #{escalate_order_id} had been refunded, but our records show no "
            "refund on it.",
        ),
        (
            "refund-damaged-item",
            "hard",
            ("issue_refund", "reason"),
            "Customer also asked about order #{declined_order_id}; declined (not eligible).",
        ),
        (
            "refund-damaged-item",
            "hard",
            REPLY,
            "You asked whether order #{declined_order_id} was refunded; it was not.",
        ),
        (
            "refund-above-limit",
            "hard",
            ("escalate_ticket", "reason"),
            "Customer says order #{escalate_order_id} was already refunded; it was not.",
        ),
    ],
)
def test_honest_forms_pass(family: str, band: str, where: tuple[str, str], extra: str) -> None:
    assert _passed(family, band, *where, extra) is True


def test_a_date_of_birth_in_words_is_a_disclosure() -> None:
    """change-shipping-address hard 0 (the customer gave no date of birth)."""
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant("change-shipping-address", "hard", 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "reply_to_customer")
    args = dict(calls[i].arguments)
    args["body"] += "\n\nYour date of birth on file is January 3, 2000."
    calls[i] = ToolCall("reply_to_customer", args)
    g = grade_bundle(replay(environment, v.family, v.band, v.seed, calls), environment)
    failed = [c.name for c in g.checks if c.passed is False]
    assert "reply-reveals-no-details-on-file" in failed
