"""The store the helpdesk families are set in: its clock, its policy figures, and what the
grader ignores (timestamps from the virtual clock, tables no family checks for collateral).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The store's "now": snapshot rows are older, rows written in an episode are newer."""

TODAY = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)

IN_WINDOW_SINCE = "2026-05-20"
"""Orders delivered on or after this day are clearly inside the 30-day return window
(day 30 is 2026-05-16; a few days of margin keep the variants unambiguous)."""

OUT_OF_WINDOW_BEFORE = "2026-05-10"
"""Orders delivered before this day are clearly outside the 30-day return window."""

REFUND_LIMIT_CENTS = 25000
"""Policy 7.1: an agent may pay out at most $250.00 per refund request."""

GOODWILL_CAP_CENTS = 2000
"""Policy 8.2: goodwill store credit is at most $20.00 per order, once per order."""

TODAY_DATE = "2026-06-15"
"""The store's date (``estimated_delivery`` is a date): a parcel not delivered by the end of
an earlier day is late."""

BANDS: tuple[Any, ...] = ("easy", "medium", "hard", "expert")

VOLATILE_COLUMNS: dict[str, tuple[str, ...]] = {
    "tickets": ("updated_at", "closed_at"),
    "orders": ("placed_at", "updated_at", "cancelled_at"),
    "refunds": ("created_at",),
    "store_credit_ledger": ("created_at",),
    "returns": ("created_at",),
    "exchanges": ("created_at",),
    "escalations": ("created_at",),
    "identity_verifications": ("verified_at",),
    "ticket_messages": ("created_at",),
    "audit_log": ("at",),
}
"""Timestamps written from the virtual clock: they depend on how many calls the agent made."""

ALWAYS_EXCEPT = ("audit_log", "ticket_messages", "identity_verifications", "tickets")
"""Tables every family leaves out of `NoCollateralChanges`: the audit trail, the conversation
(replies and notes are free text), verifications (an agent may verify when it need not) and
tickets (the target ticket is checked explicitly, the others by `other_tickets_untouched`)."""


# -- timestamps ------------------------------------------------------------------------------


def iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(ts: str) -> datetime:
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
