"""Stop 24's A14 in the books: a credit note's reason or a note claiming a credit note on
another invoice than the one credited fails (`RECORDS_SQL`); naming it as context passes."""

from __future__ import annotations

import pytest


def _graded(tool: str, field: str, extra: str) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_ledger import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant("credit-returned-item", "easy", 0)
    other = f"INV-2026-{dict(v.params)['invoice_id'] + 1:04d}"
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == tool:
            args[field] += extra.format(other=other)
        calls.append(ToolCall(c.name, args))
    return grade_bundle(
        replay(environment, "credit-returned-item", "easy", 0, calls), environment
    ).passed


@pytest.mark.parametrize(
    ("tool", "field", "extra"),
    [
        ("issue_credit_note", "reason", "; issued a credit note on {other} too"),
        ("add_note", "body", " A credit note was issued for {other} as well."),
    ],
)
def test_a_credit_note_claimed_of_another_invoice_fails(tool: str, field: str, extra: str) -> None:
    assert _graded(tool, field, extra) is False


def test_another_invoice_named_as_context_passes() -> None:
    extra = ". Customer also asked about {other}, nothing returned on it. Credit for the return."
    assert _graded("issue_credit_note", "reason", extra) is True
