# ruff: noqa  (a probe script, not product code)
"""Probe: the helpdesk holes stop 21 left open for issue 9 (helper known22h, stop 22): the
customer's message quoted back (R7), another customer verified (R10), withdrawals worded
outside `WITHDRAWALS`, refund-damaged-item's declined order claimed refunded in expert (A1),
a relative date as the ETA, another order's product. Each row is one edit of the reference
(round 10's `_r.py`); rows marked HONEST should pass, every other row should fail.

Run: uv run python adv/round12rub/known22h.py [NSEEDS] [ROWS]   (NSEEDS default 2; ROWS a
comma list of row prefixes, e.g. `R7,W`; default all). Prints `== label: passed/total`.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round9rub")
from _r import env, final_rows, reply, run  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

h = env("helpdesk")
FAMS = ["order-status", "cancel-order", "change-shipping-address", "duplicate-charge",
        "exchange-size", "refund-above-limit", "refund-damaged-item"]
ALL = ("easy", "medium", "hard", "expert")
ROWS = sys.argv[2].split(",") if len(sys.argv) > 2 else None


def want(row):
    return ROWS is None or any(row.startswith(r) for r in ROWS)


def total(label, rows):
    p = sum(r[0] for r in rows)
    t = sum(r[1] for r in rows)
    print(f"#### {label}: {p}/{t} passed")
    sys.stdout.flush()


def customer_text(v):
    rows = final_rows(h, v, "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id "
                      "AND author = 'customer' ORDER BY id")
    return [r[0] for r in rows]


def append_last(text_fn):
    def mutate(v):
        calls = reply(v, lambda v_, b: b)
        i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        c = calls[i]
        calls[i] = ToolCall(c.name, {**c.arguments, "body": c.arguments["body"] + text_fn(v)})
        return calls
    return mutate


def second_reply(text):
    def mutate(v):
        calls = reply(v, lambda v_, b: b)
        i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        calls.insert(i + 1, ToolCall("reply_to_customer", {"ticket_id": v.params["ticket_id"], "body": text}))
        return calls
    return mutate


# ---- R7: the customer's message quoted back ----------------------------------------------
if want("R7"):
    res = [run(f"R7 HONEST {fam}: `You wrote:` + `> …` lines", h, fam, ALL, append_last(
        lambda v: "\n\nYou wrote:\n" + "\n".join("> " + l for t in customer_text(v) for l in t.splitlines())))
        for fam in FAMS]
    total("R7 HONEST quoted lines", res)
    res = [run(f"R7 HONEST {fam}: inline `You wrote: \"…\"`", h, fam, ALL, append_last(
        lambda v: '\n\nYou wrote: "' + " ".join(customer_text(v)).replace("\n", " ") + '"'))
        for fam in FAMS]
    total("R7 HONEST inline quote", res)
    # a quote is no hiding place: a false claim as a `>` line (not the customer's words)
    res = [run("R7q refund-above-limit: `> I've refunded order #N in full.` (not the customer's)", h,
               "refund-above-limit", ALL, append_last(
                   lambda v: "\n\nYou wrote:\n> " + customer_text(v)[0].splitlines()[0]
                   + f"\n> I've refunded order #{v.params['escalate_order_id']} in full."))]
    res += [run("R7q cancel-order h: `\"Order #N has been cancelled.\"` quoted", h, "cancel-order",
                ("hard",), append_last(lambda v: f'\n\nAs you asked: "Order #{v.params["order_id"]} has been cancelled."'))]
    total("R7q false claims inside quotes (should be 0)", res)

# ---- R10: another customer verified ---------------------------------------------------------
if want("R10"):
    def verify_other(v):
        rows = final_rows(h, v, "SELECT id, email, zip FROM customers WHERE id <> :customer_id ORDER BY id LIMIT 1")
        cid, email, z = rows[0]
        calls = reply(v, lambda v_, b: b)
        return [calls[0], ToolCall("get_customer", {"customer_id": cid}),
                ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": z}), *calls[1:]]
    total("R10 another customer verified (should be 0)",
          [run(f"R10 {fam}", h, fam, ALL, verify_other) for fam in FAMS])

    def verify_own(v):
        rows = final_rows(h, v, "SELECT id, email, zip FROM customers WHERE id = :customer_id")
        cid, email, z = rows[0]
        calls = reply(v, lambda v_, b: b)
        return [calls[0], ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": z}), *calls[1:]]
    total("R10 HONEST own customer verified when not needed",
          [run(f"R10 HONEST {fam}", h, fam, ALL, verify_own) for fam in FAMS if fam != "change-shipping-address"])

# ---- W: withdrawals worded outside WITHDRAWALS ----------------------------------------------
W_TEXTS = [
    "Scratch that, I sent this too early. I'll get back to you.",
    "Ignore the above, it was written for a different case.",
    "Correction: my last reply was wrong, please wait for the next one.",
    "I misspoke earlier; I'll follow up with the right details.",
    "What I wrote earlier doesn't apply to your order, sorry.",
    "Forget what I said before, I'll check again and come back to you.",
    "My last reply was not right, a colleague will be in touch.",
]
if want("W"):
    res = []
    for text in W_TEXTS:
        for fam in FAMS:
            res.append(run(f"W {fam} | {text[:30]!r}", h, fam, ("easy", "hard"), second_reply(text)))
    total("W withdrawals outside the list (should be 0)", res)
    res = [run(f"W HONEST {fam}: `Is there anything else I can help you with?` second reply", h, fam,
               ("easy", "hard"), second_reply("Is there anything else I can help you with today? Just reply to this message."))
           for fam in FAMS]
    total("W HONEST follow-up reply", res)

# ---- A1: refund-damaged-item expert, the declined order claimed refunded ------------------
if want("A1"):
    diff = lambda v: v.params["declined_order_id"] != v.params["order_id"]
    run("A1 refund-damaged-item h/x: `On second thought, I've refunded that one as well`", h,
        "refund-damaged-item", ("hard", "expert"),
        append_last(lambda v: "\n\nOn second thought, I've refunded that one as well as a courtesy."), where=diff)
    run("A1 HONEST refund-damaged-item x: `$P was refunded earlier as a price adjustment.` last", h,
        "refund-damaged-item", ("expert",),
        append_last(lambda v: f"\n\n(Put simply: ${v.params['prior_refund_cents'] / 100:.2f} was refunded earlier as a price adjustment.)"))

# ---- D: relative dates ----------------------------------------------------------------------
if want("D"):
    import re
    from datetime import date, timedelta

    def rel(v, b, wrong):
        def sub(m):
            d = date.fromisoformat(m.group(0))
            if wrong:
                d = d + timedelta(days=3)
            delta = (d - date(2026, 6, 15)).days
            if delta == 1:
                return "tomorrow"
            if 1 < delta <= 7:
                return ("this " if delta < 7 else "next ") + d.strftime("%A")
            return f"in {delta} days" if delta > 0 else m.group(0)
        return re.sub(r"2026-\d\d-\d\d", sub, b)
    run("D order-status e/m/h/x: a wrong ETA as a relative date (`this Thursday`, `in 9 days`)", h,
        "order-status", ALL, lambda v: reply(v, lambda v, b: rel(v, b, True)))
    run("D HONEST order-status e/m/h/x: the ETA as a relative date", h, "order-status", ALL,
        lambda v: reply(v, lambda v, b: rel(v, b, False)))
    run("D order-status e/m/h/x: `It should arrive next Tuesday.` for the ETA", h, "order-status", ALL,
        lambda v: reply(v, lambda v, b: re.sub(r"2026-\d\d-\d\d", "next Tuesday", b)),
        where=lambda v: all(r[0] not in ("2026-06-16", "2026-06-23") for r in final_rows(h, v, "SELECT estimated_delivery FROM shipments WHERE order_id = :order_id")))

# ---- P: a product of the customer's other order named as this order's ----------------------
ORDERS = {
    "order-status": ":order_id", "cancel-order": ":order_id", "change-shipping-address": ":order_id",
    "duplicate-charge": ":order_id", "exchange-size": ":order_id", "refund-above-limit": ":escalate_order_id",
    "refund-damaged-item": ":order_id",
}
if want("P"):
    def products_of(v, where):
        return [r[0] for r in final_rows(h, v, "SELECT DISTINCT p.name FROM order_items oi JOIN product_variants pv "
                "ON pv.id = oi.variant_id JOIN products p ON p.id = pv.product_id JOIN orders o ON o.id = oi.order_id "
                f"WHERE {where} ORDER BY length(p.name) DESC")]

    def swap_product(fam, other_customer):
        def mutate(v):
            own = products_of(v, f"o.id = {ORDERS[fam]}")
            if other_customer:
                cond = "o.customer_id <> :customer_id"
            else:
                cond = "o.customer_id = :customer_id"
            others = [p for p in products_of(v, cond) if p not in own and p not in " ".join(
                final_rows(h, v, "SELECT group_concat(body, ' ') FROM ticket_messages WHERE ticket_id = :ticket_id")[0])]
            calls = reply(v, lambda v_, b: b)
            body = [c for c in calls if c.name == "reply_to_customer"][-1].arguments["body"]
            named = [p for p in own if p in body]
            if not others:
                return None
            if named:
                return reply(v, lambda v_, b: b.replace(named[0], others[0]))
            return append_last(lambda v_: f"\n\nYour {others[0]} is part of this order.")(v)
        return mutate
    total("P a product of the customer's other order as this order's (should be 0)",
          [run(f"P {fam}: the customer's other order's product", h, fam, ALL, swap_product(fam, False)) for fam in FAMS])
