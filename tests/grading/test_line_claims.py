"""`mcpgym_grading._line_claims` (round 17's R17, helper adv27l): a bank line said to be in
another state than the books hold."""

from __future__ import annotations

import pytest

from mcpgym_grading._line_claims import misclaimed, sql_line_misclaimed

STATES = {187: "matched", 188: "matched", 189: "ignored", 154: "matched"}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Line 189 matched to the customer payment.", 189),
        ("Recorded a second payment for line 189.", 189),
        ("All lines matched; nothing ignored.", 189),
        ("Bank fee: card terminal fee; line 187 left unmatched", 187),
        ("Bank fee: service charge; line 188 ignored as a duplicate", 188),
        ("Lines 187 and 189 are matched.", 189),
        ("Line 188 is a duplicate of line 189.", 188),
        ("Both lines were recorded as payments.", 189),
        ("Bank line #189: matched.", 189),
    ],
)
def test_a_line_in_another_state_is_read(text: str, line: int) -> None:
    assert misclaimed(text, line, STATES[line])


@pytest.mark.parametrize(
    "text",
    [
        "duplicate feed line: same date, amount and reference as line 188, which is recorded "
        "(policy 5.1)",
        "Not matched: line 189 repeats line 188, which is matched to the payment.",
        "Duplicate of line 188.",
        "Line 189 is a duplicate of line 188 (already recorded).",
        "Matched line 187 to the fee entry; ignored line 189 as a duplicate of line 188.",
        "All lines reconciled.",
        "Line 189 was not recorded: it repeats line 188.",
        "Line 189 will not be matched.",
        "Lines 187 and 188 are matched; line 189 is ignored.",
        "Line 154 matched to the vendor payment already in the books.",
        "Same as line 188, which was matched to the payment.",
        "Line 189 is the same deposit as line 188: ignored, not recorded twice.",
    ],
)
def test_the_true_state_or_none_is_not(text: str) -> None:
    assert all(misclaimed(text, line, s) == [] for line, s in STATES.items())


def test_the_sql_function_answers_null_where_none() -> None:
    assert sql_line_misclaimed("Line 189 matched.", 189, "ignored") == "line 189 matched."
    assert sql_line_misclaimed("Line 189 ignored.", 189, "ignored") is None
    assert sql_line_misclaimed(None, 189, "ignored") is None
