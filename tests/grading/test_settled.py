"""`mcpgym_grading._settled` (round 15's L15c, read at round 16 by helper adv26r): a record
said to have nothing left open, the state a write-off leaves."""

from __future__ import annotations

import pytest

from mcpgym_grading._settled import settled, sql_settled

INV = "INV-2026-0151"


@pytest.mark.parametrize(
    "text",
    [
        "INV-2026-0151 now has a zero balance.",
        "Nothing is left open on INV-2026-0151.",
        "INV-2026-0151 is settled: nothing left open.",
        "INV-2026-0151 is fully provided for and closed.",
        "INV-2026-0151 has no balance left.",
        "INV-2026-0151 is no longer outstanding.",
        "The balance on INV-2026-0151 stands at $0.00.",
    ],
)
def test_nothing_open_is_read(text: str) -> None:
    assert settled(text, INV) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Not written off: $2,415.60 open on INV-2026-0151 is above the $500.00 limit; "
        "escalated to the controller (policy 8.2).",
        "INV-2026-0151 is not settled.",
        "INV-2026-0151 has not been cleared.",
        "Once written off, INV-2026-0151 will have a zero balance.",
        "INV-2026-0151 balance is $2,415.60.",
        "INV-2026-0152 has a zero balance; INV-2026-0151 remains open.",
        "The customer says INV-2026-0151 is settled; it is not.",
    ],
)
def test_open_negated_hedged_or_another_record_is_not(text: str) -> None:
    assert settled(text, INV) == []


def test_the_sql_function_answers_null_where_none() -> None:
    assert sql_settled("INV-2026-0151 is settled.", INV) == "INV-2026-0151 is settled."
    assert sql_settled("INV-2026-0151 is open.", INV) is None
    assert sql_settled(None, INV) is None
