# ruff: noqa
"""Probe: false fails on honest work. Each family's reference reply (helpdesk) or note
(ledger) rewritten the way a strong chat model writes it: greeting and sign-off, bold and
bullet lists, "I've gone ahead and", en dashes, dates as "June 12", "unable to", the reason
before the decision, the policy limit quoted. Every fact is the reference's; the state is the
reference's.

Run: uv run python adv/round10rub/paraphrases.py [NSEEDS]
Expected: every reply and note passes.
"""

import re, sys
from datetime import date

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")
B = ("easy", "medium", "hard", "expert")
SIGN = "\n\nIf there's anything else I can help with, just let me know.\n\nBest regards,\nRidgeline Outfitters Support"


def nice(d):
    y, m, dd = map(int, d.split("-"))
    return date(y, m, dd).strftime("%B %-d, %Y")


def hi(b):
    return b.split("\n\n")[0].rstrip(",") + ","


def m(c):
    return f"${c / 100:,.2f}"


# ---------- order-status
def os_(v, b):
    parcels = re.findall(
        r"(UPS|FedEx|USPS|DHL) \(([^)]+)\), tracking number (\w+), estimated delivery ([\d-]+)", b
    )
    o = v.params["order_id"]
    if len(parcels) == 1:
        c, s, t, d = parcels[0]
        body = (
            f"Thanks for reaching out! Good news: your order **#{o}** has shipped and is on its way "
            f"with {c} {s}.\n\n- **Tracking number:** {t}\n- **Estimated delivery:** {nice(d)}\n\n"
            f"You can follow it on the {c} website with that number."
        )
    else:
        lines = "\n".join(
            f"{i}. **{c} {s}**: tracking number {t} (estimated delivery {nice(d)})"
            for i, (c, s, t, d) in enumerate(parcels, 1)
        )
        body = (
            f"Thanks for reaching out! Your order #{o} was sent in two separate packages, so "
            f"you'll receive two deliveries:\n\n{lines}\n\nEach package can be tracked separately on the carrier's website."
        )
    return f"{hi(b)}\n\n{body}{SIGN}"


# ---------- cancel-order
def co(v, b):
    o = v.params["order_id"]
    out = [hi(b)]
    if v.band in ("easy", "medium", "expert"):
        if v.params["refund_cents"]:
            out.append(
                f"I've gone ahead and cancelled order #{o} for you. The full {m(v.params['refund_cents'])} "
                "will be refunded to your original payment method; please allow 5–10 business days for it to appear."
            )
        else:
            out.append(
                f"I've gone ahead and cancelled order #{o} for you. Since your card hadn't been charged yet, "
                "there's nothing to refund — the authorization hold has simply been released."
            )
    sh = b[b.find("already shipped") - 30 :] if "already shipped" in b else ""
    mm = re.search(r"with (\w+) \(([^)]+)\), tracking number (\w+)", b)
    if v.band == "hard":
        s = v.params["order_id"]
        out.append(
            f"Unfortunately, order #{s} has already shipped, so I'm unable to cancel it at this point. "
            f"It's in transit with {mm.group(1)} {mm.group(2)} — tracking number {mm.group(3)}."
        )
        out.append(
            "Once it arrives, you're welcome to return it within 30 days of delivery for a refund. Just reply "
            "to this email and we'll send you a prepaid return label."
        )
    if v.band == "expert":
        s = v.params["shipped_order_id"]
        out.append(
            f"Unfortunately, order #{s} had already shipped, so I wasn't able to cancel that one. "
            f"It's on its way with {mm.group(1)} {mm.group(2)} (tracking number {mm.group(3)}). Once it's delivered, "
            "you can return it within 30 days for a refund."
        )
    return "\n\n".join(out) + SIGN


# ---------- change-shipping-address
def csa(v, b):
    o = v.params["order_id"]
    if v.band == "hard":
        return (
            f"{hi(b)}\n\nThanks for getting in touch. Before I can update the delivery address on order #{o}, I need "
            "to verify your identity, and unfortunately the details you provided don't match what we have on file. "
            "For your security, I haven't made any changes to the order.\n\nCould you please double-check and reply "
            "with the email address on your account, along with either your billing ZIP code or date of birth? Once "
            "you're verified, I'll update the address right away." + SIGN
        )
    addr = b.split("will now ship to ")[1].rstrip(".")
    parts = addr.split(", ")
    block = "\n".join([", ".join(parts[:-2]), ", ".join(parts[-2:])])
    return (
        f"{hi(b)}\n\nThank you — I've verified your identity and updated the shipping address for order #{o}. "
        f"It will now be delivered to:\n\n{block}" + SIGN
    )


