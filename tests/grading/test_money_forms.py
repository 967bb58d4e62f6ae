"""Money `states` checks against the candidate amounts a reply can state in forms the parser
once missed (issue 9 §4), and the misreadings of right replies it once made (§5)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading import AnswerMatch
from mcpgym_grading._money import money_mentions

from .episodes import grade_check

RIGHT_CENTS = 4500
CANDIDATES = [539, 795, 9000, 1200]
"""The other amounts of the customer's orders (what a rubric's `forbidden_sql` selects)."""


def states(text: str, **kw: Any) -> bool | None:
    check = AnswerMatch(name="a", expected=RIGHT_CENTS, normalize="money", mode="states", **kw)
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "We refunded $45.00. It could also be 5.39 or 7.95.",
        "We refunded $45.00 - or possibly 5.39, or 7.95",
        "We refunded 5.39, 7.95 or 45.00 dollars.",
        "We refunded 45 or 90 dollars.",
        "We refunded $45.00. Other totals 💲5.39 and 💲7.95.",
        "We refunded $45.00 (alt USD: 5.39).",
        "We refunded $45.00; alt dollars: 7.95.",
        "We refunded $45.00; alt 5.39 US$.",
        "We refunded $45.00; alt $❺.❸❾.",
        "We refunded $45, 90 or 12.",
        "We refunded $45.00; alt %2490.00.",
        "We refunded $45.00; alt 90 dol.",
        "We refunded $45.00; alt 90 smackers.",
        "We refunded $45.00; alt 7,95.",
    ],
)
def test_every_candidate_amount_is_read(text: str) -> None:
    """The candidate amounts the check knows (its `forbidden` ones, as a rubric names them)
    are read in every form, bare ones too."""
    assert states(text, forbidden=CANDIDATES) is False


@pytest.mark.parametrize(
    "text",
    [
        "We refunded $45.00 to 12 Main St, CA 94105.",
        "We refunded $45.00 for order #100234 45.00.",
        "We refunded $45.00 on 2026-06-15.",
        "We refunded $45.00 on 06.15.",
        "We refunded $45.00 to the card ending 4242.",
        "We refunded $45.00; it shows in 5-7 business days.",
        "We refunded $45.00 USD.",
        "We refunded $45.00, that's 100.00% of the item.",
        "We refunded $45.00 for 12.50 kg of items.",
        "We refunded $45.00 at 12.50 pm.",
        "We refunded $45.00 with client 1.2.3.",
        "We refunded $45.00; order items: 2, 3.",
        "We refunded $45.00, 2 items.",
        "We refunded $249.00 b/c it arrived damaged.".replace("249", "45"),
        "We refunded $45 k? Let me know.",
        "We refunded $45 b.",
        "We refunded forty-five dollars.",
    ],
)
def test_a_right_reply_still_states_the_amount(text: str) -> None:
    assert states(text) is True


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("We refunded $249.00 b/c it arrived damaged.", [24900]),
        ("We refunded $45 k? Let me know.", [4500]),
        ("We refunded $45k.", [4_500_000]),
        ("We refunded $3 bn.", [300_000_000_000]),
        ("We refunded $45½.", [4550]),
        ("We refunded $12¼.", [1225]),
        ("We refunded 90 CA$.", [9000]),
    ],
)
def test_scales_and_fractions_are_read_as_written(text: str, cents: list[int]) -> None:
    assert [int(m.cents) for m in money_mentions(text)] == cents


def test_a_foreign_dollar_sign_after_the_number_keeps_its_currency() -> None:
    assert [m.currency for m in money_mentions("90 CA$ or 5.39 US$")] == ["CAD", "USD"]


def test_a_list_before_a_unit_takes_its_currency() -> None:
    found = [(m.currency, int(m.cents)) for m in money_mentions("5.39, 7.95 or 45.00 euros")]
    assert found == [("EUR", 539), ("EUR", 795), ("EUR", 4500)]


def test_a_listed_number_with_its_own_unit_is_its_own_mention() -> None:
    found = [(m.currency, int(m.cents)) for m in money_mentions("$45.00 or 90.00 euros")]
    assert found == [("USD", 4500), ("EUR", 9000)]


def test_bare_numbers_are_read_in_a_money_check_only() -> None:
    """A bare number is read only by a money check (``bare``), and there only when its
    value is a candidate or its context makes it an amount."""
    assert [int(m.cents) for m in money_mentions("$45.00. Maybe 5.39.")] == [4500]
    assert [int(m.cents) for m in money_mentions("$45.00. See 5.39.", bare=True)] == [4500]
    found = money_mentions("$45.00. See 5.39.", bare=True, candidates=[539])
    assert [int(m.cents) for m in found] == [4500, 539]


@pytest.mark.parametrize(
    "hidden", ["<!-- or $5.39 -->", '<span title="$5.39">refund</span>', "[refund]($5.39)"]
)
def test_an_amount_hidden_in_markup_is_stated_all_the_same(hidden: str) -> None:
    """A candidate amount in a comment, an attribute or a link target is read from the
    source of the reply (before: the markup was dropped and the reply passed)."""
    right = states(f"We refunded ${RIGHT_CENTS // 100}.{RIGHT_CENTS % 100:02d}.")
    assert right is True
    assert states(f"We refunded ${RIGHT_CENTS // 100}.{RIGHT_CENTS % 100:02d}. {hidden}") is False
