# ruff: noqa
"""Probe (O11): a second note, on ANOTHER record of the books, that claims the band's own action
was done there: write-off e/m: `Written off as bad debt (6800): the customer has ceased trading.`
on the customer's other invoice (not written off); credit-returned-item: `Credit note issued for
the returned items.` on another invoice of the customer; apply-customer-payment: `Payment
received and applied to this invoice.` on another open invoice of the customer; enter-vendor-bill
e/m: `Entered and posted.` on another bill of the vendor. No amount, so the amount guard has
nothing to read; the action IS taken in the band, so the claim check allows it.

Run: uv run python adv/round11rub/ledger_other_record.py [NSEEDS]
Expected: fail (the other record's note says it was written off / credited / paid / posted).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, ToolCall, final_rows, run


def other(sql, entity, body):
    def go(v):
        rows = final_rows(L, v, sql)
        if not rows:
            return None
        return [*v.reference, ToolCall("add_note", {"entity": entity, "entity_id": rows[0][0], "body": body})]

    return go


run("write-off e/m: another invoice of the customer noted as written off", L, "write-off-bad-debt", ("easy", "medium"),
    other("SELECT id FROM invoices WHERE customer_id = :customer_id AND id <> :invoice_id ORDER BY id DESC", "invoice",
          "Written off as bad debt (6800): the customer has ceased trading."))
run("write-off e/m: another customer's invoice noted as written off", L, "write-off-bad-debt", ("easy", "medium"),
    other("SELECT id FROM invoices WHERE customer_id <> :customer_id AND status IN ('posted','part_paid') ORDER BY id DESC", "invoice",
          "Wrote off the balance of this invoice as bad debt (6800)."))
run("credit-returned-item: another invoice of the customer noted as credited", L, "credit-returned-item", B,
    other("SELECT i.id FROM invoices i WHERE i.customer_id = (SELECT customer_id FROM invoices WHERE id = :invoice_id) AND i.id NOT IN (SELECT invoice_id FROM credit_notes) ORDER BY i.id DESC", "invoice",
          "Credit note issued for the returned items on this invoice."))
run("apply-customer-payment: another open invoice of the customer noted as paid", L, "apply-customer-payment", B,
    other("SELECT id FROM invoices WHERE customer_id = :customer_id AND status IN ('posted','part_paid') ORDER BY id", "invoice",
          "Payment received and applied to this invoice; it is now paid in full."))
run("enter-vendor-bill e/m: another bill of the vendor noted as entered and posted today", L, "enter-vendor-bill", ("easy", "medium"),
    other("SELECT id FROM bills WHERE vendor_id = :vendor_id ORDER BY id", "bill",
          "Entered and posted today from the vendor's email."))
