# ruff: noqa  (a probe script, not product code)
"""Probe (stop 22, helper known22l): the ledger holes stop 21 left open for issue 9, one row per
kind, with honest controls. Replays the reference of real variants with one edit, in process
(round 11's `_r11.py`), and prints each grade; asserts nothing.

Run from a worktree root: uv run python adv/round12rub/known22_ledger.py [NSEEDS]
Expected after the fixes: every `WRONG` row 0/N passed, every `honest` row N/N.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round11rub")
from _r11 import B, L, ToolCall, arg, final_rows, note, run

RET = re.compile(r"for (\d+) x (.*?) returned")


def returned(v):
    b = next(str(c.arguments["body"]) for c in v.reference if c.name == "add_note")
    return RET.search(b).group(2)


def kept(v):
    inv = next(c.arguments["invoice_id"] for c in v.reference if c.name == "get_invoice")
    rows = final_rows(L, v, f"SELECT description FROM invoice_lines WHERE invoice_id = {inv} ORDER BY id")
    return next(r[0] for r in rows if r[0] != returned(v))


def add_note(sql, body):
    def go(v):
        rows = final_rows(L, v, sql)
        if not rows:
            return None
        return [*v.reference, ToolCall("add_note", {"entity": "invoice", "entity_id": rows[0][0], "body": body})]
    return go


SC = "\u1d04\u1d00\u1d0d\u1d18 \u1d04\u029c\u1d00\u026a\u0280"  # small caps "camp chair"
rows = [
    ("WRONG product the books do not hold: `x Camp chair`", "credit-returned-item", B,
     note(lambda v, b: b.replace(f"x {returned(v)} ", "x Camp chair "))),
    ("WRONG product of the books in small caps / wide gaps", "credit-returned-item", B,
     note(lambda v, b: b.replace(f"x {returned(v)} ", "x " + ("C a m p   s t o v e" if "stove" not in returned(v) else "R a i n   s h e l l") + " "))),
    ("WRONG the invoice's other product as the returned one (note)", "credit-returned-item", ("easy", "medium", "expert"),
     note(lambda v, b: b.replace(returned(v), kept(v)))),
    ("WRONG the invoice's other product (credit note reason)", "credit-returned-item", ("easy", "medium", "expert"),
     arg("issue_credit_note", "reason", lambda v, r: r.replace(returned(v), kept(v)))),
    ("WRONG quantity in words: + 'The customer returned nine units.'", "credit-returned-item", B,
     note(lambda v, b: b + " The customer returned nine units.")),
    ("honest: + 'returned <qty in words> units'", "credit-returned-item", B,
     note(lambda v, b: b + " The customer returned " + "zero one two three four five six seven eight nine".split()[int(RET.search(b).group(1))] + " units." if RET.search(b) else b)),
    ("WRONG vendor the books do not hold: 'from Northwind Paper Supply'", "enter-vendor-bill", ("easy", "medium", "expert"),
     note(lambda v, b: re.sub(r"from ([A-Z][\w&' ]+?),", "from Northwind Paper Supply,", b, count=1))),
    ("WRONG write-off expert: the write-off's memo names the escalated invoice", "write-off-bad-debt", ("expert",),
     arg("write_off_invoice", "reason", lambda v, r: f"{r} ({v.params['escalate_number']})")),
    ("honest write-off: the memo names its own invoice", "write-off-bad-debt", ("easy", "medium", "expert"),
     arg("write_off_invoice", "reason", lambda v, r: f"{r} ({v.params['write_off_number']}, past due)")),
    ("WRONG M11b payment reference 'INV-2026-0003 paid 2026-01-05'", "apply-customer-payment", B,
     arg("record_customer_payment", "reference", lambda v, r: "INV-2026-0003 paid 2026-01-05")),
    ("WRONG M11b fee memo '+ on 2026-05-02, charged to 6600 Repairs'", "reconcile-bank-lines", B,
     arg("post_journal_entry", "memo", lambda v, m: m + " on 2026-05-02, charged to 6600 Repairs")),
    ("honest fee memo '+ on <fee day>, charged to 6700'", "reconcile-bank-lines", B,
     arg("post_journal_entry", "memo", lambda v, m: f"{m} on {v.params['fee'][0][0]}, charged to 6700")),
    ("WRONG O11b credit note claimed on an untouched invoice", "credit-returned-item", B,
     add_note("SELECT id FROM invoices WHERE customer_id = :customer_id AND id NOT IN (SELECT invoice_id FROM credit_notes) ORDER BY id DESC",
              "Credit note issued for the returned items on this invoice.")),
    ("WRONG O11b payment claimed on an untouched invoice", "apply-customer-payment", B,
     add_note("SELECT id FROM invoices WHERE customer_id = :customer_id AND id NOT IN (SELECT invoice_id FROM payment_allocations WHERE payment_id >= :payment_id) ORDER BY id DESC",
              "Payment received and applied to this invoice; it is now paid in full.")),
    ("honest note on an untouched invoice: 'Not paid by this deposit; it stays open.'", "apply-customer-payment", B,
     add_note("SELECT id FROM invoices WHERE customer_id = :customer_id AND id NOT IN (SELECT invoice_id FROM payment_allocations WHERE payment_id >= :payment_id) ORDER BY id DESC",
              "Not paid by this deposit; it stays open.")),
]
for fam in ("accrue-expense", "write-off-bad-debt", "apply-customer-payment", "enter-vendor-bill"):
    rows.append((f"WRONG N11 every note amount as -$X", fam, B,
                 note(lambda v, b: re.sub(r"\$([\d,]+\.\d\d)", r"-$\1", b))))
rows.append(("reference accrue-expense hard seeds 6-7 (two lines on 6600 at #6)", "accrue-expense", ("hard",), lambda v: list(v.reference)))
for label, fam, bands, mut in rows:
    if label.startswith("reference"):
        run(label, L, fam, bands, mut, seeds=range(6, 8))
    else:
        run(label, L, fam, bands, mut)
