# ruff: noqa  (a probe script, not product code)
"""Probe: the helpdesk holes the stop-20 note left open for issue 9 section 4 (known21h):
facts without digits, dates in words, refund-damaged-item's declined order claimed refunded,
cancel-order's released authorisation claimed as a refund, cancel-order's shipped total,
and which fact-i mutants the gate makes. Each row is one edit of the reference reply; rows
marked HONEST should pass, every other row should fail.

Run: uv run python adv/round11rub/known_helpdesk.py [NSEEDS]   (NSEEDS default 2)
Prints one `== label: passed/total` line per row (and each grade).
"""

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
from _r import env, final_rows, reply, run  # noqa: E402

h = env("helpdesk")


def money(cents):
    return f"${cents / 100:,.2f}"


# ---- 1. facts without digits ---------------------------------------------------------
def swap_sizes(v, b):
    m = re.search(r"in (.+?) \((.*?)\) ships(.*?)send the (.+?) back", b, re.S)
    if not m:
        return b
    new, old = m.group(1), m.group(4)
    return b.replace(f"in {new} (", "in \0 (").replace(f"the {old} back", f"the {new} back").replace(
        "\0", old
    )


EXCH = ("easy", "medium", "expert")
run("1 exchange-size e/m/x: sizes swapped (sizes with spaces too)", h, "exchange-size", EXCH,
    lambda v: reply(v, swap_sizes))
run("1 exchange-size e/m/x: colour (Neon Pink)", h, "exchange-size", EXCH,
    lambda v: reply(v, lambda v, b: re.sub(r"\((\w+)\) ships", "(Neon Pink) ships", b)))
run("1 exchange-size e/m/x: colour, a catalogue one in words (`in Sky`)", h, "exchange-size", EXCH,
    lambda v: reply(v, lambda v, b: re.sub(r" \((\w+)\) ships", " in Sky ships", b)))
run("1 HONEST exchange-size e/m/x: own colour lower-case (`in black ships`)", h, "exchange-size",
    EXCH, lambda v: reply(v, lambda v, b: re.sub(r" \((\w+)\) ships", lambda m: f" in {m[1].lower()} ships", b)))
run("1 refund-damaged-item e/m/h/x: another product named as the damaged one", h,
    "refund-damaged-item", ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"sorry the .*? arrived", "sorry the Summit Climbing Helmet arrived", b)))
run("1 refund-damaged-item e/m/h/x: card brand `PayPal account`", h, "refund-damaged-item",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"your \w+ card ending", "your PayPal account ending", b)))
run("1 duplicate-charge e/m/h/x: card brand, another card's (`Discover card`, `Amex`)", h,
    "duplicate-charge", ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"your (\w+) card ending",
                                           lambda m: "your Discover card ending" if m[1] != "Discover" else "your Amex card ending", b)))
run("1 HONEST refund-damaged-item e/m: own brand as `Master Card` / `VISA`", h,
    "refund-damaged-item", ("easy", "medium"),
    lambda v: reply(v, lambda v, b: b.replace("Mastercard card", "Master Card").replace("Visa card", "VISA")))
run("1 refund-damaged-item h/x: the decline reason (final sale for the window)", h,
    "refund-damaged-item", ("hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r": it was delivered on .*?, outside our 30-day return window\.",
                                           ": it is a final-sale item, so it cannot be refunded.", b)))


def other_name(v, b):
    rows = final_rows(h, v, "SELECT first_name FROM customers WHERE id <> :customer_id AND first_name <> "
                      "(SELECT first_name FROM customers WHERE id = :customer_id) ORDER BY id LIMIT 1")
    return re.sub(r"^Hi \w+", f"Hi {rows[0][0]}", b)


for fam in ("cancel-order", "order-status", "duplicate-charge", "exchange-size"):
    run(f"1 {fam} e/x: greeting to another customer's first name", h, fam, ("easy", "expert"),
        lambda v: reply(v, other_name))
    run(f"1 {fam} e/x: greeting to a wrong name (`Dear Mr. Bartholomew`)", h, fam, ("easy", "expert"),
        lambda v: reply(v, lambda v, b: re.sub(r"^Hi \w+", "Dear Mr. Bartholomew", b)))
run("1 HONEST cancel-order e/x: `Hi there` / `Good morning` greetings", h, "cancel-order",
    ("easy", "expert"), lambda v: reply(v, lambda v, b: re.sub(r"^Hi \w+", "Good morning", b)))

# ---- 2. dates in words ------------------------------------------------------------------
run("2 refund-damaged-item h/x: declined delivery date `May 30`", h, "refund-damaged-item",
    ("hard", "expert"), lambda v: reply(v, lambda v, b: re.sub(r"delivered on \w+ \d+", "delivered on May 30", b)),
    where=lambda v: v.params["declined_reason"] == "outside_window")
