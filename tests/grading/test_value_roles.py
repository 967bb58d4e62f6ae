"""Dates and account codes bound to their role in a text (`_value_roles`; round 10's gate).

The gate's swap mutants exchange two values of one kind a note states. Amounts had roles
(`_roles`); dates and account codes had none, so a ledger note with the accrual's and the
reversal's dates exchanged, or the expense account and 2100 exchanged, passed every check.
An `AmountRole` with a text value now binds a date or code to its cues: bound to another
role's words only, it is misplaced; unbound, or beside its own words, it passes.
"""

from __future__ import annotations

import pytest

from mcpgym_clients.instrument.forms import FORMS
from mcpgym_grading import AmountRole, Param
from mcpgym_grading._roles import resolve_roles, role_outcome
from mcpgym_grading._value_roles import value_outcome
from mcpgym_grading._values import resolve

ACCRUAL = ("accru*",)
REVERSAL = ("revers*",)
DEBIT = ("dr", "debit*")
CREDIT = ("cr", "credit*", "against", "accrued expenses")
ROLES = [
    ("2026-05-31", ACCRUAL),
    ("2026-06-01", REVERSAL),
    ("6600", DEBIT),
    ("2100", CREDIT),
]
NOTE = (
    "Accrued $1,995.50 of May expenses on 2026-05-31 (6600: $1,995.50) against 2100, "
    "reversed on 2026-06-01."
)


def _swap(text: str, a: str, b: str) -> str:
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


@pytest.mark.parametrize(
    "text",
    [
        NOTE,
        "Reversal of the 2026-05-31 accrual on 2026-06-01. Dr 6600 / Cr 2100",
        "Debit 6600, credit 2100 Accrued Expenses, dated 2026-05-31; auto-reverses 2026-06-01",
        "May accrual dated 2026-05-31 (Dr 6600 $1,995.50; Cr 2100 $1,995.50). "
        "Reversed on 2026-06-01.",
        "6600 debited and 2100 credited. 2026-05-31 / 2026-06-01.",  # no cue: unbound
    ],
)
def test_honest_forms_pass(text: str) -> None:
    ok, misplaced, _ = value_outcome(text, ROLES)
    assert ok, misplaced


@pytest.mark.parametrize(
    ("a", "b"), [("2026-05-31", "2026-06-01"), ("6600", "2100")], ids=["dates", "accounts"]
)
def test_swapped_values_are_misplaced(a: str, b: str) -> None:
    ok, misplaced, detail = value_outcome(_swap(NOTE, a, b), ROLES)
    assert not ok and misplaced and detail["misplaced_values"] == misplaced


def test_a_cue_nearer_another_value_is_that_ones() -> None:
    # "against" is 2100's (nearer it), not the expense account's before it
    assert value_outcome("6600: $800.00 against 2100", ROLES)[0]
    assert not value_outcome("2100: $800.00 against 6600", ROLES)[0]


def test_whole_tokens_only() -> None:
    # 2100 inside an amount or a longer number is no mention of the account
    assert value_outcome("Accrued $2,100.00 and 21000 units against 2100", ROLES)[0]
    assert value_outcome("accrued: ref 2026-06-011", ROLES)[0]


def test_a_value_in_two_roles_stands_in_either() -> None:
    roles = [("2026-05-01", ("dated",)), ("2026-05-01", ("posted",))]
    assert value_outcome("Dated 2026-05-01, posted on 2026-05-01.", roles)[0]


def test_role_outcome_reads_text_roles_beside_amount_roles() -> None:
    roles = [(199550, ("accru*",)), ("2026-05-31", ACCRUAL), ("2026-06-01", REVERSAL)]
    assert role_outcome(NOTE, -1, roles)[0]
    ok, misplaced, _ = role_outcome(_swap(NOTE, "2026-05-31", "2026-06-01"), -1, roles)
    assert not ok and len(misplaced) == 2


