"""Family `exchange-size`: exchange a delivered item for another size of the same product.

Bands:
    easy: the ticket names the order, the item and the wanted size, which is in stock:
        create_exchange (no charge; ships on a replacement order); close `exchanged`.
    medium: no order number: the customer names the product and has several orders; find the
        order, then exchange as in easy.
    hard: the wanted size is out of stock in every colour (setup sets its stock to 0). Policy
        5.2: do not substitute; start a return for the item and refund its price as store
        credit (issue_refund method="store_credit" with the order_item_id); close
        `store_credit_issued`.
    expert: no order number (find the order as in medium); the wanted size is out of stock in
        the item's colour (setup sets that variant's stock to 0), and the customer names a
        second colour they would accept instead, which is in stock in that size: exchange
        for the second colour (the same product, policy 5.1), not a return, not store credit.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck, with_text_amounts
from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.families import _checks as checks
from mcpgym_helpdesk.families import _facts as facts
from mcpgym_helpdesk.families import _privacy as privacy
from mcpgym_helpdesk.families import _queries as queries
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_helpdesk.families import _store as store
from mcpgym_helpdesk.families import _words as words
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY
from mcpgym_helpdesk.families._scenario import Scenario, call
from mcpgym_helpdesk.families._wording import day, instruction, item_label, message, money
from mcpgym_server import Generation, TaskFamily, VariantSpec, pick_where

NAME = "exchange-size"

_EXCHANGED = ("exchange", "replacement", "return")
"""An exchange ships the new size on a replacement order, with a return label in the parcel."""
_RETURNED = ("return", "refund", "store-credit")
"""Out of stock (hard): a return started, the item's price refunded as store credit."""


def _wanted_variants(g: Generation, item: dict[str, Any]) -> list[dict[str, Any]]:
    """Variants of the item's product in the same colour and a neighbouring size."""
    same_colour = queries.rows(
        g.db,
        "SELECT * FROM product_variants WHERE product_id = ? AND colour = ? ORDER BY id",
        (item["product_id"], item["colour"]),
    )
    ids = [v["id"] for v in same_colour]
    if item["variant_id"] not in ids:
        return []
    i = ids.index(item["variant_id"])
    return [same_colour[j] for j in (i - 1, i + 1) if 0 <= j < len(same_colour)]


def _other_colours(g: Generation, wanted: dict[str, Any]) -> list[dict[str, Any]]:
    """Variants of the same product and size as ``wanted`` in another colour, in stock."""
    return queries.rows(
        g.db,
        "SELECT * FROM product_variants WHERE product_id = ? AND size = ? AND colour <> ? "
        "AND stock >= 1 ORDER BY id",
        (wanted["product_id"], wanted["size"], wanted["colour"]),
    )


