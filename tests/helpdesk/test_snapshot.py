"""The helpdesk snapshot: counts, internal consistency, and a deterministic build."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path

import pytest

from mcpgym_helpdesk import environment
from mcpgym_helpdesk.env import SNAPSHOT_SHA256, SNAPSHOT_TIME

DATA = Path(str(resources.files("mcpgym_helpdesk").joinpath("data")))
NOW = SNAPSHOT_TIME


@pytest.fixture(scope="module")
def db() -> sqlite3.Connection:
    return environment.snapshot.open_copy(readonly=True)


def scalar(db: sqlite3.Connection, sql: str, params: tuple = ()) -> int:
    return db.execute(sql, params).fetchone()[0]


def test_declared_digest_matches_file() -> None:
    data = (DATA / "snapshot.db").read_bytes()
    assert hashlib.sha256(data).hexdigest() == SNAPSHOT_SHA256
    assert len(data) < 2 * 1024 * 1024


def test_build_is_deterministic(tmp_path: Path) -> None:
    out = tmp_path / "snapshot.db"
    proc = subprocess.run(
        [sys.executable, str(DATA / "build_snapshot.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    digest = proc.stdout.strip()
    assert digest == hashlib.sha256(out.read_bytes()).hexdigest()
    assert digest == SNAPSHOT_SHA256, "rebuild differs from the committed snapshot"
    manifest = (tmp_path / "snapshot_manifest.json").read_text()
    assert manifest == (DATA / "snapshot_manifest.json").read_text()


def test_counts(db: sqlite3.Connection) -> None:
    assert scalar(db, "SELECT COUNT(*) FROM customers") >= 150
    assert scalar(db, "SELECT COUNT(*) FROM products") >= 60
    assert scalar(db, "SELECT COUNT(*) FROM orders") >= 500
    assert scalar(db, "SELECT COUNT(*) FROM tickets WHERE status = 'open'") >= 40
    assert scalar(db, "SELECT COUNT(*) FROM product_variants WHERE stock = 0") >= 10
    assert scalar(db, "SELECT COUNT(*) FROM products WHERE final_sale = 1") >= 5
    assert scalar(db, "SELECT COUNT(*) FROM refunds") >= 20
    assert scalar(db, "SELECT COUNT(*) FROM store_credit_ledger") >= 20
    assert scalar(db, "SELECT COUNT(*) FROM identity_verifications") == 0
    statuses = {r[0] for r in db.execute("SELECT DISTINCT status FROM orders")}
    assert statuses == {"pending", "paid", "shipped", "delivered", "cancelled", "returned"}
    assert db.execute("SELECT value FROM meta WHERE key = 'snapshot_time'").fetchone()[0] == NOW


def test_same_name_customers(db: sqlite3.Connection) -> None:
    pairs = db.execute(
        "SELECT first_name, last_name, COUNT(*) FROM customers GROUP BY 1, 2 HAVING COUNT(*) > 1"
    ).fetchall()
    assert len(pairs) >= 5


def test_every_customer_has_a_default_address(db: sqlite3.Connection) -> None:
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM customers c WHERE (SELECT COUNT(*) FROM addresses a "
            "WHERE a.customer_id = c.id AND a.is_default = 1) != 1",
        )
        == 0
    )
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM addresses a "
            "WHERE a.customer_id = c.id AND a.zip = c.zip)",
        )
        == 0
    )


def test_order_totals(db: sqlite3.Connection) -> None:
    bad = db.execute(
        "SELECT o.id FROM orders o WHERE o.subtotal_cents != (SELECT SUM(quantity * "
        "unit_price_cents) FROM order_items i WHERE i.order_id = o.id) OR o.total_cents != "
        "o.subtotal_cents + o.shipping_cents + o.tax_cents"
    ).fetchall()
    assert bad == []
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM orders o WHERE NOT EXISTS "
            "(SELECT 1 FROM order_items i WHERE i.order_id = o.id)",
        )
        == 0
    )


def test_payments_cover_totals(db: sqlite3.Connection) -> None:
    dups = 0
    for o in db.execute("SELECT * FROM orders").fetchall():
        pays = db.execute(
            "SELECT * FROM payments WHERE order_id = ? ORDER BY id", (o["id"],)
        ).fetchall()
        paid = sum(p["amount_cents"] for p in pays)
        if o["replacement_for_order_id"] is not None:
            assert o["total_cents"] == 0 and not pays
            continue
        if paid == o["total_cents"]:
            pass
        else:
            cards = [p for p in pays if p["method"] == "card"]
            assert len(cards) == 2 and cards[0]["amount_cents"] == cards[1]["amount_cents"]
            assert cards[0]["card_last4"] == cards[1]["card_last4"]
            assert paid - cards[1]["amount_cents"] == o["total_cents"], o["id"]
            if cards[1]["status"] == "captured":
                dups += 1
        statuses = {p["status"] for p in pays}
        if o["status"] == "pending":
            assert statuses == {"authorized"}
        elif o["status"] == "cancelled":
            assert statuses <= {"voided", "refunded"}
        else:
            assert statuses <= {"captured", "partially_refunded", "refunded"}
    assert dups >= 8


def test_refunds_match_payments(db: sqlite3.Connection) -> None:
    for p in db.execute("SELECT * FROM payments").fetchall():
        refunded = scalar(
            db,
            "SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE payment_id = ?",
            (p["id"],),
        )
        assert refunded == p["refunded_cents"] <= p["amount_cents"]
        if p["status"] == "refunded":
            assert refunded == p["amount_cents"]
        elif p["status"] == "partially_refunded":
            assert 0 < refunded < p["amount_cents"]
        else:
            assert refunded == 0
    bad = db.execute(
        "SELECT r.id FROM refunds r WHERE (r.method = 'store_credit') != (r.payment_id IS NULL) "
        "OR (r.method = 'store_credit' AND NOT EXISTS (SELECT 1 FROM store_credit_ledger l "
        "WHERE l.refund_id = r.id AND l.amount_cents = r.amount_cents))"
    ).fetchall()
    assert bad == []


def test_store_credit_never_negative(db: sqlite3.Connection) -> None:
    running: dict[int, int] = defaultdict(int)
    for row in db.execute("SELECT * FROM store_credit_ledger ORDER BY created_at, id"):
        running[row["customer_id"]] += row["amount_cents"]
        assert running[row["customer_id"]] >= 0
    assert sum(1 for v in running.values() if v > 0) >= 10


def test_status_matches_shipments(db: sqlite3.Connection) -> None:
    for o in db.execute("SELECT * FROM orders").fetchall():
        ships = db.execute("SELECT * FROM shipments WHERE order_id = ?", (o["id"],)).fetchall()
        if o["status"] in ("pending", "paid", "cancelled"):
            assert not ships and o["shipped_at"] is None and o["delivered_at"] is None
        elif o["status"] == "shipped":
            assert len(ships) == 1 and ships[0]["status"] in ("in_transit", "exception")
            assert o["delivered_at"] is None and ships[0]["shipped_at"] == o["shipped_at"]
        else:
            assert len(ships) == 1 and ships[0]["status"] == "delivered"
            assert o["placed_at"] < o["shipped_at"] < o["delivered_at"] < NOW
            assert ships[0]["delivered_at"] == o["delivered_at"]
        if o["status"] == "cancelled":
            assert o["cancelled_at"] is not None
            assert (
                scalar(
                    db,
                    "SELECT COUNT(*) FROM order_items WHERE order_id = ? AND status != 'cancelled'",
                    (o["id"],),
                )
                == 0
            )
        if o["status"] == "returned":
            assert (
                scalar(
                    db,
                    "SELECT COUNT(*) FROM returns WHERE order_id = ? AND status = 'received'",
                    (o["id"],),
                )
                >= 1
            )


def test_tracking_number_formats(db: sqlite3.Connection) -> None:
    formats = {
        "UPS": r"1Z[0-9A-Z]{16}",
        "FedEx": r"\d{12}",
        "USPS": r"94\d{20}",
        "DHL": r"\d{10}",
    }
    carriers = Counter()
    for s in db.execute("SELECT carrier, tracking_number FROM shipments"):
        carriers[s[0]] += 1
        assert re.fullmatch(formats[s[0]], s[1]), s
    assert set(carriers) == set(formats)


def test_timestamps_before_snapshot_time(db: sqlite3.Connection) -> None:
    iso = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
    columns = {
        "orders": ["placed_at", "updated_at", "shipped_at", "delivered_at", "cancelled_at"],
        "payments": ["created_at"],
        "refunds": ["created_at"],
        "tickets": ["created_at", "updated_at", "closed_at"],
        "ticket_messages": ["created_at"],
        "audit_log": ["at"],
        "store_credit_ledger": ["created_at"],
        "returns": ["created_at", "received_at"],
        "shipments": ["shipped_at", "delivered_at"],
        "customers": ["created_at"],
    }
    for table, cols in columns.items():
        for col in cols:
            for (value,) in db.execute(f"SELECT {col} FROM {table} WHERE {col} IS NOT NULL"):
                assert iso.fullmatch(value) and value < NOW, (table, col, value)


def test_audit_log(db: sqlite3.Connection) -> None:
    assert scalar(db, "SELECT COUNT(*) FROM audit_log WHERE actor = 'agent'") == 0
    actions = {r[0] for r in db.execute("SELECT DISTINCT action FROM audit_log")}
    assert {
        "refund.create",
        "order.cancel",
        "return.create",
        "ticket.close",
        "store_credit.add",
        "exchange.create",
        "replacement.create",
    } <= actions
    for (detail,) in db.execute("SELECT detail FROM audit_log"):
        parsed = json.loads(detail)
        assert json.dumps(parsed, sort_keys=True, separators=(",", ":")) == detail
    # every refund has its audit row
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM refunds r WHERE NOT EXISTS (SELECT 1 FROM "
            "audit_log a WHERE a.action = 'refund.create' AND a.entity_id = r.id)",
        )
        == 0
    )


def test_tickets(db: sqlite3.Connection) -> None:
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM tickets t WHERE NOT EXISTS (SELECT 1 FROM "
            "ticket_messages m WHERE m.ticket_id = t.id AND m.author = 'customer')",
        )
        == 0
    )
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM tickets WHERE (status = 'closed') != "
            "(resolution_code IS NOT NULL AND closed_at IS NOT NULL)",
        )
        == 0
    )
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM tickets t WHERE status = 'escalated' AND NOT "
            "EXISTS (SELECT 1 FROM escalations e WHERE e.ticket_id = t.id)",
        )
        == 0
    )
    # tickets about an order belong to that order's customer
    assert (
        scalar(
            db,
            "SELECT COUNT(*) FROM tickets t JOIN orders o ON o.id = t.order_id "
            "WHERE o.customer_id != t.customer_id",
        )
        == 0
    )


def test_manifest_scenarios_fit_their_orders(db: sqlite3.Connection) -> None:
    manifest = json.loads((DATA / "snapshot_manifest.json").read_text())["open_tickets"]
    expected_status = {
        "wismo": {"shipped"},
        "cancel_request": {"paid", "pending"},
        "cancel_shipped": {"shipped"},
        "address_change": {"paid", "pending"},
        "address_change_dob": {"paid", "pending"},
        "address_change_shipped": {"shipped"},
    }
    for t in manifest:
        if t["order_id"] is None:
            continue
        o = db.execute("SELECT * FROM orders WHERE id = ?", (t["order_id"],)).fetchone()
        want = expected_status.get(t["scenario"], {"delivered", "shipped"})
        assert o["status"] in want, t
        item = db.execute(
            "SELECT oi.status, p.final_sale, v.stock FROM order_items oi JOIN product_variants v "
            "ON v.id = oi.variant_id JOIN products p ON p.id = v.product_id WHERE oi.id = ?",
            (t["order_item_id"],),
        ).fetchone()
        assert item["status"] == "ok"
        if t["scenario"] in ("return_final_sale", "damaged_final_sale"):
            assert item["final_sale"] == 1
        if t["scenario"] == "damaged_replace":
            assert item["stock"] > 0
