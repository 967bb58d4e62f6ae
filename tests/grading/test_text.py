"""Text normalisation helpers of AnswerMatch: tokens and money amounts."""

from __future__ import annotations

import pytest

from mcpgym_grading._money import money_amounts
from mcpgym_grading._text import (
    contains_tokens,
    grouped_tokens,
    normalise_text,
    tokens,
)


def test_text_normalisation_casefolds_and_collapses_whitespace() -> None:
    assert (
        normalise_text("  Refunded\t$25.00\n\nfor  ORDER 101 ") == "refunded $25.00 for order 101"
    )


@pytest.mark.parametrize(
    ("text", "needle", "found"),
    [
        ("$100", "10", False),
        ("100", "10", False),
        ("refund of 10 dollars", "10", True),
        ("tracking: 1Z999AA10123456784.", "1Z999AA10123456784", True),
        ("tracking: 1Z999AA10123456784.", "1z999aa10123456784", True),
        ("Dear ADA  lovelace!", "Ada Lovelace", True),
        ("Dear Ada Lovelace", "Ada Love", False),
        ("order_101", "101", True),
        ("$12.50", "12.50", True),
    ],
)
def test_token_matching_needs_whole_contiguous_tokens(text: str, needle: str, found: bool) -> None:
    assert contains_tokens(tokens(text), tokens(needle)) is found


def test_tokens_split_on_every_non_alphanumeric() -> None:
    assert tokens("Ref#A-12_b, ok") == ["ref", "a", "12", "b", "ok"]


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("$1,234.50 refunded", [123450]),
        ("total 1234.50 USD", [123450]),
        ("we sent $12.", [1200]),
        ("US$ 5 and USD 12.00", [500, 1200]),
        ("12 dollars back", [1200]),
        ("$1.5", [150]),
        ("-$5.00 adjustment", [500]),
        ("$100 vs $10", [10000, 1000]),
        ("order 100234 for 25.00", []),
        ("$12.505", []),
        ("x1.50 USD", []),
        ("no money here", []),
    ],
)
def test_money_amounts_are_parsed_to_integer_cents(text: str, cents: list[int]) -> None:
    assert money_amounts(text) == cents


@pytest.mark.parametrize(
    ("text", "grouped"),
    [
        ("tracking 9405 5932 3632 2621 4688 48.", ["tracking", "9405593236322621468848"]),
        ("UPS 1Z-999-AA1-0123", ["ups", "1z999aa10123"]),
        ("order 100234 5 items", ["order", "1002345", "items"]),
        ("call me at 10 am", ["call", "me", "at", "10", "am"]),
        ("two  spaces 12  34", ["two", "spaces", "1234"]),
        ("12, 34", ["12", "34"]),
    ],
)
def test_grouped_tokens_join_digit_groups_split_by_one_space_or_hyphen(
    text: str, grouped: list[str]
) -> None:
    assert grouped_tokens(text) == grouped


def test_absurdly_long_amounts_are_not_amounts_and_never_raise() -> None:
    assert money_amounts("$" + "9" * 5000 + " then $12.50") == [1250]


@pytest.mark.parametrize(
    "text",
    ["9405\u00a05932\u202f3632", "9405 \u2013 5932-3632", "9405  5932   3632", "9405 - 5932 3632"],
)
def test_digit_groups_may_be_split_by_any_space_or_one_dash(text: str) -> None:
    assert grouped_tokens(text) == ["940559323632"]


def test_amounts_with_the_currency_after_the_number() -> None:
    assert money_amounts("249.00$, 249 $ and 249.00 US dollars") == [24900, 24900, 24900]
