"""The journal and the bank feed: entries, reversals, edits, periods, bank lines, notes."""

from __future__ import annotations

from typing import Any, Literal

from mcpgym_ledger.env import environment
from mcpgym_ledger.tools._common import (
    ACTOR,
    TODAY,
    EntryLine,
    account,
    audit,
    entry_view,
    insert,
    money,
    post_entry,
    require_amount,
    require_date,
    require_row,
    require_text,
    with_money,
)
from mcpgym_ledger.tools._limits import IgnoreReason, ReversalMemo, Text
from mcpgym_server import Sandbox, ToolError


@environment.tool(kind="read")
def find_journal_entries(
    sb: Sandbox,
    account_code: str | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
    text: str = "",
    amount_cents: int | None = None,
) -> dict[str, Any]:
    """Find journal entries, newest first: by an account they touch, a date range, a text in
    the memo, or an amount on one of their lines. Returns at most 50 with their lines.

    Args:
        account_code: only entries with a line on this account, e.g. "6300".
        date_from: entries dated on or after this day (YYYY-MM-DD).
        date_to: entries dated on or before this day (YYYY-MM-DD).
        text: part of the memo, case-insensitive.
        amount_cents: only entries with a line of exactly this debit or credit.
    """
    if len(text) > 200:
        raise ToolError("`text` is too long; give at most 200 characters")
    sql = "SELECT e.id FROM journal_entries e WHERE instr(lower(e.memo), lower(?)) > 0"
    params: list[Any] = [text.strip()]
    if account_code is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM journal_lines l WHERE l.entry_id = e.id "
            "AND l.account_id = ?)"
        )
        params.append(account(sb, account_code)["id"])
    if date_from is not None:
        sql += " AND e.entry_date >= ?"
        params.append(require_date(date_from, "date_from"))
    if date_to is not None:
        sql += " AND e.entry_date <= ?"
        params.append(require_date(date_to, "date_to"))
    if amount_cents is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM journal_lines l WHERE l.entry_id = e.id "
            "AND (l.debit_cents = ? OR l.credit_cents = ?))"
        )
        params += [amount_cents, amount_cents]
    ids = [
        r["id"] for r in sb.query(sql + " ORDER BY e.entry_date DESC, e.id DESC LIMIT 51", params)
    ]
    return {"entries": [entry_view(sb, i) for i in ids[:50]], "truncated": len(ids) > 50}


@environment.tool(kind="read")
def get_journal_entry(sb: Sandbox, entry_id: int) -> dict[str, Any]:
    """One journal entry: date, period (and whether it is closed), memo, source document,
    lines (account, debit, credit), and the entry that reversed it, if any.

    Args:
        entry_id: the entry's id, e.g. 120.
    """
    return entry_view(sb, entry_id)


def _lines(sb: Sandbox, lines: list[EntryLine]) -> list[tuple[str, int, int, int | None, str]]:
    if not 2 <= len(lines) <= 20:
        raise ToolError("an entry has 2 to 20 lines")
    out = []
    for i, line in enumerate(lines, start=1):
        acct = account(sb, line.account_code)
        dr = require_amount(line.debit_cents, f"lines[{i}].debit_cents", allow_zero=True)
        cr = require_amount(line.credit_cents, f"lines[{i}].credit_cents", allow_zero=True)
        if (dr == 0) == (cr == 0):
            raise ToolError(f"line {i}: give either debit_cents or credit_cents (one, not both)")
        out.append((acct["code"], dr, cr, None, line.memo.strip()))
    return out


@environment.tool(kind="write")
def post_journal_entry(
    sb: Sandbox, entry_date: str, memo: Text, lines: list[EntryLine]
) -> dict[str, Any]:
    """Post a manual journal entry (accruals, corrections, fees). Debits must equal credits
    (enforced). Posting into a closed period is against policy 2.1: the system warns but
    posts.

    Args:
        entry_date: YYYY-MM-DD.
        memo: what the entry is for, e.g. "Accrue May electricity".
        lines: [{"account_code": "6100", "debit_cents": 41250}, {"account_code": "2100",
            "credit_cents": 41250}].
    """
    day = require_date(entry_date, "entry_date")
    text = require_text(memo, "memo")
    entry_id, warnings = post_entry(sb, day, text, "manual", None, _lines(sb, lines))
    return {"journal_entry_id": entry_id, "entry_date": day, "warnings": warnings}


