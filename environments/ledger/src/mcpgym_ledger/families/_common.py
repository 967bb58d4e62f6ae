"""Shared pieces of the ledger task families, built on the author kit.

The scenario side comes from `mcpgym_server.authoring` (`Scenario`, `fetch_rows`, `pick_where`,
`reference_call`), the recurring checks from `mcpgym_grading.kit`. What is here is only what
is particular to these books: the volatile columns, the tables every family leaves out of
`nothing_else_changed`, and three ledger check bundles (`books_moved`, `note_left`,
`note_says_money`), plus `movements`, which computes what `books_moved` expects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mcpgym_grading import AnswerMatch, NoCollateralChanges, Param, SqlCheck, reply_says, reply_sent
from mcpgym_grading import nothing_else_changed as _nothing_else_changed
from mcpgym_server import format_cents

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The books' "now": snapshot rows are older, rows written in an episode newer."""

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
"""Tables every family leaves out of `nothing_else_changed`: the audit trail, notes (free
text, checked by `note_left`), and the journal, checked by `books_moved` as account
movements in cents (an agent may split or order its entries differently)."""


def money(cents: int) -> str:
    """``12345 -> "$123.45"``."""
    return format_cents(cents)


def notes_sql(entity: str, param: str) -> str:
    """SQL selecting the bodies of the notes left on ``entity`` ``:param``."""
    return f"SELECT body FROM notes WHERE entity = '{entity}' AND entity_id = :{param} ORDER BY id"


def note_left(entity: str, param: str, **kw: Any) -> SqlCheck:
    """A note was left on the record (policy 10.1)."""
    return reply_sent(
        "notes",
        f"entity = '{entity}' AND entity_id = :{param}",
        name=kw.pop("name", "note-left"),
        description=kw.pop("description", f"a note was left on the {entity} (policy 10.1)"),
        **kw,
    )


def note_says_money(entity: str, param: str, cents_param: str, **kw: Any) -> AnswerMatch:
    """A note on the record states the amount ``:cents_param`` (as money, e.g. $1,234.50)."""
    return reply_says(
        notes_sql(entity, param),
        cents_param,
        name=kw.pop("name", "note-states-amount"),
        normalize="money",
        description=kw.pop(
            "description", f"a note on the {entity} states the amount ({cents_param})"
        ),
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


def nothing_else_changed(*tables: str, **kw: Any) -> NoCollateralChanges:
    """`mcpgym_grading.nothing_else_changed` with the ledger's standing exceptions."""
    return _nothing_else_changed(*tables, always_except=ALWAYS_EXCEPT, **kw)


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
