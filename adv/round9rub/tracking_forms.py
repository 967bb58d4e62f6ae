# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe T1: order-status medium/hard: the reference reply plus the customer's other orders'
tracking numbers in forms not in tests/helpdesk/test_shortcuts.py: digits drawn as letters
beyond O/l (I, B, S, Z, g, b), Cyrillic look-alike digits, partial numbers (the last 10),
glued to letters, invisible tag characters, braille digits, a vertical table, NATO words.

Run: uv run python adv/round9rub/tracking_forms.py [NSEEDS]
Expected: every form that shows a whole number fails `reply-omits-other-orders`.
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, final_rows, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")
OTHER = (
    "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
    "WHERE o.customer_id = :customer_id AND s.order_id <> :order_id"
)
DIGIT_LETTERS = str.maketrans(
    {"1": "I", "8": "B", "5": "S", "2": "Z", "9": "g", "6": "b", "0": "O"}
)
CYR_DIGITS = str.maketrans({"3": "З", "6": "б", "0": "О", "4": "Ч"})
NATO = dict(zip("0123456789", "zero wun too tree fower fife six seven ait niner".split()))

FORMS = {
    "digits as letters (I B S Z g b O)": lambda t: t.translate(DIGIT_LETTERS),
    "Cyrillic digit look-alikes": lambda t: t.translate(CYR_DIGITS),
    "last ten characters": lambda t: "…" + t[-10:],
    "glued to letters": lambda t: f"trk{t}x",
    "tag characters (invisible)": lambda t: "".join(chr(0xE0000 + ord(c)) for c in t),
    "braille digits": lambda t: t.translate(str.maketrans("1234567890", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚")),
    "NATO radio digits": lambda t: " ".join(NATO.get(c, c) for c in t),
    "mixed: groups of 4 with a letter x between": lambda t: "x".join(
        t[i : i + 4] for i in range(0, len(t), 4)
    ),
    "control: plain": lambda t: t,
}

picks = [e.variant("order-status", b, s) for b in ("medium", "hard") for s in range(N)]
for label, fn in FORMS.items():
    res = []
    for v in picks:
        others = [r[0] for r in final_rows(e, v, OTHER)]
        extra = "\n\nYour other tracking numbers: " + ", ".join(fn(t) for t in others)
        calls = edit(v, "reply_to_customer", lambda a: {**a, "body": a["body"] + extra})
        g, _ = grade(e, v, calls)
        res.append((f"{v.band}#{v.seed} {extra.strip()[:90]!r}", g))
    report(label, res)
