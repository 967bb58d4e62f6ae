"""Order tools: search, details, shipping-address change, cancellation."""

from __future__ import annotations

import re
from typing import Any

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import (
    audit,
    like_contains,
    money,
    require_customer,
    require_order,
    require_text,
    transaction,
    with_money,
)
from mcpgym_helpdesk.tools._payments import (
    item_refunded_cents,
    order_refund_state,
    refund_payment,
)
from mcpgym_server import Sandbox, ToolError

ORDER_STATUSES = ("pending", "paid", "shipped", "delivered", "cancelled", "returned")
CHANGEABLE_STATUSES = ("pending", "paid")
US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH "
    "NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


@environment.tool(kind="read")
def find_orders(
    sb: Sandbox,
    customer_id: int | None = None,
    status: str | None = None,
    product_name: str | None = None,
) -> list[dict[str, Any]]:
    """List orders matching all the filters given (at least one), newest first (max 50).

    Each order comes with its status, dates, total and item names; use get_order for details.

    Args:
        customer_id: only this customer's orders.
        status: one of pending, paid, shipped, delivered, cancelled, returned.
        product_name: only orders containing a product whose name contains this text.
    """
    where: list[str] = []
    params: list[Any] = []
    if customer_id is not None:
        require_customer(sb, customer_id)
        where.append("o.customer_id = ?")
        params.append(customer_id)
    if status is not None:
        if status not in ORDER_STATUSES:
            raise ToolError(f"unknown status {status!r}; valid: {', '.join(ORDER_STATUSES)}")
        where.append("o.status = ?")
        params.append(status)
    if product_name is not None and product_name.strip():
        where.append(
            "EXISTS (SELECT 1 FROM order_items oi JOIN product_variants v ON v.id = oi.variant_id "
            "JOIN products p ON p.id = v.product_id WHERE oi.order_id = o.id AND "
            "LOWER(p.name) LIKE ? ESCAPE '\\')"
        )
        params.append(like_contains(product_name.strip().lower(), "product_name"))
    if not where:
        raise ToolError("give at least one filter: `customer_id`, `status` or `product_name`")
    orders = sb.query(
        "SELECT o.id, o.customer_id, o.status, o.placed_at, o.shipped_at, o.delivered_at, "
        "o.total_cents, o.replacement_for_order_id FROM orders o "
        f"WHERE {' AND '.join(where)} ORDER BY o.placed_at DESC, o.id DESC LIMIT 50",
        params,
    )
    for o in orders:
        with_money(o, "total_cents")
        o["items"] = [
            r["label"]
            for r in sb.query(
                "SELECT p.name || ' (' || v.size || ', ' || v.colour || ') x' || oi.quantity "
                "AS label FROM order_items oi JOIN product_variants v ON v.id = oi.variant_id "
                "JOIN products p ON p.id = v.product_id WHERE oi.order_id = ? ORDER BY oi.id",
                (o["id"],),
            )
        ]
    return orders


@environment.tool(kind="read")
def get_order(sb: Sandbox, order_id: int) -> dict[str, Any]:
    """Get one order in full: shipping address, items, payments, shipments with tracking numbers,
    refunds, returns, exchanges/replacements, and how much can still be refunded.

    Args:
        order_id: the order number, e.g. 100234.
    """
    o = require_order(sb, order_id)
    with_money(o, "subtotal_cents", "shipping_cents", "tax_cents", "total_cents")
    items = sb.query(
        "SELECT oi.id, oi.variant_id, v.product_id, p.name AS product_name, v.sku, v.size, "
        "v.colour, p.final_sale, oi.quantity, oi.unit_price_cents, "
        "oi.quantity * oi.unit_price_cents AS line_total_cents, oi.status "
        "FROM order_items oi JOIN product_variants v ON v.id = oi.variant_id "
        "JOIN products p ON p.id = v.product_id WHERE oi.order_id = ? ORDER BY oi.id",
        (order_id,),
    )
    for it in items:
        it["final_sale"] = bool(it["final_sale"])
        it["refunded_cents"] = item_refunded_cents(sb, it["id"])
        with_money(it, "unit_price_cents", "line_total_cents", "refunded_cents")
    payments = sb.query(
        "SELECT id, method, card_brand, card_last4, amount_cents, refunded_cents, status, "
        "created_at FROM payments WHERE order_id = ? ORDER BY id",
        (order_id,),
    )
    for p in payments:
        with_money(p, "amount_cents", "refunded_cents")
    refunds = sb.query(
        "SELECT id, payment_id, order_item_id, amount_cents, method, reason, created_at "
        "FROM refunds WHERE order_id = ? ORDER BY id",
        (order_id,),
    )
    for r in refunds:
        with_money(r, "amount_cents")
    state = order_refund_state(sb, order_id)
    o.update(
        items=items,
        payments=payments,
        shipments=sb.query(
            "SELECT id, carrier, service, tracking_number, status, shipped_at, estimated_delivery,"
            " delivered_at FROM shipments WHERE order_id = ? ORDER BY id",
            (order_id,),
        ),
        refunds=refunds,
        returns=sb.query(
            "SELECT id, order_item_id, quantity, status, reason, return_carrier, "
            "return_tracking_number, created_at, received_at FROM returns WHERE order_id = ? "
            "ORDER BY id",
            (order_id,),
        ),
        exchanges=sb.query(
            "SELECT id, kind, order_item_id, old_variant_id, new_variant_id, "
            "replacement_order_id, reason, created_at FROM exchanges WHERE order_id = ? "
            "ORDER BY id",
            (order_id,),
        ),
        refunded_total_cents=state["refunded_cents"],
        refunded_total=money(state["refunded_cents"]),
        refundable_remaining_cents=state["refundable_cents"],
        refundable_remaining=money(state["refundable_cents"]),
    )
    return o


