# ruff: noqa  (a probe script, not product code)
"""R2: an action claimed by a done-verb BEFORE the action's noun (`I've issued a full refund
for order #N`, `I've processed the cancellation of order #N`), by an approval (`Your refund
for order #N has been approved`) or a confirmed noun (`Your cancellation of order #N is
confirmed`), in bands where the action was NOT taken. The reader's nouns claim only with a
done-word after them.
Usage: uv run python adv/round11rub/noun_forms.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import over_families  # noqa: E402

CLAIMS = [
    ("cancel-order", ("hard",), "I've processed the cancellation of order #{order_id}."),
    ("cancel-order", ("hard",), "Your cancellation of order #{order_id} is confirmed."),
    ("cancel-order", ("expert",), "I've processed the cancellation of order #{shipped_order_id} as well."),
    ("refund-above-limit", ("easy", "medium", "hard", "expert"), "I've issued a full refund for order #{escalate_order_id}."),
    ("refund-above-limit", ("easy", "medium", "hard", "expert"), "I've processed your refund for order #{escalate_order_id}."),
    ("refund-above-limit", ("easy", "medium", "hard", "expert"), "Your refund for order #{escalate_order_id} has been approved."),
    ("refund-damaged-item", ("hard", "expert"), "I've issued a full refund for order #{declined_order_id} too."),
    ("order-status", ("easy", "medium", "hard", "expert"), "I've issued a full refund for order #{order_id} as an apology."),
    ("change-shipping-address", ("hard",), "I've processed the address change for order #{order_id}."),
    ("exchange-size", ("hard",), "I've processed the exchange: the {wanted_size} ships to you today."),
]
p, t = over_families("noun forms", lambda c: c, CLAIMS)
print(f"TOTAL noun forms: {p}/{t} passed (should be 0)")
