"""Family `order-status`: "where is my order?" Reply with the carrier and the right tracking
number(s) and close the ticket as `information_provided` (policy 9.2). Nothing else changes.

Bands:
    easy: the ticket names the order; it has one shipment in transit.
    medium: no order number: the customer describes the order by product and date and has
        other orders with their own tracking numbers; find the right one.
    hard: as medium, but the order shipped in two parcels (setup adds the second shipment):
        both tracking numbers must be given.
    expert: as hard (two parcels), but in a long history (at least four orders, others
        shipped with their own tracking numbers) the customer names neither the order nor a
        product: only the card charge (amount, card, day). The order is found through its
        payment, which no other order of the customer matches.

In every band, tracking numbers of the customer's other orders are distractors: a reply that
gives any of them fails (policy 9.2: answer about the order asked about).

No money moves, except that when a parcel of the order is past its estimated delivery date the
agent may give goodwill store credit as policy 8.2 allows (at most $20.00, once, to the
customer, for this order) and then close as `store_credit_issued` instead.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from mcpgym_grading import Rubric, SqlCheck, with_text_amounts
from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.families import _checks as checks
from mcpgym_helpdesk.families import _facts as facts
from mcpgym_helpdesk.families import _privacy as privacy
from mcpgym_helpdesk.families import _queries as queries
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_helpdesk.families import _store as store
from mcpgym_helpdesk.families import _true_amounts as true_amounts
from mcpgym_helpdesk.families import _words as words
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY
from mcpgym_helpdesk.families._scenario import Scenario, call
from mcpgym_helpdesk.families._wording import (
    card_phrase,
    day,
    instruction,
    item_label,
    message,
    money,
)
from mcpgym_server import Generation, TaskFamily, VariantSpec, pick_where

NAME = "order-status"

SERVICES = {
    "UPS": ("Ground", "2nd Day Air"),
    "FedEx": ("Ground", "Express Saver"),
    "USPS": ("Ground Advantage", "Priority Mail"),
}


OTHER_TRACKING_SQL = """
SELECT tracking_number FROM shipments
WHERE order_id <> :order_id AND LENGTH(tracking_number) >= 8
UNION
SELECT return_tracking_number FROM returns
WHERE order_id <> :order_id AND LENGTH(return_tracking_number) >= 8
"""
"""Every tracking number on file of another order (each shipment and return label), the
customer's other orders' and every other customer's (round 19's N19a: another customer's
numbers listed bare passed, since `texts-reveal-no-other-customer` reads only what the
episode showed the agent): no reply may state one, in any form (`reply_omits`)."""


SERVICE_NAMES = frozenset(
    {
        "2nd day air",
        "second day air",
        "next day air",
        "3 day select",
        "express saver",
        "2day",
        "priority overnight",
        "standard overnight",
        "first overnight",
        "priority mail",
        "first class mail",
        "ground advantage",
        "media mail",
    }
)
"""The names of `replies.CARRIER_NAMES` that are a carrier's services, not the carrier: a
reply binds a number to the carrier and to the service apart ("FedEx (Ground Advantage)"
still pairs the number with FedEx)."""


def _carrier_names_sql(column: str, *, services: bool) -> str:
    """SQL: a JSON array of the names a reply may give the carrier in ``column``
    (`replies.CARRIER_NAMES`, less the ambiguous ones; an unknown carrier: its code), its
    services (`SERVICE_NAMES`) or the rest."""
    cases = " ".join(
        f"WHEN '{carrier}' THEN '"
        + json.dumps(
            [
                w
                for w in words
                if w not in replies.AMBIGUOUS_CARRIER_NAMES and (w in SERVICE_NAMES) == services
            ]
        )
        + "'"
        for carrier, words in replies.CARRIER_NAMES.items()
    )
    other = "json_array()" if services else f"json_array(LOWER({column}))"
    return f"json(CASE {column} {cases} ELSE {other} END)"


PARCEL_FACTS_SQL = (
    f"WITH m AS (SELECT {AGENT_BODY} AS b FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author = 'agent'), "
    "parcels AS (SELECT json_group_array(json_object('key', tracking_number, 'facts', "
    f"json_array({_carrier_names_sql('carrier', services=False)}, "
    f"{_carrier_names_sql('carrier', services=True)}, json_array(estimated_delivery)))) AS j "
    "FROM shipments WHERE order_id = :order_id) "
    "SELECT x FROM (SELECT mcpgym_misbound(m.b, parcels.j) AS x FROM m, parcels) "
    "WHERE x IS NOT NULL"
)
"""Each place a reply binds a parcel's tracking number to the other parcel's carrier, its
service or estimated delivery date and not to its own (``mcpgym_misbound``, one row per reply)."""


def reply_binds_parcel_facts() -> SqlCheck:
    """No reply pairs a parcel's tracking number with another parcel's carrier or date
    (`mcpgym_grading._binding`): a reply with the carriers swapped between the two numbers
    gives both numbers and both carriers, and sends the customer to the wrong carrier.
    Honest forms keep passing: each parcel on its own line, ``X via UPS and Y via FedEx``,
    ``UPS has X``, a table, ``... respectively``."""
    return SqlCheck(
        name="reply-binds-each-parcel-its-facts",
        description="no reply pairs a parcel's tracking number with the other parcel's "
        "carrier or estimated delivery date instead of its own (policy 9.2: the carrier and "
        "the tracking number): each parcel on its own line, `X via UPS and Y via FedEx`, a "
        "table row or `... respectively` bind each number to its own carrier",
        sql=PARCEL_FACTS_SQL,
        expected=[],
        weight=1,
        required=True,
        bands=("hard", "expert"),
    )


def _tracking(g: Generation, carrier: str, service: str) -> str:
    """A new tracking number in the carrier's format, unused in the snapshot."""
    rng = g.rng
    while True:
        if carrier == "UPS":
            code = "03" if service == "Ground" else "02"
            trk = f"1ZR4E917{code}{rng.randint(0, 10**8 - 1):08d}"
        elif carrier == "FedEx":
            trk = f"7{rng.randint(0, 10**11 - 1):011d}"
        else:
            prefix = "94001" if service == "Ground Advantage" else "94055"
            trk = f"{prefix}{rng.randint(0, 10**17 - 1):017d}"
        taken = g.db.execute("SELECT 1 FROM shipments WHERE tracking_number = ?", (trk,)).fetchone()
        if not taken:
            return trk


