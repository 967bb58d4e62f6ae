"""Goods tools: returns, exchanges (other size/colour) and replacements (damaged items)."""

from __future__ import annotations

from typing import Any

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import (
    audit,
    insert,
    require_order,
    require_order_item,
    require_text,
    transaction,
)
from mcpgym_server import Sandbox, ToolError

RETURN_CARRIER = "USPS"


def _require_delivered(order: dict[str, Any], what: str) -> None:
    if order["status"] != "delivered":
        hint = {
            "pending": "it has not shipped; cancel it instead (cancel_order)",
            "paid": "it has not shipped; cancel it instead (cancel_order)",
            "shipped": "it is still in transit; wait until it is delivered",
            "cancelled": "it was cancelled",
            "returned": "it has already been returned",
        }.get(order["status"], "")
        raise ToolError(
            f"order {order['id']} has status '{order['status']}'; {what} is only possible for "
            f"delivered orders: {hint}"
        )


def _require_item_ok(item: dict[str, Any]) -> None:
    if item["status"] != "ok":
        raise ToolError(
            f"order item {item['id']} ({item['product_name']}) has status '{item['status']}'; "
            "it has already been returned, refunded, exchanged, replaced or cancelled"
        )


def _replacement_order(sb: Sandbox, order: dict[str, Any], variant_id: int, quantity: int) -> int:
    """Create a no-charge order shipping ``quantity`` of a variant; decrement its stock."""
    at = sb.clock.iso()
    new_id = insert(
        sb,
        "orders",
        {
            "customer_id": order["customer_id"],
            "status": "paid",
            "placed_at": at,
            "shipping_name": order["shipping_name"],
            "shipping_line1": order["shipping_line1"],
            "shipping_line2": order["shipping_line2"],
            "shipping_city": order["shipping_city"],
            "shipping_state": order["shipping_state"],
            "shipping_zip": order["shipping_zip"],
            "shipping_country": order["shipping_country"],
            "subtotal_cents": 0,
            "shipping_cents": 0,
            "tax_cents": 0,
            "total_cents": 0,
            "replacement_for_order_id": order["id"],
            "updated_at": at,
        },
    )
    insert(
        sb,
        "order_items",
        {
            "order_id": new_id,
            "variant_id": variant_id,
            "quantity": quantity,
            "unit_price_cents": 0,
            "status": "ok",
        },
    )
    sb.db.execute(
        "UPDATE product_variants SET stock = stock - ? WHERE id = ?", (quantity, variant_id)
    )
    return new_id


@environment.tool(kind="write")
def create_return(
    sb: Sandbox, order_id: int, order_item_ids: list[int], reason: str
) -> dict[str, Any]:
    """Start a return for items of a delivered order and email the customer a prepaid USPS label.

    Each listed item is returned in its full quantity; the result gives the return tracking
    number of each label.

    The system refuses final-sale items (a damaged final-sale item is refunded or replaced
    without a return) and items already returned, refunded, exchanged or replaced.
    Creating a return does not refund anything: refund the item with issue_refund as the
    policy says. Policy (not enforced): 30-day return window from delivery.

    Args:
        order_id: the order number.
        order_item_ids: ids of the order items to return (see get_order), e.g. [300412].
        reason: the customer's reason, e.g. "too small".
    """
    order = require_order(sb, order_id)
    reason = require_text(reason, "reason")
    if not order_item_ids:
        raise ToolError("`order_item_ids` must list at least one order item id (see get_order)")
    if len(set(order_item_ids)) != len(order_item_ids):
        raise ToolError("`order_item_ids` lists the same item more than once")
    _require_delivered(order, "a return")
    items = [require_order_item(sb, order_id, i) for i in order_item_ids]
    for item in items:
        _require_item_ok(item)
        if item["final_sale"]:
            raise ToolError(
                f"order item {item['id']} ({item['product_name']}) is final sale and cannot be "
                "returned; if it arrived damaged or defective, refund it (issue_refund) or "
                "replace it (create_replacement) instead"
            )
    at = sb.clock.iso()
    created = []
    with transaction(sb):
        for item in items:
            next_id = sb.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM returns").fetchone()[0]
            tracking = f"92055{order_id:07d}{next_id:010d}"
            return_id = insert(
                sb,
                "returns",
                {
                    "order_id": order_id,
                    "order_item_id": item["id"],
                    "quantity": item["quantity"],
                    "status": "requested",
                    "reason": reason,
                    "return_carrier": RETURN_CARRIER,
                    "return_tracking_number": tracking,
                    "created_at": at,
                },
            )
            sb.db.execute(
                "UPDATE order_items SET status = 'return_requested' WHERE id = ?", (item["id"],)
            )
            audit(
                sb,
                "return.create",
                "return",
                return_id,
                {"order_id": order_id, "order_item_id": item["id"], "reason": reason},
            )
            created.append(
                {
                    "return_id": return_id,
                    "order_item_id": item["id"],
                    "product_name": item["product_name"],
                    "quantity": item["quantity"],
                    "status": "requested",
                    "return_carrier": RETURN_CARRIER,
                    "return_tracking_number": tracking,
                }
            )
        sb.db.execute("UPDATE orders SET updated_at = ? WHERE id = ?", (at, order_id))
    return {"order_id": order_id, "returns": created}


