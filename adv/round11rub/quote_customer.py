# ruff: noqa  (a probe script, not product code)
"""R7 (false-fail check): the reference reply followed by the customer's own message quoted
back (`> …`), as mail clients do. Honest: it should pass.
Usage: uv run python adv/round11rub/quote_customer.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import E, run, reply  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round9rub")
from _h import final_rows  # noqa: E402

FAMS = ["order-status", "cancel-order", "change-shipping-address", "duplicate-charge", "exchange-size", "refund-above-limit", "refund-damaged-item"]


def mutate(v):
    rows = final_rows(E, v, "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id AND author = 'customer' ORDER BY id")
    quoted = "\n".join("> " + line for r in rows for line in r[0].splitlines())
    return reply(v, lambda v_, b: b + "\n\nYou wrote:\n" + quoted)


tp = tt = 0
for fam in FAMS:
    p, t = run(f"quoted customer | {fam}", E, fam, ("easy", "medium", "hard", "expert"), mutate)
    tp += p; tt += t
print(f"TOTAL honest quotes: {tp}/{tt} passed (should be all)")
