"""Setup writers for documents of the books' past: each written with the journal entry the
tools would have posted, so every variant's books stay consistent.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from mcpgym_ledger.families._common import RATES, tax_on


class PastBooks:
    """Setup rows for documents of the books' past (written before the snapshot time), each
    with the journal entry the tools would have posted, so the books stay consistent.

    Args:
        sc: the variant's `Scenario` (ids come from it).
    """

    def __init__(self, sc: Any) -> None:
        self.sc = sc
        self.accounts = {r["code"]: r["id"] for r in sc.rows("SELECT id, code FROM accounts")}

    def entry(
        self,
        day: str,
        memo: str,
        source: str,
        source_id: int | None,
        lines: list[tuple[str, int, int]],
        party_id: int | None = None,
    ) -> int:
        """A balanced entry dated ``day``; lines are ``(account code, debit, credit)``."""
        assert sum(x[1] for x in lines) == sum(x[2] for x in lines), lines
        entry_id = self.sc.insert(
            "journal_entries",
            {
                "entry_date": day,
                "period_id": int(day[5:7]),
                "memo": memo,
                "source": source,
                "source_id": source_id,
                "created_at": f"{day}T15:20:00Z",
                "created_by": "dana.liu",
            },
        )
        for code, dr, cr in lines:
            if dr or cr:
                self.sc.insert(
                    "journal_lines",
                    {
                        "entry_id": entry_id,
                        "account_id": self.accounts[code],
                        "debit_cents": dr,
                        "credit_cents": cr,
                        "party_id": party_id,
                        "memo": "",
                    },
                )
        return entry_id

    def invoice(
        self,
        customer: Mapping[str, Any],
        issue: str,
        due: str,
        lines: list[tuple[str, int, int]],
        paid: list[tuple[str, int]] = (),  # type: ignore[assignment]
    ) -> dict[str, Any]:
        """A posted invoice of ``lines`` ``(product, quantity, unit cents)`` for ``customer``
        (its default tax code), with payments ``(date, cents)`` received on it; returns the
        invoice as a row dict (``open_cents`` added)."""
        taxc = customer["default_tax_code"]
        priced = [(p, q, u, q * u, tax_on(q * u, RATES[taxc])) for p, q, u in lines]
        net = sum(x[3] for x in priced)
        tax = sum(x[4] for x in priced)
        inv_id = self.sc.peek_id("invoices")
        number = f"INV-2026-{inv_id:04d}"
        paid_cents = sum(c for _d, c in paid)
        status = "paid" if paid_cents == net + tax else ("part_paid" if paid_cents else "posted")
        entry_id = self.entry(
            issue,
            f"Invoice {number}",
            "invoice",
            inv_id,
            [("1100", net + tax, 0), ("4000", 0, net), ("2200", 0, tax)],
            customer["id"],
        )
        row = {
            "number": number,
            "customer_id": customer["id"],
            "issue_date": issue,
            "due_date": due,
            "status": status,
            "net_cents": net,
            "tax_cents": tax,
            "total_cents": net + tax,
            "paid_cents": paid_cents,
            "credited_cents": 0,
            "written_off_cents": 0,
            "journal_entry_id": entry_id,
            "memo": "",
            "updated_at": f"{issue}T16:00:00Z",
        }
        assert self.sc.insert("invoices", row) == inv_id
        for p, q, u, lnet, ltax in priced:
            self.sc.insert(
                "invoice_lines",
                {
                    "invoice_id": inv_id,
                    "description": p,
                    "account_id": self.accounts["4000"],
                    "quantity": q,
                    "unit_cents": u,
                    "net_cents": lnet,
                    "tax_code": taxc,
                    "tax_cents": ltax,
                },
            )
        for day, cents in paid:
            pay = self.sc.peek_id("payments")
            pje = self.entry(
                day,
                f"Payment received on {number}",
                "payment",
                pay,
                [("1000", cents, 0), ("1100", 0, cents)],
                customer["id"],
            )
            self.sc.insert(
                "payments",
                {
                    "direction": "received",
                    "party_id": customer["id"],
                    "payment_date": day,
                    "amount_cents": cents,
                    "reference": f"RCPT {inv_id}{len(day)}",
                    "journal_entry_id": pje,
                    "created_at": f"{day}T16:30:00Z",
                },
            )
            self.sc.insert(
                "payment_allocations",
                {"payment_id": pay, "invoice_id": inv_id, "amount_cents": cents},
            )
            self.sc.insert(
                "bank_lines",
                {
                    "bank_account_id": 1,
                    "line_date": day,
                    "description": f"DEPOSIT {customer['name'].upper()[:22]}",
                    "amount_cents": cents,
                    "reference": f"RCPT {inv_id}",
                    "status": "matched",
                    "payment_id": pay,
                    "journal_entry_id": pje,
                    "updated_at": f"{day}T18:00:00Z",
                },
            )
        return {**row, "id": inv_id, "open_cents": net + tax - paid_cents}

    def credit_note(
        self,
        invoice: dict[str, Any],
        customer: Mapping[str, Any],
        day: str,
        qty: int,
        line: tuple[str, int, int],
    ) -> dict[str, Any]:
        """A credit note of ``qty`` units of the invoice ``line`` ``(product, quantity, unit)``
        issued on ``day``, with its entry, and the invoice updated (``invoice`` is changed in
        place: ``credited_cents``, ``status``, ``open_cents``)."""
        product, _q, unit = line
        net = qty * unit
        tax = tax_on(net, RATES[customer["default_tax_code"]])
        cn_id = self.sc.peek_id("credit_notes")
        number = f"CN-2026-{cn_id:04d}"
        entry_id = self.entry(
            day,
            f"Credit note {number} on {invoice['number']}",
            "credit_note",
            cn_id,
            [("4100", net, 0), ("2200", tax, 0), ("1100", 0, net + tax)],
            customer["id"],
        )
        self.sc.insert(
            "credit_notes",
            {
                "number": number,
                "invoice_id": invoice["id"],
                "customer_id": customer["id"],
                "issue_date": day,
                "net_cents": net,
                "tax_cents": tax,
                "total_cents": net + tax,
                "reason": f"returned {qty} x {product}",
                "journal_entry_id": entry_id,
                "created_at": f"{day}T15:40:00Z",
            },
        )
        invoice["credited_cents"] += net + tax
        invoice["open_cents"] -= net + tax
        invoice["status"] = "part_paid"
        self.sc.update(
            "invoices",
            invoice["id"],
            {"credited_cents": invoice["credited_cents"], "status": "part_paid"},
        )
        return {"id": cn_id, "number": number, "total_cents": net + tax}

    def bill(
        self,
        vendor: Mapping[str, Any],
        ref: str,
        day: str,
        description: str,
        code: str,
        net: int,
        tax_code: str,
    ) -> int:
        """A posted, unpaid one-line bill from ``vendor`` dated ``day``, with its entry."""
        tax = tax_on(net, RATES[tax_code])
        bill_id = self.sc.peek_id("bills")
        entry_id = self.entry(
            day,
            f"Bill {ref} from {vendor['name']}",
            "bill",
            bill_id,
            [(code, net, 0), ("1400", tax, 0), ("2000", 0, net + tax)],
            vendor["id"],
        )
        assert bill_id == self.sc.insert(
            "bills",
            {
                "vendor_id": vendor["id"],
                "vendor_ref": ref,
                "bill_date": day,
                "due_date": (date.fromisoformat(day) + timedelta(days=30)).isoformat(),
                "status": "posted",
                "net_cents": net,
                "tax_cents": tax,
                "total_cents": net + tax,
                "journal_entry_id": entry_id,
                "updated_at": f"{day}T16:00:00Z",
            },
        )
        self.sc.insert(
            "bill_lines",
            {
                "bill_id": bill_id,
                "description": description,
                "account_id": self.accounts[code],
                "net_cents": net,
                "tax_code": tax_code,
                "tax_cents": tax,
            },
        )
        return bill_id
