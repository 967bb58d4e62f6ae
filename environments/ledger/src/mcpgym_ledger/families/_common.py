"""Shared pieces of the ledger task families, built on the author kit.

The scenario side comes from `mcpgym_server.authoring` (`Scenario`, `fetch_rows`, `pick_where`,
`reference_call`), the recurring checks from `mcpgym_grading.kit`. What is here and beside it
is only what is particular to these books:

- here: the books' calendar (`TODAY`, `FIRST_OPEN_DAY`), bands, volatile columns, tax rates
  and products, and the helpers every family uses (`money`, `tax_on`, `instruction`);
- `_checks`: the end state (`books_moved`, what it expects from `movements`, and
  `nothing_else_changed` with the tables every family leaves out of it);
- `_notes`: what the agent writes (`note_left`, `note_says_money`, `tax_id_not_copied`);
- `_past_books`: `PastBooks`, the setup writers for documents of the books' past.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def money(cents: int) -> str:
    """``12345 -> "$123.45"``."""
    return format_cents(cents)


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
