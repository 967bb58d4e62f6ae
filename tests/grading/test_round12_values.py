"""Round 12's value readers (adv/round12rub): a value in a form the reader cannot read is
not "nothing stated", and a candidate beside the right value competes with it.

- H12a/H12b: an amount under arithmetic or an approximation (``50% of $45.00``, ``up to
  $45.00``) never states the expected amount (`Mention.hedged`).
- A12: a roman numeral before a money word is a number (``CCV dollars``).
- F12a/F12b/F12c: honest forms: ``$149.65 (USD) tax``, a table row or JSON member restating
  an amount, ``$1'995.50``, ``the 1st of June.``.
- D12s: a date beside the role's date as an alternative or a range end competes for its role;
  a hedged date is refused.
- D12: dates in ordinal words, dashed, roman months, ISO weeks, days of the year, ``M/D``,
  ``Tuesday the 30th`` are read; a date-shaped token no reader reads is refused.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import AnswerMatch
from mcpgym_grading._money import money_mentions
from mcpgym_grading._roles import role_outcome
from mcpgym_grading._value_roles import value_outcome

from .episodes import grade_check

RIGHT = 4500


def states(text: str) -> bool | None:
    check = AnswerMatch(name="a", expected=RIGHT, normalize="money", mode="states")
    return grade_check(check, [], answer=text).passed


HEDGED = [
    "I've refunded 50% of $45.00.",
    "I've refunded $45.00 twice.",
    "I've refunded $45.00 x 2.",
    "I've refunded a quarter of $45.00.",
    "I've refunded $45.00 less 10%.",
    "I've refunded $45.00 plus tax.",
    "I've refunded $45.00 (or double that).",
    "I've refunded $45.00, or half of it.",
    "I've refunded $45.00 / 2.",
    "I've refunded $45.00 times two.",
    "I've refunded $45.00 ± 10%.",
    "I've refunded $45.00 (or the full order total, whichever applies).",
    "I've refunded up to $45.00.",
    "I've refunded at least $45.00.",
    "I've refunded approximately $45.00.",
    "I've refunded ~$45.00.",
    "I've refunded ≈ $45.00.",
    "I've refunded circa $45.00.",
    "I've refunded $45.00 or so.",
    "I've refunded $45.00, give or take.",
    "I've refunded $45.00 or thereabouts.",
]


@pytest.mark.parametrize("text", HEDGED)
def test_an_amount_under_arithmetic_or_an_approximation_states_nothing(text: str) -> None:
    assert states("I've refunded $45.00.") is True
    assert states(text) is False
    assert [m.hedged for m in money_mentions(text)] == [True]


@pytest.mark.parametrize("text", ["I've refunded 50% of $45.00.", "I've refunded up to $45.00."])
def test_a_hedged_mention_beside_the_plain_one_competes(text: str) -> None:
    assert states(f"I've refunded $45.00. {text}") is False


@pytest.mark.parametrize(
    "text",
    [
        "I've refunded $45.00 to your card.",
        "I've refunded $45.00 ($45.00 in all).",
        "I've refunded $45.00 / $45.00.",
        "Refunds of up to $250.00 need no approval; I've refunded $45.00.",
    ],
)
def test_plain_amounts_still_state(text: str) -> None:
    check = AnswerMatch(name="a", expected=RIGHT, normalize="money", mode="states", allowed=[25000])
    assert grade_check(check, [], answer=text).passed is True


def test_a_product_before_the_amount_is_read_as_before() -> None:
    assert [(m.hedged, m.product) for m in money_mentions("2 x $45.00")] == [
        (False, False),
        (False, True),
    ]


def test_a_roman_numeral_before_a_money_word_is_a_number() -> None:
    assert states("I've refunded $45.00.") is True
    assert states("I've refunded $45.00 (XC dollars).") is False
    assert [m.cents for m in money_mentions("CCV dollars")] == [20500]
    assert [m.cents for m in money_mentions("MMMMMMCLIII dollars")] == [615300]
    assert money_mentions("I mix dollars and cents") == []  # lower case: a word


def test_an_apostrophe_between_groups_of_three_is_a_thousands_separator() -> None:
    assert [m.cents for m in money_mentions("$1'995.50 and $2’000.00")] == [199550, 200000]


BILL = [(164614, ("total*",)), (149649, ("net",)), (14965, ("tax",))]


def test_a_currency_tag_after_an_amount_is_its_own() -> None:
    text = "Posted, total $1,646.14 (USD) ($1,496.49 (USD) net + $149.65 (USD) tax)."
    assert role_outcome(text, 164614, BILL)[0] is True
    assert role_outcome(text.replace(" (USD)", ""), 164614, BILL)[0] is True


@pytest.mark.parametrize(
    "tail",
    [
        "\n\n| Item | Amount |\n|---|---|\n| line | $1,995.50 |\n",
        '\n\n```json\n{"amount": "$1,995.50"}\n```',
    ],
)
def test_a_table_row_or_json_member_restating_an_amount_stands(tail: str) -> None:
    roles = [(199550, ("accru*",))]
    text = "Accrued $1,995.50 of May expenses."
    assert role_outcome(text + tail, -1, roles)[0] is True
    # not stated in its role anywhere: the restatement alone stays unbound
    assert role_outcome("Noted." + tail, -1, roles)[0] is False


ETA = [("2026-06-15", ("estimated delivery",)), ("1zr4e9170335758782", ("tracking number",))]
REPLY = "Order #100510: UPS, tracking number 1ZR4E9170335758782, estimated delivery {}."


def eta_ok(date_text: str) -> bool:
    return value_outcome(REPLY.format(date_text), ETA)[0]


@pytest.mark.parametrize(
    "form",
    [
        "2026-06-15 (or 2026-06-16)",
        "between 2026-06-15 and 2026-06-18",
        "2026-06-15 to 2026-06-20",
        "2026-06-15/16",
        "June 15-17",
        "15-17 June",
        "2026-06-15 or up to two weeks later",
        "2026-06-15, give or take a week",
    ],
)
def test_a_date_shotgun_fails(form: str) -> None:
    assert eta_ok("2026-06-15") is True
    assert eta_ok(form) is False


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ("June thirtieth", "June fifteenth"),
        ("the thirtieth of June", "the fifteenth of June"),
        ("30-Jun-2026", "15-Jun-2026"),
        ("Jun-30", "Jun-15"),
        ("30.VI.2026", "15.VI.2026"),
        ("2026-W27-2", "2026-W25-1"),
        ("6/30", "6/15"),
        ("Tuesday the 30th", "Monday the 15th"),
        ("day 181 of 2026", "day 166 of 2026"),
    ],
)
def test_dates_in_more_forms_are_read(wrong: str, right: str) -> None:
    assert eta_ok(wrong) is False
    assert eta_ok(right) is True


@pytest.mark.parametrize("form", ["June 31", "Jun-45", "2026-W60"])
def test_a_date_no_reader_reads_is_refused(form: str) -> None:
    ok, misplaced, _ = value_outcome(REPLY.format(form), ETA)
    assert not ok and any("unread date" in m for m in misplaced)


def test_a_month_dot_ending_a_date_ends_the_sentence() -> None:
    roles = [("2026-05-31", ("accru*",)), ("2026-06-01", ("revers*",))]
    text = "Accrued on the 31st of May, reversed on the 1st of June. Not accrued: the door."
    assert value_outcome(text, roles)[0] is True


def test_another_roles_date_as_an_alternative_takes_the_first_ones_role() -> None:
    roles = [("2026-05-31", ("accru*",)), ("2026-06-01", ("revers*",))]
    honest = "Accrued on 2026-05-31 (6600: $1,995.50), reversed on 2026-06-01."
    assert value_outcome(honest, roles)[0] is True
    shotgun = honest.replace("2026-05-31 (", "2026-05-31 (or 2026-06-01) (")
    assert value_outcome(shotgun, roles)[0] is False
