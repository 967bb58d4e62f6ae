"""Hostile arguments never make a ledger tool fail as an environment bug: every call is ok, a
tool error or invalid arguments, never ``internal_error``, and the books stay balanced."""

from __future__ import annotations

import itertools
import random
from typing import Any

from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

INTS = [0, -1, 1, 2, 7, 10**15, 2**62, 187]
TEXTS = [
    "",
    " ",
    "%",
    "_",
    "'; DROP TABLE invoices; --",
    "2026-13-45",
    "2026-04-30",
    "x" * 3000,
    "2026-06-15",
    "STD",
    "6300",
    "2026-05",
]
LINES = [
    [],
    [{"account_code": "6300", "debit_cents": 100}],
    [{"account_code": "9999", "debit_cents": 5}, {"account_code": "1000", "credit_cents": 5}],
    [
        {"account_code": "6300", "debit_cents": 5, "credit_cents": 5},
        {"account_code": "1000", "credit_cents": 0},
    ],
    [
        {"account_code": "6300", "debit_cents": 2**62},
        {"account_code": "1000", "credit_cents": 2**62},
    ],
]
DOC_LINES = [
    [],
    [{"description": "x", "account_code": "4000", "net_cents": -5, "tax_code": "STD"}],
    [{"description": "x", "account_code": "6300", "net_cents": 10**15, "tax_code": "NOPE"}],
    [{"description": "", "account_code": "1000", "net_cents": 1, "tax_code": "STD", "quantity": 0}],
]


def _value(prop: dict[str, Any], name: str, rng: random.Random) -> Any:
    options = [o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"]
    kind = options[0].get("type") if options else None
    enum = next((o["enum"] for o in options if "enum" in o), None)
    if enum:
        return rng.choice(enum)
    if kind == "integer":
        return rng.choice(INTS)
    if kind == "array":
        if name == "lines":
            return rng.choice(LINES + DOC_LINES)
        return rng.choice(
            [[], [{"invoice_id": rng.choice(INTS), "amount_cents": rng.choice(INTS)}]]
        )
    return rng.choice(TEXTS)


def test_no_tool_fails_as_an_environment_bug() -> None:
    rng = random.Random(11)
    calls = []
    for spec, _ in itertools.product(
        sorted(environment.tools.values(), key=lambda s: s.name), range(12)
    ):
        if spec.framework:
            continue
        props = spec.input_schema.get("properties", {})
        calls.append(ToolCall(spec.name, {k: _value(p, k, rng) for k, p in props.items()}))
    rng.shuffle(calls)
    bundle = replay(environment, "enter-vendor-bill", "easy", 0, calls)
    bad = [
        (e.tool, e.arguments, e.internal_detail) for e in bundle.log if e.status == "internal_error"
    ]
    assert bad == []
    statuses = {e.status for e in bundle.log}
    assert {"ok", "tool_error"} <= statuses  # the fuzz reaches the tools' own checks
    db = bundle.open_final_db()
    debit, credit = db.execute(
        "SELECT SUM(debit_cents), SUM(credit_cents) FROM journal_lines"
    ).fetchone()
    assert debit == credit
