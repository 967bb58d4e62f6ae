"""Build the helpdesk snapshot (data/snapshot.db) deterministically and print its sha256.

Usage::

    uv run python environments/helpdesk/src/mcpgym_helpdesk/data/build_snapshot.py [--out PATH]

Everything comes from ``random.Random(20260615)``; no wall time is read. The store's history
is simulated in time order (a priority queue of timed actions), and every historical support
action (cancellations, refunds, returns, exchanges, replacements, store credit, replies,
escalations, closing) goes through the environment's own tools, so the snapshot is consistent
with what the tools do. Afterwards the tools' audit rows are re-attributed to the named human
agents of the past (``agent:<name>``), and current stock levels are set.

After rebuilding, put the printed sha256 into ``mcpgym_helpdesk/env.py`` (SNAPSHOT_SHA256).
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import json
import random
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import seed_data as S  # noqa: E402
from history import History  # noqa: E402
from sim import (  # noqa: E402
    NOW,
    SIZED_CATEGORIES,
    SNAPSHOT_TIME,
    Customer,
    FixedClock,
    OrderPlan,
    days,
    fmt,
    hours,
)

from mcpgym_helpdesk import environment  # noqa: E402
from mcpgym_server import Sandbox  # noqa: E402

SEED = 20260615
ID_STARTS = {
    "customers": 1001,
    "orders": 100001,
    "order_items": 300001,
    "payments": 700001,
    "shipments": 800001,
    "refunds": 900001,
    "returns": 40001,
    "exchanges": 60001,
    "tickets": 5001,
}


class Builder(History):
    """Simulates the store's history into a fresh SQLite database."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.rng = random.Random(SEED)
        self.clock = FixedClock()
        self.sb = Sandbox(db, self.clock, seed=0, episode_id="build")  # type: ignore[arg-type]
        self.queue: list[tuple[datetime, int, Callable[..., None], tuple[Any, ...]]] = []
        self.seq = 0
        self.customers: list[Customer] = []
        self.products: list[dict[str, Any]] = []
        self.variants: dict[int, list[dict[str, Any]]] = {}
        self.trackings: set[str] = set()
        self.forced_stock: dict[int, int] = {}
        self.emails: set[str] = set()
        self.phones: set[str] = set()

    # -- plumbing ----------------------------------------------------------------------

    def at(self, t: datetime, fn: Callable[..., None], *args: Any) -> None:
        """Schedule ``fn(t, *args)`` at virtual time t."""
        assert t < NOW, (t, fn)
        heapq.heappush(self.queue, (t, self.seq, fn, args))
        self.seq += 1

    def run(self) -> None:
        while self.queue:
            t, _, fn, args = heapq.heappop(self.queue)
            self.clock.t = t
            fn(t, *args)

    def insert(self, table: str, values: dict[str, Any]) -> int:
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.db.execute(
            f"INSERT INTO {table} ({cols}) VALUES ({marks})", tuple(values.values())
        )
        return int(cur.lastrowid or 0)

    def audit(
        self, t: datetime, actor: str, action: str, entity: str, eid: int, **detail: Any
    ) -> None:
        self.insert(
            "audit_log",
            {
                "at": fmt(t),
                "actor": actor,
                "action": action,
                "entity": entity,
                "entity_id": eid,
                "detail": json.dumps(detail, sort_keys=True, separators=(",", ":")),
            },
        )

    def tool(self, actor: str, name: str, **arguments: Any) -> Any:
        """Call an environment tool as a past human agent; advances the clock 1-4 minutes."""
        self.clock.t += timedelta(seconds=self.rng.randint(60, 240))
        assert self.clock.t < NOW
        spec = environment.tools[name]
        result = spec.fn(self.sb, **spec.validate(arguments))
        self.db.execute("UPDATE audit_log SET actor = ? WHERE actor = 'agent'", (actor,))
        return result

    def one(self, sql: str, params: Any = ()) -> Any:
        return self.db.execute(sql, params).fetchone()

    # -- reference data ----------------------------------------------------------------

    def unique_email(self, first: str, last: str) -> str:
        rng = self.rng
        f, last_ = first.lower(), last.lower()
        candidates = [f"{f}.{last_}", f"{f}{last_[0]}", f"{f[0]}{last_}", f"{f}.{last_}"]
        for i in range(50):
            local = candidates[i % len(candidates)]
            if i >= 2:
                local += str(rng.randint(2, 99))
            email = f"{local}@{rng.choice(S.EMAIL_DOMAINS)}"
            if email not in self.emails:
                self.emails.add(email)
                return email
        raise AssertionError("no unique email")

    def unique_phone(self, area: str) -> str:
        while True:
            phone = f"({area}) 555-01{self.rng.randint(0, 99):02d}"
            if phone not in self.phones:
                self.phones.add(phone)
                return phone

    def street(self) -> str:
        rng = self.rng
        return (
            f"{rng.randint(10, 9899)} {rng.choice(S.STREET_NAMES)} {rng.choice(S.STREET_SUFFIXES)}"
        )

    def add_address(
        self,
        cust_id: int,
        label: str,
        name: str,
        city: tuple,
        zip_: str,
        default: bool,
        created: datetime,
    ) -> int:
        line2 = self.rng.choice(S.LINE2) if self.rng.random() < 0.25 else None
        return self.insert(
            "addresses",
            {
                "customer_id": cust_id,
                "label": label,
                "name": name,
                "line1": self.street(),
                "line2": line2,
                "city": city[0],
                "state": city[1],
                "zip": zip_,
                "country": "US",
                "is_default": int(default),
                "created_at": fmt(created),
            },
        )

    def new_customer(self, first: str, last: str, avoid_city: str | None = None) -> Customer:
        rng = self.rng
        city = rng.choice([c for c in S.CITIES if f"{c[0]}, {c[1]}" != avoid_city])
        zip_ = rng.choice(city[2])
        dob = date(rng.randint(1956, 2004), rng.randint(1, 12), rng.randint(1, 28)).isoformat()
        if rng.random() < 0.88:
            created = datetime(2021, 3, 1, tzinfo=UTC) + days(rng.uniform(0, 1720))
        else:
            created = datetime(2025, 11, 20, tzinfo=UTC) + days(rng.uniform(0, 170))
        email = self.unique_email(first, last)
        cid = self.insert(
            "customers",
            {
                "first_name": first,
                "last_name": last,
                "email": email,
                "phone": self.unique_phone(city[3]),
                "date_of_birth": dob,
                "zip": zip_,
                "created_at": fmt(created),
            },
        )
        name = f"{first} {last}"
        work_default = rng.random() < 0.08
        ids = [self.add_address(cid, "home", name, city, zip_, not work_default, created)]
        if rng.random() < 0.4 or work_default:
            work_city = city if rng.random() < 0.7 else rng.choice(S.CITIES)
            ids.append(
                self.add_address(
                    cid,
                    "work",
                    name,
                    work_city,
                    rng.choice(work_city[2]),
                    work_default,
                    created + days(rng.uniform(0, 200)),
                )
            )
        if rng.random() < 0.15:
            other = rng.choice(S.CITIES)
            recipient = f"{rng.choice(S.FIRST_NAMES)} {last}"
            ids.append(
                self.add_address(
                    cid,
                    "other",
                    recipient,
                    other,
                    rng.choice(other[2]),
                    False,
                    created + days(rng.uniform(0, 300)),
                )
            )
        brands = ["Visa"] * 5 + ["Mastercard"] * 3 + ["Amex"] * 1 + ["Discover"] * 1
        cards = [
            (rng.choice(brands), f"{rng.randint(0, 9999):04d}")
            for _ in range(1 if rng.random() < 0.75 else 2)
        ]
        if work_default:
            ids = [ids[1], ids[0], *ids[2:]]
        return Customer(
            cid,
            first,
            last,
            email,
            zip_,
            dob,
            f"{city[0]}, {city[1]}",
            created,
            cards,
            ids,
            rng.choice([1, 1, 1, 2, 2, 3, 4]),
        )

    def make_customers(self) -> None:
        rng = self.rng
        names: set[tuple[str, str]] = set()
        while len(self.customers) < 172:
            pair = (rng.choice(S.FIRST_NAMES), rng.choice(S.LAST_NAMES))
            if pair in names:
                continue
            names.add(pair)
            self.customers.append(self.new_customer(*pair))
        for base in rng.sample(self.customers[:150], 8):
            twin = self.new_customer(base.first, base.last, avoid_city=base.city)
            base.weight = twin.weight = 3
            self.customers.append(twin)

    def make_products(self) -> None:
        for pid, (name, cat, price, final, sizes, colours, desc) in enumerate(S.PRODUCTS, 1):
            sku = f"RO-{S.CATEGORY_CODES[cat]}-{pid:04d}"
            self.insert(
                "products",
                {
                    "id": pid,
                    "sku": sku,
                    "name": name,
                    "category": cat,
                    "description": desc,
                    "price_cents": price,
                    "final_sale": final,
                    "active": 1,
                },
            )
            product = {
                "id": pid,
                "name": name,
                "category": cat,
                "price": price,
                "final_sale": bool(final),
                "sizes": sizes,
                "colours": colours,
            }
            self.products.append(product)
            self.variants[pid] = []
            for colour in colours:
                ccode = "".join(w[0] for w in colour.split()) if " " in colour else colour[:3]
                for size in sizes:
                    scode = "OS" if size == "One Size" else size.replace("US ", "").replace("/", "")
                    vid = self.insert(
                        "product_variants",
                        {
                            "product_id": pid,
                            "sku": f"{sku}-{scode}-{ccode.upper()}",
                            "size": size,
                            "colour": colour,
                            "price_cents": price,
                            "stock": 1000,
                        },
                    )
                    self.variants[pid].append(
                        {
                            "id": vid,
                            "size": size,
                            "colour": colour,
                            "price": price,
                            "product": product,
                        }
                    )

    # -- phase A: plans ----------------------------------------------------------------

    def pick_customer(self, placed: datetime) -> Customer:
        pool = [c for c in self.customers if c.created < placed - days(1)]
        return self.rng.choices(pool, weights=[c.weight for c in pool])[0]

    def plan_delivered(self, lo: float, hi: float, **kw: Any) -> OrderPlan:
        rng = self.rng
        delivered = NOW - days(rng.uniform(lo, hi))
        transit = rng.uniform(1.5, 6.0)
        shipped = delivered - days(transit)
        placed = shipped - hours(rng.uniform(8, 40))
        est = (shipped + days(rng.choice([3, 4, 5]))).date()
        return OrderPlan(
            self.pick_customer(placed),
            "delivered",
            placed,
            shipped=shipped,
            est=est,
            delivered=delivered,
            **kw,
        )

    def plan_shipped(self, lo: float, hi: float, **kw: Any) -> OrderPlan:
        rng = self.rng
        shipped = NOW - days(rng.uniform(lo, hi))
        placed = shipped - hours(rng.uniform(8, 40))
        est = (shipped + days(rng.choice([3, 4, 5]))).date()
        return OrderPlan(
            self.pick_customer(placed), "shipped", placed, shipped=shipped, est=est, **kw
        )

    def plan_unshipped(self, status: str, min_age_h: float = 0.5, **kw: Any) -> OrderPlan:
        lo, hi = (max(0.5, min_age_h), 20) if status == "pending" else (max(2, min_age_h), 44)
        placed = NOW - hours(self.rng.uniform(lo, hi))
        return OrderPlan(
            self.pick_customer(placed), status, placed, captured=status == "paid", **kw
        )

    def make_plans(self) -> list[OrderPlan]:
        rng = self.rng
        plans: list[OrderPlan] = []
        # bulk history
        for _ in range(14):
            plans.append(self.plan_unshipped("pending"))
        for _ in range(24):
            plans.append(self.plan_unshipped("paid"))
        for i in range(34):
            p = self.plan_shipped(6.5, 10) if i < 4 else self.plan_shipped(0.2, 4.5)
            p.ship_exception = i in (1, 7)
            plans.append(p)
        for i in range(370):
            p = self.plan_delivered(1, 30) if i < 110 else self.plan_delivered(30, 195)
            self.plan_events(p)
            plans.append(p)
        for _ in range(30):
            placed = NOW - days(rng.uniform(1, 190))
            p = OrderPlan(
                self.pick_customer(placed),
                "cancelled",
                placed,
                captured=rng.random() < 0.6,
                cancelled=placed + hours(rng.uniform(0.5, 20)),
            )
            p.cancel_by_customer = p.captured or rng.random() < 0.5
            plans.append(p)
        for _ in range(32):
            p = self.plan_delivered(25, 195, needs="returnable_all")
            p.status = "returned"
            ret = p.delivered + days(rng.uniform(1, 25))  # type: ignore[operator]
            p.events.append(("full_return", ret))
            p.events.append(("receive", ret + days(rng.uniform(4, 10))))
            plans.append(p)
        # duplicate charges: 4 unnoticed, 2 already refunded (open-ticket ones come below)
        recent = [
            p
            for p in plans
            if p.status in ("paid", "shipped", "delivered")
            and p.placed > NOW - days(60)
            and not p.events
        ]
        for p in rng.sample(recent, 6)[:4]:
            p.dup = True
        old = [
            p
            for p in plans
            if p.status == "delivered" and not p.events and not p.dup and p.placed > NOW - days(120)
        ]
        for p in rng.sample(old, 2):
            p.dup = True
            p.events.append(("dup_refund", p.placed + days(rng.uniform(2, 9))))
        plans += self.open_ticket_plans()
        for p in plans:
            p.events = [(k, t) for k, t in p.events if t < NOW - hours(1)]
        return plans

    def plan_events(self, p: OrderPlan) -> None:
        """Historical support events of a bulk delivered order."""
        rng = self.rng
        d, s = p.delivered, p.shipped
        assert d is not None and s is not None and p.est is not None
        r = rng.random()
        if r < 0.04:
            p.events.append(("damaged_refund", d + days(rng.uniform(0.3, 6))))
        elif r < 0.07:
            p.events.append(("replacement", d + days(rng.uniform(0.3, 6))))
        elif r < 0.10:
            p.needs = "sized"
            p.events.append(("exchange", d + days(rng.uniform(1, 20))))
        elif r < 0.15:
            p.needs = "returnable_first"
            p.events.append(("partial_return", d + days(rng.uniform(1, 28))))
        elif r < 0.165:
            p.needs = "sized"
            p.events.append(("oos_exchange", d + days(rng.uniform(1, 20))))
        elif r < 0.20:
            p.events.append(("where_info", s + (d - s) * rng.uniform(0.3, 0.9)))
        if d.date() > p.est and rng.random() < 0.15:
            p.events.append(("goodwill", d + days(rng.uniform(0.2, 3))))
        if rng.random() < 0.03:
            p.events.append(("address_change", p.placed + (s - p.placed) * rng.uniform(0.2, 0.8)))

    def open_ticket_plans(self) -> list[OrderPlan]:
        """Orders behind the open tickets of the snapshot, with timelines that fit the story."""
        rng = self.rng
        plans: list[OrderPlan] = []

        def add(p: OrderPlan, scenario: str, after: datetime) -> None:
            p.scenario = scenario
            lo = max(after + hours(0.5), NOW - days(4))
            p.ticket_at = lo + (NOW - hours(1) - lo) * rng.uniform(0.1, 0.95)
            plans.append(p)

        for i in range(7):
            p = self.plan_shipped(6.5, 10) if i < 4 else self.plan_shipped(1, 4)
            add(p, "wismo", p.shipped)  # type: ignore[arg-type]
        for scenario, n, needs in [
            ("damaged_replace", 4, "replaceable"),
            ("damaged_refund", 4, "cheap_first"),
            ("damaged_unsure", 2, "cheap_first"),
            ("damaged_unsure_pending", 2, "cheap_first"),
            ("damaged_large", 3, "expensive"),
            ("escalated_large", 3, "expensive"),
            ("damaged_final_sale", 1, "final_sale"),
        ]:
            for _ in range(n):
                p = self.plan_delivered(1.2, 10, needs=needs)
                add(p, scenario, p.delivered)  # type: ignore[arg-type]
        for scenario, n, lo, hi, needs in [
            ("exchange_instock", 3, 3, 20, "exchange_instock"),
            ("exchange_oos", 2, 3, 20, "exchange_oos"),
            ("return_window", 5, 3, 26, "returnable_first"),
            ("return_edge", 1, 29.2, 29.6, "returnable_first"),
            ("return_late", 3, 35, 80, "returnable_first"),
            ("return_final_sale", 3, 3, 20, "final_sale"),
        ]:
            for _ in range(n):
                p = self.plan_delivered(lo, hi, needs=needs)
                after = NOW - days(min(lo, 3)) if scenario == "return_edge" else p.delivered
                add(p, scenario, after)  # type: ignore[arg-type]
        for i in range(4):
            p = self.plan_unshipped("paid" if i < 2 else "pending", min_age_h=4)
            add(p, "cancel_request", p.placed)
        for _ in range(3):
            p = self.plan_shipped(0.5, 3)
            add(p, "cancel_shipped", p.shipped)  # type: ignore[arg-type]
        for i in range(4):
            p = self.plan_unshipped("paid" if i < 3 else "pending", min_age_h=4)
            add(p, "address_change" if i != 2 else "address_change_dob", p.placed)
        for _ in range(2):
            p = self.plan_shipped(0.5, 3)
            add(p, "address_change_shipped", p.shipped)  # type: ignore[arg-type]
        for i in range(6):
            needs = "expensive" if i < 2 else None
            if i < 4:
                p = self.plan_delivered(2, 20, needs=needs, dup=True)
            else:
                p = self.plan_shipped(1, 4, needs=needs, dup=True)
            add(p, "duplicate_charge", p.placed + days(1))
        return plans

    # -- phase B: actions --------------------------------------------------------------

    def choose_items(self, p: OrderPlan) -> list[tuple[dict[str, Any], int]]:
        rng = self.rng
        products = self.products

        def weight(pr: dict[str, Any]) -> int:
            return 1 if pr["price"] > 30000 else 2 if pr["price"] > 10000 else 3

        def sized(pr: dict[str, Any]) -> bool:
            return (
                pr["category"] in SIZED_CATEGORIES
                and len(pr["sizes"]) >= 3
                and not pr["final_sale"]
            )

        first_filter: dict[str | None, Callable[[dict[str, Any]], bool]] = {
            "sized": sized,
            "exchange_instock": sized,
            "exchange_oos": sized,
            "final_sale": lambda pr: pr["final_sale"],
            "expensive": lambda pr: pr["price"] > 25000 and not pr["final_sale"],
            "cheap_first": lambda pr: pr["price"] < 25000 and not pr["final_sale"],
            "replaceable": lambda pr: pr["price"] < 25000,
            "returnable_first": lambda pr: not pr["final_sale"] and pr["price"] < 25000,
            "returnable_all": lambda pr: not pr["final_sale"],
        }
        n = rng.choices([1, 2, 3, 4], weights=[50, 30, 15, 5])[0]
        chosen: list[tuple[dict[str, Any], int]] = []
        for i in range(n):
            pool = products
            if i == 0 and p.needs in first_filter:
                pool = [pr for pr in products if first_filter[p.needs](pr)]
            elif p.needs in ("returnable_all",) or p.scenario or p.needs:
                pool = [pr for pr in products if not pr["final_sale"]]
            pr = rng.choices(pool, weights=[weight(x) for x in pool])[0]
            variants = self.variants[pr["id"]]
            if i == 0 and p.needs in ("exchange_instock", "exchange_oos", "sized"):
                variants = [v for v in variants if v["size"] != pr["sizes"][-1]]
            v = rng.choice(variants)
            if any(v["id"] == c[0]["id"] for c in chosen):
                continue
            small = pr["category"] in ("apparel", "accessories", "camp-kitchen")
            qty = 2 if small and rng.random() < 0.15 and not p.scenario else 1
            chosen.append((v, qty))
        return chosen

    def place(self, t: datetime, p: OrderPlan) -> None:
        rng = self.rng
        c = p.customer
        items = self.choose_items(p)
        addr_id = c.address_ids[0] if rng.random() < 0.85 else rng.choice(c.address_ids)
        a = self.one("SELECT * FROM addresses WHERE id = ?", (addr_id,))
        subtotal = sum(v["price"] * q for v, q in items)
        shipping = 0 if subtotal >= 9900 else 795
        tax = (subtotal * S.TAX_BP[a["state"]] + 5000) // 10000
        total = subtotal + shipping + tax
        oid = self.insert(
            "orders",
            {
                "customer_id": c.id,
                "status": "pending",
                "placed_at": fmt(t),
                "shipping_name": a["name"],
                "shipping_line1": a["line1"],
                "shipping_line2": a["line2"],
                "shipping_city": a["city"],
                "shipping_state": a["state"],
                "shipping_zip": a["zip"],
                "shipping_country": "US",
                "subtotal_cents": subtotal,
                "shipping_cents": shipping,
                "tax_cents": tax,
                "total_cents": total,
                "updated_at": fmt(t),
            },
        )
        p.order_id = oid
        for v, q in items:
            p.item_ids.append(
                self.insert(
                    "order_items",
                    {
                        "order_id": oid,
                        "variant_id": v["id"],
                        "quantity": q,
                        "unit_price_cents": v["price"],
                        "status": "ok",
                    },
                )
            )
        self.audit(t, "customer", "order.place", "order", oid, total_cents=total)
        # payments
        status = "captured" if p.captured else "authorized"
        card = rng.choice(c.cards)
        remaining = total
        balance = self.one(
            "SELECT COALESCE(SUM(amount_cents), 0) FROM store_credit_ledger WHERE customer_id = ?",
            (c.id,),
        )[0]
        if balance > 0 and p.captured and not p.dup and rng.random() < 0.7:
            used = min(balance, total)
            pay = self.insert(
                "payments",
                {
                    "order_id": oid,
                    "method": "store_credit",
                    "amount_cents": used,
                    "refunded_cents": 0,
                    "status": "captured",
                    "created_at": fmt(t),
                },
            )
            self.insert(
                "store_credit_ledger",
                {
                    "customer_id": c.id,
                    "amount_cents": -used,
                    "reason": f"applied to order {oid}",
                    "order_id": oid,
                    "created_at": fmt(t),
                },
            )
            self.audit(
                t, "system", "payment.capture", "payment", pay, amount_cents=used, order_id=oid
            )
            remaining -= used
        if remaining > 0:
            pt = t + timedelta(seconds=rng.randint(2, 20))
            pay = self.insert(
                "payments",
                {
                    "order_id": oid,
                    "method": "card",
                    "card_brand": card[0],
                    "card_last4": card[1],
                    "amount_cents": remaining,
                    "refunded_cents": 0,
                    "status": status,
                    "created_at": fmt(pt),
                },
            )
            self.audit(
                pt,
                "system",
                f"payment.{'capture' if p.captured else 'authorize'}",
                "payment",
                pay,
                amount_cents=remaining,
                order_id=oid,
            )
            if p.dup:
                dt = pt + timedelta(seconds=rng.randint(20, 240))
                dup = self.insert(
                    "payments",
                    {
                        "order_id": oid,
                        "method": "card",
                        "card_brand": card[0],
                        "card_last4": card[1],
                        "amount_cents": remaining,
                        "refunded_cents": 0,
                        "status": "captured",
                        "created_at": fmt(dt),
                    },
                )
                self.audit(
                    dt,
                    "system",
                    "payment.capture",
                    "payment",
                    dup,
                    amount_cents=remaining,
                    order_id=oid,
                )
        if p.captured:
            self.db.execute("UPDATE orders SET status = 'paid' WHERE id = ?", (oid,))
        if p.shipped:
            self.at(p.shipped, self.ship, oid, p.est, p.ship_exception)
        if p.delivered:
            self.at(p.delivered, self.deliver, oid)
        if p.cancelled:
            if p.cancel_by_customer:
                self.at(self.ticket_time(p.placed, p.cancelled), self.ev_cancel, p, p.cancelled)
            else:
                self.at(p.cancelled, self.system_cancel, p)
        for kind, et in p.events:
            if kind == "receive":
                self.at(et, self.ev_receive, p)
                continue
            after = {
                "address_change": p.placed,
                "dup_refund": p.placed,
                "where_info": p.shipped,
            }.get(kind, p.delivered)
            assert after is not None
            self.at(self.ticket_time(after, et), getattr(self, f"ev_{kind}"), p, et)
        if p.scenario:
            self.at(p.ticket_at, self.open_ticket, p)  # type: ignore[arg-type]

    def tracking(self, carrier: str, service: str) -> str:
        rng = self.rng
        while True:
            if carrier == "UPS":
                code = "03" if service == "Ground" else "02"
                trk = f"1ZR4E917{code}{rng.randint(0, 10**8 - 1):08d}"
            elif carrier == "FedEx":
                trk = f"7{rng.randint(0, 10**11 - 1):011d}"
            elif carrier == "USPS":
                prefix = "94001" if service == "Ground Advantage" else "94055"
                trk = f"{prefix}{rng.randint(0, 10**17 - 1):017d}"
            else:
                trk = f"{rng.randint(10**9, 10**10 - 1)}"
            if trk not in self.trackings:
                self.trackings.add(trk)
                return trk

    def ship(self, t: datetime, oid: int, est: date | None, exception: bool = False) -> None:
        rng = self.rng
        carrier = rng.choices(["UPS", "FedEx", "USPS", "DHL"], weights=[40, 25, 30, 5])[0]
        service = rng.choice(S.CARRIER_SERVICES[carrier])
        est = est or (t + days(rng.choice([3, 4, 5]))).date()
        sid = self.insert(
            "shipments",
            {
                "order_id": oid,
                "carrier": carrier,
                "service": service,
                "tracking_number": self.tracking(carrier, service),
                "status": "in_transit",
                "shipped_at": fmt(t),
                "estimated_delivery": est.isoformat(),
            },
        )
        self.db.execute(
            "UPDATE orders SET status = 'shipped', shipped_at = ?, updated_at = ? WHERE id = ?",
            (fmt(t), fmt(t), oid),
        )
        self.audit(t, "system", "shipment.create", "shipment", sid, carrier=carrier, order_id=oid)
        if exception and t + days(2) < NOW:
            self.at(t + days(2), self.ship_exception, sid)

    def ship_exception(self, t: datetime, sid: int) -> None:
        self.db.execute("UPDATE shipments SET status = 'exception' WHERE id = ?", (sid,))
        self.audit(
            t,
            "system",
            "shipment.exception",
            "shipment",
            sid,
            note="carrier reported a delivery exception: address could not be accessed",
        )

    def deliver(self, t: datetime, oid: int) -> None:
        self.db.execute(
            "UPDATE shipments SET status = 'delivered', delivered_at = ? WHERE order_id = ?",
            (fmt(t), oid),
        )
        self.db.execute(
            "UPDATE orders SET status = 'delivered', delivered_at = ?, updated_at = ? WHERE id = ?",
            (fmt(t), fmt(t), oid),
        )
        self.audit(t, "system", "order.deliver", "order", oid)

    # -- finishing -----------------------------------------------------------------------

    def set_stock(self) -> None:
        rng = self.rng
        for pid in sorted(self.variants):
            for v in self.variants[pid]:
                stock = 0 if rng.random() < 0.12 else rng.randint(1, 40)
                stock = self.forced_stock.get(v["id"], stock)
                self.db.execute(
                    "UPDATE product_variants SET stock = ? WHERE id = ?", (stock, v["id"])
                )


