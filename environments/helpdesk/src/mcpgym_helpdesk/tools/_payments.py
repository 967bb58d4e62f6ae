"""Money movements shared by refund and cancellation tools (no tool declarations here)."""

from __future__ import annotations

from typing import Any

from mcpgym_helpdesk.tools._common import (
    REFUNDABLE_PAYMENT_STATUSES,
    audit,
    insert,
    money,
)
from mcpgym_server import Sandbox


def order_refund_state(sb: Sandbox, order_id: int) -> dict[str, int]:
    """Captured, refunded and still-refundable cents of an order (all refund methods)."""
    captured = sb.db.execute(
        "SELECT COALESCE(SUM(amount_cents), 0) FROM payments WHERE order_id = ? "
        "AND status IN ('captured', 'partially_refunded', 'refunded')",
        (order_id,),
    ).fetchone()[0]
    refunded = sb.db.execute(
        "SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE order_id = ?", (order_id,)
    ).fetchone()[0]
    return {
        "captured_cents": int(captured),
        "refunded_cents": int(refunded),
        "refundable_cents": max(0, int(captured) - int(refunded)),
    }


def item_refunded_cents(sb: Sandbox, order_item_id: int) -> int:
    """Cents already refunded against one order item."""
    return int(
        sb.db.execute(
            "SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE order_item_id = ?",
            (order_item_id,),
        ).fetchone()[0]
    )


def refundable_payments(sb: Sandbox, order_id: int) -> list[dict[str, Any]]:
    """Payments of an order that can still take an original-payment refund, oldest first."""
    rows = sb.query(
        "SELECT * FROM payments WHERE order_id = ? AND status IN (?, ?) ORDER BY id",
        (order_id, *REFUNDABLE_PAYMENT_STATUSES),
    )
    for r in rows:
        r["remaining_cents"] = r["amount_cents"] - r["refunded_cents"]
    return [r for r in rows if r["remaining_cents"] > 0]


def refund_payment(
    sb: Sandbox,
    order: dict[str, Any],
    payment: dict[str, Any],
    amount_cents: int,
    reason: str,
    order_item_id: int | None,
) -> dict[str, Any]:
    """Refund ``amount_cents`` to one payment (a card, or store credit given back to the ledger).

    Writes the refund row, updates the payment, writes the ledger row for store-credit
    payments and the audit row. Call inside a transaction; the caller checks the limits.
    """
    at = sb.clock.iso()
    refund_id = insert(
        sb,
        "refunds",
        {
            "order_id": order["id"],
            "payment_id": payment["id"],
            "order_item_id": order_item_id,
            "amount_cents": amount_cents,
            "method": "original_payment",
            "reason": reason,
            "created_at": at,
        },
    )
    refunded = payment["refunded_cents"] + amount_cents
    status = "refunded" if refunded >= payment["amount_cents"] else "partially_refunded"
    sb.db.execute(
        "UPDATE payments SET refunded_cents = ?, status = ? WHERE id = ?",
        (refunded, status, payment["id"]),
    )
    if payment["method"] == "store_credit":
        insert(
            sb,
            "store_credit_ledger",
            {
                "customer_id": order["customer_id"],
                "amount_cents": amount_cents,
                "reason": f"refund {refund_id} to store credit payment: {reason}",
                "order_id": order["id"],
                "refund_id": refund_id,
                "created_at": at,
            },
        )
    detail = {
        "amount_cents": amount_cents,
        "method": "original_payment",
        "order_id": order["id"],
        "order_item_id": order_item_id,
        "payment_id": payment["id"],
        "reason": reason,
    }
    audit(sb, "refund.create", "refund", refund_id, detail)
    return {
        "refund_id": refund_id,
        "order_id": order["id"],
        "payment_id": payment["id"],
        "payment_method": payment["method"],
        "card_last4": payment["card_last4"],
        "order_item_id": order_item_id,
        "amount_cents": amount_cents,
        "amount": money(amount_cents),
        "method": "original_payment",
        "payment_status": status,
    }


def refund_to_store_credit(
    sb: Sandbox, order: dict[str, Any], amount_cents: int, reason: str, order_item_id: int | None
) -> dict[str, Any]:
    """Refund ``amount_cents`` of an order as store credit (refund row + ledger + audit)."""
    at = sb.clock.iso()
    refund_id = insert(
        sb,
        "refunds",
        {
            "order_id": order["id"],
            "payment_id": None,
            "order_item_id": order_item_id,
            "amount_cents": amount_cents,
            "method": "store_credit",
            "reason": reason,
            "created_at": at,
        },
    )
    ledger_id = insert(
        sb,
        "store_credit_ledger",
        {
            "customer_id": order["customer_id"],
            "amount_cents": amount_cents,
            "reason": f"refund {refund_id} as store credit: {reason}",
            "order_id": order["id"],
            "refund_id": refund_id,
            "created_at": at,
        },
    )
    detail = {
        "amount_cents": amount_cents,
        "ledger_id": ledger_id,
        "method": "store_credit",
        "order_id": order["id"],
        "order_item_id": order_item_id,
        "payment_id": None,
        "reason": reason,
    }
    audit(sb, "refund.create", "refund", refund_id, detail)
    return {
        "refund_id": refund_id,
        "order_id": order["id"],
        "payment_id": None,
        "order_item_id": order_item_id,
        "amount_cents": amount_cents,
        "amount": money(amount_cents),
        "method": "store_credit",
        "ledger_id": ledger_id,
    }
