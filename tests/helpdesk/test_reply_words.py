"""Facts a reply states in words, and the decisions a reply states of the money (issue 9
section 4, stop 21: `families/_words.py`, `mcpgym_grading._stated_words`, dates in words in
`mcpgym_grading._value_roles`). Every wrong edit below passed at score 1.0 on the previous
main; every honest edit passes."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall
from tests.helpdesk.test_families import failed_checks, grade

WORDS = "replies-state-own-words"
FACTS = "replies-state-own-facts"


def _reply(v: TaskVariant, fn: Callable[[str], str]) -> list[ToolCall]:
    calls = [
        ToolCall(c.name, {**c.arguments, "body": fn(c.arguments["body"])})
        if c.name == "reply_to_customer"
        else c
        for c in v.reference
    ]
    assert calls != list(v.reference)
    return calls


def _fails(v: TaskVariant, fn: Callable[[str], str], check: str) -> None:
    g = grade(v, _reply(v, fn))
    assert g.status == "graded", g.error
    assert check in failed_checks(g) and not g.passed, failed_checks(g)


def _passes(v: TaskVariant, fn: Callable[[str], str]) -> None:
    g = grade(v, _reply(v, fn))
    assert g.passed and g.score == 1.0, failed_checks(g)


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_another_colour_fails(band: str) -> None:
    v = environment.variant("exchange-size", band, 0)
    _fails(v, lambda b: re.sub(r"\((\w+)\) ships", "(Neon Pink) ships", b), WORDS)
    _fails(v, lambda b: re.sub(r"\((\w+)\) ships", "(Sky) ships", b), WORDS)


def test_the_own_colour_in_other_words_passes() -> None:
    v = environment.variant("exchange-size", "easy", 0)
    _passes(v, lambda b: re.sub(r"\((\w+)\) ships", lambda m: f"in {m[1].lower()} ships", b))


def test_another_product_fails() -> None:
    v = environment.variant("refund-damaged-item", "easy", 0)
    _fails(
        v,
        lambda b: re.sub(r"sorry the .*? arrived", "sorry the Summit Climbing Helmet arrived", b),
        WORDS,
    )


@pytest.mark.parametrize(
    ("family", "brand"),
    [("refund-damaged-item", "PayPal account"), ("duplicate-charge", "Discover card")],
)
def test_another_card_brand_fails(family: str, brand: str) -> None:
    v = environment.variant(family, "easy", 0)
    _fails(v, lambda b: re.sub(r"\w+ card ending", f"{brand} ending", b), WORDS)


def test_the_own_brand_spaced_passes() -> None:
    v = environment.variant("refund-damaged-item", "easy", 0)  # a Mastercard
    _passes(v, lambda b: b.replace("Mastercard card", "Master Card"))


def test_the_wrong_decline_reason_fails() -> None:
    v = environment.variant("refund-damaged-item", "hard", 0)
    assert v.params["declined_reason"] == "outside_window"
    _fails(
        v,
        lambda b: re.sub(
            r": it was delivered on .*?, outside our 30-day return window\.",
            ": it is a final-sale item, so it cannot be refunded.",
            b,
        ),
        WORDS,
    )


@pytest.mark.parametrize("family", ["cancel-order", "order-status", "duplicate-charge"])
def test_a_greeting_to_another_name_fails(family: str) -> None:
    v = environment.variant(family, "easy", 0)
    _fails(v, lambda b: re.sub(r"^Hi \w+", "Hi Bartholomew", b), WORDS)
    _fails(v, lambda b: re.sub(r"^Hi \w+", "Dear Ms. Zzyzx", b), WORDS)


@pytest.mark.parametrize("greeting", ["Hi there", "Hello again", "Good morning"])
def test_greetings_naming_nobody_pass(greeting: str) -> None:
    v = environment.variant("cancel-order", "easy", 0)
    _passes(v, lambda b: re.sub(r"^Hi \w+", greeting, b))


def test_a_wrong_delivery_date_in_words_fails() -> None:
    v = environment.variant("refund-damaged-item", "hard", 0)
    _fails(v, lambda b: re.sub(r"delivered on \w+ \d+", "delivered on May 30", b), FACTS)
    _fails(v, lambda b: re.sub(r"delivered on \w+ \d+", "delivered on 30 May 2026", b), FACTS)


def test_the_delivery_date_in_other_words_passes() -> None:
    v = environment.variant("refund-damaged-item", "hard", 0)  # delivered on January 31
    _passes(v, lambda b: b.replace("delivered on January 31", "delivered on 31st January 2026"))


def test_a_wrong_eta_in_words_fails() -> None:
    v = environment.variant("order-status", "easy", 0)
    _fails(v, lambda b: re.sub(r"2026-\d\d-\d\d", "September 30", b, count=1), FACTS)


@pytest.mark.parametrize("band", ["hard", "expert"])
def test_the_declined_order_claimed_refunded_fails(band: str) -> None:
    v = environment.variant("refund-damaged-item", band, 0)
    _fails(
        v,
        lambda b: b + "\n\nOn second thought, I've refunded that one as well as a courtesy.",
        "reply-states-declined-not-refunded",
    )


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_a_released_authorisation_claimed_as_a_refund_fails(band: str) -> None:
    v = environment.variant("cancel-order", band, 0)
    assert v.params["refund_cents"] == 0
    hold = "Your card was not charged yet; the authorisation has been released."
    _fails(
        v,
        lambda b: b.replace(hold, "Your payment has been refunded in full."),
        "reply-states-no-refund-when-uncharged",
    )
    _passes(v, lambda b: b.replace(hold, "The hold on your card is released."))
