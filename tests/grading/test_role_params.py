"""Roles a variant lists (`AnswerMatch(roles=(Param(...),))`), amounts in several roles, and a
zero balance (issue 9, round 9: N2' and F1 of the ledger notes).

A ledger note states amounts whose role words differ per variant (the invoice number an
allocation went to) and whose number does (one allocation per invoice paid): a `Param` item of
``roles`` names a variant param listing them (`_roles.resolve_roles`). An amount that is in
two roles (an allocation that is the whole payment) stands in either. A zero stated as the
balance left (``paid in full ($0.00 open)``) is no competing amount, like a waived fee.
"""

from __future__ import annotations

import json

import pytest

from mcpgym_grading import AmountRole, AnswerMatch, Param, Rubric
from mcpgym_grading._money import money_mentions
from mcpgym_grading._roles import resolve_roles, role_outcome
from mcpgym_grading._values import resolve
from mcpgym_grading.errors import CheckEvaluationError

from .episodes import grade_check

ROLES = [
    [77852, ["recorded", "received"]],
    [7012, ["inv-0102", "applied to inv-0102"]],
    [70840, ["inv-0115", "applied to inv-0115"]],
]
NOTE = "Recorded $778.52 received: $70.12 applied to INV-0102; $708.40 applied to INV-0115."
SWAPPED = "Recorded $778.52 received: $708.40 applied to INV-0102; $70.12 applied to INV-0115."


@pytest.mark.parametrize(
    "value", [ROLES, json.dumps(ROLES), [{"amount": c, "cues": k} for c, k in ROLES]]
)
def test_a_param_lists_the_variants_roles(value: object) -> None:
    static = AmountRole(amount=500000, cues=("limit",), binds_others=False)
    got = resolve_roles((static, Param("note_roles")), {"note_roles": value}, resolve)
    assert got == [(500000, ("limit",), False)] + [(c, tuple(k), True) for c, k in ROLES]
    ok, _, _ = role_outcome(NOTE, 77852, got)
    assert ok
    ok, misplaced, _ = role_outcome(SWAPPED, 77852, got)
    assert not ok and misplaced == ["$708.40", "$70.12"]


@pytest.mark.parametrize(
    "value", [None, 5, "not json", [[100]], [[100, ["Upper"]]], [["x", ["a"]]]]
)
def test_a_bad_roles_param_is_an_evaluation_error(value: object) -> None:
    with pytest.raises(CheckEvaluationError):
        resolve_roles((Param("note_roles"),), {"note_roles": value}, resolve)


def test_a_param_in_roles_is_part_of_the_rubric_and_its_digest() -> None:
    def rubric(roles: tuple[AmountRole | Param, ...]) -> Rubric:
        check = AnswerMatch(
            name="a",
            source="sql",
            sql="SELECT 1",
            expected=100,
            normalize="money",
            mode="states",
            roles=roles,
        )
        return Rubric(checks=(check,))

    limit = AmountRole(amount=500, cues=("limit",))
    with_param = rubric((limit, Param("note_roles")))
    assert '{"kind":"param","name":"note_roles"}' in with_param.canonical_json()
    assert with_param.digest() != rubric((limit,)).digest()
    assert Rubric.model_validate_json(with_param.model_dump_json()) == with_param


def test_an_amount_in_two_roles_stands_in_either() -> None:
    # easy: the one allocation is the whole payment
    roles = [(152900, ("recorded", "received")), (152900, ("inv-0119",))]
    text = "Recorded $1,529.00 received: $1,529.00 applied to INV-0119."
    assert role_outcome(text, 152900, roles)[0]
    # a third amount bound to that pair's words is still out of its role
    roles3 = [*roles, (700, ("credit",))]
    assert not role_outcome("Recorded $7.00 received; $1,529.00 held as credit.", 152900, roles3)[0]


@pytest.mark.parametrize(
    ("text", "waived"),
    [
        ("Applied $89.00. The invoices are now paid in full ($0.00 open).", True),
        ("Applied $89.00. Balance due: $0.00.", True),
        ("Applied $89.00. $0.00 outstanding on INV-0119.", True),
        ("Applied $89.00. Maybe $0.00 open.", False),  # a hedge
        ("Applied $89.00 and $0.00 open.", False),  # another amount in the clause
        ("Applied $89.00. $0.00 applied to INV-0102.", False),  # no balance word
    ],
)
def test_a_zero_balance_is_no_competing_amount(text: str, waived: bool) -> None:
    found = money_mentions(text, bare=True)
    assert [(int(m.cents), m.waived) for m in found] == [(8900, False), (0, waived)]
    check = AnswerMatch(name="a", expected=8900, normalize="money", mode="states")
    assert grade_check(check, [], answer=text).passed is waived
