"""Helpers shared by the ledger tools: lookups, money, dates, periods, journal entries, audit."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from mcpgym_ledger.tools._limits import MAX_TEXT, LineMemo, Text
from mcpgym_server import Sandbox, ToolError, format_cents

ACTOR = "agent"
"""audit_log.actor, notes.author and journal_entries.created_by of rows a tool writes."""

MAX_AMOUNT_CENTS = 10_000_000_00
"""Largest money amount one argument may carry ($10,000,000.00); keeps sums in 64 bits."""


class EntryLine(BaseModel):
    """One line of a manual journal entry: an account and a debit or a credit (cents)."""

    account_code: str = Field(description='account code, e.g. "6100"')
    debit_cents: int = Field(default=0, description="debit in cents (0 if a credit line)")
    credit_cents: int = Field(default=0, description="credit in cents (0 if a debit line)")
    memo: LineMemo = Field(default="", description="optional line memo")


class DocLine(BaseModel):
    """One line of a bill or invoice: what, which account, net amount and tax code."""

    description: Text = Field(description='what the line is for, e.g. "Courier, May"')
    account_code: str = Field(description='account code, e.g. "6300" (see list_accounts)')
    net_cents: int = Field(description="net amount before tax, in cents")
    tax_code: str = Field(description='tax code: "STD", "RED", "ZERO" or "EXEMPT"')
    quantity: int = Field(default=1, description="quantity (invoices; bills use 1)")


def money(cents: int | None) -> str | None:
    """``12345 -> "$123.45"``; None stays None."""
    return None if cents is None else format_cents(int(cents))


def with_money(row: dict[str, Any], *fields: str) -> dict[str, Any]:
    """Add a formatted ``<name>`` next to each ``<name>_cents`` field listed."""
    for f in fields:
        row[f.removesuffix("_cents")] = money(row.get(f))
    return row


def require_amount(cents: int, field: str = "amount_cents", *, allow_zero: bool = False) -> int:
    """A positive (or zero) amount below `MAX_AMOUNT_CENTS`, else a ToolError."""
    if cents < 0 or (cents == 0 and not allow_zero):
        raise ToolError(
            f"`{field}` must be {'0 or more' if allow_zero else 'positive'} (in cents), got {cents}"
        )
    if cents > MAX_AMOUNT_CENTS:
        raise ToolError(f"`{field}` is above the {money(MAX_AMOUNT_CENTS)} a tool accepts")
    return cents


def require_text(value: str, field: str) -> str:
    """Stripped non-empty text of at most `MAX_TEXT` characters, else a ToolError."""
    text = (value or "").strip()
    if not text:
        raise ToolError(f"`{field}` must not be empty")
    if len(text) > MAX_TEXT:
        raise ToolError(f"`{field}` is too long ({len(text)} characters; at most {MAX_TEXT})")
    return text


def require_date(value: str, field: str) -> str:
    """An ISO date ``YYYY-MM-DD`` inside the books (2026), else a ToolError."""
    try:
        d = date.fromisoformat(value.strip())
    except (ValueError, AttributeError):
        raise ToolError(f"`{field}` must be a date written YYYY-MM-DD, e.g. 2026-06-15") from None
    if d.year != 2026:
        raise ToolError(f"`{field}` {d} is outside the books (2026-01-01 to 2026-12-31 only)")
    return d.isoformat()


def period_of(sb: Sandbox, day: str) -> dict[str, Any]:
    """The accounting period holding ``day`` (ToolError when the books have none)."""
    row = sb.query_one("SELECT * FROM periods WHERE starts_on <= ? AND ends_on >= ?", (day, day))
    if row is None:
        raise ToolError(f"no accounting period holds {day}; periods run 2026-01 to 2026-06")
    return row


def account(sb: Sandbox, code: str) -> dict[str, Any]:
    """The account with this code, or a ToolError pointing at list_accounts."""
    row = sb.query_one("SELECT * FROM accounts WHERE code = ?", (str(code).strip(),))
    if row is None:
        raise ToolError(f"no account with code {code!r}; see list_accounts for the chart")
    return row


def tax_rate(sb: Sandbox, code: str) -> dict[str, Any]:
    """The tax rate with this code, or a ToolError naming the codes."""
    row = sb.query_one("SELECT * FROM tax_rates WHERE code = ?", (str(code).strip().upper(),))
    if row is None:
        codes = [r["code"] for r in sb.query("SELECT code FROM tax_rates ORDER BY id")]
        raise ToolError(f"no tax code {code!r}; the codes are {', '.join(codes)}")
    return row


def tax_on(net_cents: int, rate_bp: int) -> int:
    """Tax on a net amount at ``rate_bp`` basis points, rounded half up to the cent."""
    return (net_cents * rate_bp + 5000) // 10000


def require_party(sb: Sandbox, party_id: int, kind: str | None = None) -> dict[str, Any]:
    """The customer or vendor row (checked to be of ``kind``), or a ToolError."""
    row = sb.query_one("SELECT * FROM parties WHERE id = ?", (party_id,))
    if row is None or (kind is not None and row["kind"] != kind):
        what = kind or "party"
        raise ToolError(f"no {what} with id {party_id}; use find_parties to look it up")
    return row


def require_row(sb: Sandbox, table: str, row_id: int, what: str, hint: str) -> dict[str, Any]:
    """The row ``row_id`` of ``table`` or a ToolError saying how to find it."""
    row = sb.query_one(f"SELECT * FROM {table} WHERE id = ?", (row_id,))
    if row is None:
        raise ToolError(f"no {what} with id {row_id}; {hint}")
    return row


def audit(sb: Sandbox, action: str, entity: str, entity_id: int, **detail: Any) -> None:
    """Append one audit_log row for an action taken by the agent at the current virtual time."""
    sb.db.execute(
        "INSERT INTO audit_log (at, actor, action, entity, entity_id, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            sb.clock.iso(),
            ACTOR,
            action,
            entity,
            int(entity_id),
            json.dumps(detail, sort_keys=True, separators=(",", ":")),
        ),
    )


def insert(sb: Sandbox, table: str, values: dict[str, Any]) -> int:
    """Insert one row (id max(id) + 1, allocated by SQLite) and return its id."""
    cols = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cur = sb.db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
    return int(cur.lastrowid or 0)


def post_entry(
    sb: Sandbox,
    day: str,
    memo: str,
    source: str,
    source_id: int | None,
    lines: list[tuple[str, int, int, int | None, str]],
    *,
    reverses: int | None = None,
) -> tuple[int, list[str]]:
    """Write a balanced journal entry; return its id and warnings (a closed period).

    ``lines`` are ``(account code, debit, credit, party id, memo)``; zero lines are skipped.

    Raises:
        ToolError: unbalanced, empty, or a line with both a debit and a credit.
    """
    debit = sum(x[1] for x in lines)
    credit = sum(x[2] for x in lines)
    if debit != credit:
        raise ToolError(
            f"the entry does not balance: debits {money(debit)} vs credits {money(credit)} "
            "(policy 1.1)"
        )
    if debit == 0:
        raise ToolError("the entry has no amounts; give at least one debit and one credit")
    period = period_of(sb, day)
    warnings = []
    if period["status"] == "closed":
        warnings.append(
            f"period {period['name']} is closed: policy 2.1 forbids posting into it "
            "(the entry was posted anyway; reverse it if that was a mistake)"
        )
    entry_id = insert(
        sb,
        "journal_entries",
        {
            "entry_date": day,
            "period_id": period["id"],
            "memo": memo,
            "source": source,
            "source_id": source_id,
            "reverses_entry_id": reverses,
            "created_at": sb.clock.iso(),
            "created_by": ACTOR,
        },
    )
    for code, dr, cr, party, line_memo in lines:
        if dr < 0 or cr < 0 or (dr and cr):
            raise ToolError("each line is a debit or a credit, positive cents, not both")
        if dr or cr:
            insert(
                sb,
                "journal_lines",
                {
                    "entry_id": entry_id,
                    "account_id": account(sb, code)["id"],
                    "debit_cents": dr,
                    "credit_cents": cr,
                    "party_id": party,
                    "memo": line_memo,
                },
            )
    audit(sb, "entry.post", "journal_entry", entry_id, source=source, source_id=source_id)
    return entry_id, warnings


def entry_view(sb: Sandbox, entry_id: int) -> dict[str, Any]:
    """A journal entry with its lines (account code and name) and period."""
    entry = require_row(
        sb, "journal_entries", entry_id, "journal entry", "use find_journal_entries to list entries"
    )
    entry["lines"] = [
        with_money(r, "debit_cents", "credit_cents")
        for r in sb.query(
            "SELECT l.id, a.code AS account_code, a.name AS account_name, l.debit_cents, "
            "l.credit_cents, l.party_id, l.memo FROM journal_lines l "
            "JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = ? ORDER BY l.id",
            (entry_id,),
        )
    ]
    period = sb.query_one("SELECT name, status FROM periods WHERE id = ?", (entry["period_id"],))
    entry["period"] = period["name"] if period else None
    entry["period_status"] = period["status"] if period else None
    reversed_by = sb.query_one(
        "SELECT id FROM journal_entries WHERE reverses_entry_id = ? ORDER BY id", (entry_id,)
    )
    entry["reversed_by_entry_id"] = reversed_by["id"] if reversed_by else None
    return entry


TODAY = "2026-06-15"
"""The books' date."""


def invoice_open_cents(inv: dict[str, Any]) -> int:
    """What is still owed on an invoice: total less paid, credited and written off."""
    return int(
        inv["total_cents"] - inv["paid_cents"] - inv["credited_cents"] - inv["written_off_cents"]
    )


def refresh_invoice_status(sb: Sandbox, invoice_id: int) -> None:
    """Set an invoice's status from its amounts (posted, part_paid, paid)."""
    inv = sb.query_one("SELECT * FROM invoices WHERE id = ?", (invoice_id,))
    assert inv is not None
    if inv["status"] in ("draft", "void"):
        return
    left = invoice_open_cents(inv)
    settled = inv["paid_cents"] + inv["credited_cents"]
    if left == 0:
        status = "written_off" if inv["written_off_cents"] else "paid"
    else:
        status = "part_paid" if settled or inv["written_off_cents"] else "posted"
    sb.db.execute(
        "UPDATE invoices SET status = ?, updated_at = ? WHERE id = ?",
        (status, sb.clock.iso(), invoice_id),
    )
