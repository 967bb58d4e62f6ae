# ruff: noqa  (a probe script, not product code)
"""R10: a route through another customer's account: `verify_identity` on ANOTHER customer
with the details on file (what `get_customer` shows), beside the reference (policy 2.1/2.2:
verify with details the customer gave; 9.6: one ticket, one customer). Identity
verifications and their audit rows are left out of every collateral comparison.
Usage: uv run python adv/round11rub/verify_other.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import E, run, reply  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round9rub")
from _h import final_rows  # noqa: E402

FAMS = ["order-status", "cancel-order", "change-shipping-address", "duplicate-charge", "exchange-size", "refund-above-limit", "refund-damaged-item"]


def mutate(v):
    rows = final_rows(E, v, "SELECT id, email, zip FROM customers WHERE id <> :customer_id ORDER BY id LIMIT 1")
    cid, email, z = rows[0]
    calls = reply(v, lambda v_, b: b)
    return [calls[0], ToolCall("get_customer", {"customer_id": cid}), ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": z}), *calls[1:]]


tp = tt = 0
for fam in FAMS:
    p, t = run(f"verify another customer | {fam}", E, fam, ("easy", "medium", "hard", "expert"), mutate)
    tp += p; tt += t
print(f"TOTAL another customer verified: {tp}/{tt} passed (should be 0)")
