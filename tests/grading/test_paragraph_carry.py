"""Round 17's FF17a (round 16's FF16a, helper adv27h): a sentence naming no record, in a
new paragraph that does not refer back, is not about the record the paragraph before
named. On main fb0151c refund-damaged-item hard/expert replies that declined order #D in
their last paragraph and then closed with `I've refunded the damaged item in full.` or
`Your refund is on its way.` failed `reply-states-declined-not-refunded` (10/12 and 10/12
episodes, the rest failing for their own reason; adv/round17rub/left17h.py F rows)."""

from __future__ import annotations

import pytest

from mcpgym_grading._amount_sentences import without_amount
from mcpgym_grading._decision_sentences import sentences_about

DECLINED = "I can't refund the Tent from order #100107: it is outside the return window."


@pytest.mark.parametrize(
    "closing",
    [
        "I've refunded the damaged item in full.",
        "Your refund is on its way.",
        "I've refunded the damaged item. Order #100107 too? I'm afraid not.",
        "That's $69.00 back on your card.",
    ],
)
def test_a_new_paragraph_that_does_not_refer_back_is_not_carried(closing: str) -> None:
    about = sentences_about(f"{DECLINED}\n\n{closing}", "100107")
    claims = ("damaged item", "on its way", "back on your card")
    assert not any(c in s for s in about for c in claims)


@pytest.mark.parametrize(
    "closing",
    [
        "It has been refunded after all.",
        "That's been refunded after all.",
        "I've refunded the other one as well.",
        "I've refunded that order too.",
        "Update: the larger one has been refunded too.",
        "I've also refunded the Tent in full.",
        'You wrote: "Please refund that too." Done.',
    ],
)
def test_a_new_paragraph_that_refers_back_is_carried(closing: str) -> None:
    assert closing in sentences_about(f"{DECLINED}\n\n{closing}", "100107")


def test_the_same_paragraph_still_carries() -> None:
    text = f"{DECLINED} I've refunded the damaged item in full."
    assert "I've refunded the damaged item in full." in sentences_about(text, "100107")


def test_without_amount_keeps_paragraph_breaks() -> None:
    text = "Refund of $5.00 as a price adjustment earlier.\n\nI can't refund #7.\n\nBye."
    assert without_amount(text, 500, ("price adjustment",)) == "I can't refund #7.\n\nBye."


@pytest.mark.parametrize(
    "answer",
    ["Yes, that one as well.", "Yes.", "Indeed, it was.", "Sure, same there."],
)
def test_a_question_answered_yes_claims_the_action_before_it(answer: str) -> None:
    text = f"{DECLINED}\n\nI've refunded the damaged item. Order #100107 too? {answer}"
    assert "I've refunded the damaged item." in sentences_about(text, "100107")


def test_a_question_answered_no_claims_nothing() -> None:
    text = f"{DECLINED}\n\nI've refunded the damaged item. Order #100107 too? No, sorry."
    assert "I've refunded the damaged item." not in sentences_about(text, "100107")
