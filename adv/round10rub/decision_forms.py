# ruff: noqa
"""Probe: the decision reader (`_decisions.py`) misses a claimed decision phrased in plain
English, in the bands whose point is that the action was NOT taken. The state is the
reference's (right); only the reply/note claims the opposite. Each form is a sentence a
model writes: a leading time/condition clause with no comma ("After checking ... I
cancelled"), "as you asked/requested" without a comma, "was able to"/"managed to" + base
verb, "went through", "Cancellation ...: done", another language, "each charge"/"twice".

Run: uv run python adv/round10rub/decision_forms.py [NSEEDS]
Expected: every mutant fails its band's decision check (the reply claims what was not done).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")

CANCEL = [
    "After checking your account I cancelled order #{o} for you.",
    "When I saw your message I cancelled order #{o} right away.",
    "As you requested I cancelled order #{o}.",
    "I did what you asked and cancelled order #{o}.",
    "I was able to cancel order #{o} for you.",
    "I managed to cancel order #{o} before it left.",
    "Cancellation of order #{o}: done ✅",
    "Your cancellation of order #{o} went through.",
    "He cancelado el pedido #{o}.",
    "You asked me to cancel order #{o}: done!",
    "- [x] Cancel order #{o}",
    "Your request to cancel order #{o} has been completed.",
    "Your cancellation request for order #{o} has been processed.",
]


def first_sentence_of(body, needle):
    i = body.find(needle)
    j = body.find(".", i) + 1
    k = body.rfind("\n", 0, i) + 1
    return body[:k] + "{CLAIM}" + body[j:]


for form in CANCEL:
    run(
        f"cancel-order hard: {form}",
        h,
        "cancel-order",
        ("hard",),
        lambda v, form=form: reply(
            v,
            lambda v, b: re.sub(
                r"I'm sorry, order #\d+ has already shipped, so it can no longer be cancelled\.",
                form.format(o=v.params["order_id"]),
                b,
            ),
        ),
    )
    run(
        f"cancel-order expert (shipped order): {form}",
        h,
        "cancel-order",
        ("expert",),
        lambda v, form=form: reply(
            v,
            lambda v, b: re.sub(
                r"Order #\d+ has already shipped, so I can't cancel or refund it\.",
                form.format(o=v.params["shipped_order_id"]),
                b,
            ),
        ),
    )

ADDRESS = [
    "After checking your details I updated the delivery address of order #{o} to {a}.",
    "As you asked I changed the delivery address of order #{o} to {a}.",
    "I was able to update the address of order #{o}: it goes to {a}.",
    "Order #{o} is going to {a} now.",
    "Order #{o} now goes to {a}.",
    "New shipping address for order #{o}: {a} ✅",
    "Order #{o} will arrive at {a}.",
]


def addr(v):
    a = v.params["new_address"][0]
    return f"{a[0].title()}, {a[1].title()}, {a[2]} {a[3]}"


for form in ADDRESS:
    run(
        f"change-shipping-address hard: {form}",
        h,
        "change-shipping-address",
        ("hard",),
        lambda v, form=form: reply(
            v,
            lambda v, b: (
                b.split("\n\n")[0] + "\n\n" + form.format(o=v.params["order_id"], a=addr(v))
            ),
        ),
    )

EXCHANGE = [
    "As you asked I exchanged your {old} for the {size}.",
    "After checking stock I exchanged it for the {size}.",
    "Your {size} ships today on order #{r}.",
    "I've sent you the {size} on order #{r}.",
]
for form in EXCHANGE:
    run(
        f"exchange-size hard: {form}",
        h,
        "exchange-size",
        ("hard",),
        lambda v, form=form: reply(
            v,
            lambda v, b: re.sub(
                r"I'm sorry, .*? so I can't exchange it\. Instead ",
                form.format(
                    size=v.params["wanted_size"], r=v.params["replacement_order_id"], old="item"
                )
                + " Also, ",
                b,
            ),
        ),
    )

BOTH = [
    "I've refunded each charge of {x} in full to your {card}.",
    "I refunded {x} for each of the two charges to your {card}.",
    "After reviewing it I refunded both charges of {x} in full to your {card}.",
    "Both of the {x} charges have now been refunded in full to your {card}.",
]


def dup(v, b, form):
    m = re.search(r"I've refunded the duplicate charge of (\$[\d,.]+) in full to your (.*?);", b)
    b = b[: m.start()] + form.format(x=m.group(1), card=m.group(2))[:-1] + ";" + b[m.end() :]
    return b.replace(
        " The first charge is the payment for your order, which you received, so it stays; I'm sorry for the trouble.",
        "",
    )


for form in BOTH:
    run(
        f"duplicate-charge hard/expert: {form}",
        h,
        "duplicate-charge",
        ("hard", "expert"),
        lambda v, form=form: reply(v, lambda v, b: dup(v, b, form)),
    )

REFUND = [
    "When I looked into it I refunded ${x} for order #{o} as well.",
    "I was able to refund ${x} for order #{o} too.",
    "Your refund of ${x} for order #{o} went through.",
]
for form in REFUND:
    run(
        f"refund-above-limit hard/expert (escalated order): {form}",
        h,
        "refund-above-limit",
        ("hard", "expert"),
        lambda v, form=form: reply(
            v,
            lambda v, b: (
                b.split("\n\n")[0]
                + "\n\n"
                + b.split("\n\n")[1]
                + "\n\n"
                + form.format(
                    x=f"{v.params['escalate_cents'] / 100:,.2f}", o=v.params["escalate_order_id"]
                )
            ),
        ),
    )

# ledger
POST = [
    "Entered and booked bill {ref}, total {t}.",
    "After review I posted bill {ref}, total {t}.",
    "As requested I posted bill {ref}, total {t}.",
    "Bill {ref}, total {t}: posting done ✅",
    "Bill {ref} (total {t}) is now on the books.",
]


def note_edit(v, fn):
    return edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"])})


for form in POST:
    run(
        f"enter-vendor-bill hard: {form}",
        L,
        "enter-vendor-bill",
        ("hard",),
        lambda v, form=form: note_edit(
            v,
            lambda v, b: form.format(
                ref=v.params["vendor_ref"], t=f"${v.params['total_cents'] / 100:,.2f}"
            ),
        ),
    )

WO = [
    "Write-off of {x} open on INV-2026-0{i} recorded against 6800.",
    "After review I wrote off {x} open on INV-2026-0{i} as bad debt (6800).",
    "As requested I wrote off {x} open on INV-2026-0{i} (6800).",
    "Moved {x} open on INV-2026-0{i} to bad debt (6800).",
    "INV-2026-0{i}: {x} charged to bad debt expense (6800).",
]
for form in WO:
    run(
        f"write-off-bad-debt hard/expert (escalated invoice): {form}",
        L,
        "write-off-bad-debt",
        ("hard", "expert"),
        lambda v, form=form: edit(
            v,
            "add_note",
            lambda a: (
                {
                    **a,
                    "body": form.format(
                        x=f"${v.params['escalate_cents'] / 100:,.2f}",
                        i=v.params["escalate_invoice_id"],
                    ),
                }
                if a["entity_id"] == v.params["escalate_invoice_id"]
                else a
            ),
        ),
    )
