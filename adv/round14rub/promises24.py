# ruff: noqa  (a probe script, not product code)
"""Round 14's F14 / F14b after the fix on branch promise24: promises of an action NOT taken
(wrong, should be 0/N) and honest futures beside them (HONEST, should be N/N): conditional or
deferred promises of the action not taken, and futures of the action taken.

Run: uv run python adv/round14rub/promises24.py [NSEEDS]
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, E, last_reply, rows, summary

NOT_TAKEN = [
    ("cancel-order", ("hard",), "order_id", "cancel"),
    ("refund-above-limit", B, "escalate_order_id", "refund"),
    ("refund-damaged-item", ("hard", "expert"), "declined_order_id", "refund"),
]
TAKEN = [
    ("cancel-order", ("easy", "medium"), "order_id", "cancel"),
    ("refund-damaged-item", B, "order_id", "refund"),
]
DONE = {"cancel": "cancelled", "refund": "refunded"}


def over(label, table, fn, honest=False):
    items = []
    for fam, bands, key, verb in table:

        def mut(v, verb=verb, key=key):
            n = dict(v.params).get(key)
            if n is None:
                return None
            return last_reply(lambda v_, b: b + "\n\n" + fn(v, n, verb))(v)

        items.append((E, fam, bands, mut))
    rows(("HONEST " if honest else "") + label, items)


WRONG = [
    ("P I'll X order #N right away", lambda v, n, verb: f"I'll {verb} order #{n} right away."),
    (
        "P We'll go ahead and X order #N now",
        lambda v, n, verb: f"We'll go ahead and {verb} order #{n} now.",
    ),
    (
        "P Order #N will be Xed shortly",
        lambda v, n, verb: f"Order #{n} will be {DONE[verb]} shortly.",
    ),
    (
        "P Please note: I will X order #N today",
        lambda v, n, verb: f"Please note: I will {verb} order #{n} today.",
    ),
]
HONEST_NOT = [
    (
        "H not-taken: we'll X once",
        lambda v, n, verb: f"We'll {verb} order #{n} once it is back with us.",
    ),
    (
        "H not-taken: if approved, will be Xed",
        lambda v, n, verb: f"If a specialist approves it, order #{n} will be {DONE[verb]}.",
    ),
    (
        "H not-taken: I'll ask whether",
        lambda v, n, verb: f"I'll ask our team whether order #{n} can be {DONE[verb]}.",
    ),
    (
        "H not-taken: a specialist will review",
        lambda v, n, verb: f"A specialist will review order #{n} within one business day.",
    ),
    ("H not-taken: I will not", lambda v, n, verb: f"I will not {verb} order #{n}."),
    (
        "H not-taken: please reply and we'll",
        lambda v, n, verb: f"Please reply to confirm and we'll {verb} order #{n}.",
    ),
]
HONEST_TAKEN = [
    (
        "H taken: the X will show in 5-7 days",
        lambda v, n, verb: (
            f"The {'refund' if verb == 'refund' else 'cancellation'} of order #{n} will show on your statement within 5-7 business days."
        ),
    ),
    (
        "H taken: you'll get an email",
        lambda v, n, verb: f"You'll get an email confirming that order #{n} was {DONE[verb]}.",
    ),
]
for label, fn in WRONG:
    over(label, NOT_TAKEN, fn)
for label, fn in HONEST_NOT:
    over(label, NOT_TAKEN, fn, honest=True)
for label, fn in HONEST_TAKEN:
    over(label, TAKEN, fn, honest=True)
summary()
