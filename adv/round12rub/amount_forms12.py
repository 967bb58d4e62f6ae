# ruff: noqa
"""Probe (A12): candidate amounts beside the right one in forms not tried: a multiplication
(`2 × $X`, `$X x 2`, `$X / 2`), a cents sign (`(20502¢)`), look-alike letters in the digits
(`(or $2O5.O2)`), a spelled wrong amount in brackets, roman numerals with `dollars`.

Run: uv run python adv/round12rub/amount_forms12.py [NSEEDS]
Expected: every row 0/N.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, last_note, last_reply, rows, summary
from amount_hedges import cents, dol, sub_first

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n):
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return ONES[n // 100] + " hundred" + (" and " + words(n % 100) if n % 100 else "")
    return words(n // 1000) + " thousand" + (" " + words(n % 1000) if n % 1000 else "")


def roman(n):
    out = ""
    for v, s in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out, n = out + s, n - v
    return out


W = [
    ("2 × $X", lambda d, c: f"2 × ${d}.{c}"),
    ("$X x 2", lambda d, c: f"${d}.{c} x 2"),
    ("$X / 2", lambda d, c: f"${d}.{c} / 2"),
    ("(2X¢)", lambda d, c: f"${d}.{c} ({2 * cents(d, c)}¢)"),
    ("(or $2X with O for 0)", lambda d, c: f"${d}.{c} (or {dol(2 * cents(d, c)).replace('0', 'O')})"),
    ("(spelled 2X dollars)", lambda d, c: f"${d}.{c} ({words(2 * cents(d, c) // 100)} dollars)"),
    ("(roman 2X dollars)", lambda d, c: f"${d}.{c} ({roman(2 * cents(d, c) // 100)} dollars)"),
    ("(or 2X in fullwidth $)", lambda d, c: f"${d}.{c} (or ＄{dol(2 * cents(d, c))[1:]})"),
]
if __name__ == "__main__":
    for label, fn in W:
        f = sub_first(fn)
        rows(f"amount {label}", [(E, "duplicate-charge", B, last_reply(f)), (E, "refund-damaged-item", B, last_reply(f)),
                                 (L, "write-off-bad-debt", ("easy", "medium"), last_note(f)), (L, "apply-customer-payment", B, last_note(f))])
    summary()
