"""Helpers shared by the helpdesk tools: lookups, money formatting, audit rows, transactions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcpgym_server import Sandbox, ToolError

ACTOR = "agent"
"""audit_log.actor of every row written by a tool."""

REFUNDABLE_PAYMENT_STATUSES = ("captured", "partially_refunded")

MAX_AMOUNT_CENTS = 100_000_00
"""Upper bound of one money amount a tool accepts ($100,000.00), far above any order in the
store; keeps sums of amounts inside SQLite's 64-bit integers."""

LIKE_ESCAPE = "\\"
"""The escape character of every LIKE pattern built from user text (``LIKE ? ESCAPE '\\'``)."""

MAX_SEARCH_CHARS = 200
"""Longest text one LIKE search term may have. SQLite refuses LIKE patterns longer than 50,000
bytes ("LIKE or GLOB pattern too complex"), which 20,000 emoji reach; 200 characters (at most
802 bytes once escaped) is far above any name, SKU or product name and far below that."""


def like_contains(text: str, field: str = "search text") -> str:
    """A LIKE pattern matching values that contain ``text`` literally.

    ``%``, ``_`` and the escape character itself are escaped, so user text is never a
    wildcard; use it as ``... LIKE ? ESCAPE '\\'``. Text longer than `MAX_SEARCH_CHARS` is a
    ToolError naming ``field`` and the limit.
    """
    if len(text) > MAX_SEARCH_CHARS:
        raise ToolError(
            f"`{field}` is too long to search for ({len(text)} characters); give at most "
            f"{MAX_SEARCH_CHARS} characters, e.g. a name or a few words of it"
        )
    escaped = (
        text.replace(LIKE_ESCAPE, LIKE_ESCAPE * 2)
        .replace("%", LIKE_ESCAPE + "%")
        .replace("_", LIKE_ESCAPE + "_")
    )
    return f"%{escaped}%"


def require_amount(amount_cents: int, field: str = "amount_cents") -> int:
    """A positive amount of at most `MAX_AMOUNT_CENTS`, or a ToolError naming the limit."""
    if amount_cents <= 0:
        raise ToolError(f"{field} must be positive (cents), got {amount_cents}")
    if amount_cents > MAX_AMOUNT_CENTS:
        raise ToolError(
            f"{field} must be at most {MAX_AMOUNT_CENTS} cents ({money(MAX_AMOUNT_CENTS)}) per "
            f"call, got {amount_cents}"
        )
    return amount_cents


def money(cents: int | None) -> str | None:
    """Format integer cents as dollars: ``12345 -> "$123.45"``, ``-500 -> "-$5.00"``."""
    if cents is None:
        return None
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def with_money(row: dict[str, Any], *fields: str) -> dict[str, Any]:
    """Add a formatted ``<name>`` next to each ``<name>_cents`` field listed."""
    for f in fields:
        row[f.removesuffix("_cents")] = money(row.get(f))
    return row


def audit(
    sb: Sandbox, action: str, entity: str, entity_id: int, detail: dict[str, Any] | None = None
) -> None:
    """Append one audit_log row for an action taken by the agent at the current virtual time."""
    sb.db.execute(
        "INSERT INTO audit_log (at, actor, action, entity, entity_id, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            sb.clock.iso(),
            ACTOR,
            action,
            entity,
            int(entity_id),
            json.dumps(detail or {}, sort_keys=True, separators=(",", ":")),
        ),
    )


@contextmanager
def transaction(sb: Sandbox) -> Iterator[None]:
    """Run the block atomically.

    Uses a SAVEPOINT, so it nests inside the runtime's own per-call savepoint (the
    runtime already rolls back a failed call); it matters when tools are called directly.
    """
    sb.db.execute("SAVEPOINT helpdesk_tx")
    try:
        yield
    except BaseException:
        sb.db.execute("ROLLBACK TO helpdesk_tx")
        sb.db.execute("RELEASE helpdesk_tx")
        raise
    sb.db.execute("RELEASE helpdesk_tx")


def insert(sb: Sandbox, table: str, values: dict[str, Any]) -> int:
    """Insert one row (id allocated as max(id) + 1 by SQLite) and return its id."""
    cols = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cur = sb.db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values()))
    return int(cur.lastrowid or 0)


def require_text(value: str | None, field: str) -> str:
    """Strip a required text argument; ToolError if it is empty."""
    text = (value or "").strip()
    if not text:
        raise ToolError(f"`{field}` must not be empty")
    return text


def require_customer(sb: Sandbox, customer_id: int) -> dict[str, Any]:
    """The customer row, or a ToolError telling the agent how to find the right id."""
    row = sb.query_one("SELECT * FROM customers WHERE id = ?", (customer_id,))
    if row is None:
        raise ToolError(
            f"no customer with id {customer_id}; use find_customers to look the customer up"
        )
    return row


def require_order(sb: Sandbox, order_id: int) -> dict[str, Any]:
    """The order row, or a ToolError."""
    row = sb.query_one("SELECT * FROM orders WHERE id = ?", (order_id,))
    if row is None:
        raise ToolError(
            f"no order with id {order_id}; order numbers look like 100234 "
            "(use find_orders to list a customer's orders)"
        )
    return row


def require_order_item(sb: Sandbox, order_id: int, order_item_id: int) -> dict[str, Any]:
    """The order item joined with its variant and product, checked to belong to the order."""
    row = sb.query_one(
        "SELECT oi.*, v.product_id, v.size, v.colour, v.sku AS variant_sku, p.name AS product_name,"
        " p.final_sale FROM order_items oi JOIN product_variants v ON v.id = oi.variant_id"
        " JOIN products p ON p.id = v.product_id WHERE oi.id = ?",
        (order_item_id,),
    )
    if row is None or row["order_id"] != order_id:
        ids = [
            r["id"] for r in sb.query("SELECT id FROM order_items WHERE order_id = ?", (order_id,))
        ]
        raise ToolError(
            f"order item {order_item_id} is not part of order {order_id}; "
            f"its item ids are {ids} (see get_order)"
        )
    return row


def require_ticket(sb: Sandbox, ticket_id: int) -> dict[str, Any]:
    """The ticket row, or a ToolError."""
    row = sb.query_one("SELECT * FROM tickets WHERE id = ?", (ticket_id,))
    if row is None:
        raise ToolError(f"no ticket with id {ticket_id}; use list_tickets to find tickets")
    return row


def store_credit_balance(sb: Sandbox, customer_id: int) -> int:
    """Current store-credit balance of a customer in cents."""
    row = sb.db.execute(
        "SELECT COALESCE(SUM(amount_cents), 0) FROM store_credit_ledger WHERE customer_id = ?",
        (customer_id,),
    ).fetchone()
    return int(row[0])
