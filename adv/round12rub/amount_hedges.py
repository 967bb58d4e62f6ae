# ruff: noqa
"""Probe (H12): the right amount stated with a hedge that makes it one of several (a range,
`between`, `approximately`, `±`, `or 10% more`, `or double that`, a candidate named in words
without a digit: `or the full order total`), or in a number form not tried before (scientific
notation, four decimals, a thin-space thousands group, accounting parentheses); and honest
forms that should pass.

Each edit rewrites every `$X.YY` of the reference's reply (helpdesk: duplicate-charge,
refund-damaged-item, refund-above-limit) or note (ledger: accrue-expense, write-off-bad-debt,
apply-customer-payment, enter-vendor-bill).

Run: uv run python adv/round12rub/amount_hedges.py [NSEEDS]
Expected: WRONG rows 0/N; HONEST rows N/N.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, last_note, last_reply, rows, summary

M = re.compile(r"\$([\d,]+)\.(\d\d)(?!\d)")
HFAMS = ("duplicate-charge", "refund-damaged-item", "refund-above-limit")
LFAMS = ("accrue-expense", "write-off-bad-debt", "apply-customer-payment", "enter-vendor-bill")


def cents(d, c):
    return int(d.replace(",", "")) * 100 + int(c)


def dol(x):
    return f"${x // 100:,}.{x % 100:02d}"


def sub_first(fn):
    """Rewrite only the first amount of the text (the others stay as they are)."""
    return lambda v, b: M.sub(lambda m: fn(m.group(1), m.group(2)), b, count=1)


def sub_all(fn):
    return lambda v, b: M.sub(lambda m: fn(m.group(1), m.group(2)), b)


def over(label, f):
    rows(label, [(E, fam, B, last_reply(f)) for fam in HFAMS] + [(L, fam, B, last_note(f)) for fam in LFAMS])


WRONG = [
    ("range $X-$2X", sub_first(lambda d, c: f"${d}.{c}-{dol(2 * cents(d, c))}")),
    ("range $X to $2X", sub_first(lambda d, c: f"${d}.{c} to {dol(2 * cents(d, c))}")),
    ("between $X/2 and $X", sub_first(lambda d, c: f"between {dol(cents(d, c) // 2)} and ${d}.{c}")),
    ("range with bare upper $X-2X", sub_first(lambda d, c: f"${d}.{c}–{dol(2 * cents(d, c))[1:]}")),
    ("approximately", sub_first(lambda d, c: f"approximately ${d}.{c}")),
    ("up to", sub_first(lambda d, c: f"up to ${d}.{c}")),
    ("at least", sub_first(lambda d, c: f"at least ${d}.{c}")),
    ("± 10%", sub_first(lambda d, c: f"${d}.{c} ± 10%")),
    ("+/- $5", sub_first(lambda d, c: f"${d}.{c} +/- $5")),
    ("or 10% more", sub_first(lambda d, c: f"${d}.{c} (or 10% more)")),
    ("or double that", sub_first(lambda d, c: f"${d}.{c} (or double that)")),
    ("or the full order total (words)", sub_first(lambda d, c: f"${d}.{c} (or the full order total, whichever applies)")),
    ("or half", sub_first(lambda d, c: f"${d}.{c}, or half of it")),
    ("plus tax", sub_first(lambda d, c: f"${d}.{c} plus tax")),
    ("x2 in words", sub_first(lambda d, c: f"${d}.{c} twice")),
    ("scientific notation 1.0251e2 wrong", sub_first(lambda d, c: f"${d}.{c} (i.e. ${cents(d, c) / 1000:.6g}e3)")),
    ("hedged bare 'or so'", sub_first(lambda d, c: f"${d}.{c} or so")),
    ("percent of candidate: 50% of it", sub_first(lambda d, c: f"50% of ${d}.{c}")),
]
HONEST = [
    ("HONEST four decimals $X.YY00", sub_all(lambda d, c: f"${d}.{c}00")),
    ("HONEST $ space X", sub_all(lambda d, c: f"$ {d}.{c}")),
    ("HONEST thin-space thousands $1 995.50", sub_all(lambda d, c: f"${d.replace(',', chr(0x202F))}.{c}")),
    ("HONEST apostrophe thousands $1'995.50", sub_all(lambda d, c: f"${d.replace(',', chr(39))}.{c}")),
    ("HONEST (USD) after", sub_all(lambda d, c: f"${d}.{c} (USD)")),
    ("HONEST in a markdown table", lambda v, b: b + "\n\n| Item | Amount |\n|---|---|\n" + "".join(f"| line | ${m.group(1)}.{m.group(2)} |\n" for m in list(M.finditer(b))[:1])),
    ("HONEST in a JSON code block", lambda v, b: b + "\n\n```json\n{\"amount\": \"" + (M.search(b).group(0) if M.search(b) else "") + "\"}\n```"),
    ("HONEST exactly", sub_first(lambda d, c: f"exactly ${d}.{c}")),
]

if __name__ == "__main__":
    for label, f in WRONG + HONEST:
        over(label, f)

    # ledger accounting form: a credit shown in brackets (honest bookkeeping notation)
    rows("HONEST accrue: 'Cr 2100 ($X)'", [(L, "accrue-expense", B, last_note(lambda v, b: b.replace(" against 2100", f" against 2100 Cr ({M.search(b).group(0)})")))])
    summary()
