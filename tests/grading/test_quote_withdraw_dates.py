"""The text readers of stop 22 (helper known22h): quoted customer words (`_quoted`), the
withdrawal speech act (`_withdrawal`), a sentence named by its amount (`_amount_sentences`)
and dates relative to today (`_relative_dates`)."""

from __future__ import annotations

import sqlite3

import pytest

from mcpgym_grading._amount_sentences import without_amount
from mcpgym_grading._quoted import unquoted
from mcpgym_grading._relative_dates import dated, sql_dated
from mcpgym_grading._values import register_sql_functions
from mcpgym_grading._withdrawal import withdrawal

CUSTOMER = "Hi, has my refund of $45.00 for order #5012 gone through? I was charged twice.\nAnn"


def test_quoted_lines_of_the_customer_are_dropped() -> None:
    text = (
        "I refunded $12.00.\n\nYou wrote:\n> Hi, has my refund of $45.00 for order #5012\n"
        "> gone through?"
    )
    out = unquoted(text, CUSTOMER)
    assert "$45.00" not in out and "$12.00" in out and "You wrote:" in out


def test_a_quote_that_is_not_the_customers_stays() -> None:
    text = "You wrote:\n> I was charged twice.\n> I have refunded order #5012 in full."
    out = unquoted(text, CUSTOMER)
    assert "charged twice" not in out and "> I have refunded order #5012 in full." in out
    inline = 'You said "I have refunded order #5012 in full" and "I was charged twice."'
    assert "I have refunded order #5012" in unquoted(inline, CUSTOMER)
    assert "charged twice" not in unquoted(inline, CUSTOMER)


def test_short_quoted_spans_and_apostrophes_stay() -> None:
    text = "I've refunded it; you said 'twice' and it's the customer's 'order' I can't change."
    assert unquoted(text, CUSTOMER) == text
    assert unquoted("> anything", "") == "> anything"


@pytest.mark.parametrize(
    "text",
    [
        "Scratch that, the refund didn't go through.",
        "Ignore the above.",
        "Correction: my last message was meant for another customer.",
        "Correction: my last reply was wrong, please wait for the next one.",
        "I misspoke earlier.",
        "Sorry, wrong customer!",
        "My previous reply was not right for your order.",
        "Forget what I said about the refund.",
        "Everything I said above was a mistake.",
        "What I wrote earlier doesn't apply to your order.",
        "Please disregard my previous message.",
        "I take that back, a colleague will follow up.",
        "Never mind, I'll check again.",
    ],
)
def test_withdrawals_are_read(text: str) -> None:
    assert withdrawal(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "The details you gave don't match our records, so I can't change the address.",
        "Your earlier message mentioned order #5012; that order is fine.",
        "I'm sorry it arrived damaged; I've refunded $45.00 to your card.",
        "You can ignore the automatic shipping notice you received.",
        "I can't refund the tent from order #5012: it is outside our 30-day window.",
        "Is there anything else I can help you with? Just reply to this message.",
        "Correction: the order number in my last message should read #5012.",
        "The date in my last message was wrong: it is June 16.",
        "My mistake, the delivery date is June 16.",
    ],
)
def test_honest_sentences_withdraw_nothing(text: str) -> None:
    assert withdrawal(text) is None


def test_a_sentence_named_by_its_amount_is_left_out() -> None:
    text = "I can't refund order #7. $5.00 was refunded earlier as a price adjustment."
    assert without_amount(text, 500, ("earlier",)) == "I can't refund order #7."
    kept = "I can't refund order #7. I've refunded $5.00 for that one as well."
    assert without_amount(kept, 500, ("earlier",)) == kept.replace(". ", ".\n")
    other = "I can't refund order #7. $24.00 was refunded earlier too."
    assert "$24.00" in without_amount(other, 500, ("earlier",))


def test_relative_dates_read_as_iso_dates() -> None:
    today = "2026-06-15"  # a Monday
    assert dated("It arrives tomorrow.", today) == "It arrives 2026-06-16."
    assert dated("It arrives this Thursday.", today) == "It arrives 2026-06-18."
    assert dated("It arrives in 3 days.", today) == "It arrives 2026-06-18."
    assert dated("It was delivered last Friday.", today) == "It was delivered 2026-06-12."
    # "next Tuesday" on a Monday: the 16th, or the 23rd where that is the record's date
    assert dated("next Tuesday", today) == "2026-06-16"
    assert dated("next Tuesday", today, frozenset({"2026-06-23"})) == "2026-06-23"
    # ranges and "within" name no date
    assert dated("within 5 days, or 3-5 days", today) == "within 5 days, or 3-5 days"
    assert dated("tomorrow", "not a date") == "tomorrow"
    assert sql_dated("next Tuesday", today, '[["2026-06-23", []]]') == "2026-06-23"


def test_the_functions_are_callable_in_sql() -> None:
    db = sqlite3.connect(":memory:")
    register_sql_functions(db)
    row = db.execute(
        "SELECT mcpgym_unquoted('> I was charged twice.', ?), mcpgym_withdrawal('Scratch that.'), "
        "mcpgym_without_amount('$5.00 was refunded earlier.', 500, 'earlier'), "
        "mcpgym_dated('tomorrow', '2026-06-15', NULL)",
        (CUSTOMER,),
    ).fetchone()
    assert row == ("", "scratch that", "", "2026-06-16")
