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


# a computation shown with its result (stop 24): the unit price under ``+ tax`` is a part of
# how an amount on file was reached, not a hedge of it; no result, a result off file, below
# its parts or itself hedged leaves the unit price hedged

CREDIT_NOTE = AnswerMatch(
    name="c", normalize="money", mode="states", allowed=[5170, 10340, 1660, 12000]
)
"""A credit note's guard: unit price $51.70, net $103.40, tax $16.60, total $120.00."""


@pytest.mark.parametrize(
    "text",
    [
        "Credit note for 2 x item returned (2 x $51.70 + tax = $120.00).",
        "Credit note for 2 x item returned (2 x $51.70 plus tax = $120.00).",
        "Credit note for $120.00 (2 x $51.70 plus tax).",
        "Credit note for $120.00: 2 x $51.70 plus tax.",
        "Credited $103.40 + tax, for a total of $120.00.",
        "2 x $51.70 plus sales tax comes to $120.00.",
    ],
)
def test_a_computation_shown_with_its_result_passes(text: str) -> None:
    assert grade_check(CREDIT_NOTE, [], answer=text).passed is True


@pytest.mark.parametrize(
    "text",
    [
        "Credited 2 x $51.70 plus tax.",  # no result: a total it does not state
        "Credit note for 2 x $51.70 + tax = approximately $120.00.",  # the result hedged
        "Credit note for 2 x $51.70 + tax = $120.00 or so.",
        "Credit note for 2 x $51.70 + tax = $51.70.",  # a result below its parts
        "Credit note for 2 x $51.70 + tax = $16.60.",
        "Credit note for $16.60 (2 x $51.70 plus tax).",
        "Credit note for roughly $51.70 + tax = $120.00.",  # an approximation on the part
    ],
)
def test_a_computation_without_a_true_result_is_a_hedge(text: str) -> None:
    assert grade_check(CREDIT_NOTE, [], answer=text).passed is False


def test_a_roles_only_check_refuses_a_computation_whose_result_is_not_on_file() -> None:
    assert grade_check(_roles_only(), [], answer="Accrued $949.00 + tax = $949.00.").passed
    text = "Accrued $949.00 + tax = $1,043.90."
    assert grade_check(_roles_only(), [], answer=text).passed is False


@pytest.mark.parametrize(
    "text", ["$291.75 + tax $29.18", "$291.75 plus tax of $29.18", "$291.75 + tax: $29.18"]
)
def test_a_net_followed_by_its_tax_amount_is_no_hedge(text: str) -> None:
    # a vendor bill lists its lines so (enter-vendor-bill's instruction): both are stated
    net = AnswerMatch(name="n", normalize="money", mode="states", expected=29175, allowed=[2918])
    assert grade_check(net, [], answer=f"Line 1: {text}.").passed is True
    guard = AnswerMatch(name="g", normalize="money", mode="states", allowed=[29175, 2918])
    assert grade_check(guard, [], answer=f"Line 1: {text}.").passed is True


@pytest.mark.parametrize(
    ("text", "computed"),
    [
        ("2 x $51.70 + tax = $120.00", (2, 12000)),
        ("$120.00 (2 x $51.70 plus tax)", (2, 12000)),
        ("$103.40 + tax equals $120.00", (1, 12000)),
        ("2 x $51.70 plus tax", None),
        ("2 x $51.70 + tax = ~$120.00", None),
    ],
)
def test_a_shown_computation_is_read_with_its_quantity_and_result(
    text: str, computed: tuple[int, int] | None
) -> None:
    part = next(m for m in money_mentions(text) if m.hedged)  # the unit price, first
    assert part.computed == computed
