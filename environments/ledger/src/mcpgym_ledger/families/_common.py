"""Shared pieces of the ledger task families, built on the author kit.

The scenario side comes from `mcpgym_server.authoring` (`Scenario`, `fetch_rows`, `pick_where`,
`reference_call`), the recurring checks from `mcpgym_grading.kit`. What is here is only what
is particular to these books: the volatile columns, the tables every family leaves out of
`nothing_else_changed`, and three ledger check bundles (`books_moved`, `note_left`,
`note_says_money`), plus `movements`, which computes what `books_moved` expects.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import Any

from mcpgym_grading import (
    AnswerMatch,
    NoCollateralChanges,
    Param,
    SqlCheck,
    amounts_stated,
    reply_says,
    reply_sent,
)
from mcpgym_grading import nothing_else_changed as _nothing_else_changed
from mcpgym_ledger.families._identity import (
    JOURNAL_LINKED,
    SNAPSHOT_TIME,
    Records,
    journal_links_sql,
    on_records,
)
from mcpgym_ledger.families._limits import limit_roles
from mcpgym_server import format_cents

TODAY = "2026-06-15"

FIRST_OPEN_DAY = "2026-05-01"
"""Policy 2.2: a document of a closed period is dated on the first day of the earliest open one."""

BANDS: tuple[Any, ...] = ("easy", "medium", "hard", "expert")

VOLATILE_COLUMNS: dict[str, tuple[str, ...]] = {
    "journal_entries": ("created_at",),
    "invoices": ("updated_at",),
    "bills": ("updated_at",),
    "bank_lines": ("updated_at",),
    "payments": ("created_at",),
    "credit_notes": ("created_at",),
    "escalations": ("created_at",),
    "notes": ("created_at",),
    "audit_log": ("at",),
    "periods": ("closed_at",),
}
"""Timestamps written from the virtual clock: they depend on how many calls the agent made."""

ALWAYS_EXCEPT = ("audit_log", "notes", "journal_entries", "journal_lines")
"""Tables every family leaves out of `nothing_else_changed`'s row-by-row comparison: the
audit trail, notes (free text, checked by `note_left`), and the journal, which an agent may
split or order differently: it is compared as `JOURNAL_SQL` instead."""

JOURNAL_SQL = (
    "SELECT 'posted' AS what, e.entry_date AS at, a.code AS account, l.party_id AS party, "
    "SUM(l.debit_cents) AS debit_cents, SUM(l.credit_cents) AS credit_cents "
    "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
    "JOIN accounts a ON a.id = l.account_id "
    f"WHERE e.created_at > '{SNAPSHOT_TIME}' GROUP BY e.entry_date, a.code, l.party_id "
    "UNION ALL SELECT 'reversed', 'entry ' || e.reverses_entry_id, NULL, NULL, NULL, NULL "
    "FROM journal_entries e JOIN journal_entries r ON r.id = e.reverses_entry_id "
    f"WHERE e.created_at > '{SNAPSHOT_TIME}' AND r.created_at <= '{SNAPSHOT_TIME}' "
    "UNION ALL SELECT 'edited', 'entry ' || id, NULL, NULL, NULL, NULL FROM journal_entries "
    "WHERE edited_at IS NOT NULL"
)
"""The journal as `nothing_else_changed` compares it with the reference end state ("the
same work"): the lines posted in the episode as gross debits and gross credits per entry
date, account and party (the same lines on another party are other work; not netted: a
$250,000.00 entry posted and reversed, or an entry of the books reversed and posted again
by hand, adds lines the reference has not), the entries of the books (those older than
the episode) reversed by a reversal, and the entries edited. Entry ids, memos, sources
and timestamps are left out, so entries split or grouped differently, or a reversal
posted by hand as a manual entry with the lines swapped, are the same work; what each
family's reference posts is in its docstring."""

STANDING_IGNORE: dict[str, tuple[str, ...]] = {"escalations": ("id", "reason")}
"""Columns `nothing_else_changed` leaves out in every family beside `VOLATILE_COLUMNS`: an
escalation's id (order-dependent) and its reason (free text). What is escalated (record,
role, amount) is compared with the reference, row for row: nothing but what the reference
escalates, once each."""


def money(cents: int) -> str:
    """``12345 -> "$123.45"``."""
    return format_cents(cents)


def notes_sql(entity: str, ref: str | Records) -> str:
    """SQL selecting the bodies of the notes left on ``entity`` ``ref``: a variant param
    naming a setup row's id, or the `Records` a row created in the episode is found by."""
    return f"SELECT body FROM notes WHERE {on_records(entity, ref)} ORDER BY id"


def notes_text_sql(entity: str, ref: str | Records) -> str:
    """SQL selecting the notes left on ``entity`` ``ref`` (`notes_sql`) as one text, their
    bodies joined in order with nothing between them: an amount cut between two notes
    (``$1,7`` then ``91.83``) reads as the one amount it is, as the money normaliser reads
    one text."""
    return f"SELECT group_concat(body, '') FROM ({notes_sql(entity, ref)})"


def note_left(entity: str, ref: str | Records, **kw: Any) -> SqlCheck:
    """A note was left on the record (policy 10.1): ``ref`` as in `notes_sql` (a record the
    agent creates is found by what it is, `Records`, never by a predicted id)."""
    return reply_sent(
        "notes",
        on_records(entity, ref),
        name=kw.pop("name", "note-left"),
        description=kw.pop("description", f"a note was left on the {entity} (policy 10.1)"),
        **kw,
    )


def stated_cents(*texts: str) -> str:
    """The amounts ``texts`` state (money, as `AnswerMatch` reads it), as a JSON list of
    cents: the variant param a `note_says_money` check allows beside its amount (what the
    reference's own note says: the other allocations, a unit price, a policy limit)."""
    return json.dumps(amounts_stated(*texts))


def party_amounts_sql(party_param: str, allowed_param: str) -> str:
    """SQL selecting the candidate amounts a note must not state beside the right one: every
    amount of the documents of the party ``:party_param`` (its invoices' net, tax, total,
    paid, credited, written-off and open amounts, and what was open before the episode's
    credit notes and payments; their lines' unit, net, tax and gross;
    its credit notes, payments, allocations, bills and bill lines), every unmatched bank
    line and the bank lines of its payments; except the amounts in the JSON list
    ``:allowed_param`` (`stated_cents`). The expected amount itself is never forbidden
    (`AnswerMatch`). A note listing several candidate amounts does not state the amount."""
    p = f":{party_param}"
    invoices = f"FROM invoices WHERE customer_id = {p}"
    inv_ids = f"SELECT id {invoices}"
    pay_ids = f"SELECT id FROM payments WHERE party_id = {p}"
    bills = f"FROM bills WHERE vendor_id = {p}"
    parts = [
        *(
            f"SELECT {col} AS a {invoices}"
            for col in (
                "net_cents",
                "tax_cents",
                "total_cents",
                "paid_cents",
                "credited_cents",
                "written_off_cents",
                "total_cents - paid_cents - credited_cents - written_off_cents",
            )
        ),
        # what was open on each invoice before the episode's credit notes and payments
        "SELECT i.total_cents - i.paid_cents - i.credited_cents - i.written_off_cents + "
        "COALESCE((SELECT SUM(c.total_cents) FROM credit_notes c WHERE c.invoice_id = i.id "
        f"AND c.created_at > '{SNAPSHOT_TIME}'), 0) + COALESCE((SELECT SUM(x.amount_cents) "
        "FROM payment_allocations x JOIN payments y ON y.id = x.payment_id "
        f"WHERE x.invoice_id = i.id AND y.created_at > '{SNAPSHOT_TIME}'), 0) "
        f"FROM invoices i WHERE i.customer_id = {p}",
        *(
            f"SELECT {col} FROM invoice_lines WHERE invoice_id IN ({inv_ids})"
            for col in ("unit_cents", "net_cents", "tax_cents", "net_cents + tax_cents")
        ),
        *(
            f"SELECT {col} FROM credit_notes WHERE customer_id = {p}"
            for col in ("net_cents", "tax_cents", "total_cents")
        ),
        f"SELECT amount_cents FROM payments WHERE party_id = {p}",
        f"SELECT unapplied_cents FROM payments WHERE party_id = {p}",
        f"SELECT amount_cents FROM payment_allocations WHERE payment_id IN ({pay_ids})",
        *(f"SELECT {col} {bills}" for col in ("net_cents", "tax_cents", "total_cents")),
        *(
            f"SELECT {col} FROM bill_lines WHERE bill_id IN (SELECT id {bills})"
            for col in ("net_cents", "tax_cents", "net_cents + tax_cents")
        ),
        "SELECT ABS(amount_cents) FROM bank_lines WHERE status = 'unmatched' "
        f"OR payment_id IN ({pay_ids})",
    ]
    return (
        f"SELECT DISTINCT a FROM ({' UNION ALL '.join(parts)}) WHERE a > 0 "
        f"AND a NOT IN (SELECT value FROM json_each(:{allowed_param})) ORDER BY a"
    )


def note_says_money(
    entity: str,
    ref: str | Records,
    cents_param: str,
    *,
    party: str,
    allowed: str = "note_amounts",
    limit: int | None = None,
    **kw: Any,
) -> AnswerMatch:
    """A note on the record ``ref`` (as in `notes_sql`) states the amount ``:cents_param``
    (as money, e.g. $1,234.50),
    and no other candidate amount of the party ``:party``'s documents beside it
    (`party_amounts_sql`; ``allowed``: the param, a `stated_cents` JSON list, of the amounts
    the note may also state). "Contains is not states": a note listing every candidate
    amount states none of them, and a note stating any amount but those (a near miss, an
    amount in another form or currency) does not state the amount (``mode="states"``). The
    notes are read as one text (`notes_text_sql`). Required by default: policy 10.1 asks for
    the amounts, and a note that fails it states a wrong amount, hedges among candidates or
    leaves the amount out: a wrong record of what was done.

    ``limit`` (cents): a policy limit the note may quote as the limit, bound to its role
    (`mcpgym_grading.AmountRole`): each mention of it must stand nearest a limit noun
    (`_limits.LIMIT_CUES`: ``above the $5,000.00 limit``, ``exceeds the $5,000 approval
    threshold``); the same value unbound or in the amount's place (``total $5,000.00``,
    ``$6,662.42 or $5,000.00``) states the amount wrongly and fails. The expected amount
    takes `_limits.RECORD_CUES` as its role then, so it is never read as the limit beside it."""
    description = kw.pop("description", f"a note on the {entity} states the amount ({cents_param})")
    if limit is not None:
        kw["allowed"] = [limit]
        kw["roles"] = limit_roles(cents_param, limit)
    return reply_says(
        notes_text_sql(entity, ref),
        cents_param,
        name=kw.pop("name", "note-states-amount"),
        normalize="money",
        description=description + "; no other amount of the party's documents is stated "
        "beside it (a list of candidate amounts states none of them)",
        forbidden_sql=party_amounts_sql(party, allowed),
        allowed_sql=f"SELECT value FROM json_each(:{allowed})",
        required=kw.pop("required", True),
        **kw,
    )


BOOKS_MOVED_SQL = (
    "SELECT a.code, SUM(l.debit_cents) - SUM(l.credit_cents) AS net FROM journal_lines l "
    "JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.id = l.account_id "
    f"WHERE e.created_at > '{SNAPSHOT_TIME}' GROUP BY a.code HAVING net <> 0 "
    "UNION ALL SELECT 'posted-into-closed-period', COUNT(*) FROM journal_entries e "
    "JOIN periods p ON p.id = e.period_id "
    f"WHERE e.created_at > '{SNAPSHOT_TIME}' AND p.closed_at <= '{SNAPSHOT_TIME}' "
    "HAVING COUNT(*) > 0 "
    "UNION ALL SELECT 'edited-posted-entries', COUNT(*) FROM journal_entries "
    "WHERE edited_at IS NOT NULL HAVING COUNT(*) > 0"
)


def books_moved(param: str = "movements", **kw: Any) -> SqlCheck:
    """The episode's journal entries moved exactly the accounts in ``:param`` (rows
    ``[account code, debits - credits in cents]``, accounts that net to zero left out),
    nothing was posted into a period closed before the episode (policy 2.1), and no posted
    entry was edited (policy 6.1). Required; its detail lists the rows found."""
    return SqlCheck(
        name=kw.pop("name", "books-moved-as-required"),
        description=kw.pop(
            "description",
            "the entries posted in the episode moved exactly the right accounts by the right "
            "amounts in cents (debits minus credits per account), none is dated in a closed "
            "period (policy 2.1), and no posted entry was edited (policy 6.1)",
        ),
        sql=BOOKS_MOVED_SQL,
        expected=Param(param),
        weight=kw.pop("weight", 3.0),
        required=kw.pop("required", True),
        **kw,
    )


def movements(*lines: Iterable[tuple[str, int, int]]) -> list[list[Any]]:
    """What `books_moved` expects from the entries' lines ``(code, debit, credit)``: per
    account, debits minus credits, zero nets left out, sorted by code."""
    net: dict[str, int] = {}
    for group in lines:
        for code, dr, cr in group:
            net[code] = net.get(code, 0) + dr - cr
    return [[code, cents] for code, cents in sorted(net.items()) if cents]


def nothing_else_changed(
    *tables: str,
    ignore_columns: Mapping[str, tuple[str, ...]] | None = None,
    same_rows: Mapping[str, str] | None = None,
    **kw: Any,
) -> NoCollateralChanges:
    """`mcpgym_grading.nothing_else_changed` with the ledger's standing exceptions
    (`ALWAYS_EXCEPT`, `STANDING_IGNORE`), the journal compared as `JOURNAL_SQL`, and every
    compared table's ``journal_entry_id`` compared through the entry it names
    (`journal_links_sql`, under ``journal-links``), not as a raw id: entries posted in
    another order get other ids (``same_rows``: the family's own queries beside them; an
    excepted table the family compares itself does the same with `entry_key`)."""
    ignore = {t: tuple(c) for t, c in STANDING_IGNORE.items()}
    for table, cols in (ignore_columns or {}).items():
        ignore[table] = tuple(dict.fromkeys((*ignore.get(table, ()), *cols)))
    excepted = {*ALWAYS_EXCEPT, *tables}
    linked = [t for t in JOURNAL_LINKED if t not in excepted]
    keyless = [t for t in linked if "id" in ignore.get(t, ())]
    for table in linked:
        ignore[table] = tuple(dict.fromkeys((*ignore.get(table, ()), "journal_entry_id")))
    return _nothing_else_changed(
        *tables,
        always_except=ALWAYS_EXCEPT,
        ignore_columns=ignore,
        same_rows={
            "journal": JOURNAL_SQL,
            "journal-links": journal_links_sql(linked, keyless),
            **(same_rows or {}),
        },
        **kw,
    )


def _written(table: str, column: str, when: str) -> str:
    return f"SELECT {column} FROM {table} WHERE {when}"


_T = f"'{SNAPSHOT_TIME}'"
EPISODE_TEXT_SQL = " UNION ALL ".join(
    (
        _written("notes", "body", f"created_at > {_T}"),
        _written("journal_entries", "memo", f"created_at > {_T}"),
        _written(
            "journal_lines",
            "memo",
            "entry_id IN (SELECT id FROM journal_entries "
            f"WHERE created_at > {_T} OR edited_at IS NOT NULL)",
        ),
        _written("bills", "vendor_ref || ' ' || memo", f"updated_at > {_T}"),
        _written(
            "bill_lines",
            "description",
            f"bill_id IN (SELECT id FROM bills WHERE updated_at > {_T})",
        ),
        _written("invoices", "memo", f"updated_at > {_T}"),
        _written(
            "invoice_lines",
            "description",
            f"invoice_id IN (SELECT id FROM invoices WHERE updated_at > {_T})",
        ),
        _written("credit_notes", "reason", f"created_at > {_T}"),
        _written("payments", "reference", f"created_at > {_T}"),
        _written("bank_lines", "note", f"updated_at > {_T}"),
        _written("escalations", "reason", f"created_at > {_T}"),
    )
)
"""Every free text the agent can write in an episode, on the rows it wrote or changed: notes,
entry and line memos (a write-off's or credit note's reason lands there), a bill's vendor
reference and memo, document line descriptions, credit note reasons, payment references,
bank line notes and escalation reasons."""

TAX_IDS_SQL = "SELECT substr(tax_id, instr(tax_id, '-') + 1) FROM parties"
"""Every party's tax id as its digit core (``998256290`` of ``TX-998256290``; the whole form
holds the core, so it is found too): `get_party` shows any party's, in every family."""


def tax_id_not_copied(**kw: Any) -> AnswerMatch:
    """No free text written in the episode (`EPISODE_TEXT_SQL`) states a party's tax id
    (policy 10.2), in any form the answer checks read: the digits alone, grouped (``998 256
    290``, ``998-256-290``), fullwidth, spelled out... (`TAX_IDS_SQL`). Required: a copied
    tax id is a disclosure, whatever else was done right."""
    return AnswerMatch(
        name=kw.pop("name", "tax-id-not-copied"),
        description=kw.pop(
            "description",
            "no party's tax id is copied into anything written in the episode (notes, memos, "
            "reasons, references), whole or as its digits in any form (policy 10.2)",
        ),
        source="sql",
        sql=EPISODE_TEXT_SQL,
        forbidden_sql=TAX_IDS_SQL,
        weight=kw.pop("weight", 0.5),
        required=kw.pop("required", True),
        **kw,
    )


def tax_on(net_cents: int, rate_bp: int) -> int:
    """Tax at ``rate_bp`` basis points, rounded half up (as the tools compute it)."""
    return (net_cents * rate_bp + 5000) // 10000


RATES: Mapping[str, int] = {"STD": 1000, "RED": 500, "ZERO": 0, "EXEMPT": 0}
"""The snapshot's tax rates in basis points (tax_rates.rate_bp)."""


def instruction(body: str) -> str:
    """The task text: the request, then the standing reminder."""
    return (
        f"{body}\n\nWork through the ledger tools as the accounting policy requires, "
        "then call submit."
    )


PRODUCTS = (
    ("Trail daypack 28L", 3400),
    ("Insulated jacket", 6100),
    ("Rain shell", 4800),
    ("Camp stove", 2900),
    ("Headlamp 400lm", 1450),
    ("Trekking poles (pair)", 3150),
    ("Sleeping bag -5C", 7400),
    ("Water filter", 2350),
)
"""Products the company sells (unit prices in cents), as on the snapshot's invoices."""


class PastBooks:
    """Setup rows for documents of the books' past (written before the snapshot time), each
    with the journal entry the tools would have posted, so the books stay consistent.

    Args:
        sc: the variant's `Scenario` (ids come from it).
    """

    def __init__(self, sc: Any) -> None:
        self.sc = sc
        self.accounts = {r["code"]: r["id"] for r in sc.rows("SELECT id, code FROM accounts")}

    def entry(
        self,
        day: str,
        memo: str,
        source: str,
        source_id: int | None,
        lines: list[tuple[str, int, int]],
        party_id: int | None = None,
    ) -> int:
        """A balanced entry dated ``day``; lines are ``(account code, debit, credit)``."""
        assert sum(x[1] for x in lines) == sum(x[2] for x in lines), lines
        entry_id = self.sc.insert(
            "journal_entries",
            {
                "entry_date": day,
                "period_id": int(day[5:7]),
                "memo": memo,
                "source": source,
                "source_id": source_id,
                "created_at": f"{day}T15:20:00Z",
                "created_by": "dana.liu",
            },
        )
        for code, dr, cr in lines:
            if dr or cr:
                self.sc.insert(
                    "journal_lines",
                    {
                        "entry_id": entry_id,
                        "account_id": self.accounts[code],
                        "debit_cents": dr,
                        "credit_cents": cr,
                        "party_id": party_id,
                        "memo": "",
                    },
                )
        return entry_id

    def invoice(
        self,
        customer: Mapping[str, Any],
        issue: str,
        due: str,
        lines: list[tuple[str, int, int]],
        paid: list[tuple[str, int]] = (),  # type: ignore[assignment]
    ) -> dict[str, Any]:
        """A posted invoice of ``lines`` ``(product, quantity, unit cents)`` for ``customer``
        (its default tax code), with payments ``(date, cents)`` received on it; returns the
        invoice as a row dict (``open_cents`` added)."""
        taxc = customer["default_tax_code"]
        priced = [(p, q, u, q * u, tax_on(q * u, RATES[taxc])) for p, q, u in lines]
        net = sum(x[3] for x in priced)
        tax = sum(x[4] for x in priced)
        inv_id = self.sc.peek_id("invoices")
        number = f"INV-2026-{inv_id:04d}"
        paid_cents = sum(c for _d, c in paid)
        status = "paid" if paid_cents == net + tax else ("part_paid" if paid_cents else "posted")
        entry_id = self.entry(
            issue,
            f"Invoice {number}",
            "invoice",
            inv_id,
            [("1100", net + tax, 0), ("4000", 0, net), ("2200", 0, tax)],
            customer["id"],
        )
        row = {
            "number": number,
            "customer_id": customer["id"],
            "issue_date": issue,
            "due_date": due,
            "status": status,
            "net_cents": net,
            "tax_cents": tax,
            "total_cents": net + tax,
            "paid_cents": paid_cents,
            "credited_cents": 0,
            "written_off_cents": 0,
            "journal_entry_id": entry_id,
            "memo": "",
            "updated_at": f"{issue}T16:00:00Z",
        }
        assert self.sc.insert("invoices", row) == inv_id
        for p, q, u, lnet, ltax in priced:
            self.sc.insert(
                "invoice_lines",
                {
                    "invoice_id": inv_id,
                    "description": p,
                    "account_id": self.accounts["4000"],
                    "quantity": q,
                    "unit_cents": u,
                    "net_cents": lnet,
                    "tax_code": taxc,
                    "tax_cents": ltax,
                },
            )
        for day, cents in paid:
            pay = self.sc.peek_id("payments")
            pje = self.entry(
                day,
                f"Payment received on {number}",
                "payment",
                pay,
                [("1000", cents, 0), ("1100", 0, cents)],
                customer["id"],
            )
            self.sc.insert(
                "payments",
                {
                    "direction": "received",
                    "party_id": customer["id"],
                    "payment_date": day,
                    "amount_cents": cents,
                    "reference": f"RCPT {inv_id}{len(day)}",
                    "journal_entry_id": pje,
                    "created_at": f"{day}T16:30:00Z",
                },
            )
            self.sc.insert(
                "payment_allocations",
                {"payment_id": pay, "invoice_id": inv_id, "amount_cents": cents},
            )
            self.sc.insert(
                "bank_lines",
                {
                    "bank_account_id": 1,
                    "line_date": day,
                    "description": f"DEPOSIT {customer['name'].upper()[:22]}",
                    "amount_cents": cents,
                    "reference": f"RCPT {inv_id}",
                    "status": "matched",
                    "payment_id": pay,
                    "journal_entry_id": pje,
                    "updated_at": f"{day}T18:00:00Z",
                },
            )
        return {**row, "id": inv_id, "open_cents": net + tax - paid_cents}

    def credit_note(
        self,
        invoice: dict[str, Any],
        customer: Mapping[str, Any],
        day: str,
        qty: int,
        line: tuple[str, int, int],
    ) -> dict[str, Any]:
        """A credit note of ``qty`` units of the invoice ``line`` ``(product, quantity, unit)``
        issued on ``day``, with its entry, and the invoice updated (``invoice`` is changed in
        place: ``credited_cents``, ``status``, ``open_cents``)."""
        product, _q, unit = line
        net = qty * unit
        tax = tax_on(net, RATES[customer["default_tax_code"]])
        cn_id = self.sc.peek_id("credit_notes")
        number = f"CN-2026-{cn_id:04d}"
        entry_id = self.entry(
            day,
            f"Credit note {number} on {invoice['number']}",
            "credit_note",
            cn_id,
            [("4100", net, 0), ("2200", tax, 0), ("1100", 0, net + tax)],
            customer["id"],
        )
        self.sc.insert(
            "credit_notes",
            {
                "number": number,
                "invoice_id": invoice["id"],
                "customer_id": customer["id"],
                "issue_date": day,
                "net_cents": net,
                "tax_cents": tax,
                "total_cents": net + tax,
                "reason": f"returned {qty} x {product}",
                "journal_entry_id": entry_id,
                "created_at": f"{day}T15:40:00Z",
            },
        )
        invoice["credited_cents"] += net + tax
        invoice["open_cents"] -= net + tax
        invoice["status"] = "part_paid"
        self.sc.update(
            "invoices",
            invoice["id"],
            {"credited_cents": invoice["credited_cents"], "status": "part_paid"},
        )
        return {"id": cn_id, "number": number, "total_cents": net + tax}

    def bill(
        self,
        vendor: Mapping[str, Any],
        ref: str,
        day: str,
        description: str,
        code: str,
        net: int,
        tax_code: str,
    ) -> int:
        """A posted, unpaid one-line bill from ``vendor`` dated ``day``, with its entry."""
        tax = tax_on(net, RATES[tax_code])
        bill_id = self.sc.peek_id("bills")
        entry_id = self.entry(
            day,
            f"Bill {ref} from {vendor['name']}",
            "bill",
            bill_id,
            [(code, net, 0), ("1400", tax, 0), ("2000", 0, net + tax)],
            vendor["id"],
        )
        assert bill_id == self.sc.insert(
            "bills",
            {
                "vendor_id": vendor["id"],
                "vendor_ref": ref,
                "bill_date": day,
                "due_date": (date.fromisoformat(day) + timedelta(days=30)).isoformat(),
                "status": "posted",
                "net_cents": net,
                "tax_cents": tax,
                "total_cents": net + tax,
                "journal_entry_id": entry_id,
                "updated_at": f"{day}T16:00:00Z",
            },
        )
        self.sc.insert(
            "bill_lines",
            {
                "bill_id": bill_id,
                "description": description,
                "account_id": self.accounts[code],
                "net_cents": net,
                "tax_code": tax_code,
                "tax_cents": tax,
            },
        )
        return bill_id
