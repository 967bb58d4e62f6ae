# ruff: noqa  (a probe script, not product code)
"""R11: an invented identifier beside the right one: a second parcel with a tracking number
that exists nowhere (the right number with its last digits changed), a replacement or
return tracking number that was never issued. Amounts have a closed guard (any amount not
allowed fails); tracking numbers only forbid the customer's other orders' numbers.
Usage: uv run python adv/round11rub/invented_ids.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import over_families  # noqa: E402


def bump(t):
    t = str(t)
    return t[:-4] + f"{(int(t[-4:]) + 4321) % 10000:04d}"


class P(dict):
    def __missing__(self, k):
        base = k.removesuffix("_bumped")
        return bump(self[base])


CLAIMS = [
    ("order-status", ("easy", "medium"), "Part of the order ships separately in a second parcel, tracking number {tracking_number_bumped}."),
    ("order-status", ("hard", "expert"), "A third parcel is on its way too, tracking number {tracking_number_bumped}."),
    ("cancel-order", ("hard",), "If that number does not work, use tracking number {tracking_number_bumped}."),
    ("exchange-size", ("hard",), "Your return tracking number is {return_tracking_number_bumped}."),
    ("exchange-size", ("easy", "medium", "expert"), "Your replacement's tracking number is {return_tracking_number_bumped}."),
]
import _q  # noqa: E402

orig = _q.over_families


def fmt_over(label, frame, claims):
    tp = tt = 0
    for fam, bands, claim in claims:
        def text(v, claim=claim):
            return claim.format_map(P(dict(v.params)))
        p, t = _q.run(f"{label} | {fam} | {claim!r}", _q.E, fam, bands, _q.append(text))
        tp += p; tt += t
    return tp, tt


p, t = fmt_over("invented id", None, CLAIMS)
print(f"TOTAL invented identifiers: {p}/{t} passed (should be 0)")
