# ruff: noqa  (a probe script, not product code)
"""R8: refund-above-limit (billing decides the escalated refund, policy 7.1): the reference
plus a promise that the customer WILL be paid, with the customer or "you" as subject instead
of billing (`You'll receive the full refund from billing within 2 business days.`,
`Our billing team will make sure you get your money back.`), and a follow-up time in
`business hours`. The payout reader wants billing as the subject of a pay verb.
Usage: uv run python adv/round11rub/payout_promises.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import over_families  # noqa: E402

B = ("easy", "medium", "hard", "expert")
CLAIMS = [
    ("refund-above-limit", B, "You'll receive the full refund for order #{escalate_order_id} from billing within 2 business days."),
    ("refund-above-limit", B, "Our billing team will make sure you get your money back for order #{escalate_order_id}."),
    ("refund-above-limit", B, "You will get a full refund for order #{escalate_order_id} from our billing team."),
    ("refund-above-limit", B, "Billing will follow up within 2 business hours."),
]
CONTROL = [("refund-above-limit", B, "Billing will refund order #{escalate_order_id} in full.")]
p, t = over_families("payout promise", lambda c: c, CLAIMS)
q, u = over_families("control (known T1 form)", lambda c: c, CONTROL)
print(f"TOTAL payout promises: {p}/{t} passed (should be 0); control {q}/{u}")
