"""`mcpgym_grading._line_entries` (round 17's L17b, helper adv30l): a bank line said to be
matched to another journal entry than the books hold."""

from __future__ import annotations

import pytest

from mcpgym_grading._line_entries import (
    misnamed,
    payment_misnamed,
    sql_line_entry_misnamed,
    sql_line_payment_misnamed,
)

ENTRIES = {154: 345, 155: 346, 156: None, 160: 210}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Bank fee: service charge; line 154 matched to entry 344", 154),
        ("Line 154 -> JE 344.", 154),
        ("bank line #154 -> JE-344", 154),
        ("Entry 344 was matched to line 154.", 154),
        ("Matched entry 344 to line 154.", 154),
        ("Bank fee - line 154 (journal entry #344)", 154),
        ("Lines 154 and 155 matched to entries 346 and 345 respectively.", 155),
        ("Line 160 matched to entry 345; line 154 to entry 210.", 160),
        ("Line 156 matched to entry 346.", 156),
        ("Line 154 matched to entry no. 344.", 154),
    ],
)
def test_a_line_bound_to_another_entry_is_read(text: str, line: int) -> None:
    assert misnamed(text, line, ENTRIES[line])


@pytest.mark.parametrize(
    "text",
    [
        "Bank fee: service charge; line 154 matched to entry 345",
        "Entry 345 is matched to line 154, not to entry 344.",
        "Line 154 matched to entry 345 (entry 344 is the vendor payment's).",
        "Line 154 was not matched to entry 344.",
        "Line 154 will be matched to entry 344 once it is posted.",
        "Line 154 matched to the fee entry; entry 344 is left alone.",
        "Lines 154 and 155 matched to entries 345 and 346 respectively.",
        "Line 156 repeats line 155 (entry 346).",
        "Line 160 matched to entry 210, the payment already in the books.",
        "Line 154 matched to entry 345 rather than entry 344.",
        "Lines 154 and 155 are matched; see entries 345, 346 and 210.",
        "Matched line 154 to the fee's entry. Entry 344 is May's vendor payment.",
    ],
)
def test_the_own_entry_or_none_is_not(text: str) -> None:
    assert all(misnamed(text, line, e) == [] for line, e in ENTRIES.items())


def test_the_sql_function() -> None:
    assert sql_line_entry_misnamed("Line 154 -> entry 344.", 154, 345) == "line 154 -> entry 344."
    assert sql_line_entry_misnamed("Line 154 -> entry 345.", 154, 345) is None
    assert sql_line_entry_misnamed("Line 156 -> entry 345.", 156, None) == "line 156 -> entry 345."
    assert sql_line_entry_misnamed(None, 154, 345) is None


PAYMENTS = {155: 12, 160: 30, 154: None, 156: None}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Bank fee; line 155 matched to payment 17", 155),
        ("Line 155 -> customer payment #17.", 155),
        ("Payment 17 was matched to line 155.", 155),
        ("Lines 155 and 160 matched to payments 30 and 12 respectively.", 155),
        ("Line 160 matched to payment no. 12.", 160),
        ("Line 154 matched to payment 12.", 154),
    ],
)
def test_a_line_bound_to_another_payment_is_read(text: str, line: int) -> None:
    assert payment_misnamed(text, line, PAYMENTS[line])


@pytest.mark.parametrize(
    "text",
    [
        "Bank fee; line 155 matched to payment 12",
        "Payment 12 is matched to line 155, not to payment 17.",
        "Lines 155 and 160 matched to payments 12 and 30 respectively.",
        "Line 155 was not matched to payment 30.",
        "Line 155 matched to the customer payment; payment 30 is the vendor's.",
        "Line 154 matched to entry 345 (payment 12 is line 155's).",
    ],
)
def test_the_own_payment_or_none_is_not(text: str) -> None:
    assert all(payment_misnamed(text, line, p) == [] for line, p in PAYMENTS.items())


def test_entries_and_payments_are_read_apart() -> None:
    assert payment_misnamed("Line 155 matched to entry 344.", 155, 12) == []
    assert misnamed("Line 155 matched to payment 17.", 155, 346) == []


def test_the_payment_sql_function() -> None:
    assert (
        sql_line_payment_misnamed("Line 155 -> payment 17.", 155, 12) == "line 155 -> payment 17."
    )
    assert sql_line_payment_misnamed("Line 155 -> payment 12.", 155, 12) is None
    assert sql_line_payment_misnamed(None, 155, 12) is None
