"""Family `cancel-order`: a customer asks to cancel an order.

Bands:
    easy: a pending or paid order, named by number: cancel it (the app refunds captured
        payments and releases authorisations itself; no separate refund, neither before nor
        after cancelling: policy 3.2).
    medium: no order number: the customer describes the order by product and date and has
        several orders; find it, then cancel it.
    hard: the order has already shipped: it must NOT be cancelled or refunded (policy 3.3);
        reply that it cannot be cancelled, give the carrier and tracking number and explain the
        return option, and close the ticket (request_declined or information_provided). If the
        parcel is past its estimated delivery date, goodwill store credit as policy 8.2 allows
        it (at most $20.00, once, for this order) is fine, closed as `store_credit_issued`.
    expert: two orders in one ticket, named by product and date only: the customer wants to
        cancel both, but one has already shipped. Cancel the unshipped one (as in medium);
        decline the shipped one as in hard (no refund, give its tracking number); close
        `cancelled`.

In every band no money moves anywhere else (`no-other-money-moved`).
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import DecisionMatch, Param, Rubric, SqlCheck, ToolNotCalled, with_text_amounts
from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.families import _checks as checks
from mcpgym_helpdesk.families import _facts as facts
from mcpgym_helpdesk.families import _privacy as privacy
from mcpgym_helpdesk.families import _promises as promises
from mcpgym_helpdesk.families import _queries as queries
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_helpdesk.families import _store as store
from mcpgym_helpdesk.families import _true_amounts as true_amounts
from mcpgym_helpdesk.families import _words as words
from mcpgym_helpdesk.families._scenario import Scenario, call
from mcpgym_helpdesk.families._wording import day, instruction, item_label, message, money
from mcpgym_server import Generation, TaskFamily, VariantSpec, pick_where

NAME = "cancel-order"

REASONS = (
    ("I ordered the wrong size", "ordered the wrong size"),
    ("I found what I needed locally", "found it locally"),
    ("my trip was called off, so I don't need it any more", "no longer needed"),
    ("I don't need it after all", "no longer needed"),
    ("it won't arrive in time for my trip", "will not arrive in time"),
)

_CANCELLED = ("cancel", "refund", "card-refund")
"""What a cancellation does: the order cancelled, a captured payment refunded to the card."""


def _shipments(g: Generation, order_id: int) -> list[dict[str, Any]]:
    return queries.rows(g.db, "SELECT * FROM shipments WHERE order_id = ? ORDER BY id", (order_id,))


def _unique_items(g: Generation, order: dict[str, Any]) -> list[dict[str, Any]]:
    """Items of the order whose product the customer bought in no other order."""
    return [
        it
        for it in queries.order_items(g.db, order["id"])
        if queries.product_unique_for_customer(
            g.db, order["customer_id"], order["id"], it["product_name"]
        )
    ]


def generate(g: Generation) -> VariantSpec:
    """Generate a `cancel-order` variant for ``(g.seed, g.band)``; see the module docstring.

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    statuses = "('shipped')" if band == "hard" else "('pending', 'paid')"
    candidates = queries.rows(
        g.db,
        f"SELECT o.* FROM orders o WHERE o.status IN {statuses} AND {queries.CLEAN_ORDER} "
        f"AND {queries.CUSTOMER_SANE} ORDER BY o.id",
    )

    def usable(order: dict[str, Any]) -> Any:
        items = queries.order_items(g.db, order["id"])
        if not items:
            return None
        if band == "hard":
            ships = queries.rows(
                g.db, "SELECT * FROM shipments WHERE order_id = ? ORDER BY id", (order["id"],)
            )
            if len(ships) != 1 or ships[0]["status"] not in (
                "label_created",
                "in_transit",
                "out_for_delivery",
            ):
                return None
            return {"order": order, "item": items[0], "shipment": ships[0]}
        shipped = None
        if band == "expert":
            found = []
            for o in queries.rows(
                g.db,
                f"SELECT o.* FROM orders o WHERE o.customer_id = ? AND o.status = 'shipped' "
                f"AND {queries.CLEAN_ORDER} ORDER BY o.id",
                (order["customer_id"],),
            ):
                ships = _shipments(g, o["id"])
                if (
                    len(ships) == 1
                    and ships[0]["status"] in ("label_created", "in_transit", "out_for_delivery")
                    and _unique_items(g, o)
                ):
                    found.append((o, ships[0]))
            if not found:
                return None
            shipped = found[rng.randrange(len(found))]
        if band in ("medium", "expert"):
            if len(queries.customer_orders(g.db, order["customer_id"])) < 2:
                return None
            items = [
                it
                for it in items
                if queries.product_unique_for_customer(
                    g.db, order["customer_id"], order["id"], it["product_name"]
                )
            ]
            if not items:
                return None
        return {
            "order": order,
            "item": items[rng.randrange(len(items))],
            "shipment": None,
            "shipped": shipped,
        }

    pick = pick_where(rng, candidates, usable, f"{NAME}@{band}")
    order, item, shipment = pick["order"], pick["item"], pick["shipment"]
    shipped_order, shipped_item = None, None
    if band == "expert":
        shipped_order, shipment = pick["shipped"]
        shipped_item = _unique_items(g, shipped_order)[0]
    cust = queries.customer(g.db, order["customer_id"])
    said, reason = REASONS[rng.randrange(len(REASONS))]
    payments = queries.rows(
        g.db, "SELECT * FROM payments WHERE order_id = ? ORDER BY id", (order["id"],)
    )
    refundable = [p for p in payments if p["status"] in ("captured", "partially_refunded")]
    refund_cents = sum(p["amount_cents"] - p["refunded_cents"] for p in refundable)
    credit_back = sum(
        p["amount_cents"] - p["refunded_cents"] for p in refundable if p["method"] == "store_credit"
    )

    if band == "expert":
        assert shipped_order is not None and shipped_item is not None
        subject = "Please cancel two orders"
        body = (
            f"Please cancel both of my recent orders, {said}: the {item_label(item)} I ordered "
            f"on {day(order['placed_at'])}, and the {item_label(shipped_item)} from "
            f"{day(shipped_order['placed_at'])}. Refund everything to my card, please."
        )
    elif band == "medium":
        subject = "Please cancel my order"
        body = (
            f"I placed an order on {day(order['placed_at'])} for a {item_label(item)}. Please "
            f"cancel it, {said}."
        )
    else:
        subject = rng.choice([f"Cancel order #{order['id']}", "Cancellation request"])
        body = rng.choice(
            [
                f"Please cancel order #{order['id']}, {said}.",
                f"Can you cancel my order #{order['id']}? {said[0].upper()}{said[1:]}. "
                "Thanks for sorting it out.",
            ]
        )
    ticket_id = sc.ticket(
        customer_id=cust["id"],
        order_id=None if band in ("medium", "expert") else order["id"],
        subject=subject,
        messages=[message(rng, cust, body)],
        channel=rng.choice(["email", "web", "chat"]),
        after=[order["updated_at"], shipped_order["updated_at"] if shipped_order else None],
    )

    reference = [call("get_ticket", ticket_id=ticket_id)]
    if band in ("medium", "expert"):
        reference.append(
            call("find_orders", customer_id=cust["id"], product_name=item["product_name"])
        )
    if shipped_order is not None and shipped_item is not None:
        reference += [
            call("find_orders", customer_id=cust["id"], product_name=shipped_item["product_name"]),
            call("get_order", order_id=shipped_order["id"]),
        ]
    reference.append(call("get_order", order_id=order["id"]))
    if band == "hard":
        assert shipment is not None
        reply = (
            f"Hi {cust['first_name']},\n\nI'm sorry, order #{order['id']} has already shipped, "
            f"so it can no longer be cancelled. It is on its way with {shipment['carrier']} "
            f"({shipment['service']}), tracking number {shipment['tracking_number']}, estimated "
            f"delivery {shipment['estimated_delivery']}. Once it is delivered you can return it "
            "within 30 days for a refund; just reply here and we'll send you a prepaid label."
        )
        reference += [
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="request_declined"),
        ]
    else:
        money_text = (
            f"The {money(refund_cents)} you paid goes back to your original payment method "
            "within 5-10 business days."
            if refund_cents
            else "Your card was not charged yet; the authorisation has been released."
        )
        reply = f"Hi {cust['first_name']},\n\nOrder #{order['id']} is cancelled. {money_text}"
        if shipped_order is not None and shipment is not None:
            reply += (
                f"\n\nOrder #{shipped_order['id']} has already shipped, so I can't cancel or "
                f"refund it. It is on its way with {shipment['carrier']} "
                f"({shipment['service']}), tracking number {shipment['tracking_number']}. Once "
                "it is delivered you can return it within 30 days for a refund."
            )
        reference += [
            call("cancel_order", order_id=order["id"], reason=f"customer request: {reason}"),
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="cancelled"),
        ]
    params = {
        "ticket_id": ticket_id,
        "customer_id": cust["id"],
        "order_id": order["id"],
        "order_status": order["status"],
        "refund_cents": refund_cents if band != "hard" else 0,
        "credit_back_cents": credit_back if band != "hard" else 0,
        "tracking_number": shipment["tracking_number"] if shipment else None,
        "shipped_order_id": shipped_order["id"] if shipped_order else None,
        # the shipped order's total (hard: the order; expert: the other one): true, allowed
        # in its role (`_true_amounts`)
        "shipped_total_cents": order["total_cents"]
        if band == "hard"
        else shipped_order["total_cents"]
        if shipped_order
        else None,
    }
    return VariantSpec(
        instruction=instruction(ticket_id),
        setup=sc.setup,
        params=params,
        reference=reference,
    )


