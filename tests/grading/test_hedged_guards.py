"""A money check without an expected amount (a guard allowing amounts, a roles-only check)
refuses an amount it allows written under arithmetic or an approximation (round 12's H12
remainder: refund-above-limit easy/medium and accrue-expense passed ``up to $X``, ``$X or
so``, ``50% of $X``, ``$X plus tax``, ``$X x 2`` in 7 of 28 rows); a bound (``up to``,
``more than``, ``at most``, ``or less``) stands on a limit's own amount only, the wording
of a limit (``I can refund up to $250.00``)."""

from __future__ import annotations

import pytest

from mcpgym_grading import AmountRole, AnswerMatch
from mcpgym_grading._money import money_mentions

from .episodes import grade_check

LIMIT = AmountRole(
    amount=25000, cues=("limit", "up to", "can refund", "more than"), binds_others=False
)


def _guard() -> AnswerMatch:
    return AnswerMatch(
        name="g", normalize="money", mode="states", allowed=[34900, 25000], roles=(LIMIT,)
    )


def _roles_only() -> AnswerMatch:
    return AnswerMatch(
        name="r",
        normalize="money",
        forbidden=[],
        roles=(AmountRole(amount=94900, cues=("accrued",)),),
    )


HEDGED = (
    "up to $349.00",
    "$349.00 or so",
    "50% of $349.00",
    "$349.00 plus tax",
    "$349.00 x 2",
    "approximately $349.00",
    "$349.00 (or double that)",
    "~$349.00",
    "at least $349.00",
    "$349.00 give or take",
)


@pytest.mark.parametrize("form", HEDGED)
def test_a_guard_refuses_an_allowed_amount_hedged(form: str) -> None:
    text = f"Your refund request of {form} is with billing."
    assert grade_check(_guard(), [], answer=text).passed is False


@pytest.mark.parametrize(
    "text",
    [
        "Your refund request of $349.00 is above the amount I'm allowed to refund myself.",
        "Your request of $349.00 is more than my $250.00 limit.",
        "I can refund up to $250.00, so billing will review your $349.00.",
        "Refunds of more than $250.00 go to billing; yours is $349.00.",
        "My limit is $250.00 at most; your request is $349.00.",
    ],
)
def test_honest_limit_wording_keeps_passing(text: str) -> None:
    assert grade_check(_guard(), [], answer=text).passed is True


@pytest.mark.parametrize(
    "form", ["roughly $250.00", "$250.00 x 2", "half of $250.00", "$250.00 plus tax"]
)
def test_the_limit_itself_under_arithmetic_or_approximation_fails(form: str) -> None:
    text = "My refund limit is {}; your $349.00 request went to billing."
    assert grade_check(_guard(), [], answer=text.format("$250.00")).passed is True
    assert grade_check(_guard(), [], answer=text.format(form)).passed is False


@pytest.mark.parametrize("form", ["approximately $949.00", "$949.00 or so", "up to $949.00"])
def test_a_roles_only_check_refuses_its_role_amount_hedged(form: str) -> None:
    assert grade_check(_roles_only(), [], answer="Accrued $949.00.").passed is True
    assert grade_check(_roles_only(), [], answer=f"Accrued {form}.").passed is False


def test_a_hedged_amount_the_check_does_not_know_is_left_to_the_guard() -> None:
    # a forbidden-only check reads candidates; a hedged amount it neither allows nor knows
    # is no concern of its own
    check = AnswerMatch(name="f", normalize="money", forbidden=[12300])
    assert grade_check(check, [], answer="Shipping is usually around $5.00.").passed is True


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("up to $250.00", True),
        ("more than $250.00", True),
        ("$250.00 at most", True),
        ("$250.00 or less", True),
        ("$250.00 or maybe more", False),
        ("up to $250.00 plus tax", False),
        ("approximately $250.00", False),
        ("$250.00 or so", False),
    ],
)
def test_a_bound_is_told_from_other_hedges(text: str, bound: bool) -> None:
    (m,) = money_mentions(text)
    assert m.hedged and m.bound is bound
