"""Invoices, bills and credit notes: find, read, create, post, credit."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from mcpgym_ledger.env import environment
from mcpgym_ledger.tools._common import (
    TODAY,
    DocLine,
    account,
    audit,
    insert,
    invoice_open_cents,
    money,
    post_entry,
    refresh_invoice_status,
    require_amount,
    require_date,
    require_party,
    require_row,
    require_text,
    tax_on,
    tax_rate,
    with_money,
)
from mcpgym_ledger.tools._limits import DocumentMemo, Text
from mcpgym_server import Sandbox, ToolError

MAX_LINES = 20


def _invoice(sb: Sandbox, invoice_id: int) -> dict[str, Any]:
    return require_row(
        sb, "invoices", invoice_id, "invoice", "use find_documents to list a customer's invoices"
    )


def _bill(sb: Sandbox, bill_id: int) -> dict[str, Any]:
    return require_row(sb, "bills", bill_id, "bill", "use find_documents to list a vendor's bills")


@environment.tool(kind="read")
def find_documents(
    sb: Sandbox,
    kind: Literal["invoice", "bill"],
    party_id: int | None = None,
    status: Literal["draft", "posted", "part_paid", "paid", "void", "written_off"] | None = None,
    text: str = "",
) -> dict[str, Any]:
    """Find invoices or bills, newest first, optionally for one party, in one status, or whose
    number / vendor reference / memo contains a text. Open documents show `open_cents` and
    `overdue` (due before today and not settled).

    Args:
        kind: "invoice" (sales, to customers) or "bill" (purchases, from vendors).
        party_id: only this customer's invoices or this vendor's bills.
        status: only documents in this status.
        text: part of an invoice number (INV-2026-0042) or a vendor's reference.
    """
    if len(text) > 200:
        raise ToolError("`text` is too long; give at most 200 characters")
    if kind == "invoice":
        sql = (
            "SELECT id, number, customer_id AS party_id, issue_date AS date, due_date, status, "
            "total_cents, paid_cents, credited_cents, written_off_cents, memo FROM invoices "
            "WHERE instr(lower(number || ' ' || memo), lower(?)) > 0"
        )
        pcol, dcol = "customer_id", "issue_date"
    else:
        sql = (
            "SELECT id, vendor_ref AS number, vendor_id AS party_id, bill_date AS date, "
            "due_date, status, total_cents, paid_cents, 0 AS credited_cents, "
            "0 AS written_off_cents, memo FROM bills "
            "WHERE instr(lower(vendor_ref || ' ' || memo), lower(?)) > 0"
        )
        pcol, dcol = "vendor_id", "bill_date"
    params: list[Any] = [text.strip()]
    if party_id is not None:
        sql += f" AND {pcol} = ?"
        params.append(party_id)
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    rows = sb.query(sql + f" ORDER BY {dcol} DESC, id DESC LIMIT 51", params)
    for r in rows:
        r["open_cents"] = invoice_open_cents(r) if r["status"] in ("posted", "part_paid") else 0
        r["overdue"] = r["open_cents"] > 0 and r["due_date"] < TODAY
        with_money(r, "total_cents", "open_cents")
    return {"documents": rows[:50], "truncated": len(rows) > 50}


def _lines(sb: Sandbox, table: str, key: str, doc_id: int) -> list[dict[str, Any]]:
    return [
        with_money(r, "net_cents", "tax_cents")
        for r in sb.query(
            f"SELECT l.*, a.code AS account_code FROM {table} l "
            f"JOIN accounts a ON a.id = l.account_id WHERE l.{key} = ? ORDER BY l.id",
            (doc_id,),
        )
    ]


@environment.tool(kind="read")
def get_invoice(sb: Sandbox, invoice_id: int) -> dict[str, Any]:
    """One sales invoice: lines (quantity, unit price, net, tax code and tax), totals, what is
    paid, credited, written off and still open, its payments and credit notes.

    Args:
        invoice_id: the invoice's id (from find_documents), e.g. 12.
    """
    inv = _invoice(sb, invoice_id)
    inv["lines"] = _lines(sb, "invoice_lines", "invoice_id", invoice_id)
    inv["open_cents"] = invoice_open_cents(inv) if inv["status"] in ("posted", "part_paid") else 0
    inv["overdue"] = inv["open_cents"] > 0 and inv["due_date"] < TODAY
    inv["payments"] = sb.query(
        "SELECT p.id AS payment_id, p.payment_date, a.amount_cents, p.reference "
        "FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
        "WHERE a.invoice_id = ? ORDER BY a.id",
        (invoice_id,),
    )
    inv["credit_notes"] = sb.query(
        "SELECT id, number, issue_date, total_cents, reason FROM credit_notes "
        "WHERE invoice_id = ? ORDER BY id",
        (invoice_id,),
    )
    return with_money(inv, "net_cents", "tax_cents", "total_cents", "paid_cents", "open_cents")


@environment.tool(kind="read")
def get_bill(sb: Sandbox, bill_id: int) -> dict[str, Any]:
    """One vendor bill: lines (account, net, tax code and tax), totals, payments, status.

    Args:
        bill_id: the bill's id (from find_documents), e.g. 31.
    """
    bill = _bill(sb, bill_id)
    bill["lines"] = _lines(sb, "bill_lines", "bill_id", bill_id)
    bill["notes"] = sb.query(
        "SELECT body, created_at FROM notes WHERE entity = 'bill' AND entity_id = ? ORDER BY id",
        (bill_id,),
    )
    return with_money(bill, "net_cents", "tax_cents", "total_cents", "paid_cents")


def _priced(sb: Sandbox, lines: list[DocLine], *, sales: bool) -> list[dict[str, Any]]:
    if not lines:
        raise ToolError("give at least one line")
    if len(lines) > MAX_LINES:
        raise ToolError(f"at most {MAX_LINES} lines per document")
    out = []
    for i, line in enumerate(lines, start=1):
        acct = account(sb, line.account_code)
        if line.quantity < 1 or line.quantity > 100_000:
            raise ToolError(f"line {i}: quantity must be 1 to 100000")
        net = require_amount(line.net_cents, f"lines[{i}].net_cents")
        rate = tax_rate(sb, line.tax_code)
        if sales and acct["type"] != "revenue":
            raise ToolError(f"line {i}: invoice lines go to a revenue account (4000 Sales)")
        if not sales and acct["type"] not in ("expense", "asset"):
            raise ToolError(f"line {i}: bill lines go to an expense or asset account")
        out.append(
            {
                "description": require_text(line.description, f"lines[{i}].description"),
                "account_id": acct["id"],
                "account_code": acct["code"],
                "net_cents": net,
                "tax_code": rate["code"],
                "tax_cents": tax_on(net, rate["rate_bp"]),
                "quantity": line.quantity,
            }
        )
    return out


@environment.tool(kind="write")
def create_bill(
    sb: Sandbox,
    vendor_id: int,
    vendor_ref: Text,
    bill_date: str,
    lines: list[DocLine],
    due_date: str | None = None,
    memo: DocumentMemo = "",
) -> dict[str, Any]:
    """Enter a vendor bill as a draft (nothing is posted yet; post it with post_bill). Tax is
    computed per line from its tax code. The system refuses a second bill with the same
    vendor and vendor_ref.

    Args:
        vendor_id: the vendor's party id (find_parties kind="vendor").
        vendor_ref: the vendor's own invoice number, e.g. "SWIF-1466".
        bill_date: the date on the bill, YYYY-MM-DD.
        lines: one line per expense: description, account_code, net_cents, tax_code.
        due_date: YYYY-MM-DD; default: bill date plus the vendor's terms.
        memo: optional memo.
    """
    vendor = require_party(sb, vendor_id, "vendor")
    ref = require_text(vendor_ref, "vendor_ref")
    day = require_date(bill_date, "bill_date")
    due = (
        require_date(due_date, "due_date")
        if due_date is not None
        else (date.fromisoformat(day) + timedelta(days=vendor["terms_days"])).isoformat()
    )
    dup = sb.query_one(
        "SELECT id, status FROM bills WHERE vendor_id = ? AND vendor_ref = ? AND status <> 'void'",
        (vendor_id, ref),
    )
    if dup is not None:
        raise ToolError(
            f"bill {ref} from {vendor['name']} is already entered as bill "
            f"{dup['id']} ({dup['status']}); see get_bill (policy 3.4)"
        )
    priced = _priced(sb, lines, sales=False)
    net = sum(x["net_cents"] for x in priced)
    tax = sum(x["tax_cents"] for x in priced)
    bill_id = insert(
        sb,
        "bills",
        {
            "vendor_id": vendor_id,
            "vendor_ref": ref,
            "bill_date": day,
            "due_date": due,
            "status": "draft",
            "net_cents": net,
            "tax_cents": tax,
            "total_cents": net + tax,
            "memo": memo.strip(),
            "updated_at": sb.clock.iso(),
        },
    )
    for x in priced:
        insert(
            sb,
            "bill_lines",
            {
                "bill_id": bill_id,
                "description": x["description"],
                "account_id": x["account_id"],
                "net_cents": x["net_cents"],
                "tax_code": x["tax_code"],
                "tax_cents": x["tax_cents"],
            },
        )
    audit(sb, "bill.create", "bill", bill_id, total_cents=net + tax)
    return {
        "bill_id": bill_id,
        "status": "draft",
        "net_cents": net,
        "tax_cents": tax,
        "total_cents": net + tax,
        "total": money(net + tax),
        "due_date": due,
    }


@environment.tool(kind="write")
def post_bill(sb: Sandbox, bill_id: int, posting_date: str | None = None) -> dict[str, Any]:
    """Post a draft bill: its journal entry debits each line's account (net) and input tax
    (1400), and credits Accounts Payable (2000) with the total.

    Args:
        bill_id: the draft bill's id.
        posting_date: the entry's date, YYYY-MM-DD; default: the bill date.
    """
    bill = _bill(sb, bill_id)
    if bill["status"] != "draft":
        raise ToolError(f"bill {bill_id} is {bill['status']}, not a draft; only drafts are posted")
    day = require_date(posting_date, "posting_date") if posting_date else bill["bill_date"]
    vendor = require_party(sb, bill["vendor_id"])
    lines: list[tuple[str, int, int, int | None, str]] = []
    for line in _lines(sb, "bill_lines", "bill_id", bill_id):
        lines.append(
            (line["account_code"], line["net_cents"], 0, vendor["id"], line["description"])
        )
    lines.append(("1400", bill["tax_cents"], 0, vendor["id"], "input tax"))
    lines.append(("2000", 0, bill["total_cents"], vendor["id"], bill["vendor_ref"]))
    entry_id, warnings = post_entry(
        sb, day, f"Bill {bill['vendor_ref']} from {vendor['name']}", "bill", bill_id, lines
    )
    sb.db.execute(
        "UPDATE bills SET status = 'posted', journal_entry_id = ?, updated_at = ? WHERE id = ?",
        (entry_id, sb.clock.iso(), bill_id),
    )
    audit(sb, "bill.post", "bill", bill_id, entry=entry_id)
    return {
        "bill_id": bill_id,
        "status": "posted",
        "journal_entry_id": entry_id,
        "entry_date": day,
        "warnings": warnings,
    }


@environment.tool(kind="write")
def create_invoice(
    sb: Sandbox, customer_id: int, issue_date: str, lines: list[DocLine], memo: DocumentMemo = ""
) -> dict[str, Any]:
    """Create a sales invoice as a draft (post it with post_invoice); due after the customer's
    terms. Each line: description, account_code (4000), net_cents (quantity x unit price),
    tax_code, quantity.

    Args:
        customer_id: the customer's party id.
        issue_date: YYYY-MM-DD.
        lines: the invoice lines.
        memo: optional memo.
    """
    cust = require_party(sb, customer_id, "customer")
    day = require_date(issue_date, "issue_date")
    priced = _priced(sb, lines, sales=True)
    net = sum(x["net_cents"] for x in priced)
    tax = sum(x["tax_cents"] for x in priced)
    count = sb.db.execute("SELECT COALESCE(MAX(id), 0) FROM invoices").fetchone()[0]
    number = f"INV-2026-{count + 1:04d}"
    due = (date.fromisoformat(day) + timedelta(days=cust["terms_days"])).isoformat()
    inv = insert(
        sb,
        "invoices",
        {
            "number": number,
            "customer_id": customer_id,
            "issue_date": day,
            "due_date": due,
            "status": "draft",
            "net_cents": net,
            "tax_cents": tax,
            "total_cents": net + tax,
            "memo": memo.strip(),
            "updated_at": sb.clock.iso(),
        },
    )
    for x in priced:
        insert(
            sb,
            "invoice_lines",
            {
                "invoice_id": inv,
                "description": x["description"],
                "account_id": x["account_id"],
                "quantity": x["quantity"],
                "unit_cents": x["net_cents"] // x["quantity"],
                "net_cents": x["net_cents"],
                "tax_code": x["tax_code"],
                "tax_cents": x["tax_cents"],
            },
        )
    audit(sb, "invoice.create", "invoice", inv)
    return {"invoice_id": inv, "number": number, "status": "draft", "total_cents": net + tax}


@environment.tool(kind="write")
def post_invoice(sb: Sandbox, invoice_id: int, posting_date: str | None = None) -> dict[str, Any]:
    """Post a draft invoice: debit Accounts Receivable (1100) with the total, credit Sales
    (4000) net and Sales Tax Payable (2200) tax.

    Args:
        invoice_id: the draft invoice's id.
        posting_date: the entry's date, YYYY-MM-DD; default: the issue date.
    """
    inv = _invoice(sb, invoice_id)
    if inv["status"] != "draft":
        raise ToolError(f"invoice {inv['number']} is {inv['status']}, not a draft")
    day = require_date(posting_date, "posting_date") if posting_date else inv["issue_date"]
    cust = inv["customer_id"]
    entry_id, warnings = post_entry(
        sb,
        day,
        f"Invoice {inv['number']}",
        "invoice",
        invoice_id,
        [
            ("1100", inv["total_cents"], 0, cust, ""),
            ("4000", 0, inv["net_cents"], cust, ""),
            ("2200", 0, inv["tax_cents"], cust, ""),
        ],
    )
    sb.db.execute(
        "UPDATE invoices SET status = 'posted', journal_entry_id = ?, updated_at = ? WHERE id = ?",
        (entry_id, sb.clock.iso(), invoice_id),
    )
    audit(sb, "invoice.post", "invoice", invoice_id, entry=entry_id)
    return {
        "invoice_id": invoice_id,
        "status": "posted",
        "journal_entry_id": entry_id,
        "warnings": warnings,
    }


@environment.tool(kind="write")
def issue_credit_note(
    sb: Sandbox,
    invoice_id: int,
    net_cents: int,
    tax_code: str,
    reason: Text,
    issue_date: str = TODAY,
) -> dict[str, Any]:
    """Issue and post a credit note against a posted invoice (returned goods, allowances):
    debit Sales Returns (4100) net and Sales Tax Payable (2200) tax, credit Accounts
    Receivable (1100). The system refuses more than is still open on the invoice.

    Args:
        invoice_id: the invoice being credited.
        net_cents: net amount credited before tax, in cents.
        tax_code: the tax code of the credited line, e.g. "STD".
        reason: why, e.g. "returned 2 x Camp stove".
        issue_date: YYYY-MM-DD; default today.
    """
    inv = _invoice(sb, invoice_id)
    if inv["status"] not in ("posted", "part_paid"):
        raise ToolError(
            f"invoice {inv['number']} is {inv['status']}; only posted invoices with "
            "something open can be credited"
        )
    require_amount(net_cents, "net_cents")
    rate = tax_rate(sb, tax_code)
    tax = tax_on(net_cents, rate["rate_bp"])
    total = net_cents + tax
    left = invoice_open_cents(inv)
    if total > left:
        raise ToolError(
            f"a credit of {money(total)} exceeds the {money(left)} still open on "
            f"{inv['number']} (policy 7.1)"
        )
    day = require_date(issue_date, "issue_date")
    why = require_text(reason, "reason")
    count = sb.db.execute("SELECT COALESCE(MAX(id), 0) FROM credit_notes").fetchone()[0]
    number = f"CN-2026-{count + 1:04d}"
    cust = inv["customer_id"]
    cn = insert(
        sb,
        "credit_notes",
        {
            "number": number,
            "invoice_id": invoice_id,
            "customer_id": cust,
            "issue_date": day,
            "net_cents": net_cents,
            "tax_cents": tax,
            "total_cents": total,
            "reason": why,
            "created_at": sb.clock.iso(),
        },
    )
    entry_id, warnings = post_entry(
        sb,
        day,
        f"Credit note {number} on {inv['number']}",
        "credit_note",
        cn,
        [
            ("4100", net_cents, 0, cust, why),
            ("2200", tax, 0, cust, ""),
            ("1100", 0, total, cust, ""),
        ],
    )
    sb.db.execute("UPDATE credit_notes SET journal_entry_id = ? WHERE id = ?", (entry_id, cn))
    sb.db.execute(
        "UPDATE invoices SET credited_cents = credited_cents + ? WHERE id = ?", (total, invoice_id)
    )
    refresh_invoice_status(sb, invoice_id)
    audit(sb, "credit_note.issue", "credit_note", cn, entry=entry_id, invoice=invoice_id)
    return {
        "credit_note_id": cn,
        "number": number,
        "net_cents": net_cents,
        "tax_cents": tax,
        "total_cents": total,
        "total": money(total),
        "journal_entry_id": entry_id,
        "warnings": warnings,
    }