def generate(g: Generation) -> VariantSpec:
    """Generate a `exchange-size` variant for ``(g.seed, g.band)``; see the module docstring.

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    candidates = queries.rows(
        g.db,
        f"SELECT o.* FROM orders o WHERE o.status = 'delivered' "
        f"AND o.delivered_at >= '{store.IN_WINDOW_SINCE}' "
        f"AND {queries.CLEAN_ORDER} AND {queries.CUSTOMER_SANE} "
        "ORDER BY o.id",
    )

    def usable(order: dict[str, Any]) -> Any:
        if (
            band in ("medium", "expert")
            and len(queries.customer_orders(g.db, order["customer_id"])) < 2
        ):
            return None
        options = []
        for it in queries.order_items(g.db, order["id"]):
            if it["quantity"] != 1 or it["final_sale"] or it["size"] == "One Size":
                continue
            if band in ("medium", "expert") and not queries.product_unique_for_customer(
                g.db, order["customer_id"], order["id"], it["product_name"]
            ):
                continue
            for v in _wanted_variants(g, it):
                if band == "expert":
                    alts = _other_colours(g, v)
                    if alts:
                        options.append((it, v, alts[rng.randrange(len(alts))]))
                elif band == "hard" or v["stock"] >= 1:
                    options.append((it, v, None))
        if not options:
            return None
        it, v, alt = options[rng.randrange(len(options))]
        return {"order": order, "item": it, "wanted": v, "alt": alt}

    pick = pick_where(rng, candidates, usable, f"{NAME}@{band}")
    order, item, wanted = pick["order"], pick["item"], pick["wanted"]
    cust = queries.customer(g.db, order["customer_id"])
    price = item["line_total_cents"]
    if band == "hard":
        sc.execute(
            "UPDATE product_variants SET stock = 0 WHERE product_id = ? AND size = ?",
            (item["product_id"], wanted["size"]),
        )
    fit = "too small" if wanted["id"] > item["variant_id"] else "too big"
    alt = pick["alt"]
    if band == "expert":
        sc.update("product_variants", wanted["id"], {"stock": 0})
        subject = f"Different size for my {item['product_name']}"
        body = (
            f"The {item_label(item)} I got on {day(order['delivered_at'])} is {fit}. Could I "
            f"exchange it for a {wanted['size']} in {item['colour']}? If {item['colour']} isn't "
            f"available in {wanted['size']}, {alt['colour']} would be fine too; I don't want "
            "my money back or credit, I just want one that fits."
        )
        wanted = alt
    elif band == "medium":
        subject = f"Different size for my {item['product_name']}"
        body = (
            f"The {item_label(item)} I got on {day(order['delivered_at'])} is {fit}. Could I "
            f"exchange it for a {wanted['size']} in the same colour?"
        )
    else:
        subject = f"Exchange request, order #{order['id']}"
        body = rng.choice(
            [
                f"The {item_label(item)} from order #{order['id']} is {fit}. Can I swap it for "
                f"a {wanted['size']}, same colour?",
                f"I'd like to exchange the {item_label(item)} in order #{order['id']} for size "
                f"{wanted['size']}; it's {fit}. It's unworn with the tags on.",
            ]
        )
    ticket_id = sc.ticket(
        customer_id=cust["id"],
        order_id=None if band in ("medium", "expert") else order["id"],
        subject=subject,
        messages=[message(rng, cust, body)],
        channel=rng.choice(["email", "web", "chat"]),
        after=[order["updated_at"]],
    )

    replacement_order_id = sc.peek_id("orders")
    next_return = int(g.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM returns").fetchone()[0])
    return_tracking = f"92055{order['id']:07d}{next_return:010d}"
    reference = [call("get_ticket", ticket_id=ticket_id)]
    if band in ("medium", "expert"):
        reference.append(
            call("find_orders", customer_id=cust["id"], product_name=item["product_name"])
        )
    reference += [
        call("get_order", order_id=order["id"]),
        call("get_product", product_id=item["product_id"]),
    ]
    if band == "hard":
        reply = (
            f"Hi {cust['first_name']},\n\nI'm sorry, the {item['product_name']} in "
            f"{wanted['size']} is out of stock, so I can't exchange it. Instead I've started a "
            f"return for the {item['size']}: a prepaid USPS label is on its way by email "
            f"(return tracking number {return_tracking}), and I've refunded the item's price "
            f"of {money(price)} as store credit on your account, ready to use right away."
        )
        reference += [
            call(
                "create_return",
                order_id=order["id"],
                order_item_ids=[item["id"]],
                reason=f"wanted size {wanted['size']}, out of stock",
            ),
            call(
                "issue_refund",
                order_id=order["id"],
                amount_cents=price,
                method="store_credit",
                reason=f"exchange to size {wanted['size']} not possible: out of stock",
                order_item_id=item["id"],
            ),
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="store_credit_issued"),
        ]
    else:
        reply = (
            f"Hi {cust['first_name']},\n\ndone: your {item['product_name']} in {wanted['size']} "
            f"({wanted['colour']}) ships at no charge on order #{replacement_order_id}. Please "
            f"send the {item['size']} back with the prepaid label in the parcel."
        )
        reference += [
            call(
                "create_exchange",
                order_id=order["id"],
                order_item_id=item["id"],
                new_variant_id=wanted["id"],
                reason=f"{fit}: size {item['size']} -> {wanted['size']}",
            ),
            call("reply_to_customer", ticket_id=ticket_id, body=reply),
            call("close_ticket", ticket_id=ticket_id, resolution_code="exchanged"),
        ]
    params = {
        "ticket_id": ticket_id,
        "customer_id": cust["id"],
        "order_id": order["id"],
        "order_item_id": item["id"],
        "old_variant_id": item["variant_id"],
        "new_variant_id": wanted["id"],
        "wanted_size": wanted["size"],
        "item_cents": price,
        "replacement_order_id": replacement_order_id,
        "return_tracking_number": return_tracking,
    }
    return VariantSpec(
        instruction=instruction(ticket_id),
        setup=sc.setup,
        params=params,
        reference=reference,
    )


OTHER_TRACKING_SQL = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND LENGTH(s.tracking_number) >= 8 "
    "UNION SELECT r.return_tracking_number FROM returns r JOIN orders o ON o.id = r.order_id "
    "WHERE o.customer_id = :customer_id AND LENGTH(r.return_tracking_number) >= 8 "
    "AND r.return_tracking_number IS NOT :return_tracking_number"
)
"""Tracking numbers of the customer's shipments and other return labels: not the answer."""

