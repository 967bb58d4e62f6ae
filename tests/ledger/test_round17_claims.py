"""Round 17 (adv/round17rub/fresh17l.py, helper adv27l) at grade level, ledger: on main
fb0151c each wrong text below passed at 1.0: a closed-period-posting note saying the posting
went into the closed period (P17a) or giving the entry's sides exchanged (D17), refused by
the new `texts-state-posted-in-open-period`; a reconcile-bank-lines text putting a line in
another state than the books hold (R17), refused by the new `texts-state-line-states`. The
honest texts beside them pass."""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=8)
CPP, RBL = "closed-period-posting", "reconcile-bank-lines"


def _passed(family: str, band: str, tool: str, field: str, extra: str) -> bool:
    v = environment.variant(family, band, 0)
    p = dict(v.params)
    sides = {n > 0: c for _, c, n in p.get("dated") or []}
    p["dr"], p["cr"] = sides.get(True), sides.get(False)
    calls = list(v.reference)
    i = max(n for n, c in enumerate(calls) if c.name == tool)
    args = dict(calls[i].arguments)
    args[field] += "\n\n" + extra.format(**p)
    calls[i] = ToolCall(tool, args)
    g = grade_bundle(
        replay(environment, family, band, 0, calls), environment, reference_cache=CACHE
    )
    return g.passed and g.score >= 0.9999


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (CPP, "easy", "add_note", "body", "Posted in April 2026, as requested."),
        (CPP, "medium", "add_note", "body", "It was booked into the April period."),
        (CPP, "hard", "add_note", "body", "The entry sits in April's books."),
        (CPP, "expert", "add_note", "body", "Booked in P4 2026 as asked."),
        (CPP, "expert", "post_journal_entry", "memo", "posted in April 2026"),
        (CPP, "easy", "add_note", "body", "Debit {cr}, credit {dr}."),
        (CPP, "medium", "post_journal_entry", "memo", "Dr {cr} / Cr {dr}"),
        (RBL, "hard", "ignore_bank_line", "reason", "Line {duplicate_line_id} matched too."),
        (RBL, "expert", "ignore_bank_line", "reason", "All lines matched; nothing ignored."),
        (RBL, "easy", "post_journal_entry", "memo", "line {fee_line_id} left unmatched"),
        (RBL, "medium", "post_journal_entry", "memo", "line {deposit_line_id} ignored"),
    ],
)
def test_a_wrong_state_or_period_fails(
    family: str, band: str, tool: str, field: str, extra: str
) -> None:
    assert _passed(family, band, tool, field, extra) is False


@pytest.mark.parametrize(
    ("family", "band", "tool", "field", "extra"),
    [
        (
            CPP,
            "easy",
            "add_note",
            "body",
            "April is closed, so it was not posted in April: it was posted on 2026-05-01.",
        ),
        (
            CPP,
            "hard",
            "add_note",
            "body",
            "Posted in May 2026 (the first open period); it belongs to April 2026.",
        ),
        (CPP, "expert", "add_note", "body", "Posted on 2026-05-01 for April 2026 (policy 2.2)."),
        (CPP, "easy", "add_note", "body", "Debit {dr}, credit {cr}."),
        (
            RBL,
            "hard",
            "ignore_bank_line",
            "reason",
            "Not matched: line {duplicate_line_id} repeats line {deposit_line_id}, which is "
            "matched to the payment.",
        ),
        (RBL, "expert", "ignore_bank_line", "reason", "All lines reconciled."),
    ],
)
def test_the_honest_text_passes(family: str, band: str, tool: str, field: str, extra: str) -> None:
    assert _passed(family, band, tool, field, extra) is True
