# ruff: noqa
"""Probe: honest replies and notes in the bands where the action was NOT taken, that the
decision reader reads as claiming it: "No refund has been issued", "No store credit was
needed", "No write-off was recorded", key-value notes ("Posted: no", "Written off: no"),
a general rule before the decision ("Cancelled orders are refunded in full, but …",
"Exchanged items ship free, but …").

Run: uv run python adv/round10rub/no_word_false_fails.py [NSEEDS]
Expected: every reply and note passes (each says the action was not taken).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")

run(
    "refund-above-limit e/m: + 'No refund has been issued yet; billing will decide.'",
    h,
    "refund-above-limit",
    ("easy", "medium"),
    lambda v: reply(v, lambda v, b: b + "\n\nNo refund has been issued yet; billing will decide."),
)
run(
    "duplicate-charge e/m/h/x: + 'No store credit was needed: the refund went back to your card.'",
    h,
    "duplicate-charge",
    ("easy", "medium", "hard", "expert"),
    lambda v: reply(
        v, lambda v, b: b + "\n\nNo store credit was needed: the refund went back to your card."
    ),
)
run(
    "duplicate-charge x: + 'Both charges were reviewed; only the duplicate was refunded.'",
    h,
    "duplicate-charge",
    ("expert",),
    lambda v: reply(
        v, lambda v, b: b + "\n\nBoth charges were reviewed; only the duplicate was refunded."
    ),
)
run(
    "cancel-order h: the general rule first: 'Cancelled orders are refunded in full, but order #N had already shipped…'",
    h,
    "cancel-order",
    ("hard",),
    lambda v: reply(
        v,
        lambda v, b: re.sub(
            r"I'm sorry, order #(\d+) has already shipped, so it can no longer be cancelled\.",
            r"Cancelled orders are refunded in full, but order #\1 had already shipped, so I couldn't cancel it.",
            b,
        ),
    ),
)
run(
    "exchange-size h: 'Exchanged items ship free, but the … is out of stock'",
    h,
    "exchange-size",
    ("hard",),
    lambda v: reply(
        v, lambda v, b: b.replace("I'm sorry, the", "Exchanged items ship free, but the")
    ),
)
run(
    "enter-vendor-bill h: key-value note '… Status: draft. Posted: no (awaiting the controller's approval).'",
    L,
    "enter-vendor-bill",
    ("hard",),
    lambda v: edit(
        v,
        "add_note",
        lambda a: {
            **a,
            "body": a["body"] + " Status: draft. Posted: no (awaiting the controller's approval).",
        },
    ),
)
run(
    "write-off h/x: + 'No write-off was recorded.' on the escalated invoice",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    lambda v: edit(
        v,
        "add_note",
        lambda a: (
            {**a, "body": a["body"] + " No write-off was recorded."}
            if a["entity_id"] == v.params["escalate_invoice_id"]
            else a
        ),
    ),
)
run(
    "write-off h/x: key-value '… Written off: no.' on the escalated invoice",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    lambda v: edit(
        v,
        "add_note",
        lambda a: (
            {**a, "body": a["body"] + " Written off: no."}
            if a["entity_id"] == v.params["escalate_invoice_id"]
            else a
        ),
    ),
)
