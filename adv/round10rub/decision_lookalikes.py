# ruff: noqa
"""Probe (low): look-alike spellings of a claimed decision in cancel-order hard (not
cancelled): letters split by hyphens or spaces, a middle dot, a common misspelling,
"voided". Controls (caught): soft hyphen, zero-width space, Cyrillic е, small capitals.

Run: uv run python adv/round10rub/decision_lookalikes.py [NSEEDS]
Expected: every form fails `reply-states-not-cancelled`.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")
FORMS = [
    "c-a-n-c-e-l-l-e-d",
    "c a n c e l l e d",
    "cancel·led",
    "canceld",
    "cancellled",
    "voided",
    "control: can\u00adcelled",
    "control: cancel\u200bled",
    "control: canc\u0435lled",
    "control: ᴄᴀɴᴄᴇʟʟᴇᴅ",
]
for f in FORMS:
    w = f.replace("control: ", "")
    run(
        f"cancel-order hard: 'Order #N has been {f}.'",
        h,
        "cancel-order",
        ("hard",),
        lambda v, w=w: reply(
            v,
            lambda v, b: re.sub(
                r"I'm sorry, order #\d+ has already shipped, so it can no longer be cancelled\.",
                f"Order #{v.params['order_id']} has been {w}.",
                b,
            ),
        ),
    )
