"""Facts a ledger note or escalation reason states beside its amounts are the record's own
(issue 9, round 10's F5 and F4's ledger reasons; `mcpgym_grading._value_roles`: a role's
kind is closed). Each edit below kept every amount right and passed at score 1.0 before:
another account, invoice number, vendor reference, bank line or date."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)


def _graded(v: TaskVariant, tool: str, key: str, fn: Callable[[str], str]) -> dict[str, bool]:
    calls = [
        ToolCall(c.name, {**c.arguments, key: fn(c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


CASES: list[Any] = [  # (family, band, tool, key, edit) tuples and pytest.param
    (
        "accrue-expense",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace("against 2100", "against 2000"),
    ),
    (
        "accrue-expense",
        "hard",
        "add_note",
        "body",
        lambda v, b: re.sub(r"\((\d{4}): ", "(6900: ", b),
    ),
    (
        "accrue-expense",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace("reversed on 2026-06-01", "reversed on 2026-07-01"),
    ),
    (
        "correct-misposted-entry",
        "easy",
        "add_note",
        "body",
        lambda v, b: re.sub(r"on (\d{4}) ", "on 6000 ", b),
    ),
    (
        "correct-misposted-entry",
        "medium",
        "add_note",
        "body",
        lambda v, b: b.replace(v.params["today"], "2026-05-15"),
    ),
    (
        "apply-customer-payment",
        "medium",
        "add_note",
        "body",
        lambda v, b: b.replace("applied to INV-2026-0102", "applied to INV-2026-0104"),
    ),
    (
        "apply-customer-payment",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace(
            f"bank line {v.params['bank_line_id']}", f"bank line {v.params['bank_line_id'] + 1}"
        ),
    ),
    (
        "apply-customer-payment",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace(v.params["payment_date"], "2026-06-01"),
    ),
    ("write-off-bad-debt", "easy", "add_note", "body", lambda v, b: b.replace("(6800)", "(6900)")),
    (
        "write-off-bad-debt",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace("INV-2026-0151", "INV-2026-0149"),
    ),
    (
        "enter-vendor-bill",
        "easy",
        "add_note",
        "body",
        lambda v, b: b.replace(
            v.params["vendor_ref"],
            v.params["vendor_ref"][:-1] + ("1" if v.params["vendor_ref"][-1] == "0" else "0"),
        ),
    ),
    (  # read by note-values-in-role, in every band since round 11 (the vendor reference)
        "enter-vendor-bill",
        "hard",
        "escalate",
        "reason",
        lambda v, b: b.replace(
            v.params["vendor_ref"],
            v.params["vendor_ref"][:-1] + ("1" if v.params["vendor_ref"][-1] == "0" else "0"),
        ),
    ),
    (
        "write-off-bad-debt",
        "hard",
        "escalate",
        "reason",
        lambda v, b: re.sub(r"INV-2026-0\d+", "INV-2026-0149", b),
    ),
]


@pytest.mark.parametrize(("family", "band", "tool", "key", "fn"), CASES)
def test_another_fact_of_the_same_kind_fails(
    family: str, band: str, tool: str, key: str, fn: Callable[[TaskVariant, str], str]
) -> None:
    v = environment.variant(family, band, 0)
    before = next(c.arguments[key] for c in v.reference if c.name == tool)
    assert fn(v, before) != before  # the edit applies
    got = _graded(v, tool, key, lambda text: fn(v, text))
    assert not all(got.values()), got


@pytest.mark.parametrize(
    ("family", "band", "extra"),
    [
        ("accrue-expense", "easy", " Review on 2026-09-30; FY 2026."),
        ("correct-misposted-entry", "easy", " Corrected by reversal, not by editing entry 430."),
        ("apply-customer-payment", "easy", " Payment received 12 June 2026."),
    ],
)
def test_honest_additions_pass(family: str, band: str, extra: str) -> None:
    v = environment.variant(family, band, 0)
    got = _graded(v, "add_note", "body", lambda text: text + extra)
    assert all(got.values()), got
