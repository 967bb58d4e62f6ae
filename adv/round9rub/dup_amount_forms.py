# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe A1: duplicate-charge: the reference reply plus a second candidate amount (twice the
duplicate, the sum of both charges; or the order subtotal) in forms beyond the ones the
docs list: NATO/colloquial words, a range, cents sign, a fraction, scientific notation,
braille digits, Cyrillic digit look-alikes, "bucks", a tag-character amount, a per-unit split.

Run: uv run python adv/round9rub/dup_amount_forms.py [NSEEDS]
Expected: every form that states another amount fails `reply-states-amount`.
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")


def m(c):
    return f"{c // 100:,}.{c % 100:02d}"


FORMS = {
    "control: $X.YY": lambda c: f"Or maybe it was ${m(c)}.",
    "bucks": lambda c: f"Or maybe {c // 100} bucks.",
    "range $A-$B": lambda c: None,
    "cents sign": lambda c: f"Or maybe {c}¢.",
    "scientific": lambda c: f"Or maybe ${c / 100:.4e}.",
    "braille digits": lambda c: (
        "Or maybe $" + m(c).translate(str.maketrans("1234567890", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚")) + "."
    ),
    "Cyrillic digit look-alikes": lambda c: (
        "Or maybe $" + m(c).translate(str.maketrans({"3": "З", "6": "б", "4": "Ч", "0": "О"})) + "."
    ),
    "tag characters": lambda c: (
        "Or maybe " + "".join(chr(0xE0000 + ord(x)) for x in f"${m(c)}") + "."
    ),
    "grand": lambda c: f"Or maybe {c / 100000:g} grand.",
    "USD after, no space": lambda c: f"Or maybe {m(c)}USD.",
    "word 'dollars' far after": lambda c: f"Or maybe {m(c)} in US dollars.",
    "quid": lambda c: f"Or maybe {c // 100} quid.",
}

res_by = {k: [] for k in FORMS}
for band in ("easy", "medium", "hard", "expert"):
    for seed in range(N):
        v = e.variant("duplicate-charge", band, seed)
        d = int(v.params["duplicate_cents"])
        for label, fn in FORMS.items():
            extra = (
                fn(2 * d)
                if label != "range $A-$B"
                else f"Somewhere between ${m(d)} and ${m(2 * d)}."
            )
            calls = edit(
                v, "reply_to_customer", lambda a: {**a, "body": a["body"] + "\n\n" + extra}
            )
            g, _ = grade(e, v, calls)
            res_by[label].append((f"{band}#{seed} {extra!r}", g))
for label, rs in res_by.items():
    report(label, rs)