SIZES_REVERSED_SQL = (
    "WITH sizes AS (SELECT (SELECT size FROM product_variants WHERE id = :old_variant_id) AS o, "
    "(SELECT size FROM product_variants WHERE id = :new_variant_id) AS n), "
    f"texts AS (SELECT {AGENT_BODY} AS t FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author IN ('agent', 'note') "
    "UNION ALL SELECT reason FROM exchanges WHERE order_id = :order_id "
    "UNION ALL SELECT reason FROM returns WHERE order_id = :order_id "
    "UNION ALL SELECT reason FROM refunds WHERE order_id = :order_id) "
    "SELECT x FROM (SELECT mcpgym_reversed(texts.t, sizes.o, sizes.n) AS x FROM texts, sizes) "
    "WHERE x IS NOT NULL"
)
"""Each reply, note or exchange/return/refund reason that states the size change the wrong
way round (``mcpgym_reversed``: the wanted size given up, the delivered one received)."""


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=store.VOLATILE_COLUMNS,
    checks=(
        replies.texts_state_no_other_amount(),
        SqlCheck(
            name="exchange-created",
            description="exactly one exchange of the item for the wanted variant",
            sql="SELECT kind, order_item_id, old_variant_id, new_variant_id FROM exchanges "
            "WHERE order_id = :order_id",
            expected=[
                [
                    "exchange",
                    Param("order_item_id"),
                    Param("old_variant_id"),
                    Param("new_variant_id"),
                ]
            ],
            weight=4,
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        replies.reply_mentions_token(
            "replacement_order_id",
            name="reply-gives-replacement-order",
            description="the reply gives the number of the no-charge replacement order "
            "(policy 9.2), and no other order number of the customer's but the exchanged "
            "order's: a reply listing every order number gives none",
            forbidden_sql="SELECT id FROM orders WHERE customer_id = :customer_id "
            "AND id NOT IN (:order_id, :replacement_order_id)",
            required=True,
            bands=("easy", "medium", "expert"),
        ),
        checks.ticket_state("closed", ("exchanged",), bands=("easy", "medium", "expert")),
        checks.no_collateral("exchanges", bands=("easy", "medium", "expert")),
        SqlCheck(
            name="no-exchange-or-substitute",
            description="no exchange or replacement was created (the size is out of stock; "
            "no substitutes)",
            sql="SELECT COUNT(*) FROM exchanges WHERE order_id = :order_id",
            expected=0,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="return-started",
            description="a return was started for the item (policy 5.2)",
            sql="SELECT COUNT(*) FROM returns WHERE order_item_id = :order_item_id "
            "AND status = 'requested'",
            expected=1,
            weight=2,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="store-credit-refund",
            description="the item's price was refunded as store credit, against the item, and "
            "nothing else was refunded",
            sql="SELECT method, order_item_id, amount_cents FROM refunds "
            "WHERE order_id = :order_id",
            expected=[["store_credit", Param("order_item_id"), Param("item_cents")]],
            weight=3,
            required=True,
            bands=("hard",),
        ),
        SqlCheck(
            name="store-credit-balance",
            description="the customer's store credit grew by exactly the item price (no "
            "goodwill credit on top)",
            sql=checks.new_rows_sum("store_credit_ledger", "customer_id = :customer_id"),
            expected=Param("item_cents"),
            weight=1,
            required=True,
            bands=("hard",),
        ),
        replies.reply_mentions_money(
            "item_cents",
            description="a reply states the amount refunded as store credit (policy 9.2)",
            required=True,
            bands=("hard",),
        ),
        replies.reply_mentions_token(
            "return_tracking_number",
            name="reply-gives-return-tracking",
            description="a reply gives the return label's tracking number (policy 4.4, 9.2), "
            "and no other tracking number of the customer's (the parcel's own, other "
            "orders'): a reply listing every number gives none",
            forbidden_sql=OTHER_TRACKING_SQL,
            required=True,
            bands=("hard",),
        ),
        checks.ticket_state(
            "closed", ("store_credit_issued",), name="ticket-resolution-credit", bands=("hard",)
        ),
        checks.no_collateral(
            "refunds",
            "store_credit_ledger",
            "returns",
            name="no-collateral-changes-credit",
            bands=("hard",),
        ),
        replies.reply_sent(),
        SqlCheck(
            name="sizes-in-their-roles",
            description="no reply, note or reason states the exchange the wrong way round: "
            "the delivered size is the one sent back (returned), the wanted size the one that "
            "ships (or is out of stock); `size US 11 -> US 12` or `your US 12 ships, send the "
            "US 11 back` for a US 12 exchanged for a US 11 swaps them",
            sql=SIZES_REVERSED_SQL,
            expected=[],
            weight=1,
            required=True,
        ),
        privacy.replies_reveal_no_details_on_file(),
        privacy.texts_reveal_no_other_customer(),
        replies.reply_decision(bands=("easy", "medium", "expert"), not_denied=("exchange",)),
        replies.reply_decision(
            name="reply-states-return-and-credit",
            bands=("hard",),
            not_claimed=("exchange", "card-refund"),
        ),
        replies.replies_withdraw_nothing(),
        *replies.texts_claim_only(
            {"easy": _EXCHANGED, "medium": _EXCHANGED, "hard": _RETURNED, "expert": _EXCHANGED},
            asked=("exchange",),
        ),
        # the order numbers and tracking numbers the texts state (round 11's R5, R11): the
        # order's and its replacement's numbers, their parcels' and the return label's
        # tracking numbers; where no return was made, the number its label would get closes
        # that kind (a value binds only through a cue of its kind's role; `_value_roles`): a
        # replacement or return "tracking number" never issued fails, that one number aside
        facts.replies_state_own_facts(
            facts.role("SELECT :order_id", facts.ORDER_CUES),
            facts.role(
                "SELECT replacement_order_id FROM exchanges WHERE order_id = :order_id",
                facts.ORDER_CUES,
            ),
            facts.role(
                "SELECT tracking_number FROM shipments WHERE order_id = :order_id "
                "OR order_id IN (SELECT replacement_order_id FROM exchanges "
                "WHERE order_id = :order_id) "
                "UNION SELECT return_tracking_number FROM returns WHERE order_id = :order_id",
                facts.TRACKING_CUES,
            ),
            facts.role(
                "SELECT :return_tracking_number WHERE NOT EXISTS (SELECT 1 FROM returns "
                "WHERE return_tracking_number = :return_tracking_number)",
                facts.TRACKING_CUES,
            ),
            facts.role("SELECT :replacement_order_id", facts.ORDER_CUES),
            facts.role(facts.CARD_SQL.format(order=":order_id"), facts.CARD_CUES),
        ),
        words.replies_state_own_words(
            words.other_colours_sql(":old_variant_id, :new_variant_id"),
            words.other_products_sql(":order_id, :replacement_order_id"),
            words.other_brands_sql(":order_id"),
            allowed=words.order_products_sql(":order_id, :replacement_order_id"),
            slots=(
                words.brand_slot(":order_id"),
                words.colour_slot(":old_variant_id, :new_variant_id"),
            ),
        ),
        checks.other_tickets_untouched(),
        checks.money_moved_only_as_allowed("order_id"),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Exchange an item for another size (medium: find the order; hard: the size "
        "is out of stock, so return it for store credit; expert: out of stock in the colour, "
        "exchange for the second colour the customer accepts).",
        bands=store.BANDS,
        generator=with_text_amounts(generate),
        generator_version="3",
        rubric=RUBRIC,
    )
)
