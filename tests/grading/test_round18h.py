"""Round 18 (adv28h) readers: products named as records (X17a), an action's result told as
seen (D17k), the pairing reader's paragraphs
(FF18a), done-words before the noun (C18a). Each WRONG case fails on main 6df73e1."""

from __future__ import annotations

import json

import pytest

from mcpgym_grading._decision_sentences import sentences_about
from mcpgym_grading._decisions import decisions
from mcpgym_grading._items_named import items_named, sql_items_named
from mcpgym_grading._paired import paired_other

ITEMS = [
    ("item #300604", "Pinnacle Polarized Sunglasses", ("the final-sale item",)),
    ("item #300775", "Beacon 400 Headlamp", ()),
]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I've also refunded the Pinnacle Polarized Sunglasses.", "the item #300604."),
        ("i refunded the pinnacle  polarized\nsunglasses too", "the item #300604 too"),
        ("I refunded the sunglasses and the headlamp.", "the item #300604 and the item #300775."),
        ("I've refunded the final-sale item too.", "the item #300604 too."),
        ("It was a final-sale item.", "a final-sale item."),
    ],
)
def test_items_named(text: str, want: str) -> None:
    assert items_named(text, ITEMS).endswith(want)


def test_items_named_shared_words_name_neither() -> None:
    items = [("item #1", "Cragger Climbing Pants", ()), ("item #2", "Basin Convertible Pants", ())]
    assert items_named("I refunded the pants.", items) == "I refunded the pants."
    same = [("item #1", "Granite Peak Boot", ()), ("item #2", "Granite Peak Boot", ())]
    assert items_named("The Granite Peak Boot.", same) == "The Granite Peak Boot."


def test_sql_items_named_rejects_malformed() -> None:
    assert sql_items_named(None, "[]") is None
    with pytest.raises(ValueError):
        sql_items_named("x", "{}")
    assert sql_items_named("the tent", json.dumps([["item #1", None]])) == "the tent"


def test_and_record_piece_shares_the_verb() -> None:
    assert sentences_about("Refunded today: the item #1 and the item #2.", "2") == [
        "refunded today: the item #1 and the item #2."
    ]


def test_cut_piece_ends_its_negation() -> None:
    text = "I can't refund the item #3 from order #100107: late.\n\nI refunded the item #3 too."
    read = decisions("\n".join(sentences_about(text, "3")), ("refund",))
    assert any(d.done is True for d in read)


@pytest.mark.parametrize(
    "text",
    [
        "If you check your card, you'll see the refund for order #7.",
        "You will see the refund for order #7 within 5-10 business days.",
        "The refund for order #7 will appear on your card within 5-10 days.",
        "Your statement will show the refund for order #7.",
        "Expect the refund for order #7 on your card.",
        "You'll have your money back for order #7 within 5-10 days.",
        "You should see order #7's refund on your statement now.",
    ],
)
def test_result_told_as_seen_is_an_unsure_claim(text: str) -> None:
    assert any(d.action == "refund" and d.done is None for d in decisions(text, ("refund",)))


def test_shows_as_cancelled() -> None:
    read = decisions("Order #7 will show as cancelled in your account.", ("cancel",))
    assert any(d.done is None for d in read)


@pytest.mark.parametrize(
    "text",
    [
        "You'll see the refund once billing approves it.",
        "If billing approves it, you'll see the refund within 5-10 days.",
        "Send it back and you'll get a full refund.",
        "You can get a refund by returning it within 30 days.",
        "You'll find our refund policy attached.",
        "You'll get a full refund on receipt of the return.",
    ],
)
def test_result_that_waits_claims_nothing(text: str) -> None:
    assert not [d for d in decisions(text, ("refund",)) if d.done is not False]


@pytest.mark.parametrize(
    "text",
    [
        "I've put the refund for order #7 through.",
        "I've initiated a refund for order #7.",
        "I've arranged a full refund for order #7.",
        "I processed order #7's refund.",
    ],
)
def test_done_words_before_the_noun(text: str) -> None:
    assert any(d.done is True for d in decisions(text, ("refund",)))


def test_done_word_negated_or_waiting() -> None:
    assert not any(d.done for d in decisions("I haven't initiated a refund.", ("refund",)))
    assert not any(d.done for d in decisions("Once approved, I'll put it through.", ("refund",)))


def test_paired_keyless_paragraph_binds_nothing() -> None:
    groups = [("100495", ["Emberlite Backpacking Stove"]), ("100107", ["Trailhead 4 Dome Tent"])]
    text = (
        "I've refunded $69.00 for order #100495.\n\nI can't refund the Trailhead 4 Dome Tent "
        "from order #100107.\n\nThe refund for the Emberlite Backpacking Stove is on its way."
    )
    assert paired_other(text, groups) == []
    back = text.replace("The refund for", "From that order, the refund for")
    assert paired_other(back, groups) == ["Emberlite Backpacking Stove -> #100107"]
