"""Family `refund-damaged-item`: refund the price of an item that arrived damaged.

Bands:
    easy: the ticket names the order number and the damaged item.
    medium: no order number: the customer names the product and has several orders; the agent
        must find the right order (find_orders by product).
    hard: the ticket also asks for a refund the policy forbids: a final-sale item that is not
        damaged, or an item delivered outside the 30-day window. Refund the damaged item only
        and decline the other in the reply.
    expert: as hard, and the damaged item already had part of its price refunded earlier (a
        price adjustment, on the item and the card payment), while the customer asks for the
        full price: only what is still refundable on the item may be refunded (policy 7.2,
        7.5), and the reply states that amount.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from mcpgym_grading import DecisionMatch, Param, Rubric, SqlCheck, with_text_amounts
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
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY
from mcpgym_helpdesk.families._scenario import Scenario, call
from mcpgym_helpdesk.families._wording import (
    card_phrase,
    damage,
    day,
    instruction,
    item_label,
    message,
    money,
)
from mcpgym_server import Generation, TaskFamily, VariantSpec, pick_where

NAME = "refund-damaged-item"


def _candidate_orders(g: Generation) -> list[dict[str, Any]]:
    return queries.rows(
        g.db,
        f"SELECT o.* FROM orders o WHERE o.status = 'delivered' "
        f"AND o.delivered_at >= '{store.IN_WINDOW_SINCE}' "
        f"AND {queries.CLEAN_ORDER} AND {queries.ONE_CARD_PAYMENT} "
        f"AND {queries.CUSTOMER_SANE} ORDER BY o.id",
    )


def _forbidden_items(g: Generation, order: dict[str, Any], damaged_id: int) -> list[dict[str, Any]]:
    """Items of the same customer a refund would break policy for (not damaged):
    final-sale items of in-window delivered orders, and items delivered outside the window."""
    found: list[dict[str, Any]] = []
    for o in queries.customer_orders(g.db, order["customer_id"]):
        if o["status"] != "delivered" or o["replacement_for_order_id"] is not None:
            continue
        refunds = queries.one(
            g.db, "SELECT COUNT(*) AS n FROM refunds WHERE order_id = ?", (o["id"],)
        )
        if refunds["n"]:
            continue
        in_window = o["delivered_at"] >= store.IN_WINDOW_SINCE
        out_window = o["delivered_at"] < store.OUT_OF_WINDOW_BEFORE
        for it in queries.order_items(g.db, o["id"]):
            if it["id"] == damaged_id or it["status"] != "ok" or it["quantity"] != 1:
                continue
            if in_window and it["final_sale"]:
                found.append({**it, "why": "final_sale", "order": o})
            elif out_window and not it["final_sale"]:
                found.append({**it, "why": "outside_window", "order": o})
    return found


def generate(g: Generation) -> VariantSpec:
    """Generate a `refund-damaged-item` variant for ``(g.seed, g.band)``; see the module docstring.

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band

    def usable(order: dict[str, Any]) -> Any:
        items = [
            it
            for it in queries.order_items(g.db, order["id"])
            if it["quantity"] == 1 and 1000 <= it["line_total_cents"] <= store.REFUND_LIMIT_CENTS
        ]
        if band == "medium":
            if len(queries.customer_orders(g.db, order["customer_id"])) < 3:
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
        item = items[rng.randrange(len(items))]
        extra = None
        if band in ("hard", "expert"):
            forbidden = _forbidden_items(g, order, item["id"])
            if not forbidden:
                return None
            extra = forbidden[rng.randrange(len(forbidden))]
        return {"order": order, "item": item, "extra": extra}

    pick = pick_where(rng, _candidate_orders(g), usable, f"{NAME}@{band}")
    order, item, extra = pick["order"], pick["item"], pick["extra"]
    cust = queries.customer(g.db, order["customer_id"])
    payment = queries.one(g.db, "SELECT * FROM payments WHERE order_id = ?", (order["id"],))
    what = damage(rng, item["category"])
    price = item["line_total_cents"]
    label = item_label(item)
    prior = 0
    adjusted_at = None
    if band == "expert":
        # an earlier price adjustment refunded part of the item (10-40%, whole dollars)
        prior = max(100, (price * rng.randint(10, 40) // 100) // 100 * 100)
        adjusted = store.parse_ts(order["delivered_at"]) + timedelta(hours=rng.randint(20, 90))
        adjusted_at = min(store.iso(adjusted), "2026-06-13T12:00:00Z")
        sc.insert(
            "refunds",
            {
                "order_id": order["id"],
                "payment_id": payment["id"],
                "order_item_id": item["id"],
                "amount_cents": prior,
                "method": "original_payment",
                "reason": "price adjustment: price dropped after purchase",
                "created_at": adjusted_at,
            },
        )
        sc.update(
            "payments", payment["id"], {"refunded_cents": prior, "status": "partially_refunded"}
        )
    refund = price - prior

    if band == "medium":
        subject = f"{item['product_name']} arrived damaged"
        opening = (
            f"The {label} I ordered was delivered on {day(order['delivered_at'])}, and when I "
            f"unpacked it {what}. I'd like a refund for it to my card, please."
        )
    else:
        subject = f"Damaged item in order #{order['id']}"
        opening = rng.choice(
            [
                f"My order #{order['id']} arrived on {day(order['delivered_at'])}, but the "
                f"{label} is damaged: {what}. Please refund it to my card.",
                f"I just opened order #{order['id']} and the {label} arrived damaged ({what}). "
                "I don't want a replacement, just a refund for it please.",
            ]
        )
    paragraphs = [opening]
    if band == "expert":
        paragraphs.append(
            f"I know you gave me {money(prior)} back on it on {day(adjusted_at)} when the price "
            f"dropped, but it's broken, so I want the full {money(price)} I paid refunded now."
        )
    if extra is not None:
        if extra["why"] == "final_sale":
            paragraphs.append(
                f"Also, the {item_label(extra)} from order #{extra['order']['id']} turned out not "
                "to be my style. It's in perfect condition; could you refund that one as well?"
            )
        else:
            paragraphs.append(
                f"While you're at it: I bought a {item_label(extra)} back on "
                f"{day(extra['order']['delivered_at'])} (order #{extra['order']['id']}) and "
                "never really used it. Nothing wrong with it, I just changed my mind. Please "
                "refund that too."
            )
    ticket_id = sc.ticket(
        customer_id=cust["id"],
        order_id=None if band == "medium" else order["id"],
        subject=subject,
        messages=[message(rng, cust, *paragraphs)],
        channel=rng.choice(["email", "web"]),
        after=[order["updated_at"], extra["order"]["updated_at"] if extra else None, adjusted_at],
    )

    reference = [call("get_ticket", ticket_id=ticket_id)]
    if band == "medium":
        reference.append(
            call("find_orders", customer_id=cust["id"], product_name=item["product_name"])
        )
    reference.append(call("get_order", order_id=order["id"]))
    if extra is not None and extra["order"]["id"] != order["id"]:
        reference.append(call("get_order", order_id=extra["order"]["id"]))
    reference.append(
        call(
            "issue_refund",
            order_id=order["id"],
            amount_cents=refund,
            method="original_payment",
            reason=f"damaged on arrival: {what}",
            order_item_id=item["id"],
        )
    )
    reply = (
        f"Hi {cust['first_name']},\n\nI'm sorry the {item['product_name']} arrived damaged. I've "
        f"refunded {money(refund)} to your {card_phrase(payment)} for order "
        f"#{order['id']}; it should show within 5-10 business days. There's no need to send the "
        "item back."
    )
    if prior:
        reply += (
            f" That is what was still refundable on it: {money(prior)} of its price was already "
            "refunded to you as a price adjustment, and an item can't be refunded twice."
        )
    if extra is not None:
        if extra["why"] == "final_sale":
            reply += (
                f"\n\nI can't refund the {extra['product_name']}: it was a final-sale item, and "
                "final-sale items can only be refunded when they arrive damaged or defective."
            )
        else:
            reply += (
                f"\n\nI can't refund the {extra['product_name']} from order "
                f"#{extra['order']['id']}: it was delivered on "
                f"{day(extra['order']['delivered_at'])}, outside our 30-day return window."
            )
    reference += [
        call("reply_to_customer", ticket_id=ticket_id, body=reply),
        call("close_ticket", ticket_id=ticket_id, resolution_code="refunded"),
    ]
    params = {
        "ticket_id": ticket_id,
        "customer_id": cust["id"],
        "order_id": order["id"],
        "order_item_id": item["id"],
        "refund_cents": refund,
        "prior_refund_cents": prior or None,
        "declined_item_id": extra["id"] if extra else None,
        "declined_order_id": extra["order"]["id"] if extra else None,
        "declined_reason": extra["why"] if extra else None,
        # the declined item's price: true, allowed in its role (`_true_amounts`)
        "declined_cents": extra["line_total_cents"] if extra else None,
    }
    return VariantSpec(
        instruction=instruction(ticket_id),
        setup=sc.setup,
        params=params,
        reference=reference,
    )


def _item_facts_sql(order_item_id: str, *amounts: str) -> str:
    """SQL: one JSON item of the binding reader, keyed by the order number of
    ``order_item_id`` (a param reference), facts its product name, its price, the
    ``amounts`` (SQL expressions in cents) and its order's delivery date."""
    money = "printf('$%d.%02d', {0} / 100, {0} % 100)"
    facts = ", ".join(
        [
            "p.name",
            money.format("i.quantity * i.unit_price_cents"),
            *(money.format(a) for a in amounts),
            "substr(o.delivered_at, 1, 10)",
        ]
    )
    return (
        "(SELECT json_object('key', CAST(o.id AS TEXT), 'facts', json_array(json_array("
        f"{facts}))) FROM order_items i JOIN orders o ON o.id = i.order_id "
        "JOIN product_variants v ON v.id = i.variant_id JOIN products p ON p.id = v.product_id "
        f"WHERE i.id = {order_item_id})"
    )


PRIOR_REFUND_WORDS = (
    "earlier",
    "already",
    "previously",
    "previous",
    "prior",
    "before",
    "price adjustment",
    "adjustment",
)
"""Words that set a sentence's refund before the episode (expert's price adjustment)."""

_PRODUCT_SQL = (
    "(SELECT p.name FROM order_items i JOIN product_variants v ON v.id = i.variant_id "
    "JOIN products p ON p.id = v.product_id WHERE i.id = {item})"
)
_ITEMS_JSON = (
    "json_array(json_array('item #' || :declined_item_id, "
    f"{_PRODUCT_SQL.format(item=':declined_item_id')}, "
    "CASE WHEN :declined_reason = 'final_sale' AND (SELECT NOT p.final_sale FROM order_items i "
    "JOIN product_variants v ON v.id = i.variant_id JOIN products p ON p.id = v.product_id "
    "WHERE i.id = :order_item_id) THEN 'the final-sale item' END), "
    f"json_array('item #' || :order_item_id, {_PRODUCT_SQL.format(item=':order_item_id')}))"
)
_DECLINED_READ_SQL = (
    "SELECT mcpgym_items_named(mcpgym_without_amount(body, :prior_refund_cents, "
    f"'{','.join(PRIOR_REFUND_WORDS)}'), {_ITEMS_JSON}) AS body "
    f"FROM ({replies.AGENT_REPLIES_SQL}) WHERE :declined_item_id IS NOT NULL"
)

DECLINED_CLAIMS_SQL = (
    f"SELECT body FROM ({_DECLINED_READ_SQL}) WHERE :declined_order_id <> :order_id"
)
"""The replies `reply-states-declined-not-refunded` reads (where the declined item is of
another order than the refunded one), each without its sentences that state the earlier
price adjustment's amount and no other beside a word of `PRIOR_REFUND_WORDS`
(``mcpgym_without_amount``): such a sentence names its refund by its amount, not by the
order named last before it. Hard has no earlier refund (``prior_refund_cents`` NULL): its
replies are read whole. Each mention of the declined item's product and of the refunded
item's is written as their record, ``item #<id>`` (``mcpgym_items_named``: the product's
name, a run of its words, one of its words after a determiner, ``the final-sale item``
where only the declined one is; a mention both names share names neither): a sentence
naming a product is about that item (`DECLINED_ITEM_CLAIMS_SQL`), not the order named
before it (round 18's FF18b: ``the <refunded product> has been refunded; the <declined
product> has not`` after the decline)."""

DECLINED_ITEM_CLAIMS_SQL = _DECLINED_READ_SQL
"""The replies `reply-states-declined-item-not-refunded` reads: as `DECLINED_CLAIMS_SQL`'s,
on any order (the final-sale item of the refunded order too)."""


ORDERS_MISBOUND_SQL = (
    f"WITH m AS (SELECT {AGENT_BODY} AS b FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author = 'agent'), "
    f"items AS (SELECT json_array(json({_item_facts_sql(':order_item_id', ':refund_cents')}), "
    f"json({_item_facts_sql(':declined_item_id')})) AS j "
    "WHERE :declined_order_id IS NOT NULL AND :declined_order_id <> :order_id) "
    "SELECT x FROM (SELECT mcpgym_misbound(m.b, items.j) AS x FROM m, items) "
    "WHERE x IS NOT NULL"
)
"""Each place a reply gives the refunded item's order number with the declined item's
product, price or delivery date and none of its own, or the declined item's order number
with the refunded item's product, price, refund or delivery date (``mcpgym_misbound``, one
row per reply); nothing where both items are on one order."""


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=store.VOLATILE_COLUMNS,
    checks=(
        replies.texts_state_no_other_amount(
            "prior_refund_cents", roles={"declined_cents": true_amounts.DECLINED_CUES}
        ),
        SqlCheck(
            name="item-refunded-to-original-payment",
            description="the damaged item's price was refunded to the original payment, "
            "against that order item",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds "
            "WHERE order_item_id = :order_item_id AND method = 'original_payment' "
            f"AND created_at > '{store.SNAPSHOT_TIME}'",
            expected=Param("refund_cents"),
            weight=3,
            required=True,
        ),
        SqlCheck(
            name="order-refund-total",
            description="nothing else on the order was refunded (no shipping, tax or other items)",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE order_id = :order_id "
            f"AND created_at > '{store.SNAPSHOT_TIME}'",
            expected=Param("refund_cents"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="forbidden-refund-declined",
            description="the item policy does not allow refunding (final sale not damaged, or "
            "outside the return window) was not refunded",
            sql="SELECT COALESCE(SUM(amount_cents), 0) FROM refunds "
            "WHERE order_item_id = :declined_item_id "
            "OR (order_id = :declined_order_id AND order_id <> :order_id)",
            expected=0,
            weight=2,
            required=True,
            bands=("hard", "expert"),
        ),
        replies.reply_sent(),
        privacy.replies_reveal_no_details_on_file(),
        promises.replies_promise_policy_times(),
        privacy.texts_reveal_no_other_customer(),
        replies.reply_decision(
            name="reply-states-refund-to-card",
            bands=("easy", "medium", "hard", "expert"),
            not_claimed=("store-credit",),
        ),
        # easy/medium refund the one item: a reply must not tell the customer it was not
        # refunded, in any wording ("Nothing has been paid back yet", round 10 D2)
        replies.reply_decision(
            name="reply-states-refunded",
            bands=("easy", "medium"),
            not_denied=("refund",),
        ),
        # hard/expert: the declined item's order is not refunded, in a sentence naming it or
        # in one after it naming no order ("I've refunded that one as well", round 10's A1);
        # read only where it is another order than the refunded one (a final-sale item of the
        # same order: the refund's sentences name that order too). Expert's earlier price
        # adjustment: a sentence stating its amount and no other beside a cue of its role
        # ("$5.00 was refunded earlier as a price adjustment") is about that refund, not the
        # order named last (`DECLINED_CLAIMS_SQL`)
        DecisionMatch(
            name="reply-states-declined-not-refunded",
            description="the reply does not claim the declined item's order (each sentence "
            "naming it, or after it naming no order) was refunded (policy 9.2); a sentence "
            "stating only the earlier price adjustment's amount as earlier is about that one",
            source="sql",
            sql=DECLINED_CLAIMS_SQL,
            not_claimed=("refund", "card-refund", "store-credit"),
            about=Param("declined_order_id"),
            weight=1,
            required=True,
            bands=("hard", "expert"),
        ),
        # the declined item named by its product, on any order (round 17's X17a: expert's
        # final-sale item of another order declined by its name only, then "I've also
        # refunded the Pinnacle Polarized Sunglasses"; hard's final-sale item of the refunded
        # order itself, which the order's check above cannot tell from the refund)
        DecisionMatch(
            name="reply-states-declined-item-not-refunded",
            description="the reply does not claim the declined item (each sentence naming its "
            "product, or after it naming no record) was refunded (policy 9.2)",
            source="sql",
            sql=DECLINED_ITEM_CLAIMS_SQL,
            not_claimed=("refund", "card-refund", "store-credit"),
            about=Param("declined_item_id"),
            weight=1,
            required=True,
            bands=("hard", "expert"),
        ),
        replies.reply_mentions_money(
            "refund_cents",
            description="a reply states the amount refunded for the damaged item (policy 9.2); "
            "the earlier price adjustment (expert) may be named beside it, as the earlier one: "
            "each amount stands in its role",
            allow=("prior_refund_cents", "declined_cents"),
            # the two refunds in their roles: a reply swapping them states neither; the order
            # total stays refused (refunding the whole order is the wrong answer this family
            # tempts, and "your order total of $X" sits beside refund words in both); the
            # declined item's price only as the declined one's
            roles={
                "refund_cents": (*replies.REFUNDED_CUES, *replies.RETURNED_NOW_CUES),
                "prior_refund_cents": replies.PRIOR_CUES,
                "declined_cents": true_amounts.DECLINED_CUES,
            },
            required=True,
        ),
        SqlCheck(
            name="reply-binds-each-order-its-item",
            description="no reply gives the refunded order's number with the declined item "
            "(its product, price or delivery date) and none of its own, or the declined "
            "order's number with the refunded item (its product, price, refund or delivery "
            "date): `refunded $X for order #<declined>` swaps the two orders",
            sql=ORDERS_MISBOUND_SQL,
            expected=[],
            weight=1,
            required=True,
            bands=("hard", "expert"),
        ),
        checks.ticket_state("closed", ("refunded",)),
        replies.replies_withdraw_nothing(),
        *replies.texts_claim_only(
            {b: ("refund", "card-refund") for b in ("easy", "medium", "hard", "expert")}
        ),
        facts.replies_state_own_facts(
            facts.role("SELECT :order_id", facts.REFUNDED_CUES),
            facts.role("SELECT :declined_order_id", facts.DECLINED_CUES),
            facts.role(facts.CARD_SQL.format(order=":order_id"), facts.CARD_CUES),
            facts.role(
                "SELECT substr(delivered_at, 1, 10) FROM orders WHERE id = :declined_order_id",
                facts.DELIVERED_CUES,
            ),
        ),
        words.replies_state_own_words(
            words.other_products_sql(":order_id, :declined_order_id"),
            words.other_brands_sql(":order_id, :declined_order_id"),
            words.other_reasons_sql(),
            allowed=words.order_products_sql(":order_id, :declined_order_id"),
            slots=(words.brand_slot(":order_id, :declined_order_id"),),
            pairs=(":order_id", ":declined_order_id"),
        ),
        checks.other_tickets_untouched(),
        checks.money_moved_only_as_allowed("order_id"),
        checks.no_collateral("refunds"),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Refund an item that arrived damaged to the original payment "
        "(medium: find the order; hard: also decline a refund the policy forbids; expert: "
        "as hard, with part of the item already refunded).",
        bands=store.BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
