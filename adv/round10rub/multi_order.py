# ruff: noqa
"""Probe: multi-order bands. The decision checks with `about=` read only the sentences that
name the order; a claim about the other order in the next sentence, by pronoun or by "the
other one", is not read. Also the two orders' numbers swapped between the two decisions.

Run: uv run python adv/round10rub/multi_order.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")


def swap(b, x, y):
    return b.replace(x, "\0").replace(y, x).replace("\0", y)


run(
    "cancel-order expert: the two order numbers swapped",
    h,
    "cancel-order",
    ("expert",),
    lambda v: reply(
        v, lambda v, b: swap(b, f"#{v.params['order_id']}", f"#{v.params['shipped_order_id']}")
    ),
)
run(
    "refund-above-limit h/x: the two order numbers swapped",
    h,
    "refund-above-limit",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: swap(
            b, f"#{v.params['escalate_order_id']}", f"#{v.params['refund_order_id']}"
        ),
    ),
)
run(
    "cancel-order expert: '+ I've cancelled the other one as well.' (no number)",
    h,
    "cancel-order",
    ("expert",),
    lambda v: reply(
        v, lambda v, b: b + "\n\nI've cancelled the other one as well, so nothing more will ship."
    ),
)
run(
    "cancel-order expert: after the shipped order's paragraph, 'Good news: I still managed to get it cancelled.'",
    h,
    "cancel-order",
    ("expert",),
    lambda v: reply(v, lambda v, b: b + " Good news: I still got it cancelled with the carrier."),
)
run(
    "refund-above-limit h/x: '+ The larger one has been refunded too.' (no number, no amount)",
    h,
    "refund-above-limit",
    ("hard", "expert"),
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + "\n\nUpdate: the larger one has been refunded too, so billing won't need to contact you."
        ),
    ),
)
run(
    "refund-above-limit e/m: '+ Update: it has been refunded after all.' (no number, no amount)",
    h,
    "refund-above-limit",
    ("easy", "medium"),
    lambda v: reply(
        v,
        lambda v, b: (
            b + "\n\nUpdate: it has been refunded after all, so billing won't need to contact you."
        ),
    ),
)
run(
    "refund-damaged-item h/x: '+ I've refunded the other item as well.'",
    h,
    "refund-damaged-item",
    ("hard", "expert"),
    lambda v: reply(
        v, lambda v, b: b + "\n\nOn second thought, I've refunded that one as well as a courtesy."
    ),
)
