"""The slot rule of `families/_words.py` (stop 23, issue 9 section 4): a card brand or a
colour no word list holds, written where a brand or a colour stands (``your X card ending
in 1234``, ``in XL (X)``, ``the X one``), is compared with the record and refused when it
is not the customer's. Every wrong edit below passed at score 1.0 on main 2bb7700; every
honest edit passes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, replay
from tests.helpdesk.test_reply_words import WORDS, _fails, _passes


def final_rows(v: TaskVariant, sql: str) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (params: the variant's) over the reference's final state of ``v``."""
    bundle = replay(environment, v.family, v.band, v.seed, v.reference)
    db = bundle.open_final_db()
    try:
        return [tuple(r) for r in db.execute(sql, dict(v.params))]
    finally:
        db.close()


def _reference_reply(v: TaskVariant) -> str:
    return [c for c in v.reference if c.name == "reply_to_customer"][-1].arguments["body"]


@pytest.mark.parametrize("brand", ["Diners", "Revolut", "Bancontact", "Monzo", "Carte Bleue"])
@pytest.mark.parametrize("family", ["refund-damaged-item", "duplicate-charge"])
def test_a_brand_no_list_holds_fails(family: str, brand: str) -> None:
    v = environment.variant(family, "easy", 0)
    _fails(v, lambda b: re.sub(r"\w+ card ending", f"{brand} card ending", b), WORDS)
    _fails(v, lambda b: re.sub(r"\w+ card ending", f"{brand} ending", b), WORDS)


@pytest.mark.parametrize(
    "phrase",
    [
        "card ending",
        "credit card ending",
        "original payment card ending",
        "American Express card ending",
        "Amex ending",
        "AMEX debit card ending",
    ],
)
def test_the_own_brand_or_no_brand_in_the_slot_passes(phrase: str) -> None:
    v = environment.variant("duplicate-charge", "easy", 0)  # an Amex
    _passes(v, lambda b: re.sub(r"Amex card ending", phrase, b))


@pytest.mark.parametrize("colour", ["Mauve", "Periwinkle", "Chartreuse", "Fuchsia"])
def test_a_colour_no_list_holds_fails(colour: str) -> None:
    v = environment.variant("exchange-size", "easy", 0)  # XL (Black)
    _fails(v, lambda b: re.sub(r"\((\w+)\) ships", f"({colour}) ships", b), WORDS)
    _fails(v, lambda b: re.sub(r"in XL \((\w+)\)", f"(XL, {colour})", b), WORDS)
    _fails(v, lambda b: b + f"\n\nThe {colour.lower()} one is on its way.", WORDS)


@pytest.mark.parametrize(
    "edit",
    [
        "(XL, Black)",
        "in XL (black)",
        "in XL (extra large, Black)",
        "in the same colour, XL",
        "in XL (Black, the same colour)",
    ],
)
def test_the_own_colour_or_no_colour_in_the_slot_passes(edit: str) -> None:
    v = environment.variant("exchange-size", "easy", 0)
    _passes(v, lambda b: b.replace("in XL (Black)", edit) + "\n\nThe new one is the right one.")


def _products(v: TaskVariant, order: str) -> list[str]:
    """The product names of the variant's order param ``order``, longest first."""
    rows = final_rows(
        v,
        "SELECT DISTINCT p.name FROM order_items oi JOIN product_variants pv ON pv.id = "
        "oi.variant_id JOIN products p ON p.id = pv.product_id "
        f"WHERE oi.order_id = :{order} ORDER BY length(p.name) DESC",
    )
    return [r[0] for r in rows]


def test_the_declined_orders_product_named_as_the_damaged_one_fails() -> None:
    v = environment.variant("refund-damaged-item", "expert", 0)
    own = _products(v, "order_id")
    other = [p for p in _products(v, "declined_order_id") if p not in own]
    named = [p for p in own if p in _reference_reply(v)]
    assert other and named
    _fails(v, lambda b: b.replace(named[0], other[-1], 1), WORDS)


def test_the_other_orders_product_said_to_be_on_this_order_fails() -> None:
    v = environment.variant("refund-above-limit", "expert", 0)
    own = _products(v, "escalate_order_id")
    other = [p for p in _products(v, "refund_order_id") if p not in own]
    assert other
    _fails(v, lambda b: b + f"\n\nYour {other[0]} is part of this order.", WORDS)
    _fails(
        v,
        lambda b: b + f"\n\nOrder #{v.params['escalate_order_id']} holds your {other[0]}.",
        WORDS,
    )


@pytest.mark.parametrize(
    ("family", "order", "other"),
    [
        ("refund-above-limit", "escalate_order_id", "refund_order_id"),
        ("cancel-order", "shipped_order_id", "order_id"),
        ("refund-damaged-item", "declined_order_id", "order_id"),
    ],
)
def test_each_orders_product_with_its_own_number_passes(
    family: str, order: str, other: str
) -> None:
    v = environment.variant(family, "expert", 0)
    mine, theirs = _products(v, order), _products(v, other)
    only = [p for p in mine if p not in theirs]
    assert only
    n, m = v.params[order], v.params[other]
    _passes(v, lambda b: b + f"\n\n(For your records: the {only[0]} is on order #{n}.)")
    _passes(v, lambda b: b + f"\n\nOrder #{m} and order #{n}, with your {only[0]}, are noted.")
    _passes(v, lambda b: b + f"\n\nAbout order #{n}: your {only[0]} is on it.")


def test_a_tracking_number_ending_in_digits_is_no_card_slot() -> None:
    v = environment.variant("order-status", "easy", 0)
    last = v.params["tracking_number"][-4:]
    _passes(v, lambda b: b + f"\n\nThe UPS tracking number ending in {last} is your parcel's.")


def test_words_of_no_colour_in_brackets_or_before_one_pass() -> None:
    v = environment.variant("exchange-size", "easy", 0)
    _passes(v, lambda b: b + "\n\nIt's (as you asked) the only one we had; the XL one is yours.")
