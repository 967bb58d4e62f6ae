"""Stop 25 (issue 9 §4 item 2) at grade level: write-off-bad-debt's note naming the next
invoice as ``invoice 152`` (no year, no padding), ``Invoice #152`` or ``invoice no. 152``
fails `note-states-amount` (on main it passed at 1.0); its own invoice so written passes."""

from __future__ import annotations

import re

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)
FORMS = ("invoice {n}", "Invoice #{n}", "invoice no. {n}")


def _graded(shift: int, form: str) -> dict[str, bool]:
    v = environment.variant("write-off-bad-debt", "easy", 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "add_note")
    body = re.sub(
        r"INV-\d{4}-(\d{4})",
        lambda m: form.format(n=int(m.group(1)) + shift),
        calls[i].arguments["body"],
    )
    assert body != calls[i].arguments["body"]
    calls[i] = ToolCall("add_note", {**calls[i].arguments, "body": body})
    g = grade_bundle(
        replay(environment, "write-off-bad-debt", "easy", 0, calls),
        environment,
        reference_cache=CACHE,
    )
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


@pytest.mark.parametrize("form", FORMS)
def test_a_note_naming_another_invoice_by_number_fails(form: str) -> None:
    assert _graded(1, form)["note-states-amount"] is False


@pytest.mark.parametrize("form", FORMS)
def test_a_note_naming_its_invoice_by_number_passes(form: str) -> None:
    got = _graded(0, form)
    assert all(got.values()), got
