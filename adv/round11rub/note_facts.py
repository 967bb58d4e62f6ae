# ruff: noqa  (a probe script, not product code)
"""R5: the reference reply (right) plus an internal note (staff read it) that names another of
the customer's own orders as the one acted on: `Cancelled order #<other> at the customer's
request.` The note's order numbers are read by no check (`replies-state-own-facts` and
`reply-mentions-order` read replies; `texts-reveal-no-other-customer` reads other customers).
Control: the same sentence in the reply fails.
Usage: uv run python adv/round11rub/note_facts.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import E, run, reply  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round9rub")
from _h import final_rows  # noqa: E402

ROWS = [
    ("cancel-order", ("easy", "medium", "expert"), "order_id", "Cancelled order #{o} at the customer's request; payment back to the original method."),
    ("change-shipping-address", ("easy", "medium", "expert"), "order_id", "Identity verified; shipping address of order #{o} updated as asked."),
    ("refund-damaged-item", ("easy", "medium"), "order_id", "Damaged item on order #{o} refunded to the original card; no return needed."),
    ("duplicate-charge", ("easy", "medium", "hard", "expert"), "order_id", "Duplicate charge on order #{o} refunded to the card."),
    ("exchange-size", ("easy", "medium", "expert"), "order_id", "Exchange created for order #{o}; replacement ships free."),
    ("order-status", ("easy", "medium", "hard", "expert"), "order_id", "Customer asked where order #{o} is; gave carrier and tracking."),
]


def other_order(v, key):
    excl = {v.params.get(k) for k in ("order_id", "shipped_order_id", "declined_order_id", "replacement_order_id", "escalate_order_id", "refund_order_id")}
    rows = final_rows(E, v, "SELECT id FROM orders WHERE customer_id = :customer_id ORDER BY id")
    cand = [r[0] for r in rows if r[0] not in excl]
    return cand[0] if cand else None


def mutate_note(tmpl, key):
    def m(v):
        o = other_order(v, key)
        if o is None:
            return None
        calls = reply(v, lambda v_, b: b)
        i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        calls.insert(i, ToolCall("add_ticket_note", {"ticket_id": v.params["ticket_id"], "body": tmpl.format(o=o)}))
        return calls
    return m


def mutate_reply(tmpl, key):
    def m(v):
        o = other_order(v, key)
        if o is None:
            return None
        return reply(v, lambda v_, b: b + "\n\n" + tmpl.format(o=o))
    return m


tp = tt = cp = ct = 0
for fam, bands, key, tmpl in ROWS:
    p, t = run(f"note | {fam} | {tmpl!r}", E, fam, bands, mutate_note(tmpl, key))
    tp += p; tt += t
    p, t = run(f"control reply | {fam} | {tmpl!r}", E, fam, bands, mutate_reply(tmpl, key))
    cp += p; ct += t
print(f"TOTAL wrong order in a note: {tp}/{tt} passed (should be 0); same in the reply (control): {cp}/{ct}")
