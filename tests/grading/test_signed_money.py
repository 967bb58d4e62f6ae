"""`AnswerMatch(signed_money=True)`: an amount with a minus sign is that negative amount
(`mcpgym_grading._money.Mention.negative`; round 11's N11, the ledger's guard)."""

from __future__ import annotations

import pytest

from mcpgym_grading import AnswerMatch, Rubric
from mcpgym_grading._money import money_mentions

from .episodes import grade_check


@pytest.mark.parametrize(
    ("text", "negative"),
    [
        ("Accrued -$949.00 of May", [True]),
        ("$-949.00", [True]),
        ("(-949.00 USD)", [True]),
        ("\u2212$949.00", [True]),
        ("Refund - $5.00", [False]),
        ("$5.00-$6.00", [False, False]),
        ("INV-2026-0151-$5.00", [False]),
    ],
)
def test_a_minus_sign_marks_the_mention(text: str, negative: list[bool]) -> None:
    assert [m.negative for m in money_mentions(text)] == negative


def _guard(signed_money: bool) -> AnswerMatch:
    return AnswerMatch(
        name="g", normalize="money", mode="states", allowed=[94900], signed_money=signed_money
    )


def test_signed_money_reads_the_sign_and_its_default_does_not() -> None:
    assert grade_check(_guard(True), [], answer="Accrued -$949.00.").passed is False
    assert grade_check(_guard(True), [], answer="Accrued $949.00.").passed is True
    assert grade_check(_guard(False), [], answer="Accrued -$949.00.").passed is True


def test_signed_money_at_its_default_keeps_the_digest() -> None:
    plain = AnswerMatch(name="g", normalize="money", mode="states", allowed=[1])
    signed = plain.model_copy(update={"signed_money": True})
    assert '"signed_money"' not in Rubric(checks=(plain,)).canonical_json()
    assert Rubric(checks=(signed,)).digest() != Rubric(checks=(plain,)).digest()