@environment.tool(kind="write")
def create_exchange(
    sb: Sandbox, order_id: int, order_item_id: int, new_variant_id: int, reason: str = "exchange"
) -> dict[str, Any]:
    """Exchange a delivered item for another size/colour of the SAME product, at no charge.

    Ships the new variant on a no-charge replacement order (stock is reserved now); the
    customer sends the original back with the prepaid label in the parcel. The system requires
    a delivered order, an item not already returned/refunded/exchanged, a non-final-sale
    product, a different variant of the same product, and enough stock.

    Args:
        order_id: the order number.
        order_item_id: the order item to exchange (see get_order).
        new_variant_id: the variant wanted instead (see get_product).
        reason: why, e.g. "too small, wants size L".
    """
    order = require_order(sb, order_id)
    reason = require_text(reason, "reason")
    _require_delivered(order, "an exchange")
    item = require_order_item(sb, order_id, order_item_id)
    _require_item_ok(item)
    if item["final_sale"]:
        raise ToolError(
            f"order item {order_item_id} ({item['product_name']}) is final sale and cannot be "
            "exchanged; only a damaged or defective final-sale item can be replaced "
            "(create_replacement) or refunded"
        )
    new = sb.query_one("SELECT * FROM product_variants WHERE id = ?", (new_variant_id,))
    if new is None or new["product_id"] != item["product_id"]:
        raise ToolError(
            f"variant {new_variant_id} is not a variant of {item['product_name']} (product "
            f"{item['product_id']}); exchanges are for another size or colour of the same "
            "product, see get_product for its variant ids"
        )
    if new_variant_id == item["variant_id"]:
        raise ToolError(
            f"variant {new_variant_id} is the variant already ordered; to send the same item "
            "again because it is damaged use create_replacement"
        )
    if new["stock"] < item["quantity"]:
        raise ToolError(
            f"variant {new_variant_id} ({new['size']}, {new['colour']}) has {new['stock']} in "
            f"stock, {item['quantity']} needed; it cannot be exchanged now (see the policy for "
            "out-of-stock exchanges)"
        )
    at = sb.clock.iso()
    with transaction(sb):
        repl_id = _replacement_order(sb, order, new_variant_id, item["quantity"])
        sb.db.execute("UPDATE order_items SET status = 'exchanged' WHERE id = ?", (order_item_id,))
        exchange_id = insert(
            sb,
            "exchanges",
            {
                "kind": "exchange",
                "order_id": order_id,
                "order_item_id": order_item_id,
                "old_variant_id": item["variant_id"],
                "new_variant_id": new_variant_id,
                "replacement_order_id": repl_id,
                "reason": reason,
                "created_at": at,
            },
        )
        sb.db.execute("UPDATE orders SET updated_at = ? WHERE id = ?", (at, order_id))
        audit(
            sb,
            "exchange.create",
            "exchange",
            exchange_id,
            {
                "new_variant_id": new_variant_id,
                "old_variant_id": item["variant_id"],
                "order_id": order_id,
                "order_item_id": order_item_id,
                "reason": reason,
                "replacement_order_id": repl_id,
            },
        )
    return {
        "exchange_id": exchange_id,
        "order_id": order_id,
        "order_item_id": order_item_id,
        "old_variant": {"id": item["variant_id"], "size": item["size"], "colour": item["colour"]},
        "new_variant": {"id": new_variant_id, "size": new["size"], "colour": new["colour"]},
        "replacement_order_id": repl_id,
        "replacement_order_status": "paid",
    }


@environment.tool(kind="write")
def create_replacement(
    sb: Sandbox, order_id: int, order_item_id: int, reason: str
) -> dict[str, Any]:
    """Send a new unit of the SAME variant for a damaged or defective item, at no charge.

    Creates a no-charge replacement order. The system requires a delivered order, an item not
    already returned/refunded/exchanged/replaced, and the variant in stock. Final-sale items
    can be replaced when damaged.

    Args:
        order_id: the order number.
        order_item_id: the damaged order item (see get_order).
        reason: what is wrong, e.g. "tent pole snapped on arrival".
    """
    order = require_order(sb, order_id)
    reason = require_text(reason, "reason")
    _require_delivered(order, "a replacement")
    item = require_order_item(sb, order_id, order_item_id)
    _require_item_ok(item)
    stock = sb.db.execute(
        "SELECT stock FROM product_variants WHERE id = ?", (item["variant_id"],)
    ).fetchone()[0]
    if stock < item["quantity"]:
        raise ToolError(
            f"{item['product_name']} ({item['size']}, {item['colour']}) has {stock} in stock, "
            f"{item['quantity']} needed; it cannot be replaced now: offer a refund instead"
        )
    at = sb.clock.iso()
    with transaction(sb):
        repl_id = _replacement_order(sb, order, item["variant_id"], item["quantity"])
        sb.db.execute("UPDATE order_items SET status = 'replaced' WHERE id = ?", (order_item_id,))
        exchange_id = insert(
            sb,
            "exchanges",
            {
                "kind": "replacement",
                "order_id": order_id,
                "order_item_id": order_item_id,
                "old_variant_id": item["variant_id"],
                "new_variant_id": item["variant_id"],
                "replacement_order_id": repl_id,
                "reason": reason,
                "created_at": at,
            },
        )
        sb.db.execute("UPDATE orders SET updated_at = ? WHERE id = ?", (at, order_id))
        audit(
            sb,
            "replacement.create",
            "exchange",
            exchange_id,
            {
                "order_id": order_id,
                "order_item_id": order_item_id,
                "reason": reason,
                "replacement_order_id": repl_id,
                "variant_id": item["variant_id"],
            },
        )
    return {
        "replacement_id": exchange_id,
        "order_id": order_id,
        "order_item_id": order_item_id,
        "variant_id": item["variant_id"],
        "replacement_order_id": repl_id,
        "replacement_order_status": "paid",
    }
