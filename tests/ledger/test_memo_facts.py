"""Facts a memo, a write-off's reason or a bill line's description states are the record's
own, as the note's are (issue 9, round 11's M11): the journal keeps these texts beside the
note. Each edit below kept the books and the note right and passed at score 1.0 before
(the value roles read the notes only): another date, account or invoice number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)

Edit = Callable[[TaskVariant, Any], Any]


def _graded(v: TaskVariant, tool: str, key: str, fn: Edit) -> dict[str, bool]:
    calls = [
        ToolCall(c.name, {**c.arguments, key: fn(v, c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


def _lines(extra: str) -> Edit:
    return lambda v, ls: [{**x, "description": x["description"] + extra} for x in ls]


WRONG: list[Any] = [  # (family, band, tool, key, edit) tuples and pytest.param
    (
        "accrue-expense",
        "easy",
        "post_journal_entry",
        "memo",
        lambda v, m: m + "; accrued on 2026-04-30 to 6900 Travel",
    ),
    (
        "accrue-expense",
        "hard",
        "reverse_journal_entry",
        "memo",
        lambda v, m: "Reverse the May accrual on 2026-07-01",
    ),
    (
        "correct-misposted-entry",
        "medium",
        "post_journal_entry",
        "memo",
        lambda v, m: m + " (posted to 6900 Travel on 2026-05-15)",
    ),
    (
        "closed-period-posting",
        "easy",
        "post_journal_entry",
        "memo",
        lambda v, m: f"{m} (posted on {v.params['issue_date']}, in April)",
    ),
    (
        "write-off-bad-debt",
        "easy",
        "write_off_invoice",
        "reason",
        lambda v, r: r + " (INV-2026-0149)",
    ),
    (
        "write-off-bad-debt",
        "medium",
        "write_off_invoice",
        "reason",
        lambda v, r: r + " (INV-2026-0149, written off to 6800)",
    ),
    (
        "write-off-bad-debt",
        "expert",
        "write_off_invoice",
        "reason",
        lambda v, r: r + " (INV-2026-0149)",
    ),
    # enter-vendor-bill easy and medium: a line coded to another account, dated before the bill
    ("enter-vendor-bill", "easy", "create_bill", "lines", _lines(" (coded 6900)")),
    ("enter-vendor-bill", "medium", "create_bill", "lines", _lines(" (dated 2026-03-01)")),
    ("enter-vendor-bill", "hard", "create_bill", "lines", _lines(" (coded 6900)")),
    (
        "enter-vendor-bill",
        "expert",
        "create_bill",
        "lines",
        _lines(" (posted on 2026-04-28)"),
    ),
]


@pytest.mark.parametrize(("family", "band", "tool", "key", "fn"), WRONG)
def test_a_wrong_fact_in_a_memo_or_reason_fails(
    family: str, band: str, tool: str, key: str, fn: Edit
) -> None:
    v = environment.variant(family, band, 0)
    checks = _graded(v, tool, key, fn)
    failed = {
        n
        for n, ok in checks.items()
        if not ok and n in ("note-values-in-role", "memo-values-in-role", "reason-values-in-role")
    }
    assert failed, checks


HONEST: list[tuple[str, str, str, str, Edit]] = [
    (
        "accrue-expense",
        "hard",
        "post_journal_entry",
        "memo",
        lambda v, m: (
            f"{m}; accrued on {v.params['accrual_date']}, credit 2100, to be reversed "
            f"on {v.params['reversal_date']}"
        ),
    ),
    (
        "correct-misposted-entry",
        "easy",
        "post_journal_entry",
        "memo",
        lambda v, m: f"{m}, reposted on {v.params['today']}",
    ),
    (
        "correct-misposted-entry",
        "expert",
        "reverse_journal_entry",
        "memo",
        lambda v, m: f"{m} (reversed on {v.params['today']})",
    ),
    (
        "closed-period-posting",
        "medium",
        "post_journal_entry",
        "memo",
        lambda v, m: m.replace(
            "(belongs to April 2026)",
            f"(asked for {v.params['issue_date']} in closed April; posted on 2026-05-01)",
        ),
    ),
    (
        "write-off-bad-debt",
        "expert",
        "write_off_invoice",
        "reason",
        lambda v, r: r + "; INV-2026-0151 is more than 90 days past due",
    ),
    (
        "enter-vendor-bill",
        "expert",
        "create_bill",
        "lines",
        lambda v, ls: _lines(f" (bill dated {v.params['bill_date']})")(v, ls),
    ),
]


def _own_number(v: TaskVariant) -> str:
    return str(
        next(
            c.arguments["body"].split(" on ")[1].split(" ")[0]
            for c in v.reference
            if c.name == "add_note"
        )
    )


def _coded_own(v: TaskVariant, ls: Any) -> Any:
    return [
        {
            **x,
            "description": f"{x['description']} (coded {x['account_code']}, credit 2000, "
            f"dated {v.params['bill_date']})",
        }
        for x in ls
    ]


HONEST += [
    (
        "write-off-bad-debt",
        "medium",
        "write_off_invoice",
        "reason",
        lambda v, r: f"{r} ({_own_number(v)} written off to 6800)",
    ),
    ("enter-vendor-bill", "easy", "create_bill", "lines", _coded_own),
    ("enter-vendor-bill", "medium", "create_bill", "lines", _coded_own),
    ("enter-vendor-bill", "hard", "create_bill", "lines", _coded_own),
]


@pytest.mark.parametrize(("family", "band", "tool", "key", "fn"), HONEST)
def test_a_true_fact_in_a_memo_or_reason_passes(
    family: str, band: str, tool: str, key: str, fn: Edit
) -> None:
    v = environment.variant(family, band, 0)
    checks = _graded(v, tool, key, fn)
    assert all(checks.values()), {n: ok for n, ok in checks.items() if not ok}


@pytest.mark.parametrize("seed", [0, 1])
def test_the_write_offs_memo_naming_the_escalated_invoice_fails(seed: int) -> None:
    """Stop 21's open row: in expert, the write-off's reason (its entry's memo) naming the
    invoice escalated instead passed at 1.0 (the memos were read with the escalation
    reason's roles, which bind the escalated number)."""
    v = environment.variant("write-off-bad-debt", "expert", seed)
    number = v.params["escalate_number"]
    graded = _graded(v, "write_off_invoice", "reason", lambda v, r: f"{r} ({number})")
    assert graded["reason-values-in-role"] is False, graded


@pytest.mark.parametrize("band", ["easy", "medium", "expert"])
def test_the_write_offs_memo_naming_its_own_invoice_passes(band: str) -> None:
    v = environment.variant("write-off-bad-debt", band, 0)
    number = v.params["write_off_number"]
    graded = _graded(v, "write_off_invoice", "reason", lambda v, r: f"{r} ({number}, past due)")
    assert all(graded.values()), graded
