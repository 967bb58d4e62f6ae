"""Round 16 (adv/round16rub/left16.py, helper adv26r) at grade level, ledger: on main 9b33d41
each wrong text below passed at 1.0 (enter-vendor-bill hard: a draft said to be no longer a
draft; credit-returned-item easy: another invoice said credited in a credit note's reason;
write-off-bad-debt hard/expert: the escalated invoice said to have nothing left open, which
the new `texts-state-escalated-still-open` refuses),
and the honest one failed (write-off-bad-debt hard: the customer's words reported, then
denied)."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)


def _passed(family: str, band: str, tool: str, field: str, extra: str) -> bool:
    v = environment.variant(family, band, 0)
    p = dict(v.params)
    p["next_invoice"] = f"INV-2026-{int(p.get('invoice_id') or 0) + 1:04d}"
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += " " + extra.format(**p)
    calls[i] = ToolCall(tool, args)
    g = grade_bundle(
        replay(environment, family, band, 0, calls), environment, reference_cache=CACHE
    )
    return g.passed


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (
            "enter-vendor-bill",
            "hard",
            "add_note",
            "body",
            "Bill {vendor_ref} is no longer a draft.",
        ),
        ("enter-vendor-bill", "hard", "escalate", "reason", "It isn't a draft anymore."),
        (
            "credit-returned-item",
            "easy",
            "issue_credit_note",
            "reason",
            "{next_invoice} credited in full too.",
        ),
        # L15c: the write-off claimed by the state it leaves (texts-state-escalated-still-open)
        (
            "write-off-bad-debt",
            "hard",
            "add_note",
            "body",
            "{escalate_number} now has a zero balance.",
        ),
        (
            "write-off-bad-debt",
            "hard",
            "escalate",
            "reason",
            "Nothing is left open on {escalate_number}.",
        ),
        ("write-off-bad-debt", "expert", "add_note", "body", "{escalate_number} is settled."),
    ],
)
def test_a_claim_not_taken_fails(family: str, band: str, tool: str, field: str, extra: str) -> None:
    assert _passed(family, band, tool, field, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (
            "write-off-bad-debt",
            "hard",
            "add_note",
            "body",
            "The customer said {escalate_number} was written off; it was not.",
        ),
        (
            "enter-vendor-bill",
            "easy",
            "add_note",
            "body",
            "Bill {vendor_ref} is no longer a draft.",
        ),
        (
            "write-off-bad-debt",
            "hard",
            "add_note",
            "body",
            "Once approved, {escalate_number} will have a zero balance.",
        ),
        (
            "write-off-bad-debt",
            "expert",
            "add_note",
            "body",
            "The customer says {escalate_number} is settled; it is not.",
        ),
    ],
)
def test_honest_forms_pass(family: str, band: str, tool: str, field: str, extra: str) -> None:
    assert _passed(family, band, tool, field, extra) is True
