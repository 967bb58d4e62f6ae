"""How the ledger's rubrics find the rows an agent creates: by what they are, never by an id.

A row written in an episode gets the next id (``max(id) + 1``) in the order the agent works,
so an id the generator predicts with ``peek_id`` names a *position*, not a record: an agent
that does the same work in another order (the May entry before the April one, the deposit
before the fee) puts other records at those ids. A check that read "the note on entry 430"
passed a note left on the wrong entry and failed an honest note on the right one.

So a check reads a created row through what it is: its date or period, its party, the source
document it belongs to (`Records`: the SQL that selects its ids), and a column that refers
to a created journal entry is compared through the entry's content (`entry_key`), not its
raw id (`journal_links_sql`). Rows of the setup and the snapshot keep their ids (the agent
cannot renumber them) and may be named by id; so may a bound that selects *every* created
row (``id >= :first_new_id``), which no order changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The books' "now": snapshot rows are older, rows written in an episode newer."""


@dataclass(frozen=True)
class Records:
    """The records a check reads, found by what they are.

    Args:
        sql: a query selecting the ids of the records (one column), with named parameters
            bound from the variant params, e.g. the entries posted in the episode on
            2026-05-01, or the payment received in the episode from ``:customer_id``.
    """

    sql: str


def on_records(entity: str, ref: str | Records) -> str:
    """The SQL condition on `notes` (or any table with ``entity`` / ``entity_id``) for the
    records ``ref``: a variant param naming a setup row's id (``str``), or `Records`."""
    if isinstance(ref, Records):
        return f"entity = '{entity}' AND entity_id IN ({ref.sql})"
    return f"entity = '{entity}' AND entity_id = :{ref}"


def entry_key(ref: str) -> str:
    """A SQL expression: the identity of the journal entry whose id is the column ``ref``
    (qualified, e.g. ``payments.journal_entry_id``), the same on two databases whatever ids
    the entries got. An entry of the books (older than the episode) is ``entry <id>`` (its id
    is fixed); an entry posted in the episode is ``posted <date>`` and its lines, per account
    and party, as ``code:party:debits:credits`` in order (memos, sources, timestamps and how
    the lines are split left out, as in `JOURNAL_SQL`). NULL when ``ref`` is NULL."""
    lines = (
        "SELECT a.code || ':' || COALESCE(l.party_id, '') || ':' || SUM(l.debit_cents) || ':' "
        "|| SUM(l.credit_cents) AS k FROM journal_lines l JOIN accounts a ON a.id = l.account_id "
        "WHERE l.entry_id = e.id GROUP BY a.code, l.party_id ORDER BY k"
    )
    return (
        f"(SELECT CASE WHEN e.created_at <= '{SNAPSHOT_TIME}' THEN 'entry ' || e.id "
        f"ELSE 'posted ' || e.entry_date || ' ' || COALESCE((SELECT group_concat(k, ' ') "
        f"FROM ({lines})), '') END FROM journal_entries e WHERE e.id = {ref})"
    )


JOURNAL_LINKED = ("bank_lines", "bills", "credit_notes", "invoices", "payments")
"""The tables whose ``journal_entry_id`` refers to the journal (the entry a document posted,
the entry a bank line is matched to)."""


def journal_links_sql(tables: Iterable[str], keyless: Iterable[str] = ()) -> str:
    """SQL selecting, for every row of ``tables``, ``(table, row id, entry_key of its
    journal_entry_id)``: what `nothing_else_changed` compares (as ``same_rows``) instead of
    the raw ``journal_entry_id``, so a document's or a bank line's entry is the same entry
    whatever id it got. Rows of the ``keyless`` tables (those whose ids are not compared,
    say two credit notes issued in either order) are listed without their id."""
    keyless = set(keyless)
    parts = [
        f"SELECT '{t}' AS tbl, {'NULL' if t in keyless else 'id'} AS row, "
        f"{entry_key(f'{t}.journal_entry_id')} AS entry FROM {t}"
        for t in tables
    ]
    return " UNION ALL ".join(parts) if parts else "SELECT NULL AS tbl WHERE 0"
