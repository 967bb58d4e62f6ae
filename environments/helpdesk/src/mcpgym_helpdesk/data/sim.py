"""Shared pieces of the snapshot simulation: the store's "now", time and money helpers, and the
plain records (customers, order plans) that build_snapshot.py and history.py pass around."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

NOW = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)
SNAPSHOT_TIME = "2026-06-15T09:00:00Z"

SIZED_CATEGORIES = ("footwear", "jackets", "apparel", "climbing", "backpacks", "accessories")


def fmt(t: datetime) -> str:
    """ISO 8601 UTC with a Z suffix, seconds precision."""
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def money(cents: int) -> str:
    """12345 -> "$123.45"."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def article(word: str) -> str:
    """'a' or 'an' before a size such as "L", "XL", "M/L", "US 8"."""
    return "an" if word[0] in "AEFHILMNORSX8" else "a"


def days(x: float) -> timedelta:
    return timedelta(seconds=round(x * 86400))


def hours(x: float) -> timedelta:
    return timedelta(seconds=round(x * 3600))


class FixedClock:
    """Clock for the tools during the build: set explicitly by the simulation."""

    def __init__(self) -> None:
        self.t = NOW

    def iso(self) -> str:
        return fmt(self.t)


@dataclass
class Customer:
    id: int
    first: str
    last: str
    email: str
    zip: str
    dob: str
    city: str
    created: datetime
    cards: list[tuple[str, str]]
    address_ids: list[int]
    weight: int


@dataclass
class OrderPlan:
    """Phase-A plan of one order: its customer, final status and timeline."""

    customer: Customer
    status: str
    placed: datetime
    captured: bool = True
    shipped: datetime | None = None
    est: date | None = None
    delivered: datetime | None = None
    ship_exception: bool = False
    cancelled: datetime | None = None
    cancel_by_customer: bool = True
    events: list[tuple[str, datetime]] = field(default_factory=list)
    needs: str | None = None
    dup: bool = False
    scenario: str | None = None  # open-ticket scenario
    ticket_at: datetime | None = None
    order_id: int = 0
    item_ids: list[int] = field(default_factory=list)
