"""Dates a text writes in another numeric form are read as the ISO dates they are
(`_value_roles.iso_dates`; issue 9, round 11's D11). A ledger note dating the accrual
``2026/04/30`` or ``30.04.2026`` (the right one is 2026-05-31) passed every check: the value
roles read ISO dates only. The right dates in the same forms pass."""

from __future__ import annotations

from datetime import date

import pytest

from mcpgym_grading._value_roles import iso_dates, value_outcome

ROLES = [("2026-05-31", ("accru*",)), ("2026-06-01", ("revers*",))]

FORMS = {
    "y/m/d": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",
    "d/m/y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "m/d/y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "d.m.y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "d-m-y": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",
    "yyyymmdd": lambda d: f"{d.year}{d.month:02d}{d.day:02d}",
    "unpadded": lambda d: f"{d.year}-{d.month}-{d.day}",
    "with a time": lambda d: f"{d.isoformat()}T00:00:00Z",
}


def _note(fmt, accrued: str, reversed_: str) -> str:
    a, r = fmt(date.fromisoformat(accrued)), fmt(date.fromisoformat(reversed_))
    return f"Accrued $1,995.50 on {a} against 2100, reversed on {r}."


@pytest.mark.parametrize("form", FORMS)
def test_wrong_dates_in_another_form_fail(form: str) -> None:
    ok, misplaced, _ = value_outcome(_note(FORMS[form], "2026-04-30", "2026-07-01"), ROLES)
    assert not ok and misplaced


@pytest.mark.parametrize("form", FORMS)
def test_exchanged_dates_in_another_form_fail(form: str) -> None:
    ok, _, _ = value_outcome(_note(FORMS[form], "2026-06-01", "2026-05-31"), ROLES)
    assert not ok


@pytest.mark.parametrize("form", FORMS)
def test_right_dates_in_another_form_pass(form: str) -> None:
    ok, misplaced, _ = value_outcome(_note(FORMS[form], "2026-05-31", "2026-06-01"), ROLES)
    assert ok, misplaced


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("06/01/2026", "2026-06-01"),  # both orders allowed: month first, or the own one
        ("13/01/2026", "2026-01-13"),  # only day first is a date
        ("01.06.2026", "2026-06-01"),  # dots: day first
        ("inv-2026-0151", "inv-2026-0151"),  # an invoice number is no date
        ("ref 202604301", "ref 202604301"),  # nine digits are no date
        ("2026/13/40", "2026/13/40"),  # no such month or day
    ],
)
def test_iso_dates_reads(text: str, read: str) -> None:
    assert iso_dates(text, frozenset({"2026-06-01"})) == read


def test_an_ambiguous_date_reads_as_the_roles_own() -> None:
    assert iso_dates("07/06/2026", frozenset({"2026-06-07"})) == "2026-06-07"
    assert iso_dates("07/06/2026") == "2026-07-06"
