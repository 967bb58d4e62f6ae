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


# ---- "contains is not states": every money mention is an amount (issue 9, section 4) ----

RIGHT_CENTS = 4500


def states(text: str, **kw: Any) -> bool | None:
    check = AnswerMatch(name="a", expected=RIGHT_CENTS, normalize="money", mode="states", **kw)
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "We refunded $45.00.",
        "We refunded 4500 cents.",
        "We refunded forty-five dollars.",
        "We refunded forty-five dollars and zero cents.",
        "We refunded 45 dollars 00.",
        "We refunded $45⁰⁰.",
        "We refunded 45,00 $.",
        "We refunded 45 USD, that is US$45.",
        "We refunded $0.045k.",
    ],
)
def test_the_right_amount_in_any_form_is_stated(text: str) -> None:
    assert states(text) is True


@pytest.mark.parametrize(
    "text",
    [
        "We refunded €45.00.",
        "We refunded EUR 45.",
        "We refunded 45 euros.",
        "We refunded CA$45.00.",
        "We refunded £45.",
    ],
)
def test_the_right_number_in_another_currency_is_not_the_amount(text: str) -> None:
    assert states(text) is False
    contains = AnswerMatch(name="a", expected=RIGHT_CENTS, normalize="money")
    assert grade_check(contains, [], answer=text).passed is False


@pytest.mark.parametrize(
    "extra",
    [
        "$45.01",  # a near miss
        "$90.00",  # double
        "4501 cents",
        "forty-five dollars and one cent",
        "€50.00",
        "EUR 50",
        "50 USD",
        "$45k",
        "12 dollars 50",
        "$45⁰¹",
        "45,01 $",
        "90.00",  # a bare amount listed after a marked one
    ],
)
def test_the_right_amount_beside_any_other_states_nothing(extra: str) -> None:
    assert states(f"We refunded $45.00 (or {extra}).") is False


def test_allowed_amounts_may_stand_beside_the_right_one() -> None:
    text = "We refunded $45.00; refunds above $250.00 go to billing."
    assert states(text) is False
    assert states(text, allowed=[25000]) is True
    assert states(text, allowed_sql="SELECT 25000") is True
    assert states("We refunded $250.00.", allowed=[25000]) is False  # allowed is not expected


def test_a_forbidden_amount_is_found_in_every_form_and_currency() -> None:
    check = AnswerMatch(name="a", expected=RIGHT_CENTS, normalize="money", forbidden=[9000])
    for form in ("9000 cents", "ninety dollars", "€90.00", "90,00 $", "$90⁰⁰", "$0.09k"):
        result = grade_check(check, [], answer=f"We refunded $45.00 or {form}.")
        assert result.passed is False, form
        assert result.detail["forbidden_found"] == [9000], form


def test_states_is_for_money_and_allowed_for_states() -> None:
    with pytest.raises(ValueError, match="mode 'states' is for a money check"):
        AnswerMatch(name="a", expected="x", mode="states")
    with pytest.raises(ValueError, match="for mode 'states' only"):
        AnswerMatch(name="a", expected=1, normalize="money", allowed=[2])


def test_states_detail_names_what_was_not_allowed() -> None:
    check = AnswerMatch(name="a", expected=RIGHT_CENTS, normalize="money", mode="states")
    result = grade_check(check, [], answer="$45.00 or €45.00 or $45.01")
    assert result.detail["found"] == [4500, 4501]
    assert result.detail["other_currencies"] == ["€45.00 (EUR)"]
    assert result.detail["not_allowed"] == ["€45.00 (EUR)", "$45.01 (USD)"]


def test_states_without_expected_is_a_guard_no_amount_but_the_allowed() -> None:
    """A money check in mode ``states`` with no expected amount: the text states no amount
    but the allowed ones (adversarial round 9, M1/N1/N3: a reply or note that need state no
    amount, stating a wrong one, was read by no check)."""
    guard = AnswerMatch(name="g", normalize="money", mode="states", allowed=[4500])
    for text in ("Your order is on its way.", "We refunded $45.00.", "forty-five dollars"):
        assert grade_check(guard, [], answer=text).passed is True, text
    for text in ("We refunded $45.01.", "I've added $20.00 in store credit.", "€45.00"):
        result = grade_check(guard, [], answer=text)
        assert result.passed is False, text
        assert result.detail["not_allowed"], text
    with pytest.raises(ValueError, match="mode 'states' is for a money check"):
        AnswerMatch(name="a", mode="states", forbidden=["x"])


def test_a_guard_reads_no_bare_whole_number_but_a_bare_candidate_decimal() -> None:
    """An entry number or a ZIP equal to a candidate in dollars is no amount to a guard
    (ledger: "Reversal of entry 432" beside a $432.00 line); a bare candidate decimal is."""
    guard = AnswerMatch(
        name="g", normalize="money", mode="states", allowed=[36615], forbidden=[43200, 53625]
    )
    text = "Reversal of entry 432; posted again with $366.15. Ships to Eugene, OR 97403."
    assert grade_check(guard, [], answer=text).passed is True
    assert grade_check(guard, [], answer=text + " 536.25.").passed is False
