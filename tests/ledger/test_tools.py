"""The ledger tools through the SDK on a fresh sandbox: happy paths, enforced rules, and the
rules that are the agent's to apply (the tool lets them through with a warning)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpgym_ledger import environment
from mcpgym_server import InvalidArgumentsError, Sandbox, ToolError, VirtualClock


@pytest.fixture
def sb() -> Sandbox:
    return Sandbox(
        db=environment.snapshot.open_copy(),
        clock=VirtualClock(environment.clock_start, environment.clock_step),
        seed=0,
        episode_id="t",
    )


def call(sb: Sandbox, tool: str, /, **arguments: Any) -> Any:
    """Call a tool the way the runtime does (tick, validate, run); the result is JSON."""
    sb.clock.tick()
    spec = environment.tools[tool]
    result = spec.fn(sb, **spec.validate(arguments))
    assert json.loads(json.dumps(result)) == result
    return result


def balanced(sb: Sandbox) -> bool:
    return call(sb, "trial_balance")["balanced"]


def test_tools_declared() -> None:
    names = set(environment.tools) - {"submit"}
    assert len(names) >= 18
    reads = {n for n in names if environment.tools[n].kind == "read"}
    assert {"get_policy", "list_accounts", "find_documents", "list_bank_lines"} <= reads
    assert len(names - reads) >= 12
    assert "ledger://policy" in environment.resources


def test_bill_is_entered_as_a_draft_then_posted_with_tax(sb: Sandbox) -> None:
    vendor = call(sb, "find_parties", text="Swift", kind="vendor")["parties"][0]
    line = {"description": "Freight", "account_code": "6300", "net_cents": 10005, "tax_code": "STD"}
    bill = call(
        sb,
        "create_bill",
        vendor_id=vendor["id"],
        vendor_ref="SWIF-1",
        bill_date="2026-06-10",
        lines=[line],
    )
    assert (bill["status"], bill["tax_cents"], bill["total_cents"]) == ("draft", 1001, 11006)
    with pytest.raises(ToolError, match="already entered"):
        call(
            sb,
            "create_bill",
            vendor_id=vendor["id"],
            vendor_ref="SWIF-1",
            bill_date="2026-06-10",
            lines=[line],
        )
    posted = call(sb, "post_bill", bill_id=bill["bill_id"])
    entry = call(sb, "get_journal_entry", entry_id=posted["journal_entry_id"])
    got = {(x["account_code"], x["debit_cents"], x["credit_cents"]) for x in entry["lines"]}
    assert got == {("6300", 10005, 0), ("1400", 1001, 0), ("2000", 0, 11006)}
    assert balanced(sb)


def test_unbalanced_entries_are_refused_and_closed_periods_warn(sb: Sandbox) -> None:
    with pytest.raises(ToolError, match="does not balance"):
        call(
            sb,
            "post_journal_entry",
            entry_date="2026-06-15",
            memo="x",
            lines=[
                {"account_code": "6100", "debit_cents": 100},
                {"account_code": "1000", "credit_cents": 99},
            ],
        )
    got = call(
        sb,
        "post_journal_entry",
        entry_date="2026-04-30",
        memo="late",
        lines=[
            {"account_code": "6100", "debit_cents": 100},
            {"account_code": "2100", "credit_cents": 100},
        ],
    )
    assert got["warnings"] and "closed" in got["warnings"][0]
    with pytest.raises(ToolError, match="YYYY-MM-DD"):
        call(
            sb,
            "post_journal_entry",
            entry_date="yesterday",
            memo="x",
            lines=[
                {"account_code": "6100", "debit_cents": 1},
                {"account_code": "1000", "credit_cents": 1},
            ],
        )


def test_reversal_swaps_lines_once_and_edit_is_recorded(sb: Sandbox) -> None:
    posted = call(
        sb,
        "post_journal_entry",
        entry_date="2026-06-15",
        memo="m",
        lines=[
            {"account_code": "6200", "debit_cents": 500},
            {"account_code": "1000", "credit_cents": 500},
        ],
    )
    rev = call(
        sb, "reverse_journal_entry", entry_id=posted["journal_entry_id"], reversal_date="2026-06-15"
    )
    entry = call(sb, "get_journal_entry", entry_id=rev["journal_entry_id"])
    assert {(x["account_code"], x["debit_cents"]) for x in entry["lines"]} == {
        ("6200", 0),
        ("1000", 500),
    }
    with pytest.raises(ToolError, match="already reversed"):
        call(
            sb,
            "reverse_journal_entry",
            entry_id=posted["journal_entry_id"],
            reversal_date="2026-06-15",
        )
    with pytest.raises(ToolError, match="itself a reversal"):
        call(
            sb,
            "reverse_journal_entry",
            entry_id=rev["journal_entry_id"],
            reversal_date="2026-06-15",
        )
    edited = call(
        sb,
        "edit_journal_entry",
        entry_id=1,
        lines=[
            {"account_code": "1000", "debit_cents": 7},
            {"account_code": "3000", "credit_cents": 7},
        ],
    )
    assert edited["warnings"]
    assert sb.query_one("SELECT edited_at FROM journal_entries WHERE id = 1")["edited_at"]


def test_payment_allocations_are_checked_and_leftover_is_credit(sb: Sandbox) -> None:
    inv = sb.query_one(
        "SELECT * FROM invoices WHERE status = 'posted' AND credited_cents = 0 ORDER BY id"
    )
    other = sb.query_one(
        "SELECT * FROM invoices WHERE status = 'posted' AND customer_id <> ? ORDER BY id",
        (inv["customer_id"],),
    )
    common = {"customer_id": inv["customer_id"], "payment_date": "2026-06-14"}
    with pytest.raises(ToolError, match="another customer"):
        call(
            sb,
            "record_customer_payment",
            amount_cents=100,
            **common,
            allocations=[{"invoice_id": other["id"], "amount_cents": 100}],
        )
    with pytest.raises(ToolError, match="more than"):
        call(
            sb,
            "record_customer_payment",
            amount_cents=inv["total_cents"] + 1,
            **common,
            allocations=[{"invoice_id": inv["id"], "amount_cents": inv["total_cents"] + 1}],
        )
    got = call(
        sb,
        "record_customer_payment",
        amount_cents=inv["total_cents"] + 250,
        **common,
        allocations=[{"invoice_id": inv["id"], "amount_cents": inv["total_cents"]}],
    )
    assert got["unapplied_cents"] == 250
    assert call(sb, "get_invoice", invoice_id=inv["id"])["status"] == "paid"
    assert call(sb, "get_party", party_id=inv["customer_id"])["credit_cents"] == 250
    assert balanced(sb)


def test_bank_lines_match_only_equal_amounts(sb: Sandbox) -> None:
    line = call(sb, "list_bank_lines", status="unmatched")["bank_lines"][0]
    fee = call(
        sb,
        "post_journal_entry",
        entry_date=line["line_date"],
        memo="x",
        lines=[
            {"account_code": "1000", "debit_cents": line["amount_cents"] + 1},
            {"account_code": "4900", "credit_cents": line["amount_cents"] + 1},
        ],
    )
    with pytest.raises(ToolError, match="must be equal"):
        call(
            sb, "match_bank_line", bank_line_id=line["id"], journal_entry_id=fee["journal_entry_id"]
        )
    call(sb, "ignore_bank_line", bank_line_id=line["id"], reason="duplicate of another line")
    with pytest.raises(ToolError, match="already ignored"):
        call(sb, "ignore_bank_line", bank_line_id=line["id"], reason="again")


def test_write_off_and_credit_note_stay_within_what_is_open(sb: Sandbox) -> None:
    inv = sb.query_one("SELECT * FROM invoices WHERE status = 'part_paid' ORDER BY id")
    left = inv["total_cents"] - inv["paid_cents"] - inv["credited_cents"]
    with pytest.raises(ToolError, match="more than"):
        call(sb, "write_off_invoice", invoice_id=inv["id"], amount_cents=left + 1, reason="r")
    with pytest.raises(ToolError, match="exceeds"):
        call(
            sb,
            "issue_credit_note",
            invoice_id=inv["id"],
            net_cents=left,
            tax_code="STD",
            reason="returned",
        )
    # a reason the entry's memo cannot hold is refused, never cut (a cut reason is not what
    # was written: the gate's entities form lost its tax id past the old 300-character cut)
    with pytest.raises(InvalidArgumentsError, match="`reason`: text of 290 characters; .* 275"):
        call(sb, "write_off_invoice", invoice_id=inv["id"], amount_cents=left, reason="x" * 290)
    assert call(sb, "get_invoice", invoice_id=inv["id"])["status"] == "part_paid"
    call(sb, "write_off_invoice", invoice_id=inv["id"], amount_cents=left, reason="gone")
    assert call(sb, "get_invoice", invoice_id=inv["id"])["status"] == "written_off"
    assert balanced(sb)


def test_close_period_and_notes(sb: Sandbox) -> None:
    assert call(sb, "close_period", period="2026-05")["status"] == "closed"
    with pytest.raises(ToolError, match="already closed"):
        call(sb, "close_period", period="2026-05")
    with pytest.raises(ToolError, match="no invoice"):
        call(sb, "add_note", entity="invoice", entity_id=999999, body="x")
    assert call(sb, "add_note", entity="party", entity_id=1, body="called")["note_id"] > 0
