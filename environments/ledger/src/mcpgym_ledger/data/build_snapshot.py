"""Build the ledger snapshot (data/snapshot.db) deterministically: half a year of the books of
Harbor & Pine Wholesale, January 1 to June 14, 2026.

Usage::

    python environments/ledger/src/mcpgym_ledger/data/build_snapshot.py [--out PATH]

The database is built in memory from schema.sql and a `random.Random` with a fixed seed,
then serialised, so the same script and SQLite library always give the same bytes. Without
``--out`` the script writes data/snapshot.db and sets ``SNAPSHOT_SHA256`` in env.py; it
prints the sha256 either way. Run ``mcpgym lock ledger`` afterwards.

What the books hold: a chart of accounts, tax rates, six monthly periods (January to April
closed), customers and vendors, sales invoices and vendor bills in every state (draft,
posted, part paid, paid, overdue, void, written off), payments and their allocations,
credit notes, a bank account whose statement feed matches the payments, journal entries
for every posted document (the trial balance balances), and an audit table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sqlite3
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV_PY = HERE.parent / "env.py"
DIGEST_LINE = re.compile(r'^SNAPSHOT_SHA256 = "[0-9a-f]*"$', re.MULTILINE)

SEED = 20260615
TODAY = date(2026, 6, 15)
SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
CLOSED_MONTHS = (1, 2, 3, 4)

ACCOUNTS = [
    ("1000", "Operating Bank", "asset", "the business checking account (statement feed)"),
    ("1100", "Accounts Receivable", "asset", "what customers owe on posted invoices"),
    ("1200", "Inventory", "asset", "goods bought for resale"),
    ("1300", "Prepaid Expenses", "asset", "paid in advance, expensed later"),
    ("1400", "Input Tax Recoverable", "asset", "tax paid on bills, reclaimed"),
    ("1500", "Equipment", "asset", "warehouse and office equipment"),
    ("2000", "Accounts Payable", "liability", "what the business owes vendors on posted bills"),
    ("2100", "Accrued Expenses", "liability", "expenses incurred, not yet billed"),
    ("2200", "Sales Tax Payable", "liability", "tax charged on invoices, owed"),
    ("2300", "Customer Credits", "liability", "overpayments held for customers"),
    ("3000", "Owner's Equity", "equity", "capital"),
    ("3100", "Retained Earnings", "equity", "profits kept in the business"),
    ("4000", "Sales", "revenue", "wholesale sales"),
    ("4100", "Sales Returns and Allowances", "revenue", "credit notes (contra revenue)"),
    ("4900", "Other Income", "revenue", "income outside sales"),
    ("5000", "Cost of Goods Sold", "expense", "inventory sold"),
    ("6000", "Rent", "expense", "warehouse and office rent"),
    ("6100", "Utilities", "expense", "electricity, water, gas, internet, phone"),
    ("6200", "Office Supplies", "expense", "paper, toner, small office items"),
    ("6300", "Freight and Delivery", "expense", "shipping and courier charges"),
    ("6400", "Professional Fees", "expense", "accounting, legal, consulting"),
    ("6500", "Software Subscriptions", "expense", "SaaS and licences"),
    ("6600", "Repairs and Maintenance", "expense", "repairs to premises and equipment"),
    ("6700", "Bank Fees", "expense", "bank charges and payment fees"),
    ("6800", "Bad Debt Expense", "expense", "receivables written off"),
    ("6900", "Travel", "expense", "travel and lodging"),
]

TAX_RATES = [
    ("STD", "Standard rate 10%", 1000),
    ("RED", "Reduced rate 5%", 500),
    ("ZERO", "Zero rated (exports)", 0),
    ("EXEMPT", "Exempt (rent, insurance, bank fees)", 0),
]

CUSTOMERS = [
    "Alder Street Outfitters",
    "Bayview Camping Co",
    "Cedar Ridge Sports",
    "Driftwood Trading",
    "Evergreen Trail Supply",
    "Foxglove Adventure",
    "Granite Peak Retail",
    "Hollow Oak Stores",
    "Ironwood Expeditions",
    "Juniper Outdoor",
    "Kestrel Mountain Shop",
    "Larch & Line",
    "Maple Hollow Goods",
    "Northwind Provisions",
    "Osprey Coast Gear",
    "Pinecrest General",
    "Quarry Lake Supply",
    "Redfern Sporting",
    "Summit Goods Ltd",
    "Tamarack Traders",
    "Upland Supply House",
    "Valley Creek Outfitters",
    "Willowbank Retail",
    "Yarrow Field & Stream",
]

VENDORS = [
    # (name, account code, tax code, typical net cents range, monthly?)
    ("Northgate Properties", "6000", "EXEMPT", (420000, 420000), True),
    ("Coastal Power & Light", "6100", "STD", (38000, 61000), True),
    ("FiberLink Internet", "6100", "STD", (12900, 12900), True),
    ("Paperworks Office Supply", "6200", "STD", (4500, 29000), False),
    ("Swift Freight Lines", "6300", "STD", (21000, 98000), False),
    ("Beacon Courier", "6300", "STD", (3500, 18000), False),
    ("Ledgerline CPAs", "6400", "STD", (60000, 150000), False),
    ("Cloudshelf Software", "6500", "STD", (24900, 24900), True),
    ("FixRight Maintenance", "6600", "STD", (9000, 65000), False),
    ("Summit Textile Mills", "1200", "STD", (250000, 900000), False),
    ("Trailhead Manufacturing", "1200", "STD", (180000, 750000), False),
    ("Harbor Hardware Wholesale", "1200", "RED", (90000, 300000), False),
]

PRODUCTS = [
    ("Trail daypack 28L", 3400),
    ("Insulated jacket", 6100),
    ("Rain shell", 4800),
    ("Camp stove", 2900),
    ("Headlamp 400lm", 1450),
    ("Trekking poles (pair)", 3150),
    ("Sleeping bag -5C", 7400),
    ("Water filter", 2350),
    ("Wool socks (6-pack)", 1980),
    ("Dome tent 2P", 11900),
    ("Hydration bladder 2L", 1275),
    ("Fleece midlayer", 3600),
]

STAFF = ("dana.liu", "marco.ferri", "system")


class Books:
    """Writes documents and their journal entries into the snapshot being built."""

    def __init__(self, db: sqlite3.Connection, rng: random.Random) -> None:
        self.db = db
        self.rng = rng
        self.acct = {c: i for i, (c, *_r) in enumerate(ACCOUNTS, start=1)}
        self.rate = {code: bp for code, _n, bp in TAX_RATES}
        self.counts: dict[str, int] = {}

    def ins(self, table: str, values: dict[str, object]) -> int:
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.db.execute(
            f"INSERT INTO {table} ({cols}) VALUES ({marks})", list(values.values())
        )
        return int(cur.lastrowid or 0)

    def stamp(self, d: date, minute: int = 0) -> str:
        return f"{d.isoformat()}T{9 + minute // 60 % 8:02d}:{minute % 60:02d}:00Z"

    def period_id(self, d: date) -> int:
        return d.month  # periods 1..6 are January..June 2026

    def audit(self, d: date, action: str, entity: str, entity_id: int, **detail: object) -> None:
        self.ins(
            "audit_log",
            {
                "at": self.stamp(d, self.rng.randrange(400)),
                "actor": self.rng.choice(STAFF[:2]) if action != "period.close" else "dana.liu",
                "action": action,
                "entity": entity,
                "entity_id": entity_id,
                "detail": json.dumps(detail, sort_keys=True, separators=(",", ":")),
            },
        )

    def entry(
        self,
        d: date,
        memo: str,
        source: str,
        source_id: int | None,
        lines: list[tuple[str, int, int, int | None]],
        reverses: int | None = None,
    ) -> int:
        """One balanced journal entry; lines are (account code, debit, credit, party)."""
        assert sum(x[1] for x in lines) == sum(x[2] for x in lines), (memo, lines)
        eid = self.ins(
            "journal_entries",
            {
                "entry_date": d.isoformat(),
                "period_id": self.period_id(d),
                "memo": memo,
                "source": source,
                "source_id": source_id,
                "reverses_entry_id": reverses,
                "created_at": self.stamp(d, self.rng.randrange(400)),
                "created_by": self.rng.choice(STAFF),
            },
        )
        for code, dr, cr, party in lines:
            if dr or cr:
                self.ins(
                    "journal_lines",
                    {
                        "entry_id": eid,
                        "account_id": self.acct[code],
                        "debit_cents": dr,
                        "credit_cents": cr,
                        "party_id": party,
                    },
                )
        return eid

    def tax(self, net: int, code: str) -> int:
        return (net * self.rate[code] + 5000) // 10000


def day_in(month: int, lo: int = 1, hi: int = 28, rng: random.Random | None = None) -> date:
    assert rng is not None
    return date(2026, month, rng.randint(lo, hi))


def build_rows(db: sqlite3.Connection) -> None:
    rng = random.Random(SEED)
    b = Books(db, rng)
    db.execute("INSERT INTO meta VALUES ('company', 'Harbor & Pine Wholesale')")
    db.execute(f"INSERT INTO meta VALUES ('snapshot_time', '{SNAPSHOT_TIME}')")
    db.execute("INSERT INTO meta VALUES ('currency', 'USD')")
    for code, name, typ, desc in ACCOUNTS:
        b.ins("accounts", {"code": code, "name": name, "type": typ, "description": desc})
    for code, name, bp in TAX_RATES:
        b.ins(
            "tax_rates",
            {
                "code": code,
                "name": name,
                "rate_bp": bp,
                "sales_account_id": b.acct["2200"],
                "purchase_account_id": b.acct["1400"],
            },
        )
    for m in range(1, 7):
        start = date(2026, m, 1)
        end = date(2026, m + 1, 1) - timedelta(days=1)
        closed = m in CLOSED_MONTHS
        b.ins(
            "periods",
            {
                "name": f"2026-{m:02d}",
                "starts_on": start.isoformat(),
                "ends_on": end.isoformat(),
                "status": "closed" if closed else "open",
                "closed_at": f"{(end + timedelta(days=12)).isoformat()}T16:00:00Z"
                if closed
                else None,
                "closed_by": "dana.liu" if closed else None,
            },
        )
    customers = []
    for i, name in enumerate(CUSTOMERS):
        slug = re.sub(r"[^a-z]+", "", name.lower())[:14]
        export = i % 8 == 5
        customers.append(
            b.ins(
                "parties",
                {
                    "kind": "customer",
                    "name": name,
                    "email": f"accounts@{slug}.example",
                    "phone": f"555-01{i:02d}",
                    "terms_days": rng.choice((14, 30, 30, 45)),
                    "default_account_id": b.acct["4000"],
                    "default_tax_code": "ZERO" if export else "STD",
                    "tax_id": f"TX-{rng.randrange(10**8, 10**9)}",
                },
            )
        )
    vendors = []
    for i, (name, code, taxc, rng_cents, monthly) in enumerate(VENDORS):
        slug = re.sub(r"[^a-z]+", "", name.lower())[:14]
        vid = b.ins(
            "parties",
            {
                "kind": "vendor",
                "name": name,
                "email": f"billing@{slug}.example",
                "phone": f"555-02{i:02d}",
                "terms_days": 30 if not monthly else 15,
                "default_account_id": b.acct[code],
                "default_tax_code": taxc,
                "tax_id": f"TX-{rng.randrange(10**8, 10**9)}",
            },
        )
        vendors.append((vid, name, code, taxc, rng_cents, monthly))
    bank = b.ins(
        "bank_accounts", {"name": "Operating checking", "account_id": 1, "number_last4": "7731"}
    )

    def bank_line(d: date, desc: str, cents: int, ref: str, payment: int | None, je: int | None):
        return b.ins(
            "bank_lines",
            {
                "bank_account_id": bank,
                "line_date": d.isoformat(),
                "description": desc,
                "amount_cents": cents,
                "reference": ref,
                "status": "matched",
                "payment_id": payment,
                "journal_entry_id": je,
                "updated_at": b.stamp(d + timedelta(days=1), 30),
            },
        )

    opening = b.entry(
        date(2026, 1, 1),
        "Opening balances",
        "manual",
        None,
        [
            ("1000", 185_000_00, 0, None),
            ("1200", 96_000_00, 0, None),
            ("1500", 42_000_00, 0, None),
            ("3000", 0, 200_000_00, None),
            ("3100", 0, 123_000_00, None),
        ],
    )
    b.audit(date(2026, 1, 1), "entry.post", "journal_entry", opening)

    events: list[tuple[date, int, str, tuple]] = []  # (day, order, kind, args)
    # sales invoices
    for n in range(150):
        d = date(2026, 1, 2) + timedelta(days=rng.randrange(163))
        events.append((d, 1, "invoice", (n,)))
    # vendor bills
    for vid, vname, code, taxc, (lo, hi), monthly in vendors:
        if monthly:
            for m in range(1, 7):
                d = date(2026, m, 1 if code == "6000" else rng.randint(3, 9))
                if d < TODAY:
                    events.append((d, 2, "bill", (vid, vname, code, taxc, lo, hi)))
        else:
            for _ in range(rng.randint(4, 8)):
                d = date(2026, 1, 3) + timedelta(days=rng.randrange(160))
                events.append((d, 2, "bill", (vid, vname, code, taxc, lo, hi)))
    for m in range(1, 6):
        events.append((date(2026, m + 1, 1) - timedelta(days=1), 3, "month_end", (m,)))
    events.sort(key=lambda e: (e[0], e[1]))

    inv_no = 0
    bill_refs: dict[int, int] = {}
    for d, _order, kind, args in events:
        if kind == "invoice":
            inv_no += 1
            cust = customers[rng.randrange(len(customers))]
            crow = db.execute("SELECT * FROM parties WHERE id = ?", (cust,)).fetchone()
            taxc = crow[7]
            terms = crow[5]
            lines = []
            for _ in range(rng.randint(1, 3)):
                prod, unit = PRODUCTS[rng.randrange(len(PRODUCTS))]
                qty = rng.choice((6, 10, 12, 20, 24, 40))
                net = qty * unit
                lines.append((prod, qty, unit, net, taxc, b.tax(net, taxc)))
            net = sum(x[3] for x in lines)
            tax = sum(x[5] for x in lines)
            due = d + timedelta(days=terms)
            age = (TODAY - d).days
            roll = rng.random()
            if age < 10 and roll < 0.6:
                status = "draft"
            elif roll < 0.05:
                status = "void"
            else:
                status = "posted"
            inv = b.ins(
                "invoices",
                {
                    "number": f"INV-2026-{inv_no:04d}",
                    "customer_id": cust,
                    "issue_date": d.isoformat(),
                    "due_date": due.isoformat(),
                    "status": status,
                    "net_cents": net,
                    "tax_cents": tax,
                    "total_cents": net + tax,
                    "updated_at": b.stamp(d, 10),
                },
            )
            for prod, qty, unit, lnet, ltax_code, ltax in lines:
                b.ins(
                    "invoice_lines",
                    {
                        "invoice_id": inv,
                        "description": prod,
                        "account_id": b.acct["4000"],
                        "quantity": qty,
                        "unit_cents": unit,
                        "net_cents": lnet,
                        "tax_code": ltax_code,
                        "tax_cents": ltax,
                    },
                )
            if status == "draft":
                b.audit(d, "invoice.create", "invoice", inv)
                continue
            je = b.entry(
                d,
                f"Invoice INV-2026-{inv_no:04d}",
                "invoice",
                inv,
                [("1100", net + tax, 0, cust), ("4000", 0, net, cust), ("2200", 0, tax, cust)],
            )
            db.execute("UPDATE invoices SET journal_entry_id = ? WHERE id = ?", (je, inv))
            b.audit(d, "invoice.post", "invoice", inv, entry=je)
            if status == "void":
                vd = d + timedelta(days=rng.randint(1, 4))
                rev = b.entry(
                    vd,
                    f"Void invoice INV-2026-{inv_no:04d}",
                    "reversal",
                    inv,
                    [("1100", 0, net + tax, cust), ("4000", net, 0, cust), ("2200", tax, 0, cust)],
                    reverses=je,
                )
                b.audit(vd, "invoice.void", "invoice", inv, entry=rev)
                continue
            # a credit note now and then
            credited = 0
            if rng.random() < 0.07 and age > 10:
                cd = d + timedelta(days=rng.randint(3, 9))
                prod, qty, unit, lnet, ltax_code, ltax = lines[0]
                cnet = unit * rng.randint(1, 2)
                ctax = b.tax(cnet, ltax_code)
                credited = cnet + ctax
                count = b.counts["cn"] = b.counts.get("cn", 0) + 1
                cn = b.ins(
                    "credit_notes",
                    {
                        "number": f"CN-2026-{count:04d}",
                        "invoice_id": inv,
                        "customer_id": cust,
                        "issue_date": cd.isoformat(),
                        "net_cents": cnet,
                        "tax_cents": ctax,
                        "total_cents": credited,
                        "reason": f"returned {prod}",
                        "created_at": b.stamp(cd, 20),
                    },
                )
                cje = b.entry(
                    cd,
                    f"Credit note CN-2026-{count:04d} on INV-2026-{inv_no:04d}",
                    "credit_note",
                    cn,
                    [("4100", cnet, 0, cust), ("2200", ctax, 0, cust), ("1100", 0, credited, cust)],
                )
                db.execute("UPDATE credit_notes SET journal_entry_id = ? WHERE id = ?", (cje, cn))
                b.audit(cd, "credit_note.issue", "credit_note", cn, entry=cje)
            owed = net + tax - credited
            # payments: most invoices older than their terms are paid, some in part
            pay_roll = rng.random()
            if age > terms + 20:
                plan = [owed] if pay_roll < 0.8 else ([owed // 2] if pay_roll < 0.9 else [])
            elif age > 12:
                plan = [owed] if pay_roll < 0.55 else ([owed * 2 // 5] if pay_roll < 0.7 else [])
            else:
                plan = []
            paid = 0
            for amount in plan:
                pd = min(
                    d + timedelta(days=rng.randint(8, max(9, terms + 10))),
                    TODAY - timedelta(days=2),
                )
                ref = f"RCPT {rng.randrange(100000, 999999)}"
                pay = b.ins(
                    "payments",
                    {
                        "direction": "received",
                        "party_id": cust,
                        "payment_date": pd.isoformat(),
                        "amount_cents": amount,
                        "reference": ref,
                        "created_at": b.stamp(pd, 40),
                    },
                )
                b.ins(
                    "payment_allocations",
                    {"payment_id": pay, "invoice_id": inv, "amount_cents": amount},
                )
                pje = b.entry(
                    pd,
                    f"Payment received on INV-2026-{inv_no:04d}",
                    "payment",
                    pay,
                    [("1000", amount, 0, cust), ("1100", 0, amount, cust)],
                )
                db.execute("UPDATE payments SET journal_entry_id = ? WHERE id = ?", (pje, pay))
                bank_line(pd, f"DEPOSIT {crow[2].upper()[:22]}", amount, ref, pay, pje)
                b.audit(pd, "payment.record", "payment", pay, entry=pje)
                paid += amount
            new_status = "paid" if paid == owed else ("part_paid" if paid else "posted")
            db.execute(
                "UPDATE invoices SET status = ?, paid_cents = ?, credited_cents = ? WHERE id = ?",
                (new_status, paid, credited, inv),
            )
        elif kind == "bill":
            vid, vname, code, taxc, lo, hi = args
            net = (
                lo
                if lo == hi
                else rng.randrange(lo // 100, hi // 100) * 100 + rng.choice((0, 0, 50, 99))
            )
            tax = b.tax(net, taxc)
            bill_refs[vid] = bill_refs.get(vid, 0) + 1
            ref = f"{vname.split()[0][:4].upper()}-{1000 + vid * 37 + bill_refs[vid]}"
            age = (TODAY - d).days
            roll = rng.random()
            status = "draft" if (age < 12 and roll < 0.6) else ("void" if roll < 0.04 else "posted")
            due = d + timedelta(days=30 if code != "6000" else 10)
            bill = b.ins(
                "bills",
                {
                    "vendor_id": vid,
                    "vendor_ref": ref,
                    "bill_date": d.isoformat(),
                    "due_date": due.isoformat(),
                    "status": status,
                    "net_cents": net,
                    "tax_cents": tax,
                    "total_cents": net + tax,
                    "updated_at": b.stamp(d, 15),
                },
            )
            b.ins(
                "bill_lines",
                {
                    "bill_id": bill,
                    "description": {
                        "6000": "Monthly rent",
                        "6100": "Monthly service",
                        "1200": "Stock purchase",
                        "6500": "Subscription",
                    }.get(code, "Services"),
                    "account_id": b.acct[code],
                    "net_cents": net,
                    "tax_code": taxc,
                    "tax_cents": tax,
                },
            )
            if status == "draft":
                b.audit(d, "bill.create", "bill", bill)
                continue
            je = b.entry(
                d,
                f"Bill {ref} from {vname}",
                "bill",
                bill,
                [(code, net, 0, vid), ("1400", tax, 0, vid), ("2000", 0, net + tax, vid)],
            )
            db.execute("UPDATE bills SET journal_entry_id = ? WHERE id = ?", (je, bill))
            b.audit(d, "bill.post", "bill", bill, entry=je)
            if status == "void":
                vd = d + timedelta(days=2)
                rev = b.entry(
                    vd,
                    f"Void bill {ref}",
                    "reversal",
                    bill,
                    [(code, 0, net, vid), ("1400", 0, tax, vid), ("2000", net + tax, 0, vid)],
                    reverses=je,
                )
                b.audit(vd, "bill.void", "bill", bill, entry=rev)
                continue
            paid = 0
            if age > 25 or (age > 8 and rng.random() < 0.4):
                amount = net + tax if rng.random() < 0.9 else (net + tax) // 2
                pd = min(d + timedelta(days=rng.randint(5, 25)), TODAY - timedelta(days=2))
                pay = b.ins(
                    "payments",
                    {
                        "direction": "paid",
                        "party_id": vid,
                        "payment_date": pd.isoformat(),
                        "amount_cents": amount,
                        "reference": f"ACH {ref}",
                        "created_at": b.stamp(pd, 50),
                    },
                )
                b.ins(
                    "payment_allocations",
                    {"payment_id": pay, "bill_id": bill, "amount_cents": amount},
                )
                pje = b.entry(
                    pd,
                    f"Payment of bill {ref}",
                    "payment",
                    pay,
                    [("2000", amount, 0, vid), ("1000", 0, amount, vid)],
                )
                db.execute("UPDATE payments SET journal_entry_id = ? WHERE id = ?", (pje, pay))
                bank_line(pd, f"ACH {vname.upper()[:24]}", -amount, f"ACH {ref}", pay, pje)
                b.audit(pd, "payment.record", "payment", pay, entry=pje)
                paid = amount
            st = "paid" if paid == net + tax else ("part_paid" if paid else "posted")
            db.execute("UPDATE bills SET status = ?, paid_cents = ? WHERE id = ?", (st, paid, bill))
        else:  # month end: bank fee, cost of goods sold, depreciation-free
            (m,) = args
            end = d
            fee = 2500 + rng.randrange(0, 6) * 100
            fje = b.entry(
                end,
                f"Bank fees {end:%B}",
                "bank",
                None,
                [("6700", fee, 0, None), ("1000", 0, fee, None)],
            )
            bank_line(end, "MONTHLY SERVICE FEE", -fee, f"FEE {end:%m%y}", None, fje)
            b.audit(end, "entry.post", "journal_entry", fje)
            sales = db.execute(
                "SELECT COALESCE(SUM(net_cents), 0) FROM invoices "
                "WHERE status NOT IN ('draft', 'void') "
                "AND substr(issue_date, 6, 2) = ?",
                (f"{m:02d}",),
            ).fetchone()[0]
            cogs = sales * 58 // 100
            cje = b.entry(
                end,
                f"Cost of goods sold {end:%B}",
                "manual",
                None,
                [("5000", cogs, 0, None), ("1200", 0, cogs, None)],
            )
            b.audit(end, "entry.post", "journal_entry", cje)
            if m in CLOSED_MONTHS:
                b.audit(end + timedelta(days=12), "period.close", "period", m)
    # two old overdue invoices written off in closed months, for the record
    for inv_id, wdate in db.execute(
        "SELECT id, date(due_date, '+60 day') FROM invoices WHERE status = 'posted' "
        "AND due_date < '2026-02-20' ORDER BY id LIMIT 1"
    ).fetchall():
        row = db.execute(
            "SELECT total_cents, customer_id, number FROM invoices WHERE id = ?", (inv_id,)
        ).fetchone()
        wd = date.fromisoformat(wdate)
        wje = b.entry(
            wd,
            f"Write off {row[2]}",
            "write_off",
            inv_id,
            [("6800", row[0], 0, row[1]), ("1100", 0, row[0], row[1])],
        )
        db.execute(
            "UPDATE invoices SET status = 'written_off', written_off_cents = total_cents "
            "WHERE id = ?",
            (inv_id,),
        )
        b.audit(wd, "invoice.write_off", "invoice", inv_id, entry=wje)
    # a few deposits on the feed nobody has recorded yet (left unmatched)
    for i in range(3):
        d = TODAY - timedelta(days=3 - i)
        b.ins(
            "bank_lines",
            {
                "bank_account_id": bank,
                "line_date": d.isoformat(),
                "description": "INTEREST CREDIT" if i == 0 else "CARD SETTLEMENT",
                "amount_cents": 412 if i == 0 else rng.randrange(5000, 20000),
                "reference": f"SYS {i + 1}",
                "status": "unmatched",
                "updated_at": b.stamp(d, 5),
            },
        )


def build(schema_sql: str) -> bytes:
    """The snapshot bytes: the schema, then the simulated books (deterministic)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema_sql)
        build_rows(db)
        db.commit()
        bad = db.execute(
            "SELECT SUM(debit_cents) - SUM(credit_cents) FROM journal_lines"
        ).fetchone()[0]
        if bad:
            raise AssertionError(f"trial balance is off by {bad} cents")
        db.execute("VACUUM")
        return db.serialize()
    finally:
        db.close()


def main(argv: list[str] | None = None) -> str:
    """Build, write and report the snapshot; return its sha256 (hex)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: here)")
    args = parser.parse_args(argv)
    data = build((HERE / "schema.sql").read_text(encoding="utf-8"))
    out: Path = args.out or HERE / "snapshot.db"
    out.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    if args.out is None:
        source = ENV_PY.read_text(encoding="utf-8")
        updated, found = DIGEST_LINE.subn(f'SNAPSHOT_SHA256 = "{digest}"', source)
        if found != 1:
            raise SystemExit(f'{ENV_PY}: no line `SNAPSHOT_SHA256 = "..."` to update')
        ENV_PY.write_text(updated, encoding="utf-8")
    print(f"{out}: {len(data)} bytes, sha256 {digest}")
    return digest


if __name__ == "__main__":
    main()