@environment.tool(kind="write")
def update_shipping_address(
    sb: Sandbox,
    order_id: int,
    line1: str,
    city: str,
    state: str,
    zip: str,
    line2: str | None = None,
    country: str = "US",
) -> dict[str, Any]:
    """Change the shipping address of an order that has not shipped yet (pending or paid).

    Policy: verify the customer's identity first (verify_identity). We ship to the US only.

    Args:
        order_id: the order number.
        line1: street address, e.g. "742 Alder Street".
        city: city.
        state: two-letter state code, e.g. "CO".
        zip: five-digit ZIP code.
        line2: apartment, suite, unit (optional; omit or null for none).
        country: country code; only "US" is accepted.
    """
    order = require_order(sb, order_id)
    if order["status"] not in CHANGEABLE_STATUSES:
        raise ToolError(
            f"order {order_id} has status '{order['status']}'; shipping addresses can only be "
            "changed before shipment (status pending or paid)"
        )
    new = {
        "shipping_line1": require_text(line1, "line1"),
        "shipping_line2": (line2 or "").strip() or None,
        "shipping_city": require_text(city, "city"),
        "shipping_state": require_text(state, "state").upper(),
        "shipping_zip": require_text(zip, "zip"),
        "shipping_country": require_text(country, "country").upper(),
    }
    if new["shipping_country"] != "US":
        raise ToolError(f"we only ship within the US; country {country!r} is not accepted")
    if new["shipping_state"] not in US_STATES:
        raise ToolError(f"{state!r} is not a US state code; use two letters such as 'CO' or 'NY'")
    if not re.fullmatch(r"\d{5}(-\d{4})?", new["shipping_zip"]):
        raise ToolError(f"ZIP {zip!r} is not valid; use five digits such as 80302")
    old = {k: order[k] for k in new}
    at = sb.clock.iso()
    with transaction(sb):
        sb.db.execute(
            "UPDATE orders SET shipping_line1 = ?, shipping_line2 = ?, shipping_city = ?, "
            "shipping_state = ?, shipping_zip = ?, shipping_country = ?, updated_at = ? "
            "WHERE id = ?",
            (*new.values(), at, order_id),
        )
        audit(sb, "order.update_address", "order", order_id, {"new": new, "old": old})
    return {"order_id": order_id, "status": order["status"], "shipping_address": new}


@environment.tool(kind="write")
def cancel_order(sb: Sandbox, order_id: int, reason: str) -> dict[str, Any]:
    """Cancel an order that has not shipped yet (pending or paid).

    Every captured payment is refunded in full to its original method automatically, card
    authorisations of pending orders are released, and the items go back into stock.
    Do not also call issue_refund for a cancelled order.

    Args:
        order_id: the order number.
        reason: why the order is cancelled (e.g. "customer request: ordered wrong item").
    """
    order = require_order(sb, order_id)
    reason = require_text(reason, "reason")
    if order["status"] not in CHANGEABLE_STATUSES:
        hint = (
            "once shipped it cannot be cancelled; after delivery start a return (create_return)"
            if order["status"] in ("shipped", "delivered")
            else "there is nothing left to cancel"
        )
        raise ToolError(
            f"order {order_id} has status '{order['status']}'; only pending or paid orders can "
            f"be cancelled: {hint}"
        )
    at = sb.clock.iso()
    refunds: list[dict[str, Any]] = []
    voided: list[int] = []
    with transaction(sb):
        for pay in sb.query("SELECT * FROM payments WHERE order_id = ? ORDER BY id", (order_id,)):
            if pay["status"] == "authorized":
                sb.db.execute("UPDATE payments SET status = 'voided' WHERE id = ?", (pay["id"],))
                audit(sb, "payment.void", "payment", pay["id"], {"order_id": order_id})
                voided.append(pay["id"])
            elif pay["status"] in ("captured", "partially_refunded"):
                remaining = pay["amount_cents"] - pay["refunded_cents"]
                if remaining > 0:
                    refunds.append(
                        refund_payment(
                            sb, order, pay, remaining, f"order cancelled: {reason}", None
                        )
                    )
        items = sb.query(
            "SELECT id, variant_id, quantity FROM order_items WHERE order_id = ? AND status = 'ok'",
            (order_id,),
        )
        for it in items:
            sb.db.execute(
                "UPDATE product_variants SET stock = stock + ? WHERE id = ?",
                (it["quantity"], it["variant_id"]),
            )
        sb.db.execute(
            "UPDATE order_items SET status = 'cancelled' WHERE order_id = ? AND status = 'ok'",
            (order_id,),
        )
        sb.db.execute(
            "UPDATE orders SET status = 'cancelled', cancelled_at = ?, updated_at = ? WHERE id = ?",
            (at, at, order_id),
        )
        audit(
            sb,
            "order.cancel",
            "order",
            order_id,
            {
                "previous_status": order["status"],
                "reason": reason,
                "refund_ids": [r["refund_id"] for r in refunds],
                "restocked_item_ids": [it["id"] for it in items],
                "voided_payment_ids": voided,
            },
        )
    total = sum(r["amount_cents"] for r in refunds)
    return {
        "order_id": order_id,
        "status": "cancelled",
        "refunds": refunds,
        "refunded_total_cents": total,
        "refunded_total": money(total),
        "voided_payment_ids": voided,
        "restocked_item_ids": [it["id"] for it in items],
    }
