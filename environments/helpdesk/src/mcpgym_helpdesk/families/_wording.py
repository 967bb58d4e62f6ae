"""How the helpdesk's customers write: the task text, emails (greeting, paragraphs, sign-off),
what is wrong with a damaged item, and how amounts, days, items and cards are written.

Generators draw every choice from `Generation.rng`, so the wording is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from mcpgym_server import format_cents


def money(cents: int) -> str:
    """``12345 -> "$123.45"`` (the kit's `format_cents`)."""
    return format_cents(cents)


def day(ts: str | None) -> str:
    """``"2026-05-28T14:03:00Z" -> "May 28"``."""
    if not ts:
        return "recently"
    d = datetime.strptime(ts[:10], "%Y-%m-%d")
    return f"{d:%B} {d.day}"


def item_label(item: Mapping[str, Any]) -> str:
    """``"Stormline Rain Jacket (M, Red)"``; sizes of ``One Size`` are left out."""
    if item["size"] == "One Size":
        return f"{item['product_name']} ({item['colour']})"
    return f"{item['product_name']} ({item['size']}, {item['colour']})"


def instruction(ticket_id: int) -> str:
    """The task text the agent is given: the customer's words are in the ticket itself."""
    return (
        f"Ticket #{ticket_id} is waiting in the support queue. Read it and handle it end to end "
        "as the support policy requires, then call submit."
    )


def greeting(rng: random.Random) -> str:
    return rng.choice(["Hi,", "Hello,", "Hi there,", "Hello support team,", "Hi Ridgeline,"])


def signoff(rng: random.Random, first_name: str, last_name: str) -> str:
    return rng.choice(["Thanks,", "Thank you,", "Best,", "Regards,", "Cheers,"]) + (
        f"\n{first_name} {last_name}" if rng.random() < 0.5 else f"\n{first_name}"
    )


def message(rng: random.Random, cust: Mapping[str, Any], *paragraphs: str) -> str:
    """A customer email: greeting, paragraphs, sign-off."""
    return "\n\n".join(
        [greeting(rng), *paragraphs, signoff(rng, cust["first_name"], cust["last_name"])]
    )


DAMAGE: dict[str, tuple[str, ...]] = {
    "tents": (
        "one of the poles was snapped in the bag",
        "the rainfly has a long tear along a seam",
        "the door zipper is broken and won't close",
    ),
    "sleeping-bags": (
        "the zipper is broken",
        "there's a rip in the shell and it's leaking fill",
        "the valve leaks and it won't hold air",
    ),
    "backpacks": (
        "a shoulder strap buckle is cracked",
        "the hip belt stitching has come apart",
        "the main zipper pull snapped off",
    ),
    "footwear": (
        "the sole of the left shoe is coming away",
        "the stitching on the right one is split",
        "an eyelet was ripped out",
    ),
    "jackets": (
        "the main zipper is broken",
        "there's a tear on the left sleeve",
        "the seam tape is peeling off inside",
    ),
    "apparel": (
        "there's a hole in the fabric",
        "a seam is split open",
        "the zipper is broken",
    ),
    "climbing": (
        "a buckle is bent",
        "it arrived with a crack in it",
        "the stitching is frayed",
    ),
    "camp-kitchen": (
        "the igniter doesn't work",
        "it arrived badly dented",
        "the valve leaks",
    ),
    "accessories": (
        "it doesn't work at all",
        "one of the pieces is cracked",
        "the locking mechanism is broken",
    ),
}
"""What a customer says is wrong with a damaged item, by product category."""


def damage(rng: random.Random, category: str) -> str:
    return rng.choice(DAMAGE.get(category, ("it arrived broken",)))


def card_phrase(payment: Mapping[str, Any]) -> str:
    """``"Visa card ending in 4242"``."""
    return f"{payment['card_brand']} card ending in {payment['card_last4']}"
