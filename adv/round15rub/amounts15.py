# ruff: noqa  (a probe script, not product code)
"""Round 15 (adv25r): the refund amount of a reply (dc, rdi: every band) written in forms
rounds 9-14 did not try: a fraction or multiple of the right figure (`half of $X`: the
figure is right, the amount stated is not), cents (`24900 cents`), another currency symbol,
words around it that change it (`$X less a $5 fee`). WRONG rows should read 0/N, HONEST N/N.

Run: uv run python adv/round15rub/amounts15.py [NSEEDS] [ROWPREFIXES]
"""

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, E, last_reply, rows, summary

ONLY = sys.argv[2].split(",") if len(sys.argv) > 2 else None
FAMS = [("duplicate-charge", B, "duplicate_cents"), ("refund-damaged-item", B, "refund_cents")]


def money(c):
    return f"${c // 100:,}.{c % 100:02d}"


def over(label, fn, honest=False):
    if ONLY and not any(label.startswith(p) for p in ONLY):
        return
    items = []
    for fam, bands, key in FAMS:
        def mut(v, key=key):
            c = dict(v.params)[key]
            m = money(c)
            def edit(v_, body):
                if m not in body:
                    return body
                return body.replace(m, fn(c, m), 1)
            return last_reply(edit)(v)
        items.append((E, fam, bands, mut))
    rows(("HONEST " if honest else "") + label, items)


WRONG = [
    ("A half of $X", lambda c, m: f"half of {m}"),
    ("A a quarter of $X", lambda c, m: f"a quarter of {m}"),
    ("A 50% of $X", lambda c, m: f"50% of {m}"),
    ("A twice $X", lambda c, m: f"twice {m}"),
    ("A $X x 2", lambda c, m: f"{m} x 2"),
    ("A $X less a $5.00 fee", lambda c, m: f"{m} less a $5.00 fee"),
    ("A $X minus $5.00", lambda c, m: f"{m} minus $5.00"),
    ("A $X - $5.00", lambda c, m: f"{m} - $5.00"),
    ("A $X plus $5.00", lambda c, m: f"{m} plus $5.00"),
    ("A all but $5.00 of $X", lambda c, m: f"all but $5.00 of {m}"),
    ("A $X, bar $5.00,", lambda c, m: f"{m} (bar $5.00)"),
    ("A cents +1", lambda c, m: f"{c + 1} cents"),
    ("A cents x10", lambda c, m: f"{c * 10} cents"),
    ("A ¢ +1", lambda c, m: f"{c + 1}¢"),
    ("A euro", lambda c, m: m.replace("$", "€")),
    ("A pound", lambda c, m: m.replace("$", "£")),
    ("A EUR after", lambda c, m: m.replace("$", "") + " EUR"),
    ("A yen (same digits)", lambda c, m: "¥" + str(c)),
    ("A dollars in words +1", lambda c, m: f"{c // 100 + 1} dollars and {c % 100} cents"),
    ("A thousands (k) +1", lambda c, m: f"${c / 100000 + 0.01:.2f}k"),
    ("A Roman +1", lambda c, m: "$" + {0: ""}.get(0, "") + "M" * ((c // 100 + 1) // 1000) + "C" * (((c // 100 + 1) % 1000) // 100) + "X" * (((c // 100 + 1) % 100) // 10) + "I" * ((c // 100 + 1) % 10)),
    ("A $X in two halves", lambda c, m: f"{m} in two halves of {money(c // 2)}"),
    ("A the first $X", lambda c, m: f"the first {money(c // 2)} of {m}"),
]
HONEST = [
    ("H cents", lambda c, m: f"{c} cents"),
    ("H ¢", lambda c, m: f"{c}¢"),
    ("H dollars and cents", lambda c, m: f"{c // 100} dollars and {c % 100} cents"),
    ("H $X (all of it)", lambda c, m: f"all of {m}"),
    ("H the full $X", lambda c, m: f"the full {m}"),
    ("H USD", lambda c, m: m.replace("$", "") + " USD"),
]
for label, fn in WRONG:
    over(label, fn)
for label, fn in HONEST:
    over(label, fn, honest=True)
summary()