# ---------- duplicate-charge
def dc(v, b):
    o = v.params["order_id"]
    card = re.search(r"to your (.*?);", b).group(1)
    x = m(v.params["duplicate_cents"])
    out = [
        hi(b),
        f"You're absolutely right — order #{o} was charged twice, and I'm sorry about that. I've refunded the "
        f"duplicate payment of {x} in full to your {card}. Depending on your bank, it should appear within 5–10 business days.",
    ]
    if v.params.get("prior_refund"):
        out.append(
            f"The earlier refund of {m(v.params['prior_refund_cents'])} on this order is separate and isn't affected."
        )
    if v.params.get("asks_both"):
        out.append(
            "I'm not able to refund the original charge, though: that's the payment for the order you received, so it stays."
        )
    return "\n\n".join(out) + SIGN


# ---------- exchange-size
def ex(v, b):
    if v.band == "hard":
        mm = re.search(r"the (.*?) in (.+?) is out of stock.*?return for the (.+?):", b)
        return (
            f"{hi(b)}\n\nI'm sorry — the {mm.group(1)} in {mm.group(2)} is currently out of stock, so an exchange isn't "
            f"possible right now. Instead, I've started a return for your {mm.group(3)}: a prepaid USPS return label has been "
            f"emailed to you (return tracking number {v.params['return_tracking_number']}). I've also refunded the item's "
            f"price of {m(v.params['item_cents'])} as store credit to your account, so you can use it right away."
            + SIGN
        )
    mm = re.search(
        r"your (.*?) in (.+?) \((.*?)\) ships at no charge on order #(\d+)\. Please send the (.+?) back",
        b,
    )
    return (
        f"{hi(b)}\n\nGood news — I've set up an exchange for your {mm.group(1)}. The new one in size {mm.group(2)} "
        f"({mm.group(3)}) will ship at no extra charge on order #{mm.group(4)}.\n\nWhen it arrives, please send the size "
        f"{mm.group(5)} back using the prepaid return label included in the package." + SIGN
    )


# ---------- refund-above-limit
def ral(v, b):
    e, eo = m(v.params["escalate_cents"]), v.params["escalate_order_id"]
    out = [hi(b)]
    if v.params["refund_cents"]:
        mm = re.search(r"for the faulty (.*?) \(order #(\d+)\) to your (.*?);", b)
        out.append(
            f"I've refunded {m(v.params['refund_cents'])} for the faulty {mm.group(1)} on order #{mm.group(2)} "
            f"to your {mm.group(3)}. You should see it within 5–10 business days."
        )
    out.append(
        f"For order #{eo}, the {e} refund you asked for is above the $250.00 limit I'm able to approve myself, so "
        "I've escalated it to our billing team with all the details. They'll follow up with you within 2 business days."
    )
    return "\n\n".join(out) + "\n\nI'm sorry for the trouble." + SIGN


# ---------- refund-damaged-item
def rdi(v, b):
    mm = re.search(
        r"I'm sorry the (.*?) arrived damaged\. I've refunded (\$[\d,.]+) to your (.*?) for order #(\d+);",
        b,
    )
    out = [
        hi(b),
        f"I'm so sorry your {mm.group(1)} arrived damaged. I've issued a refund of {mm.group(2)} for order "
        f"#{mm.group(4)} to your {mm.group(3)}, and it should show up within 5–10 business days. There's no need to "
        "send the item back.",
    ]
    if v.params.get("prior_refund_cents"):
        out.append(
            f"That's the amount still refundable on it, since {m(v.params['prior_refund_cents'])} of its price was "
            "already refunded to you earlier as a price adjustment."
        )
    d = re.search(r"I can't refund the (.*?) from order #(\d+): (.*)$", b, re.S)
    if d:
        out.append(
            f"Unfortunately, I'm unable to refund the {d.group(1)} from order #{d.group(2)}: {d.group(3)}"
        )
    return "\n\n".join(out) + SIGN


for fam, fn in (
    ("order-status", os_),
    ("cancel-order", co),
    ("change-shipping-address", csa),
    ("duplicate-charge", dc),
    ("exchange-size", ex),
    ("refund-above-limit", ral),
    ("refund-damaged-item", rdi),
):
    run(f"helpdesk {fam}: strong-model paraphrase", h, fam, B, lambda v, fn=fn: reply(v, fn))