def _other_tracking(g: Generation, customer_id: int, order_id: int) -> list[dict[str, Any]]:
    return queries.rows(
        g.db,
        "SELECT s.* FROM shipments s JOIN orders o ON o.id = s.order_id "
        "WHERE o.customer_id = ? AND o.id <> ? ORDER BY s.id",
        (customer_id, order_id),
    )


def _payment_identifies(g: Generation, order: dict[str, Any]) -> bool:
    """Whether the order's one captured card payment tells it apart in a long history: the
    customer has at least four orders, and no other order has a payment of that amount."""
    pays = queries.rows(
        g.db, "SELECT * FROM payments WHERE order_id = ? ORDER BY id", (order["id"],)
    )
    if len(pays) != 1 or pays[0]["method"] != "card" or pays[0]["status"] != "captured":
        return False
    n = queries.rows(
        g.db, "SELECT COUNT(*) AS n FROM orders WHERE customer_id = ?", (order["customer_id"],)
    )[0]["n"]
    clash = queries.rows(
        g.db,
        "SELECT COUNT(*) AS n FROM payments p JOIN orders o ON o.id = p.order_id "
        "WHERE o.customer_id = ? AND o.id <> ? AND p.amount_cents = ?",
        (order["customer_id"], order["id"], pays[0]["amount_cents"]),
    )[0]["n"]
    return n >= 4 and clash == 0


