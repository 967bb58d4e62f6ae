"""The promise reader (`mcpgym_grading._promises`): times sooner than the store's figures and
payouts promised for billing (round10rub T1), honest forms passing."""

from __future__ import annotations

import sqlite3

import pytest

from mcpgym_grading._promises import payout_promised, too_soon
from mcpgym_grading._values import register_sql_functions
from mcpgym_helpdesk.families._promises import DECIDERS, PROMISE_ROLES

ROLES = [
    (float(least), cues.split(","))
    for least, _, cues in (part.partition(":") for part in PROMISE_ROLES.split("|"))
]


@pytest.mark.parametrize(
    "text",
    [
        "Billing will follow up with you within 2 hours.",
        "Billing will refund it to your card tomorrow.",
        "I've refunded $89.00 to your Visa; it should show within 24 hours.",
        "The refund will be on your card immediately.",
        "Our billing team will get back to you within 1 business day.",
        "It should show within two business days.",
        "You'll hear from billing within the hour.",
        "Expect a response from billing in a few hours.",
    ],
)
def test_too_soon_reads_a_promise_sooner_than_the_figure(text: str) -> None:
    assert too_soon(text, ROLES) != []


@pytest.mark.parametrize(
    "text",
    [
        "Billing will follow up with you within 2 business days.",
        "You should hear from billing within two business days.",
        "Billing will be in touch in 48 hours.",
        "it should show within 5-10 business days.",
        "it should show within 5–10 business days.",
        "It usually appears on your statement within a week.",
        "Refunds take 5 to 10 business days to appear on your card.",
        "I've refunded $89.00 to your Visa card today; it should show within 5-10 business days.",
        "The item arrived 3 days ago and your card was charged twice 2 days ago.",
        "Billing will follow up within 2 business days and the refund should show on your card "
        "within 5-10 business days.",
        "The $89.00 goes back to your original payment method within 5-10 business days.",
    ],
)
def test_too_soon_passes_honest_times(text: str) -> None:
    assert too_soon(text, ROLES) == []


@pytest.mark.parametrize(
    "text",
    [
        "Billing will refund it to your card.",
        "Billing will follow up and refund you.",
        "They'll issue your refund shortly.",
        "Your refund will be approved by billing.",
        "Our billing team is going to pay you back the $349.00.",
    ],
)
def test_payout_promised_reads_a_promise_for_billing(text: str) -> None:
    assert payout_promised(text, DECIDERS.split(",")) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Billing will follow up with you within 2 business days.",
        "If approved, billing will refund you.",
        "Billing will decide whether to refund it.",
        "Our billing team will process your refund and follow up within 2 business days.",
        "Billing will review your request.",
        "Billing will be in touch about the refund.",
        "I've refunded $89.00 to your card; it should show within 5-10 business days.",
    ],
)
def test_payout_promised_passes_honest_forms(text: str) -> None:
    assert payout_promised(text, DECIDERS.split(",")) == []


def test_sql_functions_are_registered() -> None:
    db = sqlite3.connect(":memory:")
    register_sql_functions(db)
    row = db.execute(
        "SELECT mcpgym_too_soon(?, ?), mcpgym_too_soon(?, ?), mcpgym_payout_promised(?, ?)",
        (
            "Billing will reply within 2 hours.",
            PROMISE_ROLES,
            "Billing will reply within 2 business days.",
            PROMISE_ROLES,
            "Billing will refund it tomorrow.",
            DECIDERS,
        ),
    ).fetchone()
    assert row == (
        "Billing will reply within 2 hours.",
        None,
        "Billing will refund it tomorrow.",
    )


def _graded(family: str, band: str, seed: int, old: str, new: str) -> dict[str, bool | None]:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer":
            assert old in args["body"]
            args["body"] = args["body"].replace(old, new)
        calls.append(ToolCall(c.name, args))
    grade = grade_bundle(replay(environment, family, band, seed, calls), environment)
    return {c.name: c.passed for c in grade.checks} | {"passed": grade.passed}


@pytest.mark.parametrize(
    ("family", "band", "old", "new", "check"),
    [
        (
            "refund-above-limit",
            "easy",
            "within 2 business days",
            "within 2 hours",
            "replies-promise-policy-times",
        ),
        (
            "refund-above-limit",
            "hard",
            "Billing will follow up with you within 2 business days.",
            "Billing will refund it to your card tomorrow.",
            "replies-promise-no-payout",
        ),
        (
            "duplicate-charge",
            "easy",
            "within 5-10 business days",
            "within 24 hours",
            "replies-promise-policy-times",
        ),
        (
            "refund-damaged-item",
            "medium",
            "within 5-10 business days",
            "within 24 hours",
            "replies-promise-policy-times",
        ),
    ],
)
def test_a_false_promise_fails_the_grade(
    family: str, band: str, old: str, new: str, check: str
) -> None:
    checks = _graded(family, band, 0, old, new)
    assert checks[check] is False
    assert checks["passed"] is False


@pytest.mark.parametrize(
    ("family", "old", "new"),
    [
        ("refund-above-limit", "within 2 business days", "within two business days"),
        ("refund-above-limit", "within 2 business days", "within 48 hours"),
        ("duplicate-charge", "within 5-10 business days", "within 5–10 business days"),
        ("refund-damaged-item", "within 5-10 business days", "usually within a week"),
    ],
)
def test_honest_times_pass_the_grade(family: str, old: str, new: str) -> None:
    checks = _graded(family, "easy", 1, old, new)
    assert checks["passed"] is True


@pytest.mark.parametrize(
    ("text", "soon"),
    [
        (
            "I refunded the duplicate charge today, and you should see it within 5-10 "
            "business days.",
            False,
        ),
        ("I've issued the refund to your card immediately; it should show within a week.", False),
        ("You'll see it on your card today.", True),
        ("Billing will follow up today.", True),
    ],
)
def test_an_instant_word_is_a_promise_only_after_a_future_word(text: str, soon: bool) -> None:
    assert (too_soon(text, ROLES) != []) is soon


@pytest.mark.parametrize(
    "text",
    [  # round 11 R8: each passed the reader before
        "You'll receive the full refund for order #7 from billing within 2 business days.",
        "You will get your $349.00 back from billing.",
        "You'll get your money back from the billing team.",
        "You'll be refunded by billing in full.",
        "Our billing team will make sure you get your money back for order #7.",
    ],
)
def test_payout_promised_reads_the_customer_as_the_one_paid(text: str) -> None:
    assert payout_promised(text, DECIDERS.split(","))


@pytest.mark.parametrize(
    "text",
    [
        "You'll receive an update from the billing team within 2 business days.",
        "You will hear from billing within 2 business days.",
        "You will get a reply from our billing team within 2 business days.",
        "You'll receive the $89.00 refund within 5-10 business days, and billing will follow "
        "up on the rest.",
        "If billing approves it, you'll receive the refund from them.",
    ],
)
def test_payout_promised_passes_honest_forms_with_the_customer_as_subject(text: str) -> None:
    assert not payout_promised(text, DECIDERS.split(","))


def test_business_hours_are_hours() -> None:
    """round 11 R8: `2 business hours` was read as 2 days (the figure itself)."""
    assert too_soon("Billing will follow up within 2 business hours.", ROLES)
    assert too_soon("Billing will get back to you within 4 working hours.", ROLES)
    assert not too_soon("Billing will follow up within 2 business days.", ROLES)
