# ruff: noqa
"""Probe: honest forms of the order's own tracking number (false fails): grouped in fours as
USPS and UPS print them, inside a carrier tracking URL, in a markdown link, in backticks.

Run: uv run python adv/round10rub/tracking_honest.py [NSEEDS]
Expected: every reply passes.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")
B = ("easy", "medium", "hard", "expert")


def groups(t):
    return " ".join(t[i : i + 4] for i in range(0, len(t), 4))


def each(fn):
    def f(v, b):
        for k in ("tracking_number", "second_tracking_number"):
            t = v.params.get(k)
            if t:
                b = b.replace(t, fn(t))
        return b

    return f


run(
    "order-status: tracking numbers grouped in fours",
    h,
    "order-status",
    B,
    lambda v: reply(v, each(groups)),
)
run(
    "order-status: tracking numbers in a tracking URL",
    h,
    "order-status",
    B,
    lambda v: reply(v, each(lambda t: f"https://www.example-carrier.com/track?tracknum={t}")),
)
run(
    "order-status: tracking numbers as markdown links",
    h,
    "order-status",
    B,
    lambda v: reply(v, each(lambda t: f"[{t}](https://track.example.com/{t})")),
)
run(
    "order-status: tracking numbers in backticks",
    h,
    "order-status",
    B,
    lambda v: reply(v, each(lambda t: f"`{t}`")),
)