def generate(g: Generation) -> VariantSpec:
    """Generate a `order-status` variant for ``(g.seed, g.band)``; see the module docstring.

    Reads the snapshot through ``g.db`` and draws only from ``g.rng``; deterministic.
    """
    sc = Scenario(g)
    rng = g.rng
    band = g.band
    candidates = queries.rows(
        g.db,
        f"SELECT o.* FROM orders o WHERE o.status = 'shipped' AND {queries.CLEAN_ORDER} "
        f"AND {queries.CUSTOMER_SANE} ORDER BY o.id",
    )

    def usable(order: dict[str, Any]) -> Any:
        ships = queries.rows(
            g.db, "SELECT * FROM shipments WHERE order_id = ? ORDER BY id", (order["id"],)
        )
        if len(ships) != 1 or ships[0]["status"] != "in_transit":
            return None
        items = queries.order_items(g.db, order["id"])
        others = _other_tracking(g, order["customer_id"], order["id"])
        if band != "easy":
            if not others:
                return None
            items = [
                it
                for it in items
                if queries.product_unique_for_customer(
                    g.db, order["customer_id"], order["id"], it["product_name"]
                )
            ]
        if band in ("hard", "expert") and len(queries.order_items(g.db, order["id"])) < 2:
            return None
        if band == "expert" and not _payment_identifies(g, order):
            return None
        if not items:
            return None
        return {
            "order": order,
            "shipment": ships[0],
            "item": items[rng.randrange(len(items))],
            "distractor": others[rng.randrange(len(others))] if others else None,
        }

    pick = pick_where(rng, candidates, usable, f"{NAME}@{band}")
    order, first, item, distractor = (
        pick["order"],
        pick["shipment"],
        pick["item"],
        pick["distractor"],
    )
    cust = queries.customer(g.db, order["customer_id"])
    shipments = [first]
    if band in ("hard", "expert"):
        carrier = rng.choice(sorted(SERVICES))
        service = rng.choice(SERVICES[carrier])
        shipped = store.parse_ts(first["shipped_at"]) + timedelta(hours=rng.randint(5, 20))
        if store.iso(shipped) >= "2026-06-15T07:00:00Z":
            shipped = store.parse_ts("2026-06-15T06:10:00Z")
        eta = (shipped + timedelta(days=rng.choice([3, 4, 5]))).date().isoformat()
        second = {
            "carrier": carrier,
            "service": service,
            "tracking_number": _tracking(g, carrier, service),
            "status": "in_transit",
            "shipped_at": store.iso(shipped),
            "estimated_delivery": eta,
            "delivered_at": None,
        }
        sc.insert("shipments", {"order_id": order["id"], **second})
        shipments.append(second)

    charge_cents: int | None = None  # the charge the customer describes (expert)
    if band == "easy":
        subject = f"Where is order #{order['id']}?"
        body = rng.choice(
            [
                f"Could you tell me where my order #{order['id']} is? I haven't had an update "
                "in a while.",
                f"When will order #{order['id']} arrive? I need it for a trip next week.",
            ]
        )
    elif band == "expert":
        pay = queries.rows(g.db, "SELECT * FROM payments WHERE order_id = ?", (order["id"],))[0]
        charge_cents = pay["amount_cents"]
        subject = "Where is my order?"
        body = (
            f"I've ordered from you a lot, so I'm not sure which order this is, but there's a "
            f"charge of {money(pay['amount_cents'])} on my {card_phrase(pay)} from "
            f"{day(pay['created_at'])} and nothing has arrived for it yet. Where is it? Please "
            "send me the tracking for that one."
        )
    else:
        subject = "Where is my order?"
        body = (
            f"I ordered a {item_label(item)} on {day(order['placed_at'])} and I'm still waiting "
            "for it. Where is it, and can I get a tracking number?"
        )
        if band == "hard":
            body += " There were other things in that order too."
    ticket_id = sc.ticket(
        customer_id=cust["id"],
        order_id=order["id"] if band == "easy" else None,
        subject=subject,
        messages=[message(rng, cust, body)],
        channel=rng.choice(["email", "web", "chat"]),
        after=[order["updated_at"], *(s["shipped_at"] for s in shipments)],
    )

    reference = [call("get_ticket", ticket_id=ticket_id)]
    if band != "easy":
        reference.append(call("find_orders", customer_id=cust["id"], status="shipped"))
    reference.append(call("get_order", order_id=order["id"]))
    if band == "expert":
        reference.insert(-1, call("get_customer", customer_id=cust["id"]))
    if len(shipments) == 1:
        s = shipments[0]
        where = (
            f"Order #{order['id']} is on its way with {s['carrier']} ({s['service']}), tracking "
            f"number {s['tracking_number']}, estimated delivery {s['estimated_delivery']}."
        )
    else:
        where = f"Order #{order['id']} shipped in two parcels:\n" + "\n".join(
            f"- {s['carrier']} ({s['service']}), tracking number {s['tracking_number']}, "
            f"estimated delivery {s['estimated_delivery']}"
            for s in shipments
        )
    reference += [
        call(
            "reply_to_customer",
            ticket_id=ticket_id,
            body=f"Hi {cust['first_name']},\n\n{where}",
        ),
        call("close_ticket", ticket_id=ticket_id, resolution_code="information_provided"),
    ]
    params = {
        "ticket_id": ticket_id,
        "customer_id": cust["id"],
        "order_id": order["id"],
        "tracking_number": shipments[0]["tracking_number"],
        "carrier": shipments[0]["carrier"],
        "second_tracking_number": shipments[1]["tracking_number"] if len(shipments) > 1 else None,
        "has_distractor": distractor is not None,
        "distractor_tracking_number": distractor["tracking_number"] if distractor else None,
        # the charge the customer describes (expert): true, allowed in its role
        "charge_cents": charge_cents,
    }
    return VariantSpec(
        instruction=instruction(ticket_id),
        setup=sc.setup,
        params=params,
        reference=reference,
    )


