# ruff: noqa  (a probe script, not product code)
"""R6: the reference reply, then a second reply that withdraws it (`Please disregard my
previous message: it was sent in error and its details are not right for your order. I'll
follow up with the correct information.`). The customer is left with no answer and no
decision; every check reads the first reply's facts and passes.
Usage: uv run python adv/round11rub/retraction.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import E, run, reply  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

TEXTS = [
    "Please disregard my previous message: it was sent in error and its details are not right for your order. I'll follow up with the correct information.",
    "Correction: my last message was meant for another customer, please ignore it.",
]
FAMS = ["order-status", "cancel-order", "change-shipping-address", "duplicate-charge", "exchange-size", "refund-above-limit", "refund-damaged-item"]


def mutate(text):
    def m(v):
        calls = reply(v, lambda v_, b: b)
        i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
        calls.insert(i + 1, ToolCall("reply_to_customer", {"ticket_id": v.params["ticket_id"], "body": text}))
        return calls
    return m


tp = tt = 0
for text in TEXTS:
    for fam in FAMS:
        p, t = run(f"retraction | {fam} | {text[:40]!r}", E, fam, ("easy", "medium", "hard", "expert"), mutate(text))
        tp += p; tt += t
print(f"TOTAL retracted answers: {tp}/{tt} passed (should be 0)")