def build(out: Path) -> str:
    """Build the snapshot into ``out`` and return its sha256."""
    mem = sqlite3.connect(":memory:", isolation_level=None)
    mem.row_factory = sqlite3.Row
    mem.executescript((HERE / "schema.sql").read_text("utf-8"))
    for table, start in ID_STARTS.items():
        mem.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, start - 1))
    for key, value in [
        ("snapshot_time", SNAPSHOT_TIME),
        ("store_name", "Ridgeline Outfitters"),
        ("schema_version", "1"),
        ("build_seed", str(SEED)),
        ("currency", "USD"),
    ]:
        mem.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
    b = Builder(mem)
    b.manifest = []
    b.make_products()
    b.make_customers()
    for p in b.make_plans():
        b.at(p.placed, b.place, p)
    for c in b.rng.sample(b.customers, 3):
        b.at(NOW - hours(b.rng.uniform(2, 60)), b.product_question, c)
    b.run()
    b.set_stock()
    left = mem.execute("SELECT COUNT(*) FROM audit_log WHERE actor = 'agent'").fetchone()[0]
    assert left == 0, left
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "snapshot.db"
        disk = sqlite3.connect(path, isolation_level=None)
        mem.backup(disk)
        mem.close()
        disk.execute("PRAGMA journal_mode=DELETE")
        disk.execute("VACUUM")
        disk.close()
        data = path.read_bytes()
    out.write_bytes(data)
    manifest = {"open_tickets": b.manifest}
    out.with_name(out.stem + "_manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", "utf-8"
    )
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    """Command line: build and print the sha256."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "snapshot.db")
    args = parser.parse_args()
    print(build(args.out))


if __name__ == "__main__":
    main()
