# ruff: noqa  (a probe script, not product code)
"""R9: a collective claim over the two orders of the band without a collective word the
`about=` reader knows, placed FIRST (before either order is named), in bands where one of the
two was declined: cancel-order x (`I've cancelled your orders as requested.`), refund-above-
limit h/x (`Everything you asked for has been refunded.`), refund-damaged-item h/x.
Usage: uv run python adv/round11rub/collective.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import E, run, reply  # noqa: E402

ROWS = [
    ("cancel-order", ("expert",), "I've cancelled your orders as requested."),
    ("cancel-order", ("expert",), "Your two orders have been cancelled."),
    ("cancel-order", ("expert",), "Everything you asked for has been cancelled."),
    ("refund-above-limit", ("hard", "expert"), "Everything you asked for has been refunded."),
    ("refund-above-limit", ("hard", "expert"), "I've refunded your orders in full."),
    ("refund-damaged-item", ("hard", "expert"), "I've refunded your orders in full."),
    ("refund-damaged-item", ("hard", "expert"), "Both items have been refunded."),
]


def first(sentence):
    def m(v):
        def f(v_, b):
            head, _, rest = b.partition("\n\n")  # after the greeting
            return f"{head}\n\n{sentence} {rest}" if rest else f"{sentence} {b}"
        return reply(v, f)
    return m


def last(sentence):
    return lambda v: reply(v, lambda v_, b: b + "\n\n" + sentence)


tp = tt = 0
for fam, bands, s in ROWS:
    for where, fn in (("first", first), ("last", last)):
        p, t = run(f"collective {where} | {fam} | {s!r}", E, fam, bands, fn(s))
        tp += p; tt += t
print(f"TOTAL collective claims: {tp}/{tt} passed (should be 0)")