OTHER_ORDERS_SQL = (
    "SELECT id FROM orders WHERE customer_id = :customer_id "
    "AND id NOT IN (:order_id, COALESCE(:shipped_order_id, -1))"
)
"""The customer's orders the ticket is not about (the cancelled one, and in expert the
shipped one the reply declines): a reply naming them beside the right one names none."""

OTHER_TRACKING_SQL = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id "
    "AND s.order_id NOT IN (:order_id, COALESCE(:shipped_order_id, -1)) "
    "AND LENGTH(s.tracking_number) >= 8 "
    "UNION SELECT r.return_tracking_number FROM returns r JOIN orders o ON o.id = r.order_id "
    "WHERE o.customer_id = :customer_id AND LENGTH(r.return_tracking_number) >= 8"
)
"""Every tracking number of the customer's other orders' parcels and of their return labels."""

RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=store.VOLATILE_COLUMNS,
    checks=(
        # the shipped order's total in its role (`_true_amounts.SHIPPED_CUES`, FF7) is left
        # out: the ship gate's `amounts-3` in its bare and entities forms passed the guard
        # with it (condition 7, hard; stop 20)
        replies.texts_state_no_other_amount(
            "credit_back_cents", roles={"shipped_total_cents": true_amounts.SHIPPED_CUES}
        ),
        SqlCheck(
            name="order-cancelled",
            description="the order was cancelled",
            sql="SELECT status FROM orders WHERE id = :order_id",
            expected="cancelled",
            weight=3,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        SqlCheck(
            name="cancellation-refunds",
            description="every captured payment was refunded in full, nothing more "
            "(cancel_order does it; no separate refund)",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE order_id = :order_id",
            expected=Param("refund_cents"),
            weight=2,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        ToolNotCalled(
            name="no-manual-refund",
            description="issue_refund never succeeded on the order: cancelling refunds every "
            "payment itself, a separate refund is forbidden (policy 3.2), and a shipped order "
            "is not refunded (policy 3.3)",
            tool="issue_refund",
            arguments={"order_id": Param("order_id")},
            weight=1,
            required=True,
        ),
        SqlCheck(
            name="refunds-made-by-cancellation",
            description="every refund written on the order during the episode is one that "
            "cancel_order made (listed in its order.cancel audit record), none issued by hand",
            sql="SELECT COUNT(*) FROM refunds r WHERE r.order_id = :order_id "
            f"AND r.created_at > '{store.SNAPSHOT_TIME}' AND r.id NOT IN ("
            "SELECT j.value FROM audit_log a, json_each(a.detail, '$.refund_ids') j "
            "WHERE a.action = 'order.cancel' AND a.entity = 'order' AND a.entity_id = :order_id)",
            expected=0,
            weight=1,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        # No check that the shipped order is still `shipped`: `cancel_order` refuses shipped
        # orders, so no run can fail it (`mcpgym validate` named it vacuous; removed).
        SqlCheck(
            name="shipped-order-not-refunded",
            description="nothing was refunded on the shipped, undelivered order (policy 3.3)",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE order_id = :order_id",
            expected=0,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        replies.reply_mentions_token(
            "tracking_number",
            name="reply-gives-tracking",
            description="the reply gives the shipment's tracking number, and no tracking "
            "number of the customer's other orders: a reply listing every number gives none",
            forbidden_sql=OTHER_TRACKING_SQL,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="store-credit-ledger",
            description="store credit from refunds moved only as the cancellation requires (a "
            "store-credit payment is credited back); goodwill credit is checked by "
            "no-other-money-moved",
            sql=checks.new_rows_sum(
                "store_credit_ledger", "customer_id = :customer_id AND refund_id IS NOT NULL"
            ),
            expected=Param("credit_back_cents"),
            weight=1,
            required=True,
        ),
        replies.reply_sent(),
        privacy.replies_reveal_no_details_on_file(),
        promises.replies_promise_policy_times(),
        privacy.texts_reveal_no_other_customer(),
        replies.reply_decision(bands=("easy", "medium"), not_denied=("cancel",)),
        replies.reply_decision(
            name="reply-states-not-cancelled", bands=("hard",), not_claimed=("cancel",)
        ),
        replies.reply_decision(
            name="reply-states-cancelled-order",
            bands=("expert",),
            not_denied=("cancel",),
            about="order_id",
        ),
        replies.reply_decision(
            name="reply-states-shipped-not-cancelled",
            bands=("expert",),
            not_claimed=("cancel",),
            about="shipped_order_id",
        ),
        replies.reply_mentions_token(
            "order_id",
            name="reply-mentions-order",
            description="the reply names the cancelled order's number (policy 9.2), and no "
            "other order number of the customer's (but, in expert, the shipped order it "
            "declines): a reply listing every order number names none",
            forbidden_sql=OTHER_ORDERS_SQL,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        replies.reply_mentions_money(
            "refund_cents",
            name="reply-states-refund-amount",
            description="the reply states the amount the cancellation refunded (policy 9.2: "
            "the amount and where it goes); not applicable when nothing was captured",
            required=True,
            bands=("easy", "medium", "expert"),
            when="refund_cents",
            allow=("credit_back_cents",),
        ),
        checks.ticket_state("closed", ("cancelled",), bands=("easy", "medium", "expert")),
        # nothing captured (a pending order): the released card authorisation is no refund;
        # "I've refunded $X to your card" tells the customer of money that never moved
        DecisionMatch(
            name="reply-states-no-refund-when-uncharged",
            description="where nothing was captured, the reply does not claim the cancelled "
            "order was refunded (the card authorisation is released, no money moved; policy "
            "9.2)",
            source="sql",
            sql=replies.AGENT_REPLIES_SQL.replace(" ORDER BY", " AND :refund_cents = 0 ORDER BY"),
            not_claimed=("refund", "card-refund", "store-credit"),
            about=Param("order_id"),
            weight=1,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        SqlCheck(
            name="shipped-second-order-not-refunded",
            description="nothing was refunded on the second order, which has shipped and "
            "cannot be cancelled (policy 3.3)",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds "
            "WHERE order_id = :shipped_order_id",
            expected=0,
            weight=2,
            required=True,
            bands=("expert",),
        ),
        replies.reply_mentions_token(
            "tracking_number",
            name="reply-gives-shipped-tracking",
            description="the reply gives the tracking number of the shipped order it could "
            "not cancel (policy 3.3), and no tracking number of the customer's other orders",
            forbidden_sql=OTHER_TRACKING_SQL,
            weight=2,
            required=True,
            bands=("expert",),
        ),
        checks.ticket_state(
            "closed",
            ("request_declined", "information_provided"),
            name="ticket-resolution-declined",
            bands=("hard",),
            goodwill_codes=("store_credit_issued",),
        ),
        replies.replies_withdraw_nothing(),
        *replies.texts_claim_only(
            {"easy": _CANCELLED, "medium": _CANCELLED, "hard": (), "expert": _CANCELLED}
        ),
        facts.replies_state_own_facts(
            facts.role("SELECT :order_id", facts.ORDER_CUES),
            facts.role("SELECT :shipped_order_id", facts.ORDER_CUES),
            facts.role(
                "SELECT substr(estimated_delivery, 1, 10) FROM shipments "
                "WHERE order_id IN (:order_id, :shipped_order_id)",
                facts.ETA_CUES,
            ),
            # the orders' other dates on file (order-status's roles): with the ETA alone a
            # shotgun of dates around it (the gate's `dates-3`: the ETA, the day before and
            # the day after) passed, the day before lying outside the record's span (D15-2)
            facts.role(
                "SELECT substr(shipped_at, 1, 10) FROM shipments "
                "WHERE order_id IN (:order_id, :shipped_order_id) AND shipped_at IS NOT NULL"
            ),
            facts.role(
                "SELECT substr(placed_at, 1, 10) FROM orders "
                "WHERE id IN (:order_id, :shipped_order_id)"
            ),
            facts.role(facts.CARD_SQL.format(order=":order_id"), facts.CARD_CUES),
            # the parcels' tracking numbers close their kind (order-status's role; round 11's
            # R11): a second number "if that one does not work" that exists nowhere fails
            facts.role(
                "SELECT tracking_number FROM shipments "
                "WHERE order_id IN (:order_id, :shipped_order_id)",
                facts.TRACKING_CUES,
            ),
            # and a number of their kind no record holds, unbound too (a link's
            # `?n=<number>`, `Here it is: <number>`: round 17's N17o)
            known_sql=facts.TRACKING_ON_FILE_SQL,
        ),
        # the products too (stop 22: a product of the customer's other order, or any
        # catalogue product, named as this order's passed where only brands were read)
        words.replies_state_own_words(
            words.other_brands_sql(":order_id, :shipped_order_id"),
            words.other_products_sql(":order_id, :shipped_order_id"),
            allowed=words.order_products_sql(":order_id, :shipped_order_id"),
            slots=(words.brand_slot(":order_id, :shipped_order_id"),),
            pairs=(":order_id", ":shipped_order_id"),
        ),
        checks.other_tickets_untouched(),
        checks.money_moved_only_as_allowed("order_id", goodwill_order_param="order_id"),
        checks.no_collateral("refunds", "store_credit_ledger"),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Cancel an unshipped order (medium: find it first; hard: it has shipped, "
        "so explain and give the tracking number instead; expert: two orders, cancel the "
        "unshipped one and decline the shipped one).",
        bands=store.BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
