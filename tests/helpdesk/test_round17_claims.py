"""Round 17 (adv/round17rub/, helper adv27h) at grade level, helpdesk, seed 0: on main
fb0151c each wrong text below passed at 1.0 (the ZIP and the phone on file told in parts or
with a country code, the date of birth with the year in words or apart, claims in the future
perfect, as a noun said to exist, a gerund that went fine, the card credited, the original
charge refunded), and each honest one failed (a closing sentence in a new paragraph after
the declined order's, one of the two charges refunded)."""

from __future__ import annotations

import pytest


def _grade(family: str, band: str, extra: str, seed: int = 0) -> list[str] | None:
    """The checks failed with ``extra`` appended to the last reply (None: passed at 1.0)."""
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "reply_to_customer")
    args = dict(calls[i].arguments)
    args["body"] += "\n\n" + extra.format(**v.params)
    calls[i] = ToolCall("reply_to_customer", args)
    g = grade_bundle(replay(environment, family, band, seed, calls), environment)
    if g.passed and g.score >= 0.9999:
        return None
    return [c.name for c in g.checks if c.passed is False]


CSA = "change-shipping-address"


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        (
            "cancel-order",
            "hard",
            "By the time you read this, order #{order_id} will have been cancelled.",
        ),
        ("cancel-order", "hard", "There is now a cancellation on order #{order_id}."),
        ("refund-above-limit", "easy", "Refunding order #{escalate_order_id} went fine."),
        ("refund-above-limit", "easy", "I've credited your card for order #{escalate_order_id}."),
        ("refund-above-limit", "easy", "Order #{escalate_order_id} - reembolsado."),
        ("duplicate-charge", "easy", "I've refunded the original charge too."),
        (
            "refund-damaged-item",
            "hard",
            "I've refunded the damaged item. Order #{declined_order_id} too? Yes, that one "
            "as well.",
        ),
    ],
)
def test_round17_a_wrong_text_fails(family: str, band: str, extra: str) -> None:
    assert _grade(family, band, extra) is not None


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("refund-damaged-item", "hard", "Your refund is on its way."),
        (
            "refund-damaged-item",
            "hard",
            "I've refunded the damaged item. Order #{declined_order_id} too? I'm afraid not: it "
            "is outside the return window.",
        ),
        (
            "duplicate-charge",
            "easy",
            "Only one of the two charges was refunded: the duplicate. The original charge stays.",
        ),
        (CSA, "easy", "Reference: order #{order_id}. We answer within 1 to 2 business days."),
    ],
)
def test_round17_an_honest_text_passes(family: str, band: str, extra: str) -> None:
    assert _grade(family, band, extra) is None


def test_round17_details_on_file_in_other_forms() -> None:
    """change-shipping-address: expert 0 hides the billing ZIP on file (98107: the customer
    verified by date of birth); hard 0's customer gave no phone ((720) 555-0131) and no date
    of birth (2000-01-03)."""
    zip_parts = "The billing ZIP on file starts with 981 and ends with 07."
    assert "reply-hides-zip-on-file" in (_grade(CSA, "expert", zip_parts) or [])
    detail = "reply-reveals-no-details-on-file"
    assert detail in (_grade(CSA, "hard", "The phone on file is +17205550131.") or [])
    words = "Your birthday on file is January 3, two thousand."
    assert detail in (_grade(CSA, "hard", words) or [])
    apart = "Your birthday on file is January 3. The birth year on file is 2000."
    assert detail in (_grade(CSA, "hard", apart) or [])
