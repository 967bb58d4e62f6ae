"""Reading the books: the policy, chart of accounts, tax rates, periods, trial balance, parties."""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

from mcpgym_ledger.env import environment
from mcpgym_ledger.tools._common import (
    TODAY,
    invoice_open_cents,
    money,
    require_date,
    require_party,
    with_money,
)
from mcpgym_server import Resource, Sandbox, ToolError

POLICY_TEXT = resources.files("mcpgym_ledger").joinpath("data/policy.md").read_text("utf-8")
"""The accounting policy (markdown)."""

environment.add_resource(
    Resource(
        uri="ledger://policy",
        name="policy",
        description="Harbor & Pine Wholesale accounting policy (periods, approvals, "
        "corrections, write-off limits).",
        mime_type="text/markdown",
        text=POLICY_TEXT,
    )
)

MAX_RESULTS = 50
"""Most rows a list or search tool returns."""


@environment.tool(kind="read")
def get_policy(sb: Sandbox) -> dict[str, Any]:
    """Read the accounting policy: periods, bills and approvals, payments, bank
    reconciliation, corrections, credit notes, write-off limits, accruals. Read it first."""
    return {"policy": POLICY_TEXT}


@environment.tool(kind="read")
def list_accounts(
    sb: Sandbox,
    type: Literal["asset", "liability", "equity", "revenue", "expense"] | None = None,
) -> dict[str, Any]:
    """List the chart of accounts (code, name, type, description) with each account's balance
    (debits minus credits, in cents, over every posted entry).

    Args:
        type: only accounts of this type.
    """
    sql = (
        "SELECT a.code, a.name, a.type, a.description, "
        "COALESCE(SUM(l.debit_cents), 0) - COALESCE(SUM(l.credit_cents), 0) AS balance_cents "
        "FROM accounts a LEFT JOIN journal_lines l ON l.account_id = a.id"
    )
    params: list[Any] = []
    if type is not None:
        sql += " WHERE a.type = ?"
        params.append(type)
    rows = sb.query(sql + " GROUP BY a.id ORDER BY a.code", params)
    return {"accounts": [with_money(r, "balance_cents") for r in rows]}


@environment.tool(kind="read")
def list_tax_rates(sb: Sandbox) -> dict[str, Any]:
    """List the tax codes with their rates (basis points: 1000 = 10%) and tax accounts."""
    rows = sb.query(
        "SELECT t.code, t.name, t.rate_bp, s.code AS sales_tax_account, "
        "p.code AS purchase_tax_account FROM tax_rates t "
        "LEFT JOIN accounts s ON s.id = t.sales_account_id "
        "LEFT JOIN accounts p ON p.id = t.purchase_account_id ORDER BY t.id"
    )
    return {"tax_rates": rows, "rounding": "per line, half up to the cent"}


@environment.tool(kind="read")
def list_periods(sb: Sandbox) -> dict[str, Any]:
    """List the accounting periods (monthly) with their status (open or closed)."""
    rows = sb.query("SELECT * FROM periods ORDER BY starts_on")
    return {"periods": rows, "today": TODAY}


@environment.tool(kind="read")
def trial_balance(sb: Sandbox, as_of: str | None = None) -> dict[str, Any]:
    """The trial balance: every account's debit and credit totals up to a date, and whether
    total debits equal total credits.

    Args:
        as_of: include entries dated on or before this day (YYYY-MM-DD); default: all.
    """
    day = require_date(as_of, "as_of") if as_of is not None else "9999-12-31"
    rows = sb.query(
        "SELECT a.code, a.name, COALESCE(SUM(l.debit_cents), 0) AS debit_cents, "
        "COALESCE(SUM(l.credit_cents), 0) AS credit_cents FROM accounts a "
        "JOIN journal_lines l ON l.account_id = a.id "
        "JOIN journal_entries e ON e.id = l.entry_id WHERE e.entry_date <= ? "
        "GROUP BY a.id ORDER BY a.code",
        (day,),
    )
    debit = sum(r["debit_cents"] for r in rows)
    credit = sum(r["credit_cents"] for r in rows)
    return {
        "accounts": [with_money(r, "debit_cents", "credit_cents") for r in rows],
        "total_debit_cents": debit,
        "total_credit_cents": credit,
        "balanced": debit == credit,
    }


@environment.tool(kind="read")
def find_parties(
    sb: Sandbox, text: str = "", kind: Literal["customer", "vendor"] | None = None
) -> dict[str, Any]:
    """Find customers and vendors whose name or email contains a text (case-insensitive).

    Args:
        text: part of a name or email, e.g. "Swift"; empty lists everyone.
        kind: only customers or only vendors.
    """
    if len(text) > 200:
        raise ToolError("`text` is too long; give at most 200 characters of a name")
    sql = (
        "SELECT p.id, p.kind, p.name, p.email, p.terms_days, p.default_tax_code, "
        "a.code AS default_account FROM parties p "
        "LEFT JOIN accounts a ON a.id = p.default_account_id "
        "WHERE instr(lower(p.name || ' ' || p.email), lower(?)) > 0"
    )
    params: list[Any] = [text.strip()]
    if kind is not None:
        sql += " AND p.kind = ?"
        params.append(kind)
    rows = sb.query(sql + " ORDER BY p.id LIMIT ?", [*params, MAX_RESULTS + 1])
    return {"parties": rows[:MAX_RESULTS], "truncated": len(rows) > MAX_RESULTS}


@environment.tool(kind="read")
def get_party(sb: Sandbox, party_id: int) -> dict[str, Any]:
    """One customer or vendor: contact, tax id, terms, usual account and tax code, its open
    documents (invoices or bills not fully settled) and, for customers, the credit held.

    Args:
        party_id: the party's id (from find_parties), e.g. 3.
    """
    party = require_party(sb, party_id)
    code = sb.query_one("SELECT code FROM accounts WHERE id = ?", (party["default_account_id"],))
    party["default_account"] = code["code"] if code else None
    if party["kind"] == "customer":
        docs = sb.query(
            "SELECT id, number, issue_date, due_date, status, total_cents, paid_cents, "
            "credited_cents, written_off_cents FROM invoices WHERE customer_id = ? "
            "AND status IN ('posted', 'part_paid') ORDER BY due_date, number",
            (party_id,),
        )
        for d in docs:
            d["open_cents"] = invoice_open_cents(d)
            d["overdue"] = d["due_date"] < TODAY
            with_money(d, "total_cents", "open_cents")
        credit = sb.db.execute(
            "SELECT COALESCE(SUM(unapplied_cents), 0) FROM payments WHERE party_id = ? "
            "AND direction = 'received'",
            (party_id,),
        ).fetchone()[0]
        party["open_invoices"] = docs
        party["credit_cents"] = int(credit)
        party["credit"] = money(int(credit))
    else:
        docs = sb.query(
            "SELECT id, vendor_ref, bill_date, due_date, status, total_cents, paid_cents "
            "FROM bills WHERE vendor_id = ? AND status IN ('draft', 'posted', 'part_paid') "
            "ORDER BY due_date, id",
            (party_id,),
        )
        party["open_bills"] = [
            with_money(
                {**d, "open_cents": d["total_cents"] - d["paid_cents"]}, "total_cents", "open_cents"
            )
            for d in docs
        ]
    return party
