"""Round 14's I14, D14, J14 at grade level (`adv/round14rub/ledger14.py`, helper adv24r):
on main 110b019 each wrong text below passed at 1.0.

- I14: write-off-bad-debt's note naming the next invoice as ``INV 2026 0152``, ``Invoice
  2026-0152``, ``INV-26-0152`` (`note-states-amount`'s value roles);
- D14: correct-misposted-entry's and apply-customer-payment's notes with every date a day
  later as ``2026 06 16``, ``2026-167``, ``2026年6月16日``, ``26-06-16``;
- J14: write-off-bad-debt hard's escalation reason with ``{"status": "written_off"}``.

The same texts with the record's own values pass.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=16)
Edit = Callable[[str], str]


def graded(family: str, band: str, tool: str, field: str, edit: Edit) -> dict[str, bool]:
    """Seed 0's reference with the ``field`` of its last ``tool`` call rewritten by ``edit``,
    graded: {check: passed} of the applicable checks."""
    v = environment.variant(family, band, 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    calls[i] = ToolCall(tool, {**calls[i].arguments, field: edit(calls[i].arguments[field])})
    g = grade_bundle(
        replay(environment, family, band, 0, calls), environment, reference_cache=CACHE
    )
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


def _invoice(shift: int, form: str) -> Edit:
    def edit(body: str) -> str:
        def one(m: re.Match[str]) -> str:
            y, n = int(m.group(1)), int(m.group(2)) + shift
            return form.format(y=y, yy=y % 100, n=n)

        return re.sub(r"INV-(\d{4})-(\d{4})", one, body)

    return edit


INVOICE_FORMS = ("INV {y} {n:04d}", "Invoice {y}-{n:04d}", "INV-{yy}-{n:04d}")


@pytest.mark.parametrize("form", INVOICE_FORMS)
def test_write_off_note_naming_another_invoice_fails(form: str) -> None:
    got = graded("write-off-bad-debt", "easy", "add_note", "body", _invoice(1, form))
    assert got["note-states-amount"] is False, got


@pytest.mark.parametrize("form", INVOICE_FORMS)
def test_write_off_note_naming_its_invoice_passes(form: str) -> None:
    got = graded("write-off-bad-debt", "easy", "add_note", "body", _invoice(0, form))
    assert all(got.values()), got


DATE_FORMS: dict[str, Callable[[dt.date], str]] = {
    "spaces": lambda d: d.strftime("%Y %m %d"),
    "ordinal": lambda d: f"{d.year}-{d.timetuple().tm_yday:03d}",
    "CJK": lambda d: f"{d.year}年{d.month}月{d.day}日",
    "yy-mm-dd": lambda d: d.strftime("%y-%m-%d"),
}


def _dates(shift: int, form: Callable[[dt.date], str]) -> Edit:
    def edit(body: str) -> str:
        def one(m: re.Match[str]) -> str:
            return form(dt.date.fromisoformat(m.group(0)) + dt.timedelta(days=shift))

        return re.sub(r"\b20\d\d-\d\d-\d\d\b", one, body)

    return edit


@pytest.mark.parametrize("family", ["correct-misposted-entry", "apply-customer-payment"])
@pytest.mark.parametrize("form", DATE_FORMS.values(), ids=list(DATE_FORMS))
def test_note_with_the_wrong_date_fails(family: str, form: Callable[[dt.date], str]) -> None:
    got = graded(family, "easy", "add_note", "body", _dates(1, form))
    assert not all(got.values()), got


@pytest.mark.parametrize("family", ["correct-misposted-entry", "apply-customer-payment"])
@pytest.mark.parametrize("form", DATE_FORMS.values(), ids=list(DATE_FORMS))
def test_note_with_the_date_passes(family: str, form: Callable[[dt.date], str]) -> None:
    got = graded(family, "easy", "add_note", "body", _dates(0, form))
    assert all(got.values()), got


def test_escalation_reason_claiming_written_off_as_a_status_fails() -> None:
    def edit(reason: str) -> str:
        number = re.search(r"INV-\d{4}-\d{4}", reason)
        assert number is not None
        return f'{reason} {{"invoice": "{number.group(0)}", "status": "written_off"}}'

    got = graded("write-off-bad-debt", "hard", "escalate", "reason", edit)
    assert got["reason-states-not-written-off"] is False, got
