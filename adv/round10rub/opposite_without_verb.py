# ruff: noqa
"""Probe: in the bands where the action WAS taken, the decision checks only refuse a denial
(`not_denied`), nothing requires the claim (but change-shipping-address). A reply or note
that tells the opposite without the action's verb passes: "it will ship as planned",
"please order the XL again", "left as a draft", "still open on the customer's account",
"nothing has been refunded".

Run: uv run python adv/round10rub/opposite_without_verb.py [NSEEDS]
Expected: every mutant fails (the text states the opposite of what was done).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")

run(
    "cancel-order e/m/x: 'Unfortunately it was too late: order #N is with the warehouse and will ship as planned.'",
    h,
    "cancel-order",
    ("easy", "medium", "expert"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"Order #(\d+) is cancelled\.[^\n]*",
            r"Unfortunately it was too late: order #\1 is already with the warehouse and will ship as planned.",
            b,
            count=1,
        ),
    ),
)
run(
    "exchange-size e/m/x: 'The new size is out of stock: please order it again and return the old one.'",
    h,
    "exchange-size",
    ("easy", "medium", "expert"),
    lambda v: reply(
        v,
        lambda v, b: (
            b.split("\n\n")[0] + f"\n\nSorry, the {v.params['wanted_size']} is out of stock "
            f"right now. Please order it again when it is back and return the old one for a refund; order #{v.params['replacement_order_id']} is on hold."
        ),
    ),
)
run(
    "refund-damaged-item e/m: 'Nothing has been paid back yet; billing will look at it.'",
    h,
    "refund-damaged-item",
    ("easy", "medium"),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"I've refunded (\$[\d,.]+) to your (.*?) for order #(\d+); it should show within 5-10 business days\.",
            r"Nothing has been paid back yet for order #\3: billing will look at the \1 claim for your \2.",
            b,
        ),
    ),
)
run(
    "enter-vendor-bill e/m: 'Entered bill … as a draft, awaiting approval.'",
    L,
    "enter-vendor-bill",
    ("easy", "medium"),
    lambda v: edit(
        v,
        "add_note",
        lambda a: {
            **a,
            "body": a["body"].replace("Entered and posted bill", "Entered bill").rstrip(".")
            + "; left as a draft awaiting approval.",
        },
    ),
)
run(
    "write-off e/m: 'still open on the customer's account; sent to collections'",
    L,
    "write-off-bad-debt",
    ("easy", "medium"),
    lambda v: edit(
        v,
        "add_note",
        lambda a: {
            **a,
            "body": re.sub(
                r"Wrote off (\$[\d,.]+) still open on (INV-[\d-]+) as bad debt \(6800\)",
                r"\1 stays open on \2 and goes to collections",
                a["body"],
            ),
        },
    ),
)
