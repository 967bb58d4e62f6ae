"""Rubric checks on the ledger's end state: the journal the episode posted (`books_moved`,
what it expects from `movements`) and no collateral changes (`nothing_else_changed`, with
the tables and columns every family leaves out of it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mcpgym_grading import NoCollateralChanges, Param, SqlCheck
from mcpgym_grading import nothing_else_changed as _nothing_else_changed
from mcpgym_ledger.families._identity import JOURNAL_LINKED, SNAPSHOT_TIME, journal_links_sql

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
