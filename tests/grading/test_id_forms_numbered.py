"""Stop 25 (issue 9 §4 item 2): a document's word and a number with no year nor prefix
(``invoice 152``, ``Invoice #152``, ``bill no. 8595``) is read as the id of the one shape it
fits (`_id_forms.loose_ids`); ``INV 2026-152`` is a document's number, no ordinal date
(`_date_forms.more_dates`)."""

from __future__ import annotations

import pytest

from mcpgym_grading._date_forms import more_dates, unread_dates
from mcpgym_grading._id_forms import loose_ids


@pytest.mark.parametrize(
    ("text", "values", "read"),
    [
        ("Wrote off invoice 152.", ["INV-2026-0151"], "Wrote off inv-2026-0152."),
        ("Invoice #152 written off", ["INV-2026-0151"], "inv-2026-0152 written off"),
        ("invoice no. 152", ["INV-2026-0151"], "inv-2026-0152"),
        ("Posted bill #8595.", ["SUMM-8594"], "Posted summ-8595."),
        ("invoice 8595 from Summit", ["SUMM-8594"], "summ-8595 from Summit"),
    ],
)
def test_a_numbered_document_reads_as_its_id(text: str, values: list[str], read: str) -> None:
    assert loose_ids(text, values) == read


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("an invoice 90 days past due", ["INV-2026-0151"]),
        ("invoice 1 of 2", ["INV-2026-0151"]),
        ("the invoice 2026 15 days late", ["INV-2026-0151"]),
        ("bad debt (#6800)", ["INV-2026-0151"]),
        ("bill 859", ["SUMM-8594"]),
        ("bill 2026", ["SUMM-8594"]),
        ("invoice 152", ["INV-2026-0151", "INV-2025-0007"]),  # no one year
        ("invoice 152", ["10451"]),  # no prefixed id
    ],
)
def test_a_number_of_no_one_shape_is_left(text: str, values: list[str]) -> None:
    assert loose_ids(text, values) == text


def test_a_document_number_is_no_ordinal_date() -> None:
    text = "INV 2026-152, invoice #2026-152 and day 2026-152."
    assert more_dates(text, "2026-05-31") == "INV 2026-152, invoice #2026-152 and day 2026-06-01."


def test_a_document_number_is_no_unread_date() -> None:
    assert unread_dates("vendor invoice inv 2026-152 and 2026-152") == ["2026-152"]
