"""The check that no text puts a posting in a month the books do not hold it in (round 18's
Q17): `texts_state_posting_months`, in every family but closed-period-posting (whose
`texts-state-posted-in-open-period` reads its one closed month, round 17's P17a).
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import SqlCheck
from mcpgym_ledger.families._identity import SNAPSHOT_TIME
from mcpgym_ledger.families._notes import EPISODE_DOCUMENT_MEMOS_SQL

_T = f"'{SNAPSHOT_TIME}'"
_NEW_ENTRY = f"created_at > {_T}"


def _months(where: str, table: str = "journal_entries") -> str:
    return (
        "(SELECT group_concat(m) FROM (SELECT DISTINCT substr(entry_date, 1, 7) AS m "
        f"FROM {table} WHERE {where}))"
    )


def _nets(entry: str, sign: str = "") -> str:
    return (
        f"SELECT account_id, {sign}SUM(debit_cents - credit_cents) FROM journal_lines "
        f"WHERE entry_id = {entry} GROUP BY account_id"
    )


BY_HAND_REVERSALS = (
    f"SELECT e.id FROM journal_entries e WHERE e.{_NEW_ENTRY} AND e.reverses_entry_id IS NULL "
    "AND EXISTS (SELECT 1 FROM journal_lines WHERE entry_id = e.id) "
    "AND EXISTS (SELECT 1 FROM journal_entries o WHERE o.id <> e.id "
    "AND (o.entry_date < e.entry_date OR (o.entry_date = e.entry_date AND o.id < e.id)) "
    f"AND NOT EXISTS ({_nets('e.id')} EXCEPT {_nets('o.id', '-')}) "
    f"AND NOT EXISTS ({_nets('o.id', '-')} EXCEPT {_nets('e.id')}))"
)
"""The entries posted in the episode that reverse an earlier one by hand (round 19): not
posted by the reversal tool, their net on every account the negative of an entry dated
before them (the same day: posted before them). An accrual reversed with its lines swapped
is a reversal for `texts_state_posting_months` as the tool's is."""

_BY_HAND = "SELECT id FROM pm_by_hand"
"""`BY_HAND_REVERSALS`, read from the statement's materialized ``pm_by_hand`` (computed once:
it compares every new entry with every earlier one; issue 12)."""

_REV = _months(f"({_NEW_ENTRY} AND reverses_entry_id IS NOT NULL) OR id IN ({_BY_HAND})")
_NEW = _months(f"{_NEW_ENTRY} AND reverses_entry_id IS NULL AND id NOT IN ({_BY_HAND})")
_GENERIC = _months(
    f"{_NEW_ENTRY} OR edited_at > {_T} "
    f"OR id IN (SELECT reverses_entry_id FROM journal_entries WHERE {_NEW_ENTRY}) "
    f"OR id IN (SELECT journal_entry_id FROM bank_lines WHERE updated_at > {_T})"
)
_DOCS = (
    "(SELECT group_concat(m) FROM (SELECT DISTINCT substr(d, 1, 7) AS m FROM ("
    f"SELECT bill_date AS d FROM bills WHERE updated_at > {_T} "
    f"UNION ALL SELECT issue_date FROM invoices WHERE updated_at > {_T} "
    f"UNION ALL SELECT issue_date FROM credit_notes WHERE {_NEW_ENTRY} "
    f"UNION ALL SELECT payment_date FROM payments WHERE {_NEW_ENTRY} "
    f"UNION ALL SELECT line_date FROM bank_lines WHERE updated_at > {_T})))"
)


def _own(entry: str) -> str:
    return _months(
        f"id = {entry} OR id = (SELECT reverses_entry_id FROM journal_entries j2 "
        f"WHERE j2.id = {entry})",
        "journal_entries",
    )


POSTING_MONTHS_SQL = (
    f"WITH pm_by_hand(id) AS MATERIALIZED ({BY_HAND_REVERSALS}), "
    "pm_k(pm_rev, pm_new, pm_generic, pm_docs) AS MATERIALIZED ("
    f"SELECT {_REV}, {_NEW}, {_GENERIC}, {_DOCS}) "
    "SELECT x FROM ("
    "SELECT mcpgym_posting_misdated(t.body, k.pm_rev, k.pm_new, k.pm_generic, k.pm_docs) AS x "
    "FROM ("
    f"SELECT body FROM notes WHERE {_NEW_ENTRY} "
    f"UNION ALL SELECT reason FROM escalations WHERE {_NEW_ENTRY} "
    f"UNION ALL {EPISODE_DOCUMENT_MEMOS_SQL}) t, pm_k k "
    "UNION ALL SELECT mcpgym_posting_misdated(e.memo, k.pm_rev, k.pm_new, "
    f"{_own('e.id')}, k.pm_docs, {_months('id = e.id')}) FROM journal_entries e, pm_k k "
    f"WHERE e.{_NEW_ENTRY} OR e.edited_at > {_T} "
    "UNION ALL SELECT mcpgym_posting_misdated(l.memo, k.pm_rev, k.pm_new, "
    f"{_own('l.entry_id')}, k.pm_docs, {_months('id = l.entry_id')}) "
    "FROM journal_lines l, pm_k k "
    "WHERE l.entry_id IN (SELECT id FROM journal_entries "
    f"WHERE {_NEW_ENTRY} OR edited_at > {_T})"
    ") WHERE x IS NOT NULL"
)
"""What `texts_state_posting_months` finds (none expected): each clause of a note, memo,
reason or reference written in the episode that puts a posting in a month the books do not
hold that kind of posting in (`mcpgym_grading._posting_months`): a reversal outside the
months of the reversals the episode posted, an accrual, correction, re-post, write-off or
credit outside the months of its other entries, a plain posting outside the months of every
entry the episode posted, reversed, matched or edited (an entry's own memo: outside that
entry's month and the month of the entry it reverses, the latter only after a word naming
that entry on the memo's line: ``Reverse the May accrual (posted in May 2026)``, where a bare
``(posted in May 2026)`` dates the reversal itself; round 20), a ``dated`` record outside those and
the dates of the documents it wrote. A reversal posted by hand (`BY_HAND_REVERSALS`) counts
as a reversal, not a new posting. An episode that wrote no text states no month: the gate's
``misdate-text`` control mutants fail this check (`mcpgym_clients.instrument.controls`). The
months are read from the books, so either of two honest routes (an entry dated otherwise
than the reference's) is read against its own."""


def texts_state_posting_months(**kw: Any) -> SqlCheck:
    """No text written in the episode puts a posting in a month the books do not hold it in
    (`POSTING_MONTHS_SQL`): ``Accrued in June 2026.`` when the accrual is dated in May, ``The
    corrected entry was posted in May.`` when it went to June, ``Reversed in April.`` when the
    reversal is in June. A text naming the right month, another record's month in its own
    words (``the entry posted in May``, ``reverse the May accrual``), or no month passes.
    Required, weight 1: a wrong record of what was done (policy 10.1), as closed-period-
    posting's `texts-state-posted-in-open-period` (round 17's P17a; round 18's Q17)."""
    return SqlCheck(
        name=kw.pop("name", "texts-state-posting-months"),
        description=kw.pop(
            "description",
            "no note, memo or reason puts a posting in a month the books do not hold it in "
            "(`accrued in June` for a May accrual, `the corrected entry was posted in May` "
            "for a June one, `reversed in April` for a June reversal; policy 10.1)",
        ),
        sql=POSTING_MONTHS_SQL,
        expected=[],
        weight=kw.pop("weight", 1),
        required=kw.pop("required", True),
        **kw,
    )