RUBRIC = Rubric(
    threshold=0.85,
    volatile_columns=store.VOLATILE_COLUMNS,
    checks=(
        replies.texts_state_no_other_amount(roles={"charge_cents": true_amounts.CHARGE_CUES}),
        replies.reply_mentions_token(
            "tracking_number",
            name="reply-gives-tracking",
            description="a reply gives the order's tracking number (whole token: a number "
            "sharing digits does not count)",
            weight=4,
            required=True,
        ),
        replies.reply_mentions_token(
            "second_tracking_number",
            name="reply-gives-second-tracking",
            description="a reply also gives the second parcel's tracking number",
            weight=4,
            required=True,
            bands=("hard", "expert"),
        ),
        replies.reply_names_carrier(),
        reply_binds_parcel_facts(),
        replies.reply_omits(
            name="reply-omits-other-orders",
            description="no reply or internal note gives a tracking number (shipment or "
            "return label) of any other order, the customer's or another customer's, in any "
            "form (digit groups split by any space or dash, fullwidth digits, the number cut "
            "between replies): the customer asked about one order, and a reply listing every "
            "number gives none; another customer's number is theirs (policy 1.2); staff act "
            "on a note's facts (policy 9.3; round 12's C12)",
            forbidden_sql=OTHER_TRACKING_SQL,
            texts_sql=facts.REPLIES_SQL,
        ),
        replies.reply_sent(),
        privacy.replies_reveal_no_details_on_file(),
        privacy.texts_reveal_no_other_customer(),
        checks.ticket_state(
            "closed", ("information_provided",), goodwill_codes=("store_credit_issued",)
        ),
        replies.replies_withdraw_nothing(),
        *replies.texts_claim_only({b: () for b in ("easy", "medium", "hard", "expert")}),
        facts.replies_state_own_facts(
            facts.role("SELECT :order_id", facts.ORDER_CUES),
            facts.role(
                "SELECT substr(estimated_delivery, 1, 10) FROM shipments "
                "WHERE order_id = :order_id",
                facts.ETA_CUES,
            ),
            facts.role(
                "SELECT substr(shipped_at, 1, 10) FROM shipments WHERE order_id = :order_id"
            ),
            facts.role("SELECT substr(placed_at, 1, 10) FROM orders WHERE id = :order_id"),
            # the order's tracking numbers close their kind: a parcel whose number exists
            # nowhere (round 11's R11: the right number with its last digits changed, "a
            # second parcel, tracking number …") fails like another order's number
            facts.role(
                "SELECT tracking_number FROM shipments WHERE order_id = :order_id",
                facts.TRACKING_CUES,
            ),
            # and a number of their kind no record holds, unbound too (a link's
            # `?n=<number>`, `Here it is: <number>`: round 17's N17o)
            known_sql=facts.TRACKING_ON_FILE_SQL,
        ),
        replies.reply_omits(
            name="reply-claims-no-delivery",
            description="no reply says the order was delivered while no parcel of it is (the "
            "answer to 'where is my order' is where it is; policy 9.2)",
            forbidden_sql=facts.undelivered_claims_sql(),
        ),
        # the products too (stop 22: a product of the customer's other order, or any
        # catalogue product, named as this order's passed where only brands were read)
        words.replies_state_own_words(
            words.other_brands_sql(":order_id"),
            words.other_products_sql(":order_id"),
            allowed=words.order_products_sql(":order_id"),
            slots=(words.brand_slot(":order_id"),),
        ),
        checks.other_tickets_untouched(),
        checks.money_moved_only_as_allowed(goodwill_order_param="order_id"),
        checks.no_collateral("store_credit_ledger"),
    ),
)

FAMILY = environment.add_family(
    TaskFamily(
        name=NAME,
        description="Tell the customer where their order is: carrier and tracking number "
        "(medium: find the order; hard: it shipped in two parcels; expert: two parcels, "
        "found only through the card charge in a long history).",
        bands=store.BANDS,
        generator=with_text_amounts(generate),
        generator_version="4",
        rubric=RUBRIC,
    )
)
