"""Money tools: refunds (to the original payment or as store credit) and goodwill store credit."""

from __future__ import annotations

from typing import Any, Literal

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import (
    audit,
    insert,
    money,
    require_amount,
    require_customer,
    require_order,
    require_order_item,
    require_text,
    store_credit_balance,
    transaction,
)
from mcpgym_helpdesk.tools._payments import (
    item_refunded_cents,
    order_refund_state,
    refund_payment,
    refund_to_store_credit,
    refundable_payments,
)
from mcpgym_server import Sandbox, ToolError


@environment.tool(kind="write")
def issue_refund(
    sb: Sandbox,
    order_id: int,
    amount_cents: int,
    method: Literal["original_payment", "store_credit"],
    reason: str,
    order_item_id: int | None = None,
    payment_id: int | None = None,
) -> dict[str, Any]:
    """Refund money on an order, to the original payment or as store credit. Pays out immediately.

    The system refuses amounts above what is still refundable (on the order, on the item if
    `order_item_id` is given, on the payment if `payment_id` is given). With
    method="original_payment" and no payment_id the amount goes to the order's payments in
    payment order. Policy (not enforced by the system): a refund request above $250.00 (25000
    cents) must not be paid; escalate the ticket to billing instead. The exception is a
    duplicate charge: refund the duplicate payment (give its payment_id) in full, any amount.

    Args:
        order_id: the order number.
        amount_cents: amount in cents, e.g. 4999 for $49.99; positive, at most 10000000.
        method: "original_payment" (back to the card / payment used) or "store_credit".
        reason: why the refund is made, e.g. "damaged on arrival".
        order_item_id: the order item being refunded, when the refund is for one item.
        payment_id: the specific payment to refund (original_payment only), e.g. a duplicate charge.
    """
    order = require_order(sb, order_id)
    reason = require_text(reason, "reason")
    require_amount(amount_cents)
    state = order_refund_state(sb, order_id)
    if state["captured_cents"] == 0:
        raise ToolError(
            f"order {order_id} has no captured payment (status '{order['status']}'); "
            "nothing can be refunded. A pending order is cancelled with cancel_order"
        )
    if amount_cents > state["refundable_cents"]:
        raise ToolError(
            f"{money(amount_cents)} exceeds what is still refundable on order {order_id}: "
            f"{money(state['refundable_cents'])} (captured {money(state['captured_cents'])}, "
            f"already refunded {money(state['refunded_cents'])})"
        )
    if order_item_id is not None:
        item = require_order_item(sb, order_id, order_item_id)
        line_total = item["quantity"] * item["unit_price_cents"]
        item_left = line_total - item_refunded_cents(sb, order_item_id)
        if amount_cents > item_left:
            raise ToolError(
                f"{money(amount_cents)} exceeds what is still refundable for order item "
                f"{order_item_id} ({item['product_name']}): {money(item_left)} of its "
                f"{money(line_total)} line total"
            )
    payments = refundable_payments(sb, order_id)
    if method == "store_credit":
        if payment_id is not None:
            raise ToolError(
                "payment_id only applies to method 'original_payment'; omit it for store credit"
            )
    elif payment_id is not None:
        pay = sb.query_one("SELECT * FROM payments WHERE id = ?", (payment_id,))
        if pay is None or pay["order_id"] != order_id:
            ids = [
                r["id"] for r in sb.query("SELECT id FROM payments WHERE order_id = ?", (order_id,))
            ]
            raise ToolError(
                f"payment {payment_id} is not a payment of order {order_id}; its payment ids "
                f"are {ids} (see get_order)"
            )
        left = pay["amount_cents"] - pay["refunded_cents"]
        if pay["status"] not in ("captured", "partially_refunded") or left <= 0:
            raise ToolError(
                f"payment {payment_id} has status '{pay['status']}' and cannot be refunded"
            )
        if amount_cents > left:
            raise ToolError(
                f"{money(amount_cents)} exceeds the {money(left)} still refundable on payment "
                f"{payment_id}"
            )
        payments = [{**pay, "remaining_cents": left}]
    elif amount_cents > sum(p["remaining_cents"] for p in payments):
        raise ToolError(
            f"{money(amount_cents)} exceeds the "
            f"{money(sum(p['remaining_cents'] for p in payments))} that can still go back to "
            f"order {order_id}'s original payments; refund the rest as store credit"
        )
    with transaction(sb):
        if method == "store_credit":
            refunds = [refund_to_store_credit(sb, order, amount_cents, reason, order_item_id)]
        else:
            refunds = []
            left_to_pay = amount_cents
            for pay in payments:
                part = min(left_to_pay, pay["remaining_cents"])
                if part <= 0:
                    break
                refunds.append(refund_payment(sb, order, pay, part, reason, order_item_id))
                left_to_pay -= part
        if order_item_id is not None:
            item = require_order_item(sb, order_id, order_item_id)
            if (
                item_refunded_cents(sb, order_item_id)
                >= item["quantity"] * item["unit_price_cents"]
            ):
                if item["status"] in ("ok", "return_requested", "returned"):
                    sb.db.execute(
                        "UPDATE order_items SET status = 'refunded' WHERE id = ?", (order_item_id,)
                    )
        sb.db.execute("UPDATE orders SET updated_at = ? WHERE id = ?", (sb.clock.iso(), order_id))
    after = order_refund_state(sb, order_id)
    return {
        "order_id": order_id,
        "refunds": refunds,
        "amount_cents": amount_cents,
        "amount": money(amount_cents),
        "method": method,
        "order_refunded_total_cents": after["refunded_cents"],
        "order_refundable_remaining_cents": after["refundable_cents"],
        "store_credit_balance_cents": store_credit_balance(sb, order["customer_id"]),
    }


@environment.tool(kind="write")
def add_store_credit(
    sb: Sandbox, customer_id: int, amount_cents: int, reason: str, order_id: int | None = None
) -> dict[str, Any]:
    """Give a customer goodwill store credit (not a refund of an order; use issue_refund for that).

    Policy limits goodwill credit (see get_policy); the system only requires a positive amount
    of at most $100,000.00 per call.

    Args:
        customer_id: the customer's id.
        amount_cents: credit in cents, e.g. 1500 for $15.00; positive, at most 10000000
            ($100,000.00) per call.
        reason: why the credit is given, e.g. "late delivery of order 100234".
        order_id: the order the credit relates to (optional; must belong to the customer).
    """
    require_customer(sb, customer_id)
    reason = require_text(reason, "reason")
    require_amount(amount_cents)
    if order_id is not None:
        order = require_order(sb, order_id)
        if order["customer_id"] != customer_id:
            raise ToolError(
                f"order {order_id} belongs to customer {order['customer_id']}, not {customer_id}"
            )
    with transaction(sb):
        ledger_id = insert(
            sb,
            "store_credit_ledger",
            {
                "customer_id": customer_id,
                "amount_cents": amount_cents,
                "reason": reason,
                "order_id": order_id,
                "refund_id": None,
                "created_at": sb.clock.iso(),
            },
        )
        audit(
            sb,
            "store_credit.add",
            "store_credit_ledger",
            ledger_id,
            {
                "amount_cents": amount_cents,
                "customer_id": customer_id,
                "order_id": order_id,
                "reason": reason,
            },
        )
    balance = store_credit_balance(sb, customer_id)
    return {
        "ledger_id": ledger_id,
        "customer_id": customer_id,
        "amount_cents": amount_cents,
        "amount": money(amount_cents),
        "store_credit_balance_cents": balance,
        "store_credit_balance": money(balance),
    }
