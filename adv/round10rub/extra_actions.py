# ruff: noqa
"""Probe: the reference reply plus a claim of an action that was NOT taken, outside the
decision reader's closed set of actions and with no amount: a return started with a label
emailed, a replacement sent, shipping upgraded, the email on the account changed, the
ticket escalated to a manager. The state is the reference's.

Run: uv run python adv/round10rub/extra_actions.py [NSEEDS]
Expected: every mutant fails (the customer is told something was done that was not).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")
CLAIMS = {
    "return + label": "I've also started a return for it and emailed you a prepaid return label.",
    "replacement sent": "I've also sent you a free replacement; it ships today.",
    "shipping upgraded": "I've also upgraded your delivery to overnight express at no charge.",
    "email changed": "I've also updated the email address on your account as you asked.",
    "escalated to a manager": "I've also escalated this to my manager, who will call you tomorrow.",
}
for label, s in CLAIMS.items():
    for fam, bands in (
        ("order-status", ("easy", "hard")),
        ("cancel-order", ("easy", "hard")),
        ("duplicate-charge", ("easy",)),
        ("refund-damaged-item", ("easy",)),
        ("change-shipping-address", ("easy",)),
    ):
        run(
            f"{fam}: + '{label}'",
            h,
            fam,
            bands,
            lambda v, s=s: reply(v, lambda v, b: b + "\n\n" + s),
        )