@environment.tool(kind="write")
def reverse_journal_entry(
    sb: Sandbox, entry_id: int, reversal_date: str, memo: ReversalMemo = ""
) -> dict[str, Any]:
    """Post the reversal of an entry: the same lines with debits and credits swapped, dated
    `reversal_date`. The system refuses an entry that is already reversed or is itself a
    reversal.

    Args:
        entry_id: the entry to reverse.
        reversal_date: YYYY-MM-DD of the reversal (policy 6.2).
        memo: optional; default "Reversal of entry N".
    """
    entry = entry_view(sb, entry_id)
    if entry["reversed_by_entry_id"] is not None:
        raise ToolError(
            f"entry {entry_id} is already reversed by entry {entry['reversed_by_entry_id']}"
        )
    if entry["reverses_entry_id"] is not None:
        raise ToolError(
            f"entry {entry_id} is itself a reversal (of entry "
            f"{entry['reverses_entry_id']}); post a new entry instead"
        )
    day = require_date(reversal_date, "reversal_date")
    lines = [
        (x["account_code"], x["credit_cents"], x["debit_cents"], x["party_id"], x["memo"])
        for x in entry["lines"]
    ]
    text = memo.strip() or f"Reversal of entry {entry_id}"
    new_id, warnings = post_entry(sb, day, text, "reversal", entry_id, lines, reverses=entry_id)
    return {
        "journal_entry_id": new_id,
        "reverses_entry_id": entry_id,
        "entry_date": day,
        "warnings": warnings,
    }


@environment.tool(kind="write")
def edit_journal_entry(sb: Sandbox, entry_id: int, lines: list[EntryLine]) -> dict[str, Any]:
    """Replace the lines of an existing entry in place (they must still balance). Policy 6.1
    forbids editing a posted entry: correct it by reversal instead. The system allows it
    and records the edit.

    Args:
        entry_id: the entry to edit.
        lines: the new lines.
    """
    entry = entry_view(sb, entry_id)
    new = _lines(sb, lines)
    if sum(x[1] for x in new) != sum(x[2] for x in new):
        raise ToolError("the edited entry does not balance (policy 1.1)")
    sb.db.execute("DELETE FROM journal_lines WHERE entry_id = ?", (entry_id,))
    for code, dr, cr, _party, line_memo in new:
        insert(
            sb,
            "journal_lines",
            {
                "entry_id": entry_id,
                "account_id": account(sb, code)["id"],
                "debit_cents": dr,
                "credit_cents": cr,
                "memo": line_memo,
            },
        )
    sb.db.execute(
        "UPDATE journal_entries SET edited_at = ? WHERE id = ?", (sb.clock.iso(), entry_id)
    )
    audit(sb, "entry.edit", "journal_entry", entry_id, lines=len(new))
    warning = "policy 6.1: posted entries are corrected by reversal, not edited"
    return {
        "journal_entry_id": entry_id,
        "edited": True,
        "period": entry["period"],
        "warnings": [warning],
    }


@environment.tool(kind="write")
def close_period(sb: Sandbox, period: str) -> dict[str, Any]:
    """Close an accounting period (policy 2.3: only when asked). Nothing should be posted in
    it afterwards.

    Args:
        period: the period's name, e.g. "2026-05".
    """
    row = sb.query_one("SELECT * FROM periods WHERE name = ?", (period.strip(),))
    if row is None:
        raise ToolError(f"no period {period!r}; see list_periods (names like 2026-05)")
    if row["status"] == "closed":
        raise ToolError(f"period {row['name']} is already closed")
    sb.db.execute(
        "UPDATE periods SET status = 'closed', closed_at = ?, closed_by = ? WHERE id = ?",
        (sb.clock.iso(), ACTOR, row["id"]),
    )
    audit(sb, "period.close", "period", row["id"])
    return {"period": row["name"], "status": "closed"}


@environment.tool(kind="read")
def list_bank_lines(
    sb: Sandbox,
    status: Literal["unmatched", "matched", "ignored"] | None = None,
    date_from: str | None = None,
) -> dict[str, Any]:
    """The bank statement feed of the operating account, newest first (at most 100 lines):
    date, description, amount (money in positive, out negative), reference, status and
    the payment or entry it is matched to.

    Args:
        status: only lines in this status.
        date_from: only lines dated on or after this day (YYYY-MM-DD).
    """
    sql = "SELECT * FROM bank_lines WHERE 1"
    params: list[Any] = []
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    if date_from is not None:
        sql += " AND line_date >= ?"
        params.append(require_date(date_from, "date_from"))
    rows = sb.query(sql + " ORDER BY line_date DESC, id DESC LIMIT 100", params)
    return {"bank_lines": [with_money(r, "amount_cents") for r in rows]}


def _unmatched(sb: Sandbox, bank_line_id: int) -> dict[str, Any]:
    line = require_row(sb, "bank_lines", bank_line_id, "bank line", "see list_bank_lines")
    if line["status"] != "unmatched":
        raise ToolError(f"bank line {bank_line_id} is already {line['status']}")
    return line


