"""Money that moves: customer payments, bill payments, bad-debt write-offs."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from mcpgym_ledger.env import environment
from mcpgym_ledger.tools._common import (
    TODAY,
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
)
from mcpgym_ledger.tools._limits import WRITE_OFF_MEMO, PaymentReference, WriteOffReason
from mcpgym_server import Sandbox, ToolError


class Allocation(BaseModel):
    """How much of a payment goes to one invoice."""

    invoice_id: int = Field(description="the invoice's id")
    amount_cents: int = Field(description="cents of the payment applied to it")


def _bank_line_for(sb: Sandbox, bank_line_id: int | None, signed_cents: int) -> dict | None:
    if bank_line_id is None:
        return None
    line = require_row(sb, "bank_lines", bank_line_id, "bank line", "see list_bank_lines")
    if line["status"] != "unmatched":
        raise ToolError(f"bank line {bank_line_id} is already {line['status']}")
    if line["amount_cents"] != signed_cents:
        raise ToolError(
            f"bank line {bank_line_id} is {money(line['amount_cents'])}, but the payment is "
            f"{money(signed_cents)}; a payment matches a line of the same amount"
        )
    return line


@environment.tool(kind="write")
def record_customer_payment(
    sb: Sandbox,
    customer_id: int,
    amount_cents: int,
    payment_date: str,
    allocations: list[Allocation],
    bank_line_id: int | None = None,
    reference: PaymentReference = "",
) -> dict[str, Any]:
    """Record money received from a customer and apply it to their invoices. Its entry debits
    Operating Bank (1000) with the amount and credits Accounts Receivable (1100) with what is
    applied; any part not applied is held as customer credit (2300 Customer Credits). The
    system refuses allocations to another customer's invoice, to an invoice that is not
    posted or part paid, above what is open on it, or adding up to more than the payment.

    Args:
        customer_id: the customer's party id.
        amount_cents: the whole amount received, in cents.
        payment_date: YYYY-MM-DD (the bank line's date when it came through the bank).
        allocations: [{"invoice_id": ..., "amount_cents": ...}, ...]; may be empty.
        bank_line_id: the bank statement line this payment is (it becomes matched).
        reference: the payer's reference, e.g. "RCPT 448120".
    """
    cust = require_party(sb, customer_id, "customer")
    require_amount(amount_cents)
    day = require_date(payment_date, "payment_date")
    line = _bank_line_for(sb, bank_line_id, amount_cents)
    applied = 0
    seen: set[int] = set()
    checked = []
    for a in allocations:
        if a.invoice_id in seen:
            raise ToolError(f"invoice {a.invoice_id} appears twice in allocations; give it once")
        seen.add(a.invoice_id)
        inv = require_row(sb, "invoices", a.invoice_id, "invoice", "see find_documents")
        if inv["customer_id"] != customer_id:
            raise ToolError(f"invoice {inv['number']} belongs to another customer (policy 4.3)")
        if inv["status"] not in ("posted", "part_paid"):
            raise ToolError(
                f"invoice {inv['number']} is {inv['status']}; payments apply to "
                "posted or part-paid invoices only (policy 4.3)"
            )
        require_amount(a.amount_cents, "allocations.amount_cents")
        left = invoice_open_cents(inv)
        if a.amount_cents > left:
            raise ToolError(
                f"{money(a.amount_cents)} is more than the {money(left)} open on {inv['number']}"
            )
        applied += a.amount_cents
        checked.append((inv, a.amount_cents))
    if applied > amount_cents:
        raise ToolError(
            f"allocations add up to {money(applied)}, more than the payment {money(amount_cents)}"
        )
    unapplied = amount_cents - applied
    pay = insert(
        sb,
        "payments",
        {
            "direction": "received",
            "party_id": customer_id,
            "payment_date": day,
            "amount_cents": amount_cents,
            "unapplied_cents": unapplied,
            "reference": reference.strip(),
            "created_at": sb.clock.iso(),
        },
    )
    for inv, cents in checked:
        insert(
            sb,
            "payment_allocations",
            {"payment_id": pay, "invoice_id": inv["id"], "amount_cents": cents},
        )
        sb.db.execute(
            "UPDATE invoices SET paid_cents = paid_cents + ? WHERE id = ?", (cents, inv["id"])
        )
        refresh_invoice_status(sb, inv["id"])
    entry_id, warnings = post_entry(
        sb,
        day,
        f"Payment received from {cust['name']}",
        "payment",
        pay,
        [
            ("1000", amount_cents, 0, customer_id, ""),
            ("1100", 0, applied, customer_id, ""),
            ("2300", 0, unapplied, customer_id, "held as credit"),
        ],
    )
    sb.db.execute("UPDATE payments SET journal_entry_id = ? WHERE id = ?", (entry_id, pay))
    if line is not None:
        sb.db.execute(
            "UPDATE bank_lines SET status = 'matched', payment_id = ?, "
            "journal_entry_id = ?, updated_at = ? WHERE id = ?",
            (pay, entry_id, sb.clock.iso(), line["id"]),
        )
    audit(sb, "payment.record", "payment", pay, entry=entry_id, unapplied_cents=unapplied)
    return {
        "payment_id": pay,
        "applied_cents": applied,
        "unapplied_cents": unapplied,
        "credit_held": money(unapplied),
        "journal_entry_id": entry_id,
        "warnings": warnings,
    }


@environment.tool(kind="write")
def pay_bill(
    sb: Sandbox,
    bill_id: int,
    amount_cents: int,
    payment_date: str = TODAY,
    bank_line_id: int | None = None,
) -> dict[str, Any]:
    """Pay a posted vendor bill (in full or in part): debit Accounts Payable (2000), credit
    Operating Bank (1000). The system refuses more than is still open on the bill.

    Args:
        bill_id: the bill's id.
        amount_cents: cents paid.
        payment_date: YYYY-MM-DD; default today.
        bank_line_id: the bank statement line of this payment (a negative line).
    """
    bill = require_row(sb, "bills", bill_id, "bill", "see find_documents")
    if bill["status"] not in ("posted", "part_paid"):
        raise ToolError(f"bill {bill_id} is {bill['status']}; only posted bills are paid")
    require_amount(amount_cents)
    left = bill["total_cents"] - bill["paid_cents"]
    if amount_cents > left:
        raise ToolError(f"{money(amount_cents)} is more than the {money(left)} open on the bill")
    day = require_date(payment_date, "payment_date")
    line = _bank_line_for(sb, bank_line_id, -amount_cents)
    pay = insert(
        sb,
        "payments",
        {
            "direction": "paid",
            "party_id": bill["vendor_id"],
            "payment_date": day,
            "amount_cents": amount_cents,
            "reference": f"ACH {bill['vendor_ref']}",
            "created_at": sb.clock.iso(),
        },
    )
    insert(
        sb,
        "payment_allocations",
        {"payment_id": pay, "bill_id": bill_id, "amount_cents": amount_cents},
    )
    entry_id, warnings = post_entry(
        sb,
        day,
        f"Payment of bill {bill['vendor_ref']}",
        "payment",
        pay,
        [
            ("2000", amount_cents, 0, bill["vendor_id"], ""),
            ("1000", 0, amount_cents, bill["vendor_id"], ""),
        ],
    )
    paid = bill["paid_cents"] + amount_cents
    sb.db.execute("UPDATE payments SET journal_entry_id = ? WHERE id = ?", (entry_id, pay))
    sb.db.execute(
        "UPDATE bills SET paid_cents = ?, status = ?, updated_at = ? WHERE id = ?",
        (paid, "paid" if paid == bill["total_cents"] else "part_paid", sb.clock.iso(), bill_id),
    )
    if line is not None:
        sb.db.execute(
            "UPDATE bank_lines SET status = 'matched', payment_id = ?, "
            "journal_entry_id = ?, updated_at = ? WHERE id = ?",
            (pay, entry_id, sb.clock.iso(), line["id"]),
        )
    audit(sb, "payment.record", "payment", pay, entry=entry_id, bill=bill_id)
    return {"payment_id": pay, "journal_entry_id": entry_id, "warnings": warnings}


@environment.tool(kind="write")
def write_off_invoice(
    sb: Sandbox,
    invoice_id: int,
    amount_cents: int,
    reason: WriteOffReason,
    write_off_date: str = TODAY,
) -> dict[str, Any]:
    """Write off what a customer will not pay on an invoice as bad debt: debit Bad Debt
    Expense (6800), credit Accounts Receivable (1100). The system refuses more than is still
    open. Policy (not enforced): at most $500.00 per invoice, and only invoices more than 90
    days past due; above the limit escalate instead.

    Args:
        invoice_id: the invoice's id.
        amount_cents: cents written off.
        reason: why, e.g. "customer ceased trading".
        write_off_date: YYYY-MM-DD; default today.
    """
    inv = require_row(sb, "invoices", invoice_id, "invoice", "see find_documents")
    if inv["status"] not in ("posted", "part_paid"):
        raise ToolError(f"invoice {inv['number']} is {inv['status']}; nothing open to write off")
    require_amount(amount_cents)
    left = invoice_open_cents(inv)
    if amount_cents > left:
        raise ToolError(
            f"{money(amount_cents)} is more than the {money(left)} open on "
            f"{inv['number']} (policy 8.3)"
        )
    why = require_text(reason, "reason")
    memo = f"Write off {inv['number']}: {why}"
    if len(memo) > WRITE_OFF_MEMO:  # refused, never cut: a cut reason is not what was written
        raise ToolError(
            f"`reason` is too long for the entry's memo ({len(why)} characters; at most "
            f"{WRITE_OFF_MEMO - len(memo) + len(why)} here): shorten it"
        )
    day = require_date(write_off_date, "write_off_date")
    cust = inv["customer_id"]
    entry_id, warnings = post_entry(
        sb,
        day,
        memo,
        "write_off",
        invoice_id,
        [("6800", amount_cents, 0, cust, ""), ("1100", 0, amount_cents, cust, "")],
    )
    sb.db.execute(
        "UPDATE invoices SET written_off_cents = written_off_cents + ? WHERE id = ?",
        (amount_cents, invoice_id),
    )
    refresh_invoice_status(sb, invoice_id)
    audit(sb, "invoice.write_off", "invoice", invoice_id, entry=entry_id, amount_cents=amount_cents)
    return {
        "invoice_id": invoice_id,
        "written_off_cents": amount_cents,
        "journal_entry_id": entry_id,
        "warnings": warnings,
    }
