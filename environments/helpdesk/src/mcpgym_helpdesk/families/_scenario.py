"""The helpdesk's scenario builder: the kit's `Scenario` plus open tickets written by the
customer, and the reference calls of a variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from mcpgym_helpdesk.families._store import TODAY, iso, parse_ts
from mcpgym_server import Scenario as _KitScenario
from mcpgym_server import ToolCall, reference_call


class Scenario(_KitScenario):
    """The kit's `Scenario` (setup statements, ids allocated as the tools will) plus the
    helpdesk's ticket builder: `ticket_time` and `ticket`."""

    def ticket_time(self, after: Iterable[str | None] = ()) -> datetime:
        """When the customer wrote: a minute between 2026-06-14 07:00 UTC and 08:55 on the
        snapshot day, and at least a few minutes after every timestamp in ``after`` (the
        events the customer writes about)."""
        lo = datetime(2026, 6, 14, 7, 0, tzinfo=UTC)
        hi = datetime(2026, 6, 15, 8, 55, tzinfo=UTC)
        latest = max((parse_ts(t) for t in after if t), default=None)
        if latest is not None:
            lo = max(lo, latest + timedelta(minutes=5))
            if lo >= hi:
                lo, hi = latest + timedelta(minutes=1), TODAY - timedelta(minutes=1)
        span = int((hi - lo).total_seconds() // 60)
        return lo + timedelta(minutes=self.rng.randrange(0, max(span, 1)))

    def ticket(
        self,
        *,
        customer_id: int,
        order_id: int | None,
        subject: str,
        messages: Sequence[str],
        channel: str = "email",
        priority: str = "normal",
        after: Iterable[str | None] = (),
    ) -> int:
        """Insert an open ticket with the customer's messages; return its id."""
        start = self.ticket_time(after)
        stamps = [iso(start + timedelta(minutes=3 * i)) for i in range(len(messages))]
        ticket_id = self.insert(
            "tickets",
            {
                "customer_id": customer_id,
                "order_id": order_id,
                "subject": subject,
                "channel": channel,
                "status": "open",
                "priority": priority,
                "resolution_code": None,
                "created_at": stamps[0],
                "updated_at": stamps[-1],
                "closed_at": None,
            },
        )
        for body, at in zip(messages, stamps, strict=True):
            self.insert(
                "ticket_messages",
                {"ticket_id": ticket_id, "author": "customer", "body": body, "created_at": at},
            )
        return ticket_id


def call(name: str, **arguments: Any) -> ToolCall:
    """One reference call (the kit's `reference_call`)."""
    return reference_call(name, **arguments)