@environment.tool(kind="write")
def match_bank_line(sb: Sandbox, bank_line_id: int, journal_entry_id: int) -> dict[str, Any]:
    """Match a bank statement line to the journal entry that records it (a fee entry, a
    payment's entry). The entry must move Operating Bank (1000) by the line's amount.

    Args:
        bank_line_id: the statement line.
        journal_entry_id: the entry it is matched to.
    """
    line = _unmatched(sb, bank_line_id)
    entry = entry_view(sb, journal_entry_id)
    moved = sum(
        x["debit_cents"] - x["credit_cents"] for x in entry["lines"] if x["account_code"] == "1000"
    )
    if moved != line["amount_cents"]:
        raise ToolError(
            f"entry {journal_entry_id} moves Operating Bank by {money(moved)}, the "
            f"line is {money(line['amount_cents'])}; they must be equal"
        )
    taken = sb.query_one(
        "SELECT id FROM bank_lines WHERE journal_entry_id = ? AND id <> ?",
        (journal_entry_id, bank_line_id),
    )
    if taken is not None:
        raise ToolError(f"entry {journal_entry_id} is already matched to bank line {taken['id']}")
    pay = sb.query_one("SELECT id FROM payments WHERE journal_entry_id = ?", (journal_entry_id,))
    sb.db.execute(
        "UPDATE bank_lines SET status = 'matched', journal_entry_id = ?, "
        "payment_id = ?, updated_at = ? WHERE id = ?",
        (journal_entry_id, pay["id"] if pay else None, sb.clock.iso(), bank_line_id),
    )
    audit(sb, "bank_line.match", "bank_line", bank_line_id, entry=journal_entry_id)
    return {"bank_line_id": bank_line_id, "status": "matched", "journal_entry_id": journal_entry_id}


@environment.tool(kind="write")
def ignore_bank_line(sb: Sandbox, bank_line_id: int, reason: IgnoreReason) -> dict[str, Any]:
    """Mark a bank statement line as ignored (a duplicate feed line, policy 5.1), with why.

    Args:
        bank_line_id: the statement line.
        reason: why it is ignored, e.g. "duplicate of line 190".
    """
    _unmatched(sb, bank_line_id)
    why = require_text(reason, "reason")
    sb.db.execute(
        "UPDATE bank_lines SET status = 'ignored', note = ?, updated_at = ? WHERE id = ?",
        (why, sb.clock.iso(), bank_line_id),
    )
    audit(sb, "bank_line.ignore", "bank_line", bank_line_id)
    return {"bank_line_id": bank_line_id, "status": "ignored"}


@environment.tool(kind="write")
def add_note(
    sb: Sandbox,
    entity: Literal[
        "invoice", "bill", "journal_entry", "bank_line", "payment", "party", "credit_note"
    ],
    entity_id: int,
    body: Text,
) -> dict[str, Any]:
    """Leave a note on a record saying what was done and why (policy 10.1).

    Args:
        entity: the kind of record.
        entity_id: its id.
        body: the note.
    """
    table = {
        "journal_entry": "journal_entries",
        "bank_line": "bank_lines",
        "party": "parties",
        "credit_note": "credit_notes",
    }.get(entity, entity + "s")
    require_row(sb, table, entity_id, entity.replace("_", " "), "check the id")
    text = require_text(body, "body")
    note = insert(
        sb,
        "notes",
        {
            "entity": entity,
            "entity_id": entity_id,
            "body": text,
            "author": ACTOR,
            "created_at": sb.clock.iso(),
        },
    )
    return {"note_id": note}


@environment.tool(kind="write")
def escalate(
    sb: Sandbox,
    entity: Literal["invoice", "bill", "journal_entry", "bank_line"],
    entity_id: int,
    reason: Text,
    amount_cents: int | None = None,
) -> dict[str, Any]:
    """Escalate a record to the controller for a decision the policy does not let you make
    (an approval, a write-off above the limit, a reopening).

    Args:
        entity: the kind of record.
        entity_id: its id.
        reason: what needs deciding and why.
        amount_cents: the amount at stake, in cents, if any.
    """
    table = {"journal_entry": "journal_entries", "bank_line": "bank_lines"}.get(
        entity, entity + "s"
    )
    require_row(sb, table, entity_id, entity.replace("_", " "), "check the id")
    if amount_cents is not None:
        require_amount(amount_cents)
    why = require_text(reason, "reason")
    esc = insert(
        sb,
        "escalations",
        {
            "entity": entity,
            "entity_id": entity_id,
            "to_role": "controller",
            "reason": why,
            "amount_cents": amount_cents,
            "created_at": sb.clock.iso(),
        },
    )
    audit(sb, "escalate", entity, entity_id, escalation=esc)
    return {"escalation_id": esc, "to": "controller", "today": TODAY}