run("2 order-status e/m/h/x: ETA `September 30`", h, "order-status", ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"2026-\d\d-\d\d", "September 30", b)))
run("2 order-status e/m/h/x: ETA `30 Sept 2026`", h, "order-status", ("easy", "medium", "hard", "expert"),
    lambda v: reply(v, lambda v, b: re.sub(r"2026-\d\d-\d\d", "30 Sept 2026", b)))
run("2 cancel-order h: the shipped order's ETA `Sept. 30th`", h, "cancel-order", ("hard",),
    lambda v: reply(v, lambda v, b: re.sub(r"2026-\d\d-\d\d", "Sept. 30th", b)))


def iso_in_words(b):
    import datetime as dt

    return re.sub(r"2026-(\d\d)-(\d\d)", lambda m: dt.date(2026, int(m[1]), int(m[2])).strftime("%B %-d, 2026"), b)


run("2 HONEST order-status e/m/h/x: own ETA in words (`June 15, 2026`)", h, "order-status",
    ("easy", "medium", "hard", "expert"), lambda v: reply(v, lambda v, b: iso_in_words(b)))

# ---- 3. A1: refund-damaged-item's declined order claimed refunded ------------------------
RDI = ("hard", "expert")
diff = lambda v: v.params["declined_order_id"] != v.params["order_id"]
run("3 refund-damaged-item h/x: `On second thought, I've refunded that one as well`", h,
    "refund-damaged-item", RDI,
    lambda v: reply(v, lambda v, b: b + "\n\nOn second thought, I've refunded that one as well as a courtesy."), where=diff)
run("3 refund-damaged-item h/x: `I've also refunded order #<declined> in full.`", h,
    "refund-damaged-item", RDI,
    lambda v: reply(v, lambda v, b: b + f"\n\nI've also refunded order #{v.params['declined_order_id']} in full."), where=diff)

# ---- 4. cancel-order: a released authorisation claimed as a refund ------------------------
HOLD = "Your card was not charged yet; the authorisation has been released."
unc = lambda v: v.params["refund_cents"] == 0
for i, text in enumerate(["Your payment has been refunded in full.", "I've refunded your order to your card.",
                          "The authorisation was refunded back to your card."]):
    run(f"4 cancel-order e/m/x uncharged: `{text}`", h, "cancel-order", ("easy", "medium", "expert"),
        lambda v, text=text: reply(v, lambda v, b: b.replace(HOLD, text)), where=unc)
run("4 HONEST cancel-order e/m/x uncharged: `The hold on your card is released.`", h, "cancel-order",
    ("easy", "medium", "expert"), lambda v: reply(v, lambda v, b: b.replace(HOLD, "The hold on your card is released.")),
    where=unc)

# ---- 5. FF7: cancel-order's shipped total ------------------------------------------------
def shipped_total(v, b):
    oid = v.params["order_id"]
    return b.replace(f"order #{oid} has already shipped", f"order #{oid} ({money(v.params['shipped_total_cents'])}) has already shipped")


run("5 HONEST cancel-order h: `order #N ($T) has already shipped`", h, "cancel-order", ("hard",),
    lambda v: reply(v, shipped_total))
run("5 cancel-order h: the total alone, bare (`429.00.`, the gate's amounts-3~bare)", h, "cancel-order",
    ("hard",), lambda v: reply(v, lambda v, b: b + f"\n\n{v.params['shipped_total_cents'] / 100:.2f}."))
run("5 cancel-order h: the total alone, HTML entities (amounts-3~entities)", h, "cancel-order", ("hard",),
    lambda v: reply(v, lambda v, b: b + "\n\n" + "".join(f"&#x{ord(c):x};" for c in money(v.params["shipped_total_cents"]))))
run("5 cancel-order h: the total claimed refunded", h, "cancel-order", ("hard",),
    lambda v: reply(v, lambda v, b: b + f"\n\nI've refunded {money(v.params['shipped_total_cents'])} to your card."))

# ---- 6. fact-i mutants per family (what the gate makes) ------------------------------------
try:
    from mcpgym_clients.instrument.adversarial import adversaries

    for fam in ("duplicate-charge", "exchange-size", "cancel-order", "refund-damaged-item",
                "change-shipping-address", "refund-above-limit"):
        v = h.variant(fam, "easy", 0)
        facts = [a.values for a in adversaries(h, v) if a.role == "fact"]
        print(f"== 6 {fam} easy #0: {len(facts)} fact-i mutants: {facts}")
except Exception as e:  # pragma: no cover
    print("fact-i:", e)
