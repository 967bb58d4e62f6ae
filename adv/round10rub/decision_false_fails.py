# ruff: noqa
"""Probe: honest replies/notes that state the decision taken, in the bands where it was
taken, but that the decision reader reads as a DENIAL: a negation belonging to another
proposition earlier in the same clause ("Order #N hadn't shipped yet so I cancelled it",
"Your card wasn't charged and order #N is cancelled"), joined by "so"/"and"/"because"
without a comma. A false fail on honest work.

Run: uv run python adv/round10rub/decision_false_fails.py [NSEEDS]
Expected: every reply passes (the reference's facts are kept; only the wording changes).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")

CANCEL = [
    "Order #{o} hadn't shipped yet so I cancelled it.",
    "Since order #{o} had not shipped I have cancelled it.",
    "Order #{o} was not shipped yet and has been cancelled.",
    "No problem at all and there's no fee: order #{o} is cancelled.",  # control: colon
    "Don't worry, order #{o} has been cancelled.",  # control: comma
    "Your card wasn't charged and order #{o} is cancelled.",
    "There was nothing to pay and order #{o} is cancelled.",
]
for form in CANCEL:
    run(
        f"cancel-order easy/medium: {form}",
        h,
        "cancel-order",
        ("easy", "medium"),
        lambda v, form=form: reply(
            v,
            lambda v, b: re.sub(
                r"Order #\d+ is cancelled\.", form.format(o=v.params["order_id"]), b
            ),
        ),
    )

ADDRESS = [
    "Order #{o} hadn't shipped yet so I changed its delivery address to {a}.",
    "Your order #{o} hasn't left our warehouse and I've updated its address to {a}.",
    "It was not too late and the address of order #{o} has been updated to {a}.",
]


def addr(v):
    a = v.params["new_address"][0]
    return f"{a[0].title()}, {a[1].title()}, {a[2]} {a[3]}"


for form in ADDRESS:
    run(
        f"change-shipping-address easy/medium/expert: {form}",
        h,
        "change-shipping-address",
        ("easy", "medium", "expert"),
        lambda v, form=form: reply(
            v,
            lambda v, b: (
                b.split("\n\n")[0]
                + "\n\nthanks, your identity is verified. "
                + form.format(o=v.params["order_id"], a=addr(v))
            ),
        ),
    )

EXCHANGE = [
    "The {size} was not out of stock so I've exchanged your item for it; it ships at no charge on order #{r}. Please send the old one back with the prepaid label in the parcel.",
    "No charge applies and I've exchanged your item for the {size}; it ships on order #{r}. Please send the old one back with the prepaid label in the parcel.",
]
for form in EXCHANGE:
    run(
        f"exchange-size easy/medium/expert: {form}",
        h,
        "exchange-size",
        ("easy", "medium", "expert"),
        lambda v, form=form: reply(
            v,
            lambda v, b: (
                b.split("\n\n")[0]
                + "\n\n"
                + form.format(size=v.params["wanted_size"], r=v.params["replacement_order_id"])
            ),
        ),
    )

POST = [
    "Nothing was missing so I entered and posted bill {ref} from the vendor, total {t}.",
    "The bill was not a duplicate and I entered and posted bill {ref}, total {t}.",
]
for form in POST:
    run(
        f"enter-vendor-bill easy/medium: {form}",
        L,
        "enter-vendor-bill",
        ("easy", "medium"),
        lambda v, form=form: edit(
            v,
            "add_note",
            lambda a: {
                **a,
                "body": form.format(
                    ref=v.params["vendor_ref"], t=f"${v.params['total_cents'] / 100:,.2f}"
                ),
            },
        ),
    )

WO = [
    "The customer has not paid for over 90 days so I wrote off {x} still open on INV-2026-0{i} as bad debt (6800), within the $500.00 limit (policy 8).",
    "No payment came in and {x} still open on INV-2026-0{i} was written off as bad debt (6800), within the $500.00 limit (policy 8).",
]
for form in WO:
    run(
        f"write-off-bad-debt easy/medium: {form}",
        L,
        "write-off-bad-debt",
        ("easy", "medium"),
        lambda v, form=form: edit(
            v,
            "add_note",
            lambda a: {
                **a,
                "body": form.format(
                    x=f"${v.params['write_off_cents'] / 100:,.2f}",
                    i=v.params["write_off_invoice_id"],
                ),
            },
        ),
    )
