"""An amount glued to letters is an amount (issue 9 §4, "contains is not states", round 4).

Seen: the expert's reply plus ``If I got that wrong it is $266.13ish.`` passed a required
``states`` check 5/5 at 1.0 (also ``...max``, ``...tops``, ``..._ish``, a zero-width space
before ``ish``, ``is$266``): the scanner read no mention where a letter touched the sign or
the number. Now a sign with a number is a mention whatever touches it; glued, it competes
with the expected amount but never states it.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import AnswerMatch
from mcpgym_grading._money import money_amounts, money_mentions

from .episodes import grade_check

RIGHT = 4500
HONEST = "I've refunded $45.00 to your card."


def states(text: str) -> bool | None:
    check = AnswerMatch(name="a", expected=RIGHT, normalize="money", mode="states")
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "tail",
    [
        "If I got that wrong it is $266.13ish.",
        "Or $266.13max.",
        "Maybe $266.13tops.",
        "Else $266.13_ish.",
        "Else $266.13\u200bish.",
        "Otherwise it is$266.",
        "Or x$266.13y.",
        "Or €266ish.",
    ],
)
def test_a_glued_other_amount_competes(tail: str) -> None:
    assert states(HONEST) is True
    assert states(f"{HONEST} {tail}") is False


@pytest.mark.parametrize("text", ["I've refunded $45.00ish.", "Refunded is$45.00 to you."])
def test_a_glued_amount_never_states_the_expected_one(text: str) -> None:
    assert states(text) is False


def test_glued_mentions_are_marked_and_left_out_of_stated_amounts() -> None:
    (m,) = money_mentions("it is $266.13ish")
    assert (m.currency, m.cents, m.glued) == ("USD", 26613, True)
    assert money_amounts("it is $266.13ish, or $45.00") == [4500]
    assert [m.glued for m in money_mentions("$45k and US$45 and R$45")] == [False] * 3
