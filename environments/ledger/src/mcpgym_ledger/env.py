"""The ledger `Environment` object: the double-entry books of Harbor & Pine Wholesale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mcpgym_server import Environment, Snapshot

SNAPSHOT_SHA256 = "81975581726a747f1ed6b9356a91bf815e262e49af6a101aa5dd67edd64a04d2"
"""sha256 of data/snapshot.db; data/build_snapshot.py rewrites this line when it rebuilds."""

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The books' "now" (also meta.snapshot_time); the episode clock starts here."""

INSTRUCTIONS = """\
You keep the books of Harbor & Pine Wholesale, a small wholesale company selling outdoor \
gear to shops. Today is Monday 2026-06-15 (UTC). The books are double-entry: every posted \
invoice, bill, payment, credit note and write-off has a journal entry whose debits equal its \
credits. You work through the tools: look up accounts, parties, documents, bank lines and \
journal entries; enter and post bills and invoices, record payments, match bank lines, \
issue credit notes, post journal entries and reversals, write off debts, escalate to the \
controller and leave notes.

Follow the accounting policy (tool `get_policy`, resource ledger://policy). Some rules are \
enforced by the system (the tool refuses with an error you can act on); others are yours to \
apply: the system will let you break them. In particular never edit a posted entry (reverse \
it and post a corrected one), never post into a closed period, and escalate write-offs above \
the limit instead of making them. Money is in integer cents (2500 = $25.00). Leave a note on \
the record you worked on saying what you did, then call `submit`.
"""

environment = Environment(
    name="ledger",
    version="1.0.0",
    snapshot=Snapshot("mcpgym_ledger", "data/snapshot.db", sha256=SNAPSHOT_SHA256),
    clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    clock_step=timedelta(seconds=30),
    instructions=INSTRUCTIONS,
)
