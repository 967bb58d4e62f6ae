"""AnswerMatch: submitted answers and SQL-selected texts, text/token/money normalisation."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from mcpgym_grading import AnswerMatch, Param

from .episodes import grade_check


def answer(
    text: str | None,
    expected: Any,
    normalize: Literal["text", "token", "money"],
    mode: Literal["contains", "equals"] = "contains",
    negate: bool = False,
) -> bool | None:
    check = AnswerMatch(name="a", expected=expected, normalize=normalize, mode=mode, negate=negate)
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    ("text", "expected", "passed"),
    [
        ("Refunded $100 today", "10", False),
        ("Refunded 100", "10", False),
        ("refund of 10 dollars", "10", True),
        ("tracking: 1Z999AA10123456784.", Param("tracking"), True),
        ("Dear ADA  lovelace, done", Param("customer"), True),
        ("Dear Ada Lovelace", "Ada Love", False),
        ("order #101 refunded", 101, True),
    ],
)
def test_token_mode_matches_whole_tokens_only(text: str, expected: Any, passed: bool) -> None:
    assert answer(text, expected, "token") is passed


def test_token_equals_needs_the_same_token_list() -> None:
    assert answer("Refunded.", "refunded", "token", "equals") is True
    assert answer("Refunded it.", "refunded", "token", "equals") is False


@pytest.mark.parametrize(
    ("text", "expected", "mode", "passed"),
    [
        ("Refunded $25.00 for   ORDER 101", "for order 101", "contains", True),
        ("Refunded $100", "$10", "contains", True),  # text mode does not respect tokens
        ("  Done\n", "done", "equals", True),
        ("Done.", "done", "equals", False),
    ],
)
def test_text_mode_casefolds_and_collapses_whitespace(
    text: str, expected: str, mode: Literal["contains", "equals"], passed: bool
) -> None:
    assert answer(text, expected, "text", mode) is passed


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Refunded $25.00.", True),
        ("Refunded $25", True),
        ("Refunded 25.00 USD", True),
        ("Refunded USD 25", True),
        ("Refunded $2,500", False),
        ("Refunded 25", False),
        ("Refunded $25.50", False),
        ("Paid $30.00, refunded $25.00", True),
    ],
)
def test_money_contains_any_amount_in_cents(text: str, passed: bool) -> None:
    assert answer(text, Param("amount_cents"), "money") is passed


def test_money_equals_needs_every_amount_to_match() -> None:
    assert answer("$25.00 (that is $25)", 2500, "money", "equals") is True
    assert answer("Paid $30.00, refunded $25.00", 2500, "money", "equals") is False
    assert answer("no amount", 2500, "money", "equals") is False


def test_money_detail_lists_amounts_and_text() -> None:
    check = AnswerMatch(name="a", expected=2500, normalize="money")
    result = grade_check(check, [], answer="Paid $30.00, refunded $25.00")
    assert result.detail == {
        "expected": 2500,
        "found": [3000, 2500],
        "text": "Paid $30.00, refunded $25.00",
        "normalize": "money",
        "mode": "contains",
        "negate": False,
        "matched": True,
    }


def test_negate_inverts_the_outcome() -> None:
    assert answer("We are sorry", "sorry", "text", negate=True) is False
    assert answer("All done", "sorry", "text", negate=True) is True


def test_missing_answer_is_the_empty_text() -> None:
    assert answer(None, "done", "token") is False
    assert answer(None, "done", "token", negate=True) is True
    ended = grade_check(AnswerMatch(name="a", expected="x", normalize="text"), [], submit=False)
    assert (ended.passed, ended.detail["found"]) == (False, "")


def test_sql_source_joins_non_null_values_with_newlines() -> None:
    calls = [
        ("send_message", {"order_id": 101, "body": "Hello Ada"}),
        ("send_message", {"order_id": 101, "body": "We refunded $25.00"}),
    ]
    check = AnswerMatch(
        name="a",
        source="sql",
        sql="SELECT body, NULL, order_id FROM messages WHERE order_id = :order_id ORDER BY rowid",
        expected=Param("amount_cents"),
        normalize="money",
    )
    result = grade_check(check, calls)
    assert result.passed is True
    assert result.detail["text"] == "Hello Ada\n101\nWe refunded $25.00\n101"


@pytest.mark.parametrize(
    ("check", "error"),
    [
        (
            AnswerMatch(name="e", expected="25.00", normalize="money"),
            "normalize `money` needs `expected` as integer cents, got '25.00'",
        ),
        (
            AnswerMatch(name="e", expected="$", normalize="token"),
            "`expected` '$' has no alphanumeric token to match",
        ),
        (
            AnswerMatch(name="e", expected=Param("listing"), normalize="text"),
            "normalize `text` needs a text or number `expected`, got [1, 2]",
        ),
        (
            AnswerMatch(name="e", source="sql", sql="SELECT body FROM mesages", expected="x"),
            "SQL error: no such table: mesages",
        ),
    ],
)
def test_unusable_expectations_are_evaluation_errors(check: AnswerMatch, error: str) -> None:
    assert grade_check(check, [], answer="x").error == error
