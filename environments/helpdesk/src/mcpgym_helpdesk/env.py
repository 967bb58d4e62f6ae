"""The helpdesk `Environment` object: Ridgeline Outfitters' customer-support back office."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mcpgym_server import Environment, Snapshot

SNAPSHOT_SHA256 = "3b2def83bad70e7d80f673990a49876b049080ef300aeac988fb7b184f7d99a9"
"""sha256 of data/snapshot.db; printed by data/build_snapshot.py (update both together)."""

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The store's "now" in the snapshot (also meta.snapshot_time); the episode clock starts here."""

INSTRUCTIONS = """\
You are a customer-support agent in the back office of Ridgeline Outfitters, an online \
outdoor-gear store. Today is Monday 2026-06-15 (UTC). You work through the tools: look up \
customers, orders, products and tickets; change orders; issue refunds, returns, exchanges, \
replacements and store credit; reply to customers, add internal notes, escalate and close tickets.

Follow the written support policy (tool `get_policy`, resource helpdesk://policy). Some rules \
are enforced by the system (the tool refuses with an error you can act on); others are yours \
to apply: the system will let you break them. In particular verify the customer's identity \
before any account or shipping-address change, never pay out a single refund above $250.00 \
(escalate to billing instead), reply to the customer saying what you did, and close the ticket \
with the right resolution code. Money is in integer cents (2500 = $25.00). Call `submit` when done.
"""

environment = Environment(
    name="helpdesk",
    version="1.0.0",
    snapshot=Snapshot("mcpgym_helpdesk", "data/snapshot.db", sha256=SNAPSHOT_SHA256),
    clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
    clock_step=timedelta(seconds=30),
    instructions=INSTRUCTIONS,
)