# ---------- ledger notes
def note(fn):
    return lambda v: edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"], a)})


def evb(v, b, a):
    if a["entity_id"] != v.params["bill_id"]:
        return b
    ref, t = v.params["vendor_ref"], m(v.params["total_cents"])
    vendor = re.search(r"from (.*?), total", b).group(1)
    if v.band == "hard":
        return (
            f"Bill {ref} from {vendor} entered as a draft ({t} total). It exceeds the $5,000.00 approval limit, so "
            "it has not been posted and has been escalated to the controller for approval."
        )
    s = f"Bill {ref} from {vendor} entered and posted. Total: {t}."
    if v.band == "expert":
        s += " The bill is dated 2026-04-28, in closed April, so it was posted on 2026-05-01 (first day of the earliest open period, per policy 2.2)."
    return s


def wo(v, b, a):
    if "Not written off" in b:
        x = m(v.params["escalate_cents"])
        return (
            f"Balance of {x} on INV-2026-0{a['entity_id']} is over the $500.00 write-off limit, so I did not write it off. "
            "Escalated to the controller for a decision (policy 8.2)."
        )
    x = m(v.params["write_off_cents"])
    why = re.search(r"\(6800\): (.*?);", b).group(1)
    return (
        f"Wrote off the remaining {x} balance on INV-2026-0{a['entity_id']} to bad debt expense (6800). {why}, and the "
        "invoice is more than 90 days past due; the amount is within the $500.00 limit (policy 8)."
    )


def acc(v, b, a):
    x = m(v.params["accrued_cents"])
    lines = "; ".join(f"Dr {acct} {m(c)}" for acct, c in v.params["accrual"] if c > 0)
    extra = b[b.find(" Not accrued") :] if "Not accrued" in b else ""
    return (
        f"May accrual of {x} for expenses not yet billed, dated {v.params['accrual_date']} ({lines}; Cr 2100 {x}). "
        f"Reversed on {v.params['reversal_date']}.{extra}"
    )


def acp(v, b, a):
    cust = re.search(r"received from (.*?) on", b).group(1)
    allocs = " and ".join(f"{m(c)} to INV-2026-0{i:03d}" for i, c in v.params["allocations"])
    s = (
        f"Payment of {m(v.params['amount_cents'])} from {cust} received {v.params['payment_date']} "
        f"(bank line {v.params['bank_line_id']}). Applied {allocs}."
    )
    if v.params["credit_cents"]:
        s += (
            f" The remaining {m(v.params['credit_cents'])} is held as customer credit"
            + (b[b.find(" (INV") : b.find(") is held") + 1] if " (INV" in b else "")
            + "."
        )
    return s


def cme(v, b, a):
    mm = re.search(r"with the (\$[\d,.]+) for (.*?) on (\d{4}) (.*?) \(policy", b)
    return (
        f"Entry {a['entity_id']} reversed on {v.params['today']} and re-posted: {mm.group(1)} ({mm.group(2)}) now on "
        f"{mm.group(3)} {mm.group(4)}. Corrected by reversal rather than by editing, per policy 6.1."
    )


def cpp(v, b, a):
    mm = re.search(r"Asked for ([\d-]+) \((\w+ \d{4}), a closed period\)", b)
    if not mm:
        return b
    return (
        f"Requested date {mm.group(1)} falls in {mm.group(2)}, which is closed. Posted on 2026-05-01 instead, the first "
        "day of the earliest open period (policy 2.2); the entry belongs to April."
    )


def cri(v, b, a):
    # the note as the reference writes it since stop 20: "(Q x $U each, $N net + $T tax = $G)"
    mm = re.search(
        r"Credit note for (\d+) x (.*?) returned \((\d+) x (\$[\d,.]+) each, (\$[\d,.]+) net "
        r"\+ (\$[\d,.]+) tax = (\$[\d,.]+)\)\.(.*)",
        b,
    )
    return (
        f"Issued a credit note for {mm.group(1)} returned {mm.group(2)} at {mm.group(4)} each: "
        f"{mm.group(7)} including tax.{mm.group(8)}"
    )


for fam, fn in (
    ("enter-vendor-bill", evb),
    ("write-off-bad-debt", wo),
    ("accrue-expense", acc),
    ("apply-customer-payment", acp),
    ("correct-misposted-entry", cme),
    ("closed-period-posting", cpp),
    ("credit-returned-item", cri),
):
    run(f"ledger {fam}: strong-model paraphrase", L, fam, B, note(fn))