def test_resolve_roles_keeps_text_values() -> None:
    roles = (
        AmountRole(amount=Param("accrual_date"), cues=ACCRUAL),
        AmountRole(amount="2100", cues=CREDIT),
        Param("note_roles"),
    )
    params = {"accrual_date": "2026-05-31", "note_roles": '[["6600", ["dr"]], [4500, ["x"]]]'}
    got = resolve_roles(roles, params, resolve)
    assert [r[0] for r in got] == ["2026-05-31", "2100", "6600", 4500]
    # an empty or null text binds nothing
    assert resolve_roles((AmountRole(amount="", cues=ACCRUAL),), {}, resolve) == []


@pytest.mark.parametrize(
    "extra",
    [
        " (2026-01-31, 2026-02-28, 2026-03-31, 2026-04-30, 2026-06-30)",
        " (or 2026-01, 2026-02, 2026-03, 2026-04)",
        "; also 2026-04-30",
    ],
)
def test_earlier_months_listed_beside_the_record_fail(extra: str) -> None:
    """The ship gate's ``choices-i`` mutant: the accrual date with every earlier month-end
    beside it is a shotgun, not a record; a later date (a due date) stays free."""
    note = "Accrued on 2026-05-31" + extra + ", reversed on 2026-06-01."
    ok, misplaced, _ = value_outcome(note, ROLES)
    assert not ok
    assert any("before the record" in m for m in misplaced), misplaced
    assert value_outcome("Accrued on 2026-05-31, reversed on 2026-06-01; due 2026-07-15.", ROLES)[0]


@pytest.mark.parametrize("sep", ["\u2014", "\u2012", "\u2212", "\u2003", "\u3000", " "])
def test_earlier_months_in_look_alike_forms_fail(sep: str) -> None:
    """The gate's look-alike forms of the same shotgun: dashes and spaces of other kinds
    between a date's parts."""
    alts = ", ".join(f"2026{sep}0{m}{sep}28" for m in (1, 2, 3, 4))
    assert not value_outcome(f"Accrued on 2026-05-31 ({alts}), reversed on 2026-06-01.", ROLES)[0]
    assert not value_outcome(f"Accrued on 2026-05-31 (2026{sep}01, 2026{sep}02).", ROLES)[0]


@pytest.mark.parametrize(
    "form", ["em-dash", "figure-dash", "minus", "em-space", "ideographic-space"]
)
def test_earlier_months_in_the_gates_own_forms_fail(form: str) -> None:
    """The same shotgun written by the gate's own form functions (a value cut in groups of
    four joined by the look-alike, or a sign before it): the text the gate's
    ``choices-i~FORM`` mutants write."""
    alts = ", ".join(
        FORMS[form](v) or v for v in ("2026-01-31", "2026-02-28", "2026-03", "2026-04-30")
    )
    ok, misplaced, _ = value_outcome(
        f"Accrued on 2026-05-31 ({alts}), reversed on 2026-06-01.", ROLES
    )
    assert not ok, alts
    assert sum("before the record" in m for m in misplaced) == 4, misplaced


def test_a_cue_in_an_aside_does_not_hold_the_date_after_it() -> None:
    """ "Dated 2026-04-20 (April, a closed period): on 2026-05-01": the bill date's cue
    ``closed period`` stands in brackets that close before the posting date, so the posting
    date is unbound (the ship gate's ``omit-i:posted`` mutant of enter-vendor-bill expert's
    reference, which made the check seem to read the word ``posted``); a cue before the
    value with no bracket between still binds it."""
    roles = [("2026-04-20", ("dated", "closed period")), ("2026-05-01", ("posted",))]
    text = "Entered bill X. Dated 2026-04-20 (April, a closed period): (blank) on 2026-05-01."
    assert value_outcome(text, roles)[0]
    assert not value_outcome("Entered bill X; a closed period, on 2026-05-01.", roles)[0]
    assert not value_outcome("Dated (per the vendor) 2026-05-01, posted 2026-04-20.", roles)[0]
