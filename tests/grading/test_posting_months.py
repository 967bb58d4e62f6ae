"""`mcpgym_grading._posting_months` (round 18's Q17, helper adv28l): a posting said to be
made in a month the books do not hold that kind of posting in, in the ledger families that
post in more than one month (an accrual in May and its reversal in June), and
`mcpgym_grading._edit_claims` (round 17's L17): an entry said to be edited in place."""

from __future__ import annotations

import re

import pytest

from mcpgym_grading._edit_claims import edit_claimed, sql_edit_claimed
from mcpgym_grading._posting_months import posting_misdated, sql_posting_misdated

AE = ("2026-06", "2026-05", "2026-05,2026-06", "")
"""accrue-expense: the reversal in June, the accrual in May."""
CME = ("2026-06", "2026-06", "2026-05,2026-06", "")
"""correct-misposted-entry: reversal and re-post in June, the original in May."""
EVB = ("", "2026-05", "2026-05", "2026-04")
"""enter-vendor-bill expert: a bill dated in April, posted on May 1."""


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("Accrued in June 2026.", AE),
        ("The accrual sits in June's books.", AE),
        ("The reversal was posted in May.", AE),
        ("Posted the accrual in June 2026.", AE),
        ("The reversal of entry 430 was posted in May 2026.", AE),
        ("Reverse the May accrual (this reversal posted in May 2026)", AE),
        ("The corrected entry was posted in May 2026.", CME),
        ("The correction sits in May's books.", CME),
        ("Reposted in May 2026.", CME),
        ("The reversal was booked in May 2026.", CME),
        ("Reversed in April 2026.", CME),
        ("The reversal is dated 2026-05-12.", CME),
        ("Posted in April 2026.", EVB),
        ("Written off in July 2026.", EVB),
        ("The credit note was posted in March 2026.", CME),
    ],
)
def test_a_posting_in_a_month_the_books_do_not_hold_it_in_is_read(
    text: str, months: tuple[str, str, str, str]
) -> None:
    assert posting_misdated(text, *months)


@pytest.mark.parametrize(
    ("text", "months"),
    [
        (
            "Accrued $1,995.50 of May expenses on 2026-05-31 (6600: $1,995.50) against 2100, "
            "reversed on 2026-06-01.",
            AE,
        ),
        ("Accrued in May 2026; reversed in June 2026.", AE),
        ("Reverse the May accrual", AE),
        ("The reversal of the May accrual was posted in June 2026.", AE),
        ("Reverse the May accrual (the accrual posted in May 2026)", AE),
        ("The original entry was reversed in June 2026.", CME),
        ("Reversed the entry posted in May 2026; the correction was posted in June 2026.", CME),
        ("The correction of the May entry sits in June's books.", CME),
        ("Posted again in June 2026.", CME),
        (
            "Reversed on 2026-06-15 and posted again with the $1,006.95 for software add-on "
            "licence on 6500 Software Subscriptions (policy 6.1: corrected by reversal, not "
            "edited).",
            CME,
        ),
        (
            "Dated 2026-04-28 (April, a closed period): posted on 2026-05-01, the first day of "
            "the earliest open period (policy 2.2).",
            EVB,
        ),
        ("Dated in April 2026; posted in May 2026.", EVB),
        ("The invoice was issued in March 2026.", EVB),
        ("Not posted in April: April is closed.", EVB),
        ("CN-2026-0015 had already credited the rest of the return.", EVB),
        ("All done as the policy asks.", EVB),
    ],
)
def test_the_right_month_or_another_records_month_is_not(
    text: str, months: tuple[str, str, str, str]
) -> None:
    assert posting_misdated(text, *months) == []


def test_a_short_date_is_read_as_yy_mm_dd_too() -> None:
    """Round 19: ``26-06-15`` (yy-mm-dd, tests/ledger/test_round14_forms.py) was read only as
    15 June... of 2015 (dd-mm-yy), outside every month of the books: a false fail."""
    assert posting_misdated("Reversed on 26-06-15 and posted again.", *CME) == []
    assert posting_misdated("Reversed on 26-05-15 and posted again.", *CME)
    assert posting_misdated("Reversed on 26/07/15.", *CME)


@pytest.mark.parametrize(
    "text",
    [
        "Already entered in April; the new email is for a different delivery.",
        "It was previously posted in January 2026.",
        "The bill had already been entered in March.",
    ],
)
def test_a_posting_made_before_the_episode_states_nothing(text: str) -> None:
    """Round 19: a note on another record saying when it was entered before the episode
    (tests/ledger/test_untouched_records.py) is no posting of the episode."""
    assert posting_misdated(text, *EVB) == []
    assert posting_misdated(re.sub(r"(?i)\b(?:already|previously)\s+", "", text), *EVB)


AE_REVERSAL_MEMO = ("2026-06", "2026-05", "2026-05,2026-06", "")
"""accrue-expense, the reversal's own memo: its month June, the accrual's May (``generic``)."""


@pytest.mark.parametrize(
    "text",
    [
        "Reverse the May accrual\n\n(posted in May 2026)",
        "Posted in May 2026.",
        "Accrual reversal (booked in May 2026)",
        "Reversing entry, posted in May 2026",
        "(dated 2026-05-31)",
    ],
)
def test_a_reversals_own_memo_dated_in_the_reversed_month_is_read(text: str) -> None:
    assert posting_misdated(text, *AE_REVERSAL_MEMO, own="2026-06")
    assert posting_misdated(text, *AE_REVERSAL_MEMO) == []  # round 19's reading: either month
    assert sql_posting_misdated(text, *AE_REVERSAL_MEMO, "2026-06")


@pytest.mark.parametrize(
    "text",
    [
        "Reverse the May accrual (posted in May 2026)",
        "Reverses entry 430 (posted in May 2026)",
        "Reversal of the original, posted in May 2026",
        "(the accrual posted in May 2026)",
        "(posted in June 2026)",
        "Original posted in May 2026; this reversal in June 2026",
        "(dated 2026-06-01)",
        "Reverses the accrual dated 2026-05-31",
    ],
)
def test_a_reversals_own_memo_naming_the_reversed_entry_is_not(text: str) -> None:
    assert posting_misdated(text, *AE_REVERSAL_MEMO, own="2026-06") == []


def test_the_sql_function_answers_null_where_none() -> None:
    assert sql_posting_misdated("Accrued in June.", *AE) == "accrued in june"
    assert sql_posting_misdated("Accrued in May.", *AE) is None
    assert sql_posting_misdated("Accrued in May.", None, None, None, None) == "accrued in may"
    assert sql_posting_misdated(None, *AE) is None


@pytest.mark.parametrize(
    "text",
    [
        "Edited entry 430 in place to the right account.",
        "The lines of entry 430 were edited to the right account.",
        "Corrected entry 430 in place.",
        "Amended the coding of entry 430.",
        "Changed the account directly on the original entry.",
    ],
)
def test_an_edit_in_place_is_claimed(text: str) -> None:
    assert edit_claimed(text)


@pytest.mark.parametrize(
    "text",
    [
        "Reversed on 2026-06-15 and posted again (policy 6.1: corrected by reversal, not edited).",
        "Entry 430 was not edited in place: it was reversed and posted again.",
        "Changed the account from 6400 to 6500 by reversal and re-posting.",
        "I could have edited the entry, but policy 6.1 asks for a reversal.",
        "Never edited in place.",
    ],
)
def test_an_edit_denied_or_none_is_not(text: str) -> None:
    assert edit_claimed(text) == []
    assert sql_edit_claimed(text) is None
