# ruff: noqa
"""Probe (A11): the note's amount in a form that does not state it in dollars or states another
figure: another currency (EUR, euros, GBP, `€`), a minus sign, a third decimal that rounds to it
(`$X.XX5`, `$X.XX4`), the European separators (`1.995,50 $`), `k`; and honest forms that should
pass (`USD 1,995.50`, `1,995.50 USD`, `1995.50 dollars`, `$1995.50`).

Run: uv run python adv/round11rub/ledger_amount_forms11.py [NSEEDS]
Expected: the first group fails (the note does not state the dollar amount), the second passes.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, note, run

FAMS = ("accrue-expense", "write-off-bad-debt", "apply-customer-payment", "enter-vendor-bill")
M = re.compile(r"\$([\d,]+)\.(\d\d)")


def each(fn):
    return note(lambda v, b: M.sub(lambda m: fn(m.group(1), m.group(2)), b))


WRONG = [
    ("EUR prefix", lambda d, c: f"EUR {d}.{c}"),
    ("euros suffix", lambda d, c: f"{d}.{c} euros"),
    ("euro sign", lambda d, c: f"€{d}.{c}"),
    ("pound sign", lambda d, c: f"£{d}.{c}"),
    ("minus sign", lambda d, c: f"-${d}.{c}"),
    ("parenthesised negative", lambda d, c: f"(${d}.{c})"),
    ("third decimal 5", lambda d, c: f"${d}.{c}5"),
    ("third decimal 9", lambda d, c: f"${d}.{c}9"),
    ("CAD", lambda d, c: f"CA${d}.{c}"),
    ("AUD", lambda d, c: f"A${d}.{c}"),
    ("thousand cents", lambda d, c: f"{d.replace(',', '')}{c} cents" if False else f"${d}.{c}0"),
]
HONEST = [
    ("USD prefix", lambda d, c: f"USD {d}.{c}"),
    ("USD suffix", lambda d, c: f"{d}.{c} USD"),
    ("dollars suffix", lambda d, c: f"{d}.{c} dollars"),
    ("no thousands comma", lambda d, c: f"${d.replace(',', '')}.{c}"),
    ("US$", lambda d, c: f"US${d}.{c}"),
]
for label, fn in WRONG + HONEST:
    tot = [0, 0]
    for fam in FAMS:
        p, n = run(f"{label}: {fam}", L, fam, B, each(fn))
        tot[0] += p
        tot[1] += n
    print(f"#### {label}: {tot[0]}/{tot[1]} passed")
