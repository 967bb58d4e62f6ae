"""Round 18 (adv/round18rub/q18l.py, helper adv28l) at grade level, ledger: on main 6df73e1
each wrong text below passed at 1.0: a note or memo putting a posting in a month the books do
not hold it in (round 17's Q17: the accrual in the reversal's month, the correction in May
when it went to June, a reversal in the original's month, a fee, payment, bill, write-off or
credit note in another month), refused by the new `texts-state-posting-months`; a
correct-misposted-entry note claiming an in-place edit never made (L17), refused by the new
`corrected-by-reversal-not-edited`. The honest texts beside them pass."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)
AE, ACP, CME = "accrue-expense", "apply-customer-payment", "correct-misposted-entry"
CRI, EVB = "credit-returned-item", "enter-vendor-bill"
RBL, WO = "reconcile-bank-lines", "write-off-bad-debt"


def _passed(family: str, band: str, tool: str, field: str, extra: str) -> bool:
    v = environment.variant(family, band, 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += "\n\n" + extra.format(**dict(v.params))
    calls[i] = ToolCall(tool, args)
    g = grade_bundle(
        replay(environment, family, band, 0, calls), environment, reference_cache=CACHE
    )
    return g.passed and g.score is not None and g.score >= 0.9999


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (AE, "easy", "add_note", "body", "Accrued in June 2026."),
        (AE, "hard", "add_note", "body", "The reversal was posted in May."),
        (AE, "expert", "post_journal_entry", "memo", "(booked in June 2026)"),
        (CME, "easy", "add_note", "body", "The corrected entry was posted in May 2026."),
        (CME, "hard", "add_note", "body", "Reversed in April 2026."),
        (CME, "medium", "add_note", "body", "Edited entry {wrong_entry_id} in place."),
        (RBL, "medium", "post_journal_entry", "memo", "(booked in April 2026)"),
        (ACP, "easy", "add_note", "body", "Payment recorded in May 2026."),
        (EVB, "expert", "add_note", "body", "Posted in April 2026."),
        (WO, "easy", "add_note", "body", "Written off in May 2026."),
        (CRI, "hard", "add_note", "body", "The credit note was posted in May 2026."),
    ],
)
def test_a_posting_in_the_wrong_month_or_an_edit_not_made_fails(
    family: str, band: str, tool: str, field: str, extra: str
) -> None:
    assert _passed(family, band, tool, field, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (AE, "easy", "add_note", "body", "Accrued in May 2026; reversed in June 2026."),
        (AE, "medium", "reverse_journal_entry", "memo", "(the accrual posted in May 2026)"),
        (CME, "easy", "add_note", "body", "Reversed the entry posted in May 2026."),
        (CME, "hard", "add_note", "body", "Entry {wrong_entry_id} was not edited in place."),
        (RBL, "medium", "post_journal_entry", "memo", "(posted in June 2026)"),
        (ACP, "easy", "add_note", "body", "Payment recorded in June 2026."),
        (EVB, "expert", "add_note", "body", "Dated in April 2026; posted in May 2026."),
        (WO, "medium", "add_note", "body", "Written off in June 2026."),
        (CRI, "easy", "add_note", "body", "Credited in June 2026."),
    ],
)
def test_the_right_month_passes(family: str, band: str, tool: str, field: str, extra: str) -> None:
    assert _passed(family, band, tool, field, extra) is True
