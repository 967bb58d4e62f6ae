"""Snapshot queries for the helpdesk generators, and the SQL conditions that make a scenario
unambiguous (an untouched order, one card payment, a customer with no ticket open).

Generators only read the snapshot through `Generation.db`; every query here orders its rows by
id so that choices are stable.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_server import fetch_one, fetch_rows


def rows(
    db: sqlite3.Connection, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> list[dict[str, Any]]:
    """Run a read query on the snapshot; rows as plain dicts (the kit's `fetch_rows`)."""
    return fetch_rows(db, sql, params)


def one(
    db: sqlite3.Connection, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> dict[str, Any]:
    """The first row of a read query (the kit's `fetch_one`; LookupError when none)."""
    return fetch_one(db, sql, params)


CLEAN_ORDER = """
    o.replacement_for_order_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM returns rt WHERE rt.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM exchanges e WHERE e.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM order_items x WHERE x.order_id = o.id AND x.status <> 'ok')
    AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_id = o.id AND t.status <> 'closed')
    AND NOT EXISTS (SELECT 1 FROM orders ro WHERE ro.replacement_for_order_id = o.id)
"""
"""SQL condition on ``orders o``: an ordinary order nobody has touched after the sale (no refund,
return, exchange, open ticket), so a scenario built on it is unambiguous."""

ONE_CARD_PAYMENT = """
    (SELECT COUNT(*) FROM payments p WHERE p.order_id = o.id) = 1
    AND EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.method = 'card'
                AND p.status = 'captured' AND p.refunded_cents = 0
                AND p.amount_cents = o.total_cents)
"""
"""SQL condition on ``orders o``: paid in full by one captured card payment, nothing refunded."""

CUSTOMER_SANE = """
    NOT EXISTS (SELECT 1 FROM tickets t WHERE t.customer_id = o.customer_id
                AND t.status <> 'closed')
"""
"""SQL condition on ``orders o``: its customer has no ticket open (one conversation at a time)."""


def order_items(db: sqlite3.Connection, order_id: int) -> list[dict[str, Any]]:
    """Items of an order with product name, size, colour, final-sale flag, category, line total."""
    return rows(
        db,
        "SELECT oi.id, oi.order_id, oi.variant_id, oi.quantity, oi.unit_price_cents, oi.status, "
        "oi.quantity * oi.unit_price_cents AS line_total_cents, v.product_id, v.size, v.colour, "
        "p.name AS product_name, p.final_sale, p.category FROM order_items oi "
        "JOIN product_variants v ON v.id = oi.variant_id JOIN products p ON p.id = v.product_id "
        "WHERE oi.order_id = ? ORDER BY oi.id",
        (order_id,),
    )


def customer(db: sqlite3.Connection, customer_id: int) -> dict[str, Any]:
    return one(db, "SELECT * FROM customers WHERE id = ?", (customer_id,))


def customer_orders(db: sqlite3.Connection, customer_id: int) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM orders WHERE customer_id = ? ORDER BY id", (customer_id,))


def product_names_of_customer(db: sqlite3.Connection, customer_id: int) -> list[tuple[int, str]]:
    """(order id, product name) for every item the customer ever ordered."""
    return [
        (r["order_id"], r["name"])
        for r in rows(
            db,
            "SELECT oi.order_id, p.name FROM order_items oi JOIN orders o ON o.id = oi.order_id "
            "JOIN product_variants v ON v.id = oi.variant_id "
            "JOIN products p ON p.id = v.product_id WHERE o.customer_id = ? ORDER BY oi.id",
            (customer_id,),
        )
    ]


def product_unique_for_customer(
    db: sqlite3.Connection, customer_id: int, order_id: int, product_name: str
) -> bool:
    """Whether ``product_name`` appears in no other order of the customer than ``order_id``."""
    return all(
        oid == order_id
        for oid, name in product_names_of_customer(db, customer_id)
        if name == product_name
    )
