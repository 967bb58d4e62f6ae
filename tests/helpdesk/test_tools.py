"""The helpdesk tools through the SDK on a fresh sandbox: happy paths and enforced errors."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from mcpgym_helpdesk import environment
from mcpgym_helpdesk.env import SNAPSHOT_TIME
from mcpgym_server import InvalidArgumentsError, Sandbox, ToolError, VirtualClock

MANIFEST = json.loads(
    resources.files("mcpgym_helpdesk").joinpath("data/snapshot_manifest.json").read_text()
)["open_tickets"]


def scenario(name: str) -> dict[str, Any]:
    """The first open ticket of a scenario in the snapshot (see snapshot_manifest.json)."""
    return next(t for t in MANIFEST if t["scenario"] == name)


def new_sandbox() -> Sandbox:
    return Sandbox(
        db=environment.snapshot.open_copy(),
        clock=VirtualClock(environment.clock_start, environment.clock_step),
        seed=0,
        episode_id="t",
    )


@pytest.fixture
def sb() -> Sandbox:
    return new_sandbox()


def call(sb: Sandbox, tool: str, /, **arguments: Any) -> Any:
    """Call a tool the way the runtime does (tick, validate, run) and check the result is JSON."""
    sb.clock.tick()
    spec = environment.tools[tool]
    result = spec.fn(sb, **spec.validate(arguments))
    assert json.loads(json.dumps(result)) == result
    return result


def one(sb: Sandbox, sql: str, params: Any = ()) -> Any:
    return sb.db.execute(sql, params).fetchone()


def audit_rows(sb: Sandbox, action: str) -> list[dict[str, Any]]:
    return sb.query("SELECT * FROM audit_log WHERE action = ? AND at > ?", (action, SNAPSHOT_TIME))


# -- declaration ------------------------------------------------------------------------


def test_tools_declared() -> None:
    expected = {
        "find_customers",
        "verify_identity",
        "get_customer",
        "update_customer_contact",
        "find_orders",
        "get_order",
        "search_products",
        "get_product",
        "update_shipping_address",
        "cancel_order",
        "create_return",
        "issue_refund",
        "create_exchange",
        "create_replacement",
        "add_store_credit",
        "get_ticket",
        "list_tickets",
        "add_ticket_note",
        "reply_to_customer",
        "escalate_ticket",
        "close_ticket",
        "get_policy",
        "submit",
    }
    assert expected <= set(environment.tools)
    for spec in environment.tools.values():
        assert spec.description
        for name, prop in spec.input_schema.get("properties", {}).items():
            assert prop.get("description"), (spec.name, name)
    assert environment.tools["close_ticket"].input_schema["properties"]["resolution_code"]["enum"]
    assert "helpdesk://policy" in environment.resources


def test_policy(sb: Sandbox) -> None:
    text = call(sb, "get_policy")["policy"]
    assert "$250.00" in text and "30 days" in text and "[system]" in text


# -- customers --------------------------------------------------------------------------


def test_find_customers(sb: Sandbox) -> None:
    first, last = one(
        sb,
        "SELECT first_name, last_name FROM customers GROUP BY 1, 2 "
        "HAVING COUNT(*) > 1 ORDER BY 1, 2",
    )
    found = call(sb, "find_customers", name=f"{first} {last}")
    assert len(found) >= 2
    assert all("date_of_birth" not in c for c in found)
    assert set(found[0]) == {"id", "name", "first_name", "last_name", "email", "zip"}
    c = one(sb, "SELECT * FROM customers WHERE id = 1001")
    assert [r["id"] for r in call(sb, "find_customers", email=c["email"].upper())] == [1001]
    digits = "".join(ch for ch in c["phone"] if ch.isdigit())
    assert 1001 in [r["id"] for r in call(sb, "find_customers", phone=f"+1 {digits}")]
    assert call(sb, "find_customers", name="Nobody Atall") == []
    with pytest.raises(ToolError, match="at least one"):
        call(sb, "find_customers")


def test_verify_identity(sb: Sandbox) -> None:
    c = one(sb, "SELECT * FROM customers WHERE id = 1002")
    res = call(sb, "verify_identity", customer_id=1002, email=c["email"], zip=c["zip"])
    assert res["verified"] and res["method"] == "email_zip"
    res = call(
        sb,
        "verify_identity",
        customer_id=1002,
        email=c["email"],
        zip="",
        date_of_birth=c["date_of_birth"],
    )
    assert res["method"] == "email_dob"
    assert one(sb, "SELECT COUNT(*) FROM identity_verifications WHERE customer_id = 1002")[0] == 2
    assert len(audit_rows(sb, "identity.verify")) == 2


def test_verify_identity_mismatch(sb: Sandbox) -> None:
    c = one(sb, "SELECT * FROM customers WHERE id = 1003")
    with pytest.raises(ToolError, match="zip did not match"):
        call(sb, "verify_identity", customer_id=1003, email=c["email"], zip="00000")
    with pytest.raises(ToolError, match="email"):
        call(sb, "verify_identity", customer_id=1003, email="x@example.com", zip=c["zip"])
    with pytest.raises(ToolError, match="ZIP"):
        call(sb, "verify_identity", customer_id=1003, email=c["email"], zip="")
    with pytest.raises(ToolError, match="no customer"):
        call(sb, "verify_identity", customer_id=1, email=c["email"], zip=c["zip"])
    assert one(sb, "SELECT COUNT(*) FROM identity_verifications")[0] == 0
    # a failed attempt writes nothing (the runtime would roll it back anyway)
    assert audit_rows(sb, "identity.verify_failed") == []


def test_get_customer(sb: Sandbox) -> None:
    cid = one(
        sb,
        "SELECT customer_id FROM store_credit_ledger GROUP BY 1 "
        "HAVING SUM(amount_cents) > 0 ORDER BY 1",
    )[0]
    res = call(sb, "get_customer", customer_id=cid)
    assert "date_of_birth" not in res and res["identity_verified"] is False
    balance = one(
        sb, "SELECT SUM(amount_cents) FROM store_credit_ledger WHERE customer_id = ?", (cid,)
    )[0]
    assert res["store_credit_balance_cents"] == balance > 0
    assert res["addresses"] and res["orders"]
    with pytest.raises(ToolError, match="find_customers"):
        call(sb, "get_customer", customer_id=999)


def test_update_customer_contact(sb: Sandbox) -> None:
    res = call(
        sb,
        "update_customer_contact",
        customer_id=1004,
        email="New.Address@example.com",
        phone="(303) 555-0199",
    )
    assert res["updated"]["email"]["new"] == "new.address@example.com"
    assert one(sb, "SELECT email FROM customers WHERE id = 1004")[0] == "new.address@example.com"
    assert len(audit_rows(sb, "customer.update_contact")) == 1
    taken = one(sb, "SELECT email FROM customers WHERE id = 1005")[0]
    with pytest.raises(ToolError, match="already belongs"):
        call(sb, "update_customer_contact", customer_id=1004, email=taken)
    with pytest.raises(ToolError, match="not a valid email"):
        call(sb, "update_customer_contact", customer_id=1004, email="nope")
    with pytest.raises(ToolError, match="email` and/or `phone"):
        call(sb, "update_customer_contact", customer_id=1004)


# -- catalog and orders -------------------------------------------------------------------


def test_products(sb: Sandbox) -> None:
    found = call(sb, "search_products", query="rain jacket")
    assert found and found[0]["name"] == "Stormline Rain Jacket"
    assert call(sb, "search_products", query="", category="tents")
    with pytest.raises(ToolError, match="valid categories"):
        call(sb, "search_products", query="x", category="boats")
    prod = call(sb, "get_product", product_id=found[0]["id"])
    assert {v["size"] for v in prod["variants"]} >= {"S", "M", "L"}
    assert all(v["in_stock"] == (v["stock"] > 0) for v in prod["variants"])
    with pytest.raises(ToolError, match="search_products"):
        call(sb, "get_product", product_id=9999)


def test_find_and_get_order(sb: Sandbox) -> None:
    t = scenario("duplicate_charge")
    orders = call(sb, "find_orders", customer_id=t["customer_id"])
    assert t["order_id"] in [o["id"] for o in orders]
    assert all(o["customer_id"] == t["customer_id"] for o in orders)
    assert all(o["status"] == "shipped" for o in call(sb, "find_orders", status="shipped"))
    assert call(sb, "find_orders", product_name="rain jacket")
    with pytest.raises(ToolError, match="at least one filter"):
        call(sb, "find_orders")
    with pytest.raises(ToolError, match="valid: pending"):
        call(sb, "find_orders", status="lost")
    order = call(sb, "get_order", order_id=t["order_id"])
    cards = [p for p in order["payments"] if p["method"] == "card"]
    assert len(cards) == 2 and order["refundable_remaining_cents"] == 2 * order["total_cents"]
    assert order["shipments"][0]["tracking_number"]
    with pytest.raises(ToolError, match="no order"):
        call(sb, "get_order", order_id=42)


# -- address and cancellation -------------------------------------------------------------


def test_update_shipping_address(sb: Sandbox) -> None:
    oid = scenario("address_change")["order_id"]
    res = call(
        sb,
        "update_shipping_address",
        order_id=oid,
        line1="12 Pine Street",
        line2="Apt 4",
        city="Boulder",
        state="co",
        zip="80302",
    )
    assert res["shipping_address"]["shipping_state"] == "CO"
    row = one(sb, "SELECT * FROM orders WHERE id = ?", (oid,))
    assert (row["shipping_line1"], row["shipping_line2"], row["shipping_zip"]) == (
        "12 Pine Street",
        "Apt 4",
        "80302",
    )
    (entry,) = audit_rows(sb, "order.update_address")
    assert entry["entity_id"] == oid and entry["actor"] == "agent"
    with pytest.raises(ToolError, match="US state code"):
        call(
            sb,
            "update_shipping_address",
            order_id=oid,
            line1="1 A St",
            city="X",
            state="ZZ",
            zip="80302",
        )
    with pytest.raises(ToolError, match="only ship within the US"):
        call(
            sb,
            "update_shipping_address",
            order_id=oid,
            line1="1 A St",
            city="X",
            state="CO",
            zip="80302",
            country="CA",
        )
    with pytest.raises(ToolError, match="ZIP"):
        call(
            sb,
            "update_shipping_address",
            order_id=oid,
            line1="1 A St",
            city="X",
            state="CO",
            zip="8030",
        )


def test_update_shipping_address_after_shipping(sb: Sandbox) -> None:
    oid = scenario("address_change_shipped")["order_id"]
    with pytest.raises(ToolError, match="'shipped'; shipping addresses can only be changed"):
        call(
            sb,
            "update_shipping_address",
            order_id=oid,
            line1="1 A St",
            city="Boulder",
            state="CO",
            zip="80302",
        )


def test_cancel_paid_order(sb: Sandbox) -> None:
    oid = one(sb, "SELECT id FROM orders WHERE status = 'paid' ORDER BY id")[0]
    items = sb.query("SELECT variant_id, quantity FROM order_items WHERE order_id = ?", (oid,))
    stock_before = {
        i["variant_id"]: one(
            sb, "SELECT stock FROM product_variants WHERE id = ?", (i["variant_id"],)
        )[0]
        for i in items
    }
    total = one(sb, "SELECT total_cents FROM orders WHERE id = ?", (oid,))[0]
    res = call(sb, "cancel_order", order_id=oid, reason="customer request")
    assert res["refunded_total_cents"] == total
    assert one(sb, "SELECT status FROM orders WHERE id = ?", (oid,))[0] == "cancelled"
    assert {
        r[0] for r in sb.db.execute("SELECT status FROM payments WHERE order_id = ?", (oid,))
    } == {"refunded"}
    for i in items:
        after = one(sb, "SELECT stock FROM product_variants WHERE id = ?", (i["variant_id"],))[0]
        assert after == stock_before[i["variant_id"]] + i["quantity"]
    assert len(audit_rows(sb, "order.cancel")) == 1
    assert len(audit_rows(sb, "refund.create")) == len(res["refunds"]) >= 1
    with pytest.raises(ToolError, match="'cancelled'"):
        call(sb, "cancel_order", order_id=oid, reason="again")


def test_cancel_pending_order_voids(sb: Sandbox) -> None:
    oid = one(sb, "SELECT id FROM orders WHERE status = 'pending' ORDER BY id")[0]
    res = call(sb, "cancel_order", order_id=oid, reason="customer request")
    assert res["refunds"] == [] and res["voided_payment_ids"]
    assert one(sb, "SELECT COUNT(*) FROM refunds WHERE order_id = ?", (oid,))[0] == 0


def test_cancel_shipped_order_refused(sb: Sandbox) -> None:
    oid = scenario("cancel_shipped")["order_id"]
    with pytest.raises(ToolError, match="create_return"):
        call(sb, "cancel_order", order_id=oid, reason="customer request")


# -- returns and refunds ------------------------------------------------------------------


def test_create_return(sb: Sandbox) -> None:
    t = scenario("return_window")
    res = call(
        sb,
        "create_return",
        order_id=t["order_id"],
        order_item_ids=[t["order_item_id"]],
        reason="changed mind",
    )
    (ret,) = res["returns"]
    assert (
        ret["return_tracking_number"].startswith("92055")
        and len(ret["return_tracking_number"]) == 22
    )
    row = one(sb, "SELECT status FROM order_items WHERE id = ?", (t["order_item_id"],))
    assert row[0] == "return_requested"
    assert len(audit_rows(sb, "return.create")) == 1
    with pytest.raises(ToolError, match="already been returned"):
        call(
            sb,
            "create_return",
            order_id=t["order_id"],
            order_item_ids=[t["order_item_id"]],
            reason="again",
        )


def test_create_return_refusals(sb: Sandbox) -> None:
    t = scenario("return_final_sale")
    with pytest.raises(ToolError, match="final sale"):
        call(
            sb,
            "create_return",
            order_id=t["order_id"],
            order_item_ids=[t["order_item_id"]],
            reason="changed mind",
        )
    shipped = scenario("wismo")
    with pytest.raises(ToolError, match="delivered orders"):
        call(
            sb,
            "create_return",
            order_id=shipped["order_id"],
            order_item_ids=[shipped["order_item_id"]],
            reason="x",
        )
    with pytest.raises(ToolError, match="not part of order"):
        call(
            sb,
            "create_return",
            order_id=t["order_id"],
            order_item_ids=[shipped["order_item_id"]],
            reason="x",
        )
    with pytest.raises(ToolError, match="at least one"):
        call(sb, "create_return", order_id=t["order_id"], order_item_ids=[], reason="x")
    assert one(sb, "SELECT COUNT(*) FROM returns WHERE created_at > ?", (SNAPSHOT_TIME,))[0] == 0


def test_issue_refund_item_to_card(sb: Sandbox) -> None:
    t = scenario("damaged_refund")
    item = one(
        sb,
        "SELECT quantity * unit_price_cents FROM order_items WHERE id = ?",
        (t["order_item_id"],),
    )[0]
    res = call(
        sb,
        "issue_refund",
        order_id=t["order_id"],
        amount_cents=item,
        method="original_payment",
        reason="damaged",
        order_item_id=t["order_item_id"],
    )
    assert sum(r["amount_cents"] for r in res["refunds"]) == item
    assert (
        one(sb, "SELECT status FROM order_items WHERE id = ?", (t["order_item_id"],))[0]
        == "refunded"
    )
    pays = sb.query("SELECT * FROM payments WHERE order_id = ? ORDER BY id", (t["order_id"],))
    assert sum(p["refunded_cents"] for p in pays) == item
    assert pays[0]["status"] in ("partially_refunded", "refunded")
    (entry,) = audit_rows(sb, "refund.create")
    detail = json.loads(entry["detail"])
    assert detail["amount_cents"] == item and list(detail) == sorted(detail)
    with pytest.raises(ToolError, match="still refundable for order item"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=1,
            method="original_payment",
            reason="again",
            order_item_id=t["order_item_id"],
        )


def test_issue_refund_store_credit(sb: Sandbox) -> None:
    t = scenario("exchange_oos")
    before = one(
        sb,
        "SELECT COALESCE(SUM(amount_cents), 0) FROM store_credit_ledger WHERE customer_id = ?",
        (t["customer_id"],),
    )[0]
    res = call(
        sb,
        "issue_refund",
        order_id=t["order_id"],
        amount_cents=1000,
        method="store_credit",
        reason="size out of stock",
        order_item_id=t["order_item_id"],
    )
    assert res["store_credit_balance_cents"] == before + 1000
    assert (
        one(
            sb,
            "SELECT COUNT(*) FROM payments WHERE order_id = ? AND refunded_cents > 0",
            (t["order_id"],),
        )[0]
        == 0
    )
    with pytest.raises(ToolError, match="payment_id only applies"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=100,
            method="store_credit",
            reason="x",
            payment_id=1,
        )


def test_issue_refund_duplicate_charge(sb: Sandbox) -> None:
    t = scenario("duplicate_charge")
    dup = sb.query(
        "SELECT * FROM payments WHERE order_id = ? AND method = 'card' ORDER BY id",
        (t["order_id"],),
    )[-1]
    call(
        sb,
        "issue_refund",
        order_id=t["order_id"],
        amount_cents=dup["amount_cents"],
        method="original_payment",
        reason="duplicate charge",
        payment_id=dup["id"],
    )
    statuses = [
        r[0]
        for r in sb.db.execute(
            "SELECT status FROM payments WHERE order_id = ? AND method = 'card' ORDER BY id",
            (t["order_id"],),
        )
    ]
    assert statuses == ["captured", "refunded"]
    with pytest.raises(ToolError, match="status 'refunded'"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=1,
            method="original_payment",
            reason="x",
            payment_id=dup["id"],
        )
    other = one(sb, "SELECT id FROM payments WHERE order_id != ? ORDER BY id", (t["order_id"],))
    with pytest.raises(ToolError, match="is not a payment of order"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=1,
            method="original_payment",
            reason="x",
            payment_id=other[0],
        )


def test_issue_refund_limits(sb: Sandbox) -> None:
    t = scenario("damaged_large")
    order = call(sb, "get_order", order_id=t["order_id"])
    with pytest.raises(ToolError, match="positive"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=0,
            method="original_payment",
            reason="x",
        )
    with pytest.raises(ToolError, match="exceeds what is still refundable on order"):
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=order["total_cents"] + 1,
            method="original_payment",
            reason="x",
        )
    # the $250 limit is policy, not enforced: a large refund goes through
    line = next(i for i in order["items"] if i["id"] == t["order_item_id"])["line_total_cents"]
    assert line > 25000
    call(
        sb,
        "issue_refund",
        order_id=t["order_id"],
        amount_cents=line,
        method="original_payment",
        reason="damaged",
        order_item_id=t["order_item_id"],
    )
    pending = one(sb, "SELECT id FROM orders WHERE status = 'pending' ORDER BY id")[0]
    with pytest.raises(ToolError, match="no captured payment"):
        call(
            sb,
            "issue_refund",
            order_id=pending,
            amount_cents=100,
            method="original_payment",
            reason="x",
        )
    with pytest.raises(InvalidArgumentsError):
        call(
            sb, "issue_refund", order_id=t["order_id"], amount_cents=100, method="cash", reason="x"
        )


# -- exchanges and replacements -----------------------------------------------------------


def _neighbour(sb: Sandbox, order_item_id: int) -> dict[str, Any]:
    item = one(
        sb,
        "SELECT v.* FROM order_items oi JOIN product_variants v ON v.id = "
        "oi.variant_id WHERE oi.id = ?",
        (order_item_id,),
    )
    variants = sb.query(
        "SELECT * FROM product_variants WHERE product_id = ? AND colour = ? ORDER BY id",
        (item["product_id"], item["colour"]),
    )
    idx = [v["id"] for v in variants].index(item["id"])
    return variants[idx + 1]


def test_create_exchange(sb: Sandbox) -> None:
    t = scenario("exchange_instock")
    new = _neighbour(sb, t["order_item_id"])
    assert new["stock"] > 0
    res = call(
        sb,
        "create_exchange",
        order_id=t["order_id"],
        order_item_id=t["order_item_id"],
        new_variant_id=new["id"],
        reason="too small",
    )
    repl = one(sb, "SELECT * FROM orders WHERE id = ?", (res["replacement_order_id"],))
    assert repl["replacement_for_order_id"] == t["order_id"] and repl["total_cents"] == 0
    assert repl["status"] == "paid" and repl["placed_at"] > SNAPSHOT_TIME
    assert (
        one(sb, "SELECT stock FROM product_variants WHERE id = ?", (new["id"],))[0]
        == new["stock"] - 1
    )
    assert (
        one(sb, "SELECT status FROM order_items WHERE id = ?", (t["order_item_id"],))[0]
        == "exchanged"
    )
    assert len(audit_rows(sb, "exchange.create")) == 1


def test_create_exchange_refusals(sb: Sandbox) -> None:
    t = scenario("exchange_oos")
    new = _neighbour(sb, t["order_item_id"])
    assert new["stock"] == 0
    with pytest.raises(ToolError, match="0 in stock"):
        call(
            sb,
            "create_exchange",
            order_id=t["order_id"],
            order_item_id=t["order_item_id"],
            new_variant_id=new["id"],
        )
    current = one(sb, "SELECT variant_id FROM order_items WHERE id = ?", (t["order_item_id"],))[0]
    with pytest.raises(ToolError, match="already ordered"):
        call(
            sb,
            "create_exchange",
            order_id=t["order_id"],
            order_item_id=t["order_item_id"],
            new_variant_id=current,
        )
    foreign = one(
        sb,
        "SELECT v.id FROM product_variants v WHERE v.product_id != (SELECT "
        "product_id FROM product_variants WHERE id = ?) AND stock > 0 ORDER BY id",
        (current,),
    )[0]
    with pytest.raises(ToolError, match="same product"):
        call(
            sb,
            "create_exchange",
            order_id=t["order_id"],
            order_item_id=t["order_item_id"],
            new_variant_id=foreign,
        )
    fs = scenario("return_final_sale")
    with pytest.raises(ToolError, match="final sale"):
        call(
            sb,
            "create_exchange",
            order_id=fs["order_id"],
            order_item_id=fs["order_item_id"],
            new_variant_id=current,
        )


def test_create_replacement(sb: Sandbox) -> None:
    t = scenario("damaged_replace")
    vid = one(sb, "SELECT variant_id FROM order_items WHERE id = ?", (t["order_item_id"],))[0]
    stock = one(sb, "SELECT stock FROM product_variants WHERE id = ?", (vid,))[0]
    res = call(
        sb,
        "create_replacement",
        order_id=t["order_id"],
        order_item_id=t["order_item_id"],
        reason="zipper broken",
    )
    item = one(sb, "SELECT * FROM order_items WHERE order_id = ?", (res["replacement_order_id"],))
    assert item["variant_id"] == vid and item["unit_price_cents"] == 0
    assert one(sb, "SELECT stock FROM product_variants WHERE id = ?", (vid,))[0] == stock - 1
    assert (
        one(sb, "SELECT kind FROM exchanges WHERE id = ?", (res["replacement_id"],))[0]
        == "replacement"
    )
    with pytest.raises(ToolError, match="status 'replaced'"):
        call(
            sb,
            "create_replacement",
            order_id=t["order_id"],
            order_item_id=t["order_item_id"],
            reason="again",
        )


def test_create_replacement_out_of_stock(sb: Sandbox) -> None:
    t = scenario("damaged_refund")
    vid = one(sb, "SELECT variant_id FROM order_items WHERE id = ?", (t["order_item_id"],))[0]
    sb.db.execute("UPDATE product_variants SET stock = 0 WHERE id = ?", (vid,))
    with pytest.raises(ToolError, match="offer a refund"):
        call(
            sb,
            "create_replacement",
            order_id=t["order_id"],
            order_item_id=t["order_item_id"],
            reason="broken",
        )


def test_add_store_credit(sb: Sandbox) -> None:
    t = scenario("wismo")
    res = call(
        sb,
        "add_store_credit",
        customer_id=t["customer_id"],
        amount_cents=1500,
        reason="late delivery",
        order_id=t["order_id"],
    )
    assert res["amount"] == "$15.00"
    row = one(sb, "SELECT * FROM store_credit_ledger WHERE id = ?", (res["ledger_id"],))
    assert row["amount_cents"] == 1500 and row["order_id"] == t["order_id"]
    assert len(audit_rows(sb, "store_credit.add")) == 1
    with pytest.raises(ToolError, match="positive"):
        call(sb, "add_store_credit", customer_id=t["customer_id"], amount_cents=-5, reason="x")
    other = one(
        sb, "SELECT id FROM orders WHERE customer_id != ? ORDER BY id", (t["customer_id"],)
    )[0]
    with pytest.raises(ToolError, match="belongs to customer"):
        call(
            sb,
            "add_store_credit",
            customer_id=t["customer_id"],
            amount_cents=500,
            reason="x",
            order_id=other,
        )


# -- tickets ------------------------------------------------------------------------------


def test_ticket_flow(sb: Sandbox) -> None:
    t = scenario("wismo")
    tid = t["ticket_id"]
    ticket = call(sb, "get_ticket", ticket_id=tid)
    assert ticket["messages"][0]["author"] == "customer" and ticket["status"] == "open"
    assert tid in [x["id"] for x in call(sb, "list_tickets", status="open")]
    assert all(
        x["customer_id"] == t["customer_id"]
        for x in call(sb, "list_tickets", customer_id=t["customer_id"])
    )
    call(sb, "add_ticket_note", ticket_id=tid, body="checked carrier")
    call(sb, "reply_to_customer", ticket_id=tid, body="Your parcel is on its way.")
    res = call(sb, "close_ticket", ticket_id=tid, resolution_code="information_provided")
    assert res["status"] == "closed"
    authors = [m["author"] for m in call(sb, "get_ticket", ticket_id=tid)["messages"]]
    assert authors[-2:] == ["note", "agent"]
    with pytest.raises(ToolError, match="reply before|closed"):
        call(sb, "reply_to_customer", ticket_id=tid, body="one more thing")
    with pytest.raises(ToolError, match="closed"):
        call(sb, "close_ticket", ticket_id=tid, resolution_code="no_action")
    for action in ("ticket.note", "ticket.reply", "ticket.close"):
        assert len(audit_rows(sb, action)) == 1
    with pytest.raises(InvalidArgumentsError):
        call(sb, "close_ticket", ticket_id=tid, resolution_code="solved")
    with pytest.raises(ToolError, match="valid: open"):
        call(sb, "list_tickets", status="new")


def test_escalate_ticket(sb: Sandbox) -> None:
    tid = scenario("damaged_large")["ticket_id"]
    res = call(sb, "escalate_ticket", ticket_id=tid, team="billing", reason="refund above limit")
    assert one(sb, "SELECT status FROM tickets WHERE id = ?", (tid,))[0] == "escalated"
    assert one(sb, "SELECT team FROM escalations WHERE id = ?", (res["escalation_id"],))[0] == (
        "billing"
    )
    with pytest.raises(InvalidArgumentsError):
        call(sb, "escalate_ticket", ticket_id=tid, team="legal", reason="x")
    with pytest.raises(ToolError, match="no ticket"):
        call(sb, "escalate_ticket", ticket_id=1, team="billing", reason="x")


# -- cross-cutting ------------------------------------------------------------------------


def test_write_tools_audit_with_virtual_time(sb: Sandbox) -> None:
    t = scenario("cancel_request")
    call(sb, "cancel_order", order_id=t["order_id"], reason="customer request")
    call(sb, "reply_to_customer", ticket_id=t["ticket_id"], body="Cancelled.")
    call(sb, "close_ticket", ticket_id=t["ticket_id"], resolution_code="cancelled")
    rows = sb.query("SELECT * FROM audit_log WHERE at > ? ORDER BY id", (SNAPSHOT_TIME,))
    assert rows and all(r["actor"] == "agent" for r in rows)
    assert rows[0]["at"] == "2026-06-15T09:00:30Z" and rows[-1]["at"] == "2026-06-15T09:01:30Z"


def test_read_tools_do_not_write(sb: Sandbox) -> None:
    before = list(sb.db.iterdump())
    t = scenario("duplicate_charge")
    call(sb, "find_customers", name="a")
    call(sb, "get_customer", customer_id=t["customer_id"])
    call(sb, "find_orders", customer_id=t["customer_id"])
    call(sb, "get_order", order_id=t["order_id"])
    call(sb, "get_ticket", ticket_id=t["ticket_id"])
    call(sb, "list_tickets")
    call(sb, "search_products", query="tent")
    call(sb, "get_product", product_id=1)
    call(sb, "get_policy")
    assert list(sb.db.iterdump()) == before
    for name, spec in environment.tools.items():
        if name.startswith(("get_", "find_", "list_", "search_")):
            assert spec.kind == "read", name


def test_same_calls_same_state() -> None:
    def run() -> list[str]:
        sb = new_sandbox()
        t = scenario("return_window")
        call(
            sb,
            "create_return",
            order_id=t["order_id"],
            order_item_ids=[t["order_item_id"]],
            reason="changed mind",
        )
        call(
            sb,
            "issue_refund",
            order_id=t["order_id"],
            amount_cents=500,
            method="original_payment",
            reason="return",
            order_item_id=t["order_item_id"],
        )
        e = scenario("exchange_instock")
        call(
            sb,
            "create_exchange",
            order_id=e["order_id"],
            order_item_id=e["order_item_id"],
            new_variant_id=_neighbour(sb, e["order_item_id"])["id"],
        )
        return list(sb.db.iterdump())

    assert run() == run()


def test_verify_identity_rejects_badly_formatted_dob(sb: Sandbox) -> None:
    c = one(sb, "SELECT * FROM customers WHERE id = 1006")
    with pytest.raises(ToolError, match="YYYY-MM-DD"):
        call(
            sb,
            "verify_identity",
            customer_id=1006,
            email=c["email"],
            zip="",
            date_of_birth="March 2, 1975",
        )
    assert audit_rows(sb, "identity.verify_failed") == []


def test_verify_identity_takes_a_zip_or_zip4_and_refuses_the_rest(sb: Sandbox) -> None:
    # `zip[:5]` was compared: "94107-junk" (or "94107999") verified as 94107
    c = one(sb, "SELECT * FROM customers WHERE id = 1006")
    for bad in (
        f"{c['zip']}-junk",
        f"{c['zip']}999",
        f"{c['zip']}-12",
        f"{c['zip']}-12345",
        f"{c['zip']} 1234",
        c["zip"][:4],
        "٩٤١٠٧",
    ):
        with pytest.raises(ToolError, match="5-digit ZIP code or ZIP\\+4"):
            call(sb, "verify_identity", customer_id=1006, email=c["email"], zip=bad)
    assert one(sb, "SELECT COUNT(*) FROM identity_verifications")[0] == 0
    for good in (c["zip"], f" {c['zip']}-1234 "):
        res = call(sb, "verify_identity", customer_id=1006, email=c["email"], zip=good)
        assert res["verified"] and res["method"] == "email_zip"


def test_list_tickets_newest_first(sb: Sandbox) -> None:
    listed = call(sb, "list_tickets", status="open")
    created = [t["created_at"] for t in listed]
    assert created == sorted(created, reverse=True)
    assert len(listed) == one(sb, "SELECT COUNT(*) FROM tickets WHERE status = 'open'")[0]
