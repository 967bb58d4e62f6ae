"""Support history of the snapshot: tickets, the historical events an agent worked (closed
tickets) and the open ticket queue. A mixin of `build_snapshot.Builder`; every support action
goes through the environment's own tools (`Builder.tool`)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import seed_data as S
from sim import NOW, Customer, FixedClock, OrderPlan, article, days, fmt, hours, money


class History:
    """Ticket and support-event methods of the snapshot builder (see `build_snapshot.Builder`)."""

    # State and plumbing that `build_snapshot.Builder` provides (declared here for the
    # type checker; the mixin is never used on its own).
    db: sqlite3.Connection
    rng: random.Random
    clock: FixedClock
    products: list[dict[str, Any]]
    variants: dict[int, list[dict[str, Any]]]
    forced_stock: dict[int, int]
    manifest: list[dict[str, Any]]
    """The open tickets' scenarios, written next to the snapshot (set by `build_snapshot.build`)."""

    if TYPE_CHECKING:

        def at(self, t: datetime, fn: Callable[..., None], *args: Any) -> None: ...
        def insert(self, table: str, values: dict[str, Any]) -> int: ...
        def audit(
            self, t: datetime, actor: str, action: str, entity: str, eid: int, **detail: Any
        ) -> None: ...
        def tool(self, actor: str, name: str, **arguments: Any) -> Any: ...
        def one(self, sql: str, params: Any = ()) -> Any: ...
        def street(self) -> str: ...
        def ship(
            self, t: datetime, oid: int, est: date | None, exception: bool = False
        ) -> None: ...
        def deliver(self, t: datetime, oid: int) -> None: ...

    # -- tickets -----------------------------------------------------------------------

    def ticket_time(self, after: datetime, work: datetime) -> datetime:
        """When a customer opened the ticket that an agent worked at ``work``."""
        t = max(after + hours(0.2), work - hours(self.rng.uniform(0.5, 18)))
        return t if t < work - timedelta(minutes=10) else work - timedelta(minutes=10)

    def new_ticket(
        self,
        t: datetime,
        customer_id: int,
        order_id: int | None,
        subject: str,
        body: str,
        priority: str = "normal",
    ) -> int:
        channel = self.rng.choices(["email", "web", "chat", "phone"], weights=[5, 3, 2, 1])[0]
        tid = self.insert(
            "tickets",
            {
                "customer_id": customer_id,
                "order_id": order_id,
                "subject": subject,
                "channel": channel,
                "status": "open",
                "priority": priority,
                "created_at": fmt(t),
                "updated_at": fmt(t),
            },
        )
        self.insert(
            "ticket_messages",
            {"ticket_id": tid, "author": "customer", "body": body, "created_at": fmt(t)},
        )
        self.audit(t, "customer", "ticket.create", "ticket", tid, order_id=order_id)
        return tid

    def order_info(self, oid: int) -> dict[str, Any]:
        o = dict(self.one("SELECT * FROM orders WHERE id = ?", (oid,)))
        o["items"] = [
            dict(r)
            for r in self.db.execute(
                "SELECT oi.*, p.name, p.category, p.final_sale, v.size, v.colour, v.product_id "
                "FROM order_items oi JOIN product_variants v ON v.id = oi.variant_id "
                "JOIN products p ON p.id = v.product_id WHERE oi.order_id = ? ORDER BY oi.id",
                (oid,),
            )
        ]
        o["payments"] = [
            dict(r)
            for r in self.db.execute(
                "SELECT * FROM payments WHERE order_id = ? ORDER BY id", (oid,)
            )
        ]
        o["shipment"] = self.one(
            "SELECT * FROM shipments WHERE order_id = ? ORDER BY id DESC", (oid,)
        )
        return o

    @staticmethod
    def label(item: dict[str, Any]) -> str:
        if item["size"] == "One Size":
            return f"{item['name']} ({item['colour']})"
        return f"{item['name']} ({item['size']}, {item['colour']})"

    @staticmethod
    def paid_with(o: dict[str, Any]) -> str:
        card = next((p for p in o["payments"] if p["method"] == "card"), None)
        if card is None:
            return "your store credit balance"
        return f"your {card['card_brand']} card ending in {card['card_last4']}"

    def resolve(
        self,
        t: datetime,
        tid: int,
        calls: list[tuple[str, dict[str, Any]]],
        reply: str | Callable[[list[Any]], str],
        code: str | None,
    ) -> list[Any]:
        """A past agent works a ticket: tool calls, a reply, then closing."""
        self.clock.t = t
        actor = self.rng.choice(S.AGENTS)
        results = [self.tool(actor, name, **args) for name, args in calls]
        text = reply(results) if callable(reply) else reply
        self.tool(actor, "reply_to_customer", ticket_id=tid, body=text)
        if code:
            self.tool(actor, "close_ticket", ticket_id=tid, resolution_code=code)
        return results

    def customer_msg(self, p: OrderPlan | Customer, body: str) -> str:
        first = p.first if isinstance(p, Customer) else p.customer.first
        sign = self.rng.choice(["Thanks,", "Thank you,", "Best,", "Cheers,", "Regards,"])
        greet = self.rng.choice(["Hi,", "Hello,", "Hi there,", "Hello Ridgeline team,"])
        return f"{greet}\n\n{body}\n\n{sign}\n{first}"

    def two_step(
        self,
        ct: datetime,
        p: OrderPlan,
        subject: str,
        body: str,
        t: datetime,
        work: Callable[[datetime, int], None],
        priority: str = "normal",
    ) -> None:
        """The customer opens a ticket now (ct); an agent works it at t."""
        tid = self.new_ticket(
            ct, p.customer.id, p.order_id, subject, self.customer_msg(p, body), priority
        )
        self.at(t, lambda tt: work(tt, tid))

    # -- historical events (closed tickets) ----------------------------------------------

    def ev_damaged_refund(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        o = self.order_info(p.order_id)
        it = o["items"][0]
        dmg = self.rng.choice(S.DAMAGE[it["category"]])
        line = it["quantity"] * it["unit_price_cents"]

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                [
                    (
                        "issue_refund",
                        {
                            "order_id": p.order_id,
                            "amount_cents": line,
                            "method": "original_payment",
                            "reason": f"damaged on arrival: {dmg}",
                            "order_item_id": it["id"],
                        },
                    )
                ],
                f"I'm sorry the {it['name']} arrived damaged. I've refunded {money(line)} to "
                f"{self.paid_with(o)}; it should appear within 5-10 business days. There is no "
                "need to send it back.",
                "refunded",
            )

        self.two_step(
            ct,
            p,
            f"Damaged item in order #{p.order_id}",
            f"The {self.label(it)} from order #{p.order_id} arrived damaged: {dmg}. "
            "I'd like a refund please.",
            t,
            work,
            "high",
        )

    def ev_replacement(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        o = self.order_info(p.order_id)
        it = o["items"][0]
        dmg = self.rng.choice(S.DAMAGE[it["category"]])

        def work(tt: datetime, tid: int) -> None:
            res = self.resolve(
                tt,
                tid,
                [
                    (
                        "create_replacement",
                        {"order_id": p.order_id, "order_item_id": it["id"], "reason": dmg},
                    )
                ],
                lambda r: (
                    f"So sorry about the {it['name']}. A replacement ships at no charge on "
                    f"order #{r[0]['replacement_order_id']}; you'll get tracking when it leaves "
                    "our warehouse. You can keep or recycle the damaged one."
                ),
                "replaced",
            )
            self.ship_replacement(self.clock.t, res[0]["replacement_order_id"])

        self.two_step(
            ct,
            p,
            f"{it['name']} arrived broken",
            f"My {self.label(it)} (order #{p.order_id}) arrived and {dmg}. Could you "
            "send me a replacement?",
            t,
            work,
            "high",
        )

    def ship_replacement(self, t: datetime, oid: int) -> None:
        ship_t = t + hours(self.rng.uniform(12, 40))
        if ship_t < NOW - hours(1):
            self.at(ship_t, self.ship, oid, None)
            deliver_t = ship_t + days(self.rng.uniform(2, 5))
            if deliver_t < NOW - hours(1):
                self.at(deliver_t, self.deliver, oid)

    def neighbour(self, it: dict[str, Any]) -> dict[str, Any]:
        """The next size up (same colour) of an ordered item's variant."""
        variants = self.variants[it["product_id"]]
        sizes = variants[0]["product"]["sizes"]
        idx = sizes.index(it["size"])
        new_size = sizes[idx + 1] if idx + 1 < len(sizes) else sizes[idx - 1]
        return next(v for v in variants if v["size"] == new_size and v["colour"] == it["colour"])

    def ev_exchange(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        o = self.order_info(p.order_id)
        it = o["items"][0]
        new = self.neighbour(it)

        def work(tt: datetime, tid: int) -> None:
            res = self.resolve(
                tt,
                tid,
                [
                    (
                        "create_exchange",
                        {
                            "order_id": p.order_id,
                            "order_item_id": it["id"],
                            "new_variant_id": new["id"],
                            "reason": f"size exchange {it['size']} -> {new['size']}",
                        },
                    )
                ],
                lambda r: (
                    f"Done: your {it['name']} in {new['size']} ships at no charge on order "
                    f"#{r[0]['replacement_order_id']}. Please send the {it['size']} back with the "
                    "prepaid label that comes in the parcel."
                ),
                "exchanged",
            )
            self.ship_replacement(self.clock.t, res[0]["replacement_order_id"])

        self.two_step(
            ct,
            p,
            f"Exchange {it['name']} for {new['size']}",
            f"The {self.label(it)} from order #{p.order_id} is too small. Could I swap "
            f"it for {article(new['size'])} {new['size']}?",
            t,
            work,
        )

    def ev_oos_exchange(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        o = self.order_info(p.order_id)
        it = o["items"][0]
        new = self.neighbour(it)
        line = it["quantity"] * it["unit_price_cents"]

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                [
                    (
                        "create_return",
                        {
                            "order_id": p.order_id,
                            "order_item_ids": [it["id"]],
                            "reason": f"wanted size {new['size']}, out of stock",
                        },
                    ),
                    (
                        "issue_refund",
                        {
                            "order_id": p.order_id,
                            "amount_cents": line,
                            "method": "store_credit",
                            "order_item_id": it["id"],
                            "reason": f"exchange to {new['size']} not possible: out of stock",
                        },
                    ),
                ],
                lambda r: (
                    f"The {it['name']} in {new['size']} is out of stock, so I've started "
                    "a return (USPS label tracking "
                    f"{r[0]['returns'][0]['return_tracking_number']}) "
                    f"and added {money(line)} in store credit to your account."
                ),
                "store_credit_issued",
            )
            self.schedule_receipt(p.order_id)

        self.two_step(
            ct,
            p,
            f"Different size for {it['name']}",
            f"Can I exchange the {self.label(it)} from order #{p.order_id} for "
            f"{article(new['size'])} {new['size']}? It runs small.",
            t,
            work,
        )

    def return_calls(
        self, p: OrderPlan, items: list[dict[str, Any]], reason: str
    ) -> list[tuple[str, dict[str, Any]]]:
        calls: list[tuple[str, dict[str, Any]]] = [
            (
                "create_return",
                {
                    "order_id": p.order_id,
                    "order_item_ids": [i["id"] for i in items],
                    "reason": reason,
                },
            )
        ]
        for i in items:
            calls.append(
                (
                    "issue_refund",
                    {
                        "order_id": p.order_id,
                        "amount_cents": i["quantity"] * i["unit_price_cents"],
                        "method": "original_payment",
                        "order_item_id": i["id"],
                        "reason": f"return: {reason}",
                    },
                )
            )
        return calls

    def ev_partial_return(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        self._return(ct, p, t, full=False)

    def ev_full_return(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        self._return(ct, p, t, full=True)

    def _return(self, ct: datetime, p: OrderPlan, t: datetime, full: bool) -> None:
        o = self.order_info(p.order_id)
        items = o["items"] if full else o["items"][:1]
        reason = self.rng.choice(
            [
                "it didn't fit",
                "it's not what I expected",
                "I changed my mind",
                "I bought the wrong model",
                "the quality isn't what I hoped",
            ]
        )
        total = sum(i["quantity"] * i["unit_price_cents"] for i in items)
        names = ", ".join(f"the {self.label(i)}" for i in items)

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                self.return_calls(p, items, reason),
                lambda r: (
                    f"I've started your return and refunded {money(total)} to "
                    f"{self.paid_with(o)}. Your prepaid USPS return label is on its way by "
                    f"email (tracking {r[0]['returns'][0]['return_tracking_number']})."
                ),
                "refunded",
            )
            if not full:
                self.schedule_receipt(p.order_id)

        self.two_step(
            ct,
            p,
            f"Return for order #{p.order_id}",
            f"I'd like to return {names} from order #{p.order_id}: {reason}.",
            t,
            work,
        )

    def ev_receive(self, t: datetime, p: OrderPlan) -> None:
        """The warehouse receives every item of a fully returned order."""
        self.receive_returns(t, p.order_id)
        self.db.execute(
            "UPDATE orders SET status = 'returned', updated_at = ? WHERE id = ?",
            (fmt(t), p.order_id),
        )
        self.audit(t, "system", "order.returned", "order", p.order_id)

    def receive_returns(self, t: datetime, order_id: int) -> None:
        """The warehouse receives the requested returns of an order."""
        for r in self.db.execute(
            "SELECT id FROM returns WHERE order_id = ? AND status = 'requested' ORDER BY id",
            (order_id,),
        ).fetchall():
            self.db.execute(
                "UPDATE returns SET status = 'received', received_at = ? WHERE id = ?",
                (fmt(t), r[0]),
            )
            self.audit(t, "system", "return.receive", "return", r[0], order_id=order_id)

    def schedule_receipt(self, order_id: int) -> None:
        """A partial return's parcel reaches the warehouse 4-10 days later (if before now)."""
        rt = self.clock.t + days(self.rng.uniform(4, 10))
        if rt < NOW - hours(1):
            self.at(rt, self.receive_returns, order_id)

    def ev_where_info(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        def work(tt: datetime, tid: int) -> None:
            s = self.one("SELECT * FROM shipments WHERE order_id = ?", (p.order_id,))
            self.resolve(
                tt,
                tid,
                [],
                f"Your order #{p.order_id} is on its way with "
                f"{s['carrier']} ({s['service']}), tracking number "
                f"{s['tracking_number']}, estimated delivery "
                f"{s['estimated_delivery']}.",
                "information_provided",
            )

        self.two_step(
            ct,
            p,
            f"Where is order #{p.order_id}?",
            f"Could you tell me when order #{p.order_id} will arrive?",
            t,
            work,
            "low",
        )

    def ev_goodwill(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        amount = self.rng.choice([1000, 1500, 2000])

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                [
                    (
                        "add_store_credit",
                        {
                            "customer_id": p.customer.id,
                            "amount_cents": amount,
                            "order_id": p.order_id,
                            "reason": f"late delivery of order {p.order_id}",
                        },
                    )
                ],
                f"I'm sorry order #{p.order_id} arrived after the estimated date. I've added "
                f"{money(amount)} in store credit to your account as an apology.",
                "store_credit_issued",
            )

        self.two_step(
            ct,
            p,
            f"Order #{p.order_id} arrived late",
            f"Order #{p.order_id} arrived days after the estimated delivery date and I "
            "missed my trip with it. Not happy.",
            t,
            work,
        )

    def ev_address_change(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        rng = self.rng
        city = rng.choice(S.CITIES)
        new = {
            "line1": self.street(),
            "city": city[0],
            "state": city[1],
            "zip": rng.choice(city[2]),
        }

        def work(tt: datetime, tid: int) -> None:
            self.clock.t = tt
            actor = rng.choice(S.AGENTS)
            self.audit(tt, actor, "identity.verify", "customer", p.customer.id, method="email_zip")
            self.tool(actor, "update_shipping_address", order_id=p.order_id, **new)
            self.tool(
                actor,
                "reply_to_customer",
                ticket_id=tid,
                body=(
                    f"Thanks for verifying. Order #{p.order_id} will now ship to {new['line1']}, "
                    f"{new['city']}, {new['state']} {new['zip']}."
                ),
            )
            self.tool(actor, "close_ticket", ticket_id=tid, resolution_code="address_updated")

        self.two_step(
            ct,
            p,
            f"Change shipping address for #{p.order_id}",
            f"Please ship order #{p.order_id} to {new['line1']}, {new['city']}, "
            f"{new['state']} {new['zip']} instead. My email is {p.customer.email} and "
            f"my billing ZIP is {p.customer.zip}.",
            t,
            work,
        )

    def ev_dup_refund(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        o = self.order_info(p.order_id)
        dup = o["payments"][-1]

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                [
                    (
                        "issue_refund",
                        {
                            "order_id": p.order_id,
                            "amount_cents": dup["amount_cents"],
                            "method": "original_payment",
                            "payment_id": dup["id"],
                            "reason": "duplicate charge",
                        },
                    )
                ],
                f"You're right, you were charged twice. I've refunded the duplicate charge of "
                f"{money(dup['amount_cents'])} to your card ending in {dup['card_last4']}.",
                "refunded",
            )

        self.two_step(
            ct,
            p,
            f"Charged twice for order #{p.order_id}",
            f"I see two charges of {money(dup['amount_cents'])} on my card ending in "
            f"{dup['card_last4']} for order #{p.order_id}. Please refund one.",
            t,
            work,
            "high",
        )

    CANCEL_REASONS = [
        "I ordered the wrong size",
        "I found it cheaper elsewhere",
        "I don't need it anymore",
        "I ordered it twice by mistake",
    ]

    def ev_cancel(self, ct: datetime, p: OrderPlan, t: datetime) -> None:
        reason = self.rng.choice(self.CANCEL_REASONS)

        def work(tt: datetime, tid: int) -> None:
            self.resolve(
                tt,
                tid,
                [
                    (
                        "cancel_order",
                        {"order_id": p.order_id, "reason": f"customer request: {reason}"},
                    )
                ],
                f"Order #{p.order_id} is cancelled. Any payment taken is refunded in "
                "full to your original payment method within 5-10 business days.",
                "cancelled",
            )

        self.two_step(
            ct,
            p,
            f"Cancel order #{p.order_id}",
            f"Please cancel order #{p.order_id}: {reason}.",
            t,
            work,
        )

    def system_cancel(self, t: datetime, p: OrderPlan) -> None:
        self.clock.t = t
        self.tool(
            "system", "cancel_order", order_id=p.order_id, reason="payment authorisation expired"
        )

    # -- open tickets (the snapshot's current queue) -------------------------------------

    def open_ticket(self, t: datetime, p: OrderPlan) -> None:
        rng = self.rng
        o = self.order_info(p.order_id)
        it = o["items"][0]
        sc = p.scenario or ""
        oid = p.order_id
        dmg = rng.choice(S.DAMAGE[it["category"]])
        c = p.customer
        line = it["quantity"] * it["unit_price_cents"]
        priority = "normal"
        if sc == "wismo":
            late = p.est is not None and p.est < NOW.date()
            subject = f"Where is my order #{oid}?"
            body = (
                f"I ordered on {o['placed_at'][:10]} and order #{oid} still hasn't arrived."
                + (f" It was supposed to be here by {p.est.isoformat()}." if late and p.est else "")
                + " Can you tell me where it is?"
            )
            priority = "high" if late else "normal"
        elif sc.startswith(("damaged", "escalated")):
            ask = {
                "damaged_replace": "Could you send me a replacement?",
                "damaged_refund": "I'd like a refund for it, please.",
                "damaged_large": "I'd like a full refund for it.",
                "escalated_large": "I'd like a full refund for it.",
                "damaged_final_sale": "I know it was final sale, but it's broken. Can I get my "
                "money back?",
            }.get(sc, "What can you do about this?")
            subject = f"Damaged {it['name']} (order #{oid})"
            body = f"The {self.label(it)} from order #{oid} arrived damaged: {dmg}. {ask}"
            priority = "high"
            if sc == "damaged_replace":
                self.forced_stock[it["variant_id"]] = rng.randint(2, 12)
        elif sc.startswith("exchange"):
            new = self.neighbour(it)
            subject = f"Exchange for a different size (order #{oid})"
            body = (
                f"The {self.label(it)} from order #{oid} is too small. Could I exchange it "
                f"for {article(new['size'])} {new['size']} in {new['colour']}?"
            )
            self.forced_stock[new["id"]] = rng.randint(3, 15) if sc == "exchange_instock" else 0
        elif sc.startswith("return"):
            why = rng.choice(
                [
                    "it's not what I expected",
                    "I ended up not needing it",
                    "I changed my mind",
                    "I found something that suits me better",
                ]
            )
            subject = f"Return request for order #{oid}"
            body = (
                f"I'd like to return the {self.label(it)} from order #{oid}, {why}. "
                "How do I do that?"
            )
        elif sc.startswith("cancel"):
            subject = f"Please cancel order #{oid}"
            body = f"Please cancel order #{oid}: {rng.choice(self.CANCEL_REASONS)}."
        elif sc.startswith("address_change"):
            city = rng.choice(S.CITIES)
            line2 = rng.choice(S.LINE2)
            new_addr = f"{self.street()}, {line2}, {city[0]}, {city[1]} {rng.choice(city[2])}"
            proof = (
                f"my date of birth is {c.dob}"
                if sc == "address_change_dob"
                else f"my billing ZIP is {c.zip}"
            )
            subject = f"New shipping address for order #{oid}"
            body = (
                f"I just moved. Please ship order #{oid} to {new_addr} instead. To verify: "
                f"my email is {c.email} and {proof}."
            )
        elif sc == "duplicate_charge":
            card = [pm for pm in o["payments"] if pm["method"] == "card"][-1]
            subject = f"Charged twice for order #{oid}"
            body = (
                f"My {card['card_brand']} card ending in {card['card_last4']} was charged "
                f"twice for order #{oid}: two charges of {money(card['amount_cents'])}. "
                "Please refund the extra charge."
            )
            priority = "high"
        else:
            raise AssertionError(sc)
        tid = self.new_ticket(t, c.id, oid, subject, self.customer_msg(p, body), priority)
        work_t = t + hours(rng.uniform(0.2, 0.6))
        if sc == "damaged_unsure_pending" and work_t < NOW:
            self.clock.t = work_t
            actor = rng.choice(S.AGENTS)
            self.tool(
                actor,
                "reply_to_customer",
                ticket_id=tid,
                body=(
                    f"I'm sorry the {it['name']} arrived damaged. Would you prefer a refund of "
                    f"{money(line)} or a replacement? Let me know and I'll sort it out."
                ),
            )
            self.db.execute("UPDATE tickets SET status = 'pending' WHERE id = ?", (tid,))
            self.audit(self.clock.t, actor, "ticket.set_pending", "ticket", tid)
        elif sc == "escalated_large" and work_t < NOW:
            self.clock.t = work_t
            actor = rng.choice(S.AGENTS)
            self.tool(
                actor,
                "add_ticket_note",
                ticket_id=tid,
                body=(
                    f"Refund of {money(line)} requested for a damaged item: above the $250 agent "
                    "limit, escalating to billing."
                ),
            )
            self.tool(
                actor,
                "escalate_ticket",
                ticket_id=tid,
                team="billing",
                reason=(
                    f"customer requests a {money(line)} refund for a damaged {it['name']} on order "
                    f"{oid}; above the agent refund limit"
                ),
            )
            self.tool(
                actor,
                "reply_to_customer",
                ticket_id=tid,
                body=(
                    "I'm sorry about the damage. Because of the amount, our billing team will "
                    "process your refund and follow up within 2 business days."
                ),
            )
        self.manifest.append(
            {
                "ticket_id": tid,
                "scenario": sc,
                "order_id": oid,
                "customer_id": c.id,
                "order_item_id": it["id"],
            }
        )

    def product_question(self, t: datetime, c: Customer) -> None:
        pr = self.rng.choice([x for x in self.products if len(x["sizes"]) > 2])
        v = self.rng.choice(self.variants[pr["id"]])
        body = (
            f"Do you have the {pr['name']} in {v['size']} ({v['colour']})? I'd like to "
            "order one before my trip next month."
        )
        tid = self.new_ticket(
            t, c.id, None, f"Is the {pr['name']} in stock?", self.customer_msg(c, body), "low"
        )
        self.manifest.append(
            {
                "ticket_id": tid,
                "scenario": "product_question",
                "order_id": None,
                "customer_id": c.id,
                "variant_id": v["id"],
            }
        )
