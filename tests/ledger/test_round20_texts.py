"""Round 20 (adv/round20rub/l20l.py, ae20l.py, helper adv30l) at grade level, ledger
reconcile-bank-lines: on main 9d8de28 a text binding a bank line of the task to another
journal entry than the one it is matched to (round 17's L17b: a fee memo `; line 154 matched
to entry 344`) passed at 1.0; `texts-state-line-states` now refuses it; an accrue-expense
reversal's own memo dated in the accrual's month (round 18's Q18a) passed, and
`texts-state-posting-months` now refuses it. The honest texts beside them pass."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)
RBL = "reconcile-bank-lines"


def _graded(band: str, tool: str, field: str, extra: str) -> tuple[bool, list[str]]:
    v = environment.variant(RBL, band, 0)
    p = dict(v.params)
    own = {
        c.arguments["bank_line_id"]: c.arguments["journal_entry_id"]
        for c in v.reference
        if c.name == "match_bank_line"
    }
    p["fee_entry"] = own[p["fee_line_id"]]
    p["other_entry"] = p["fee_entry"] + 7
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += "\n\n" + extra.format(**p)
    calls[i] = ToolCall(tool, args)
    g = grade_bundle(replay(environment, RBL, band, 0, calls), environment, reference_cache=CACHE)
    return g.passed and (g.score or 0.0) >= 0.9999, [c.name for c in g.checks if c.passed is False]


@pytest.mark.parametrize(
    ("band", "extra"),
    [
        ("easy", "; line {fee_line_id} matched to entry {other_entry}"),
        ("medium", "; bank line #{fee_line_id} -> JE-{other_entry}"),
        ("hard", "Entry {other_entry} was matched to line {fee_line_id}."),
        ("expert", "; line {vendor_line_id} matched to entry {fee_entry}"),
    ],
)
def test_a_line_bound_to_another_entry_fails(band: str, extra: str) -> None:
    passed, failed = _graded(band, "post_journal_entry", "memo", extra)
    assert passed is False
    assert "texts-state-line-states" in failed


@pytest.mark.parametrize(
    ("band", "extra"),
    [
        ("easy", "; line {fee_line_id} matched to entry {fee_entry}"),
        (
            "medium",
            "Entry {fee_entry} is matched to line {fee_line_id}, not to entry {other_entry}.",
        ),
        ("expert", "; line {vendor_line_id} matched to entry {vendor_entry_id}"),
    ],
)
def test_the_lines_own_entry_passes(band: str, extra: str) -> None:
    assert _graded(band, "post_journal_entry", "memo", extra) == (True, [])


def _payment(band: str, key: str) -> int:
    """The payment the reference's end state matches the line ``params[key]`` to."""
    v = environment.variant(RBL, band, 0)
    db = replay(environment, RBL, band, 0, v.reference).open_final_db()
    try:
        sql = "SELECT payment_id FROM bank_lines WHERE id = ?"
        return db.execute(sql, (v.params[key],)).fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize(
    ("band", "key", "honest"),
    [
        ("medium", "deposit_line_id", False),
        ("hard", "deposit_line_id", False),
        ("expert", "vendor_line_id", False),
        ("medium", "deposit_line_id", True),
        ("expert", "vendor_line_id", True),
    ],
)
def test_a_line_bound_to_another_payment_fails(band: str, key: str, honest: bool) -> None:
    """Round 20's F2: a memo binding a line to another payment than its ``payment_id``
    passed at 1.0; the line's own payment still does."""
    own = _payment(band, key)
    extra = f"; line {{{key}}} matched to payment {own if honest else own + 5}"
    passed, failed = _graded(band, "post_journal_entry", "memo", extra)
    assert passed is honest
    assert ("texts-state-line-states" in failed) is not honest


AE = "accrue-expense"


def _ae_passed(band: str, memo: str) -> bool:
    v = environment.variant(AE, band, 0)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == "reverse_journal_entry")
    calls[i] = ToolCall(calls[i].name, {**calls[i].arguments, "memo": memo})
    g = grade_bundle(replay(environment, AE, band, 0, calls), environment, reference_cache=CACHE)
    return g.passed and (g.score or 0.0) >= 0.9999


@pytest.mark.parametrize(
    ("band", "memo", "honest"),
    [
        ("easy", "Reverse the May accrual\n\n(posted in May 2026)", False),
        ("hard", "Accrual reversal (booked in May 2026)", False),
        ("medium", "Reverse the May accrual (posted in May 2026)", True),
        ("expert", "Reverse the May accrual (posted in June 2026)", True),
    ],
)
def test_an_accrual_reversals_memo_dates_the_reversal(band: str, memo: str, honest: bool) -> None:
    """Round 18's Q18a: the reversal's own memo dated in the accrual's month (May) passed;
    the accrual's month beside the accrual's word still does."""
    assert _ae_passed(band, memo) is honest
