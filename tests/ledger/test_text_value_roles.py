"""The dates, accounts, invoice numbers and bank lines a payment's reference, a fee entry's
memo or any other text of apply-customer-payment and reconcile-bank-lines states are the
record's own (issue 9, round 11's M11b: `texts-values-in-role`). Each wrong edit below kept
the books and the note right and passed at score 1.0 on main ef00833; each honest one
passes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
Edit = Callable[[TaskVariant, Any], Any]
BANDS = ("easy", "medium", "hard", "expert")


def _graded(v: TaskVariant, tool: str, key: str, fn: Edit) -> tuple[bool, list[str]]:
    calls = [
        ToolCall(c.name, {**c.arguments, key: fn(v, c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]
    assert calls != list(v.reference)
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return g.passed, [c.name for c in g.checks if c.applicable and not c.passed]


def _deposit_day(v: TaskVariant) -> str:
    call = next(c for c in v.reference if c.name == "record_customer_payment")
    return str(call.arguments["payment_date"])


def _fee_day(v: TaskVariant) -> str:
    return str(v.params["fee"][0][0])


WRONG: list[tuple[str, str, str, Edit]] = [
    (
        "apply-customer-payment",
        "record_customer_payment",
        "reference",
        lambda v, r: "INV-2026-0003 paid 2026-01-05",
    ),
    (
        "apply-customer-payment",
        "record_customer_payment",
        "reference",
        lambda v, r: f"{r} received 2026-05-02",
    ),
    (
        "reconcile-bank-lines",
        "post_journal_entry",
        "memo",
        lambda v, m: m + " on 2026-05-02, charged to 6600 Repairs",
    ),
    (
        "reconcile-bank-lines",
        "post_journal_entry",
        "memo",
        lambda v, m: m + " (bank line 150)",
    ),
]


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize(("family", "tool", "key", "fn"), WRONG)
def test_a_wrong_value_in_another_text_fails(
    family: str, tool: str, key: str, fn: Edit, band: str
) -> None:
    passed, failed = _graded(environment.variant(family, band, 0), tool, key, fn)
    assert not passed and "texts-values-in-role" in failed, failed


HONEST: list[tuple[str, str, str, Edit]] = [
    (
        "apply-customer-payment",
        "record_customer_payment",
        "reference",
        lambda v, r: f"{r} received {v.params['payment_date']}",
    ),
    (
        "reconcile-bank-lines",
        "post_journal_entry",
        "memo",
        lambda v, m: f"{m} on {_fee_day(v)}, charged to 6700 (bank line {v.params['fee_line_id']})",
    ),
    (
        "reconcile-bank-lines",
        "post_journal_entry",
        "memo",
        lambda v, m: f"{m}: Dr 6700 / Cr 1000, dated {_fee_day(v)}",
    ),
]


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize(("family", "tool", "key", "fn"), HONEST)
def test_the_records_own_values_in_another_text_pass(
    family: str, tool: str, key: str, fn: Edit, band: str
) -> None:
    passed, failed = _graded(environment.variant(family, band, 0), tool, key, fn)
    assert passed, failed


@pytest.mark.parametrize("band", ("medium", "hard", "expert"))
def test_the_deposits_payment_reference_may_name_its_invoice_and_date(band: str) -> None:
    v = environment.variant("reconcile-bank-lines", band, 0)
    passed, failed = _graded(
        v,
        "record_customer_payment",
        "reference",
        lambda v, r: f"{r} paid {_deposit_day(v)}",
    )
    assert passed, failed
