# ruff: noqa
"""Probe: change-shipping-address easy/medium/expert require the reply to CLAIM the address
change (`reply-states-decision`, claimed=address-change). Honest confirmations a model
writes, each naming the order and the new address, that the reader may not read as a claim.

Run: uv run python adv/round10rub/address_claims.py [NSEEDS]
Expected: every reply passes (each confirms the change that was made).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")
FORMS = [
    "Your new delivery address for order #{o} is {a}.",
    "I've updated order #{o} so it ships to {a}.",
    "Order #{o} will go to {a}.",
    "Order #{o} is now headed to {a}.",
    "We'll deliver order #{o} to {a}.",
    "I've updated the delivery details for order #{o}: it will now arrive at {a}.",
    "Done! Order #{o} ships to {a} from now on.",
    "The shipping address on order #{o} now reads {a}.",
    "Order #{o}: shipping address updated to {a}.",
    "I've changed where order #{o} ships: {a}.",
    "Your parcel for order #{o} will be sent to {a}.",
    "Order #{o} is now addressed to {a}.",
    "I've switched order #{o} over to {a}.",
]


def addr(v):
    a = v.params["new_address"][0]
    return f"{a[0].title()}, {a[1].title()}, {a[2]} {a[3]}"


for form in FORMS:
    run(
        f"change-shipping-address e/m/x: {form}",
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
