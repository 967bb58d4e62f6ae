"""Round 14's I14, D14 and J14 (helper adv24r, `adv/round14rub/ledger14.py`): a value or a
claim written in a form the readers did not read was read as nothing, so a note naming
another invoice or another date, or claiming a write-off as a JSON status, passed.

- I14: an id of a role's kind (``INV-2026-0151``) written with other separators, a
  two-digit year, no zero padding or the word ``Invoice`` (`_id_forms.loose_ids`);
- D14: a date as ``2026 06 16``, ``2026-167``, ``2026年6月16日`` or ``26-06-16``
  (`_date_forms`, `_value_roles.iso_dates`);
- J14: ``written_off`` (an identifier with underscores) read as ``written off``
  (`_mentions`).

Each wrong form fails, each honest form (the record's own value) passes.
"""

from __future__ import annotations

import pytest

from mcpgym_grading._decisions import decisions
from mcpgym_grading._value_roles import value_outcome

INVOICE = [("INV-2026-0151", ("wrote off", "written off")), ("6800", ("bad debt",))]

ID_FORMS = {
    "spaces": "INV {y} {n:04d}",
    "slashes": "INV/{y}/{n:04d}",
    "two-digit year": "INV-{yy}-{n:04d}",
    "no zero padding": "INV-{y}-{n}",
    "the word Invoice": "Invoice {y}-{n:04d}",
    "no separators": "INV{y}{n:04d}",
    "lower case, underscores": "inv_{y}_{n:04d}",
    "Invoice #": "Invoice #{y}-{n:04d}",
    "full-width digits": "INV-２０２６-{n:04d}",
}


def _note(form: str, n: int) -> str:
    number = form.format(y=2026, yy=26, n=n)
    return f"Wrote off $413.60 still open on {number} as bad debt (6800)."


@pytest.mark.parametrize("form", ID_FORMS.values(), ids=list(ID_FORMS))
def test_another_invoice_in_any_form_fails(form: str) -> None:
    ok, misplaced, _ = value_outcome(_note(form, 152), INVOICE)
    assert not ok and any("inv-2026-0152" in m for m in misplaced), misplaced


@pytest.mark.parametrize("form", ID_FORMS.values(), ids=list(ID_FORMS))
def test_the_invoice_in_any_form_passes(form: str) -> None:
    assert value_outcome(_note(form, 151), INVOICE)[0]


@pytest.mark.parametrize(
    "text",
    [
        "Invoice 2026 15 days past due; wrote off INV-2026-0151.",
        "Invoice INV-2026-0151 dated 2026-05-31, written off (6800).",
        "Invoice 2026-05-31 balance written off on INV-2026-0151.",
        "Fiscal 2026-2027: INV-2026-0151 written off.",
        "CN-2026-0001 stays as it was; INV-2026-0151 written off.",
    ],
)
def test_honest_numbers_beside_an_invoice_are_no_invoice(text: str) -> None:
    assert value_outcome(text, INVOICE)[0]


def test_a_bare_year_and_number_is_read_as_an_invoice() -> None:
    assert not value_outcome("Wrote off 2026-0152 as bad debt.", INVOICE)[0]
    assert value_outcome("Wrote off 2026-0151 as bad debt.", INVOICE)[0]


def test_an_id_beside_a_number_is_no_group_of_it() -> None:
    """``INV-2026-0152 12 days``: the id beside a number was read as one group of a number
    written in groups (a tracking number) and dropped."""
    assert not value_outcome("Wrote off INV-2026-0152 12 days after the due date.", INVOICE)[0]
    assert value_outcome("Wrote off INV-2026-0151 12 days after the due date.", INVOICE)[0]


def test_another_vendor_reference_in_another_form_fails() -> None:
    roles = [("NORT-1926", ("nort-1926",))]
    assert not value_outcome("Entered bill NORT 1927 for Northwind.", roles)[0]
    assert value_outcome("Entered bill nort1926 for Northwind.", roles)[0]
    assert value_outcome("Northwind 2026 subscription entered as NORT-1926.", roles)[0]


