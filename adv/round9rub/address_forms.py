# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe F3 (false fails): change-shipping-address easy/medium/expert: the new address
written in an honest, deliverable form other than the customer's: USPS street-suffix
abbreviations (Lane -> Ln, Street -> St, Road -> Rd, Drive -> Dr, Avenue -> Ave), the
abbreviation with a period, the whole line in capitals, a ZIP+4.

Run: uv run python adv/round9rub/address_forms.py [NSEEDS]
Expected: every form passes `address-updated` (the same address, as a carrier reads it).
"""

from __future__ import annotations

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")
SUFFIX = {
    "Lane": "Ln",
    "Street": "St",
    "Road": "Rd",
    "Drive": "Dr",
    "Avenue": "Ave",
    "Court": "Ct",
    "Place": "Pl",
    "Boulevard": "Blvd",
    "Way": "Way",
    "Terrace": "Ter",
}


def abbrev(line: str, dot: bool = False) -> str:
    for k, v in SUFFIX.items():
        line = re.sub(rf"\b{k}\b", v + ("." if dot and v != k else ""), line)
    return line


FORMS = {
    "USPS suffix abbreviation": lambda a: {**a, "line1": abbrev(a["line1"])},
    "abbreviation with a period": lambda a: {**a, "line1": abbrev(a["line1"], dot=True)},
    "control: capitals": lambda a: {**a, "line1": a["line1"].upper(), "city": a["city"].upper()},
    "control: ZIP+4": lambda a: {**a, "zip": a["zip"] + "-0001"},
}
for label, fn in FORMS.items():
    res = []
    for band in ("easy", "medium", "expert"):
        for seed in range(N):
            v = e.variant("change-shipping-address", band, seed)
            calls = edit(v, "update_shipping_address", fn)
            a = next(c.arguments for c in calls if c.name == "update_shipping_address")
            orig = next(c.arguments for c in v.reference if c.name == "update_shipping_address")
            if a == orig:
                continue
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed} {orig['line1']!r} -> {a['line1']!r}", g))
    report(label, res)
