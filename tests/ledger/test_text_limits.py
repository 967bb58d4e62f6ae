"""No ledger tool cuts an agent's text (issue 9, "no silent loss").

Before: create_bill and create_invoice kept the first 500 characters of a memo, a journal
line the first 200 of its memo, record_customer_payment the first 200 of a reference,
reverse_journal_entry the first 300 of its memo and ignore_bank_line the first 500 of its
reason, without a word (stop 21 fixed write_off_invoice alone). Now each field's limit is
in the tool's input schema (``maxLength``, `mcpgym_ledger.tools._limits`); a longer text is
refused before the tool runs, the message naming the field, the limit and the length, and
nothing is written; a text of exactly the limit is kept whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from mcpgym_ledger import environment
from mcpgym_ledger.tools import _limits
from mcpgym_server import InvalidArgumentsError, Sandbox, ToolCall, VirtualClock, replay


@pytest.fixture
def sb() -> Sandbox:
    return Sandbox(
        db=environment.snapshot.open_copy(),
        clock=VirtualClock(environment.clock_start, environment.clock_step),
        seed=0,
        episode_id="t",
    )


def call(sb: Sandbox, tool: str, /, **arguments: Any) -> Any:
    """Call a tool the way the runtime does (tick, validate, run)."""
    sb.clock.tick()
    spec = environment.tools[tool]
    return spec.fn(sb, **spec.validate(arguments))


def one(sb: Sandbox, sql: str, params: tuple[Any, ...] = ()) -> dict[str, Any]:
    row = sb.query_one(sql, params)
    assert row is not None, sql
    return row


def customer(sb: Sandbox) -> int:
    return one(sb, "SELECT id FROM parties WHERE kind = 'customer' ORDER BY id")["id"]


def vendor(sb: Sandbox) -> int:
    return one(sb, "SELECT id FROM parties WHERE kind = 'vendor' ORDER BY id")["id"]


def unmatched_line(sb: Sandbox) -> int:
    return one(sb, "SELECT id FROM bank_lines WHERE status = 'unmatched' ORDER BY id")["id"]


SALE = {"description": "Camp stove", "account_code": "4000", "net_cents": 1000, "tax_code": "STD"}
COST = {"description": "Courier", "account_code": "6300", "net_cents": 1000, "tax_code": "STD"}


@dataclass(frozen=True)
class Case:
    """One tool's text field: how to call the tool with ``text`` in it, and how to read back
    what the books keep of it (from the tool's result)."""

    tool: str
    field: str
    limit: int
    call: Callable[[Sandbox, str], dict[str, Any]]
    stored: Callable[[Sandbox, dict[str, Any]], str]


def _reverse(sb: Sandbox, text: str) -> dict[str, Any]:
    lines = [
        {"account_code": "6100", "debit_cents": 500},
        {"account_code": "2100", "credit_cents": 500},
    ]
    posted = call(sb, "post_journal_entry", entry_date="2026-06-10", memo="Accrue", lines=lines)
    return call(
        sb,
        "reverse_journal_entry",
        entry_id=posted["journal_entry_id"],
        reversal_date="2026-06-11",
        memo=text,
    )


def _entry_memo(sb: Sandbox, result: dict[str, Any]) -> str:
    row = one(sb, "SELECT memo FROM journal_entries WHERE id = ?", (result["journal_entry_id"],))
    return row["memo"]


CASES = [
    Case(
        "create_bill",
        "memo",
        _limits.DOCUMENT_MEMO,
        lambda sb, text: call(
            sb,
            "create_bill",
            vendor_id=vendor(sb),
            vendor_ref="LIMIT-1",
            bill_date="2026-06-10",
            lines=[COST],
            memo=text,
        ),
        lambda sb, r: one(sb, "SELECT memo FROM bills WHERE id = ?", (r["bill_id"],))["memo"],
    ),
    Case(
        "create_invoice",
        "memo",
        _limits.DOCUMENT_MEMO,
        lambda sb, text: call(
            sb,
            "create_invoice",
            customer_id=customer(sb),
            issue_date="2026-06-10",
            lines=[SALE],
            memo=text,
        ),
        lambda sb, r: one(sb, "SELECT memo FROM invoices WHERE id = ?", (r["invoice_id"],))["memo"],
    ),
    Case(
        "record_customer_payment",
        "reference",
        _limits.PAYMENT_REFERENCE,
        lambda sb, text: call(
            sb,
            "record_customer_payment",
            customer_id=customer(sb),
            amount_cents=1000,
            payment_date="2026-06-10",
            allocations=[],
            reference=text,
        ),
        lambda sb, r: one(sb, "SELECT reference FROM payments WHERE id = ?", (r["payment_id"],))[
            "reference"
        ],
    ),
    Case(
        "post_journal_entry",
        "lines.0.memo",
        _limits.LINE_MEMO,
        lambda sb, text: call(
            sb,
            "post_journal_entry",
            entry_date="2026-06-10",
            memo="Accrue May electricity",
            lines=[
                {"account_code": "6100", "debit_cents": 500, "memo": text},
                {"account_code": "2100", "credit_cents": 500},
            ],
        ),
        lambda sb, r: one(
            sb,
            "SELECT memo FROM journal_lines WHERE entry_id = ? ORDER BY id",
            (r["journal_entry_id"],),
        )["memo"],
    ),
    Case("reverse_journal_entry", "memo", _limits.REVERSAL_MEMO, _reverse, _entry_memo),
    Case(
        "ignore_bank_line",
        "reason",
        _limits.IGNORE_REASON,
        lambda sb, text: call(sb, "ignore_bank_line", bank_line_id=unmatched_line(sb), reason=text),
        lambda sb, r: one(sb, "SELECT note FROM bank_lines WHERE id = ?", (r["bank_line_id"],))[
            "note"
        ],
    ),
]


def text_of(length: int) -> str:
    """A text whose every part is distinct, so a cut anywhere shows (digits then a mark)."""
    return "".join(f"{i % 10}" for i in range(length - 1)) + "!"


def changes(sb: Sandbox) -> int:
    return sb.db.total_changes


@pytest.mark.parametrize("case", CASES, ids=[c.tool for c in CASES])
def test_a_text_longer_than_its_field_is_refused_and_nothing_is_written(
    sb: Sandbox, case: Case
) -> None:
    before = changes(sb)
    with pytest.raises(InvalidArgumentsError) as refused:
        case.call(sb, text_of(case.limit + 1))
    message = str(refused.value)
    assert f"`{case.field}`: text of {case.limit + 1} characters" in message, message
    assert f"at most {case.limit}" in message, message
    if case.tool != "reverse_journal_entry":  # that one posts its entry first, on purpose
        assert changes(sb) == before


@pytest.mark.parametrize("case", CASES, ids=[c.tool for c in CASES])
def test_a_text_of_the_limit_is_kept_whole(sb: Sandbox, case: Case) -> None:
    text = text_of(case.limit)
    assert case.stored(sb, case.call(sb, text)) == text


@pytest.mark.parametrize("case", CASES, ids=[c.tool for c in CASES])
def test_the_limit_is_in_the_tools_input_schema(case: Case) -> None:
    schema = environment.tools[case.tool].input_schema
    path = case.field.split(".")
    prop = schema["properties"][path[0]]
    if len(path) > 1:  # lines.0.memo: the line model's field
        model = prop["items"]["$ref"].rsplit("/", 1)[-1]
        prop = schema["$defs"][model]["properties"][path[-1]]
    assert prop["maxLength"] == case.limit, json.dumps(prop)


def test_over_the_runtime_the_call_is_logged_refused(sb: Sandbox) -> None:
    # a whole episode: the refused call is logged `invalid_arguments`, the tool never ran
    family = next(iter(environment.families.values()))
    text = text_of(_limits.IGNORE_REASON + 1)
    call_ = ToolCall("ignore_bank_line", {"bank_line_id": unmatched_line(sb), "reason": text})
    bundle = replay(environment, family.name, family.bands[0], 0, [call_])
    refused = bundle.log[0]
    assert refused.status == "invalid_arguments", refused
    assert "`reason`: text of 501 characters" in (refused.error or ""), refused.error