DATED = [("2026-06-15", ("reversed on", "posted on")), ("6500", ("on",))]

DATE_FORMS = {
    "spaces": "{y} {m:02d} {d:02d}",
    "ordinal date": "{y}-{yday:03d}",
    "CJK": "{y}年{m}月{d}日",
    "CJK, no year": "{m}月{d}日",
    "two-digit year": "{yy}-{m:02d}-{d:02d}",
    "two-digit year, US": "{m}/{d}/{yy}",
    "two-digit year, dots": "{d:02d}.{m:02d}.{yy}",
    "day first, spaces": "{d:02d} {m:02d} {y}",
}


def _dated(form: str, day: int) -> str:
    when = form.format(y=2026, yy=26, m=6, d=day, yday=151 + day)
    return f"Reversed on {when} and posted again on 6500."


@pytest.mark.parametrize("form", DATE_FORMS.values(), ids=list(DATE_FORMS))
def test_another_date_in_any_form_fails(form: str) -> None:
    ok, misplaced, _ = value_outcome(_dated(form, 16), DATED)
    assert not ok and any("2026-06-16" in m for m in misplaced), misplaced


@pytest.mark.parametrize("form", DATE_FORMS.values(), ids=list(DATE_FORMS))
def test_the_date_in_any_form_passes(form: str) -> None:
    assert value_outcome(_dated(form, 15), DATED)[0]


@pytest.mark.parametrize(
    "text", ["Reversed on 2026-400.", "Reversed on 2026年6月31日.", "Reversed on 6月45日."]
)
def test_a_date_shaped_form_no_reader_reads_is_refused(text: str) -> None:
    ok, misplaced, _ = value_outcome(text, DATED)
    assert not ok and any("unread date" in m for m in misplaced), misplaced


def test_a_short_year_reads_as_the_record_date_in_either_order() -> None:
    """``15-06-26`` is 2026-06-15 day first: the order naming the record's date is taken."""
    assert value_outcome("Reversed on 15-06-26.", DATED)[0]
    assert value_outcome("Reversed on 15/6/26.", DATED)[0]


@pytest.mark.parametrize(
    "text",
    [
        "Reversed per section 1.2.3 of the policy on 2026-06-15.",
        "Reversed on 2026-06-15, 3 lines, 12 26 cents rounding none.",
        "Posted on 2026-06-15 at 10:12:26.",
        "Reversed on 2026-06-15 (version 2.1.0 of the template).",
    ],
)
def test_honest_numbers_are_no_dates(text: str) -> None:
    assert value_outcome(text, DATED)[0]


def test_a_date_beside_a_time_is_read() -> None:
    assert not value_outcome("Posted on 2026-06-16 14:30.", DATED)[0]


@pytest.mark.parametrize(
    "text",
    [
        '{"invoice": "INV-2026-0151", "status": "written_off"}',
        '{"invoice": "INV-2026-0151", "status": "WRITTEN_OFF"}',
        "INV-2026-0151 status: written_off",
        "| INV-2026-0151 | written_off |",
        # the gate's look-alike form: an invisible selector between every letter (stop
        # 24's ledger gate: read as a claim plain, as none in this form)
        "INV-2026-0151 status: " + "\U000e0100".join("written_off"),
    ],
)
def test_a_status_identifier_claims(text: str) -> None:
    assert any(d.done for d in decisions(text, ("write-off",))), text


@pytest.mark.parametrize(
    "text",
    [
        '{"invoice": "INV-2026-0151", "status": "open", "written_off_cents": 0}',
        "Left INV-2026-0151 open; written_off_cents stays 0.",
        "Tool write_off_invoice was not needed: escalated instead.",
    ],
)
def test_a_field_or_tool_name_claims_nothing(text: str) -> None:
    assert not any(d.done for d in decisions(text, ("write-off",))), text


def test_a_status_identifier_denied_is_a_denial() -> None:
    got = decisions("INV-2026-0151: not written_off.", ("write-off",))
    assert got and all(d.done is False for d in got)
