"""`mcpgym_grading._posted_in` (round 17's P17a, helper adv27l): a posting said to be made
in a period, the closed period a closed-period-posting note must name as the one the
posting belongs to."""

from __future__ import annotations

import pytest

from mcpgym_grading._posted_in import posted_in, sql_posted_in

APRIL = "2026-04"


@pytest.mark.parametrize(
    "text",
    [
        "Posted in April 2026, as requested.",
        "It was booked into the April period.",
        "The entry sits in April's books.",
        "The April period received this posting.",
        "Booked in P4 2026 as asked.",
        "April's books now hold it.",
        "Dated in April.",
        "Entry posted in Apr-26.",
        "The posting went into April.",
        "Im April gebucht.",
        "Posted in April (a closed period).",
        "Accrue travel expenses claimed late\n\nposted in April 2026",
    ],
)
def test_a_posting_put_in_the_month_is_read(text: str) -> None:
    assert posted_in(text, APRIL)


@pytest.mark.parametrize(
    "text",
    [
        "Asked for 2026-04-27 (April 2026, a closed period): posted on 2026-05-01, the first "
        "day of the earliest open period (policy 2.2); it belongs to April.",
        "Record a stock count shrinkage (belongs to April 2026)",
        "April is closed, so it was not posted in April: it was posted on 2026-05-01.",
        "Posted in May 2026 (the first open period); it belongs to April 2026.",
        "The April entry was posted on May 1.",
        "April's expense, posted on 2026-05-01.",
        "Posted on 2026-05-01 for April 2026 (policy 2.2).",
        "Posted in the first open period after April.",
        "Posted on May 1 because April is closed.",
        "Originally dated April 27; posted May 1.",
        "Dated 2026-05-01 instead of April 27.",
        "April adjustment booked in May.",
        "Invoice issued in April, posted on 2026-05-01.",
        "Could not post in April: closed.",
        "Posted in May, not April.",
        "Relates to April 2026; booked 2026-05-01.",
        "Posted in May as an April adjustment.",
        "Booked 1 May 2026 (April's period is closed).",
        "It didn't go into April; booked in May.",
        "Posted in Q2 2026.",
    ],
)
def test_april_named_as_what_it_belongs_to_is_not(text: str) -> None:
    assert posted_in(text, APRIL) == []


def test_the_sql_function_answers_null_where_none() -> None:
    assert sql_posted_in("Posted in April.", APRIL) == "posted in april"
    assert sql_posted_in("It belongs to April.", APRIL) is None
    assert sql_posted_in(None, APRIL) is None
