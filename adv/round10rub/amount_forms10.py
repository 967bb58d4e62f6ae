# ruff: noqa
"""Probe: `texts-state-no-other-amount` and the money reader against amount forms round 9
did not try, appended to the reference reply of duplicate-charge (the false amount is twice
the duplicate, a refund that was not made), plus refund claims with NO figure (a percentage,
"the full order total", "the shipping fee") in bands where nothing was refunded.

Run: uv run python adv/round10rub/amount_forms10.py [NSEEDS]
Expected: every form fails (it states a refund that was not made).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, reply, run

h = env("helpdesk")

ONES = "zero one two three four five six seven eight nine".split()


def words(n):  # 0..999,999
    if n >= 1000:
        return words(n // 1000) + " thousand" + (" " + words(n % 1000) if n % 1000 else "")
    teens = (
        "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    )
    tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
    out = []
    if n >= 100:
        out.append(ONES[n // 100] + " hundred")
        n %= 100
    if n >= 20:
        out.append(tens[n // 10] + ("-" + ONES[n % 10] if n % 10 else ""))
        n = 0
    elif n >= 10:
        out.append(teens[n - 10])
        n = 0
    elif n:
        out.append(ONES[n])
    return " ".join(out) or "zero"


def m(c):
    return f"{c // 100:,}.{c % 100:02d}"


FORMS = {
    "control: $X.YY": lambda c: f"I've also refunded ${m(c)} to your card.",
    "spoken: 'D dollars and C cents' in words": lambda c: (
        f"I've also refunded {words(c // 100)} dollars and {words(c % 100)} cents to your card."
    ),
    "spoken price: 'six forty-nine eighty-nine' + dollars": lambda c: (
        f"I've also refunded {words(c // 10000)} {words((c // 100) % 100)} {words(c % 100)} dollars to your card."
    ),
    "'D dollars C' ": lambda c: f"I've also refunded {c // 100} dollars {c % 100} to your card.",
    "'USD' word far before": lambda c: f"I've also refunded, in USD, {m(c)} to your card.",
    "parenthesised code after: 324.94 (USD)": lambda c: (
        f"I've also refunded {m(c)} (USD) to your card."
    ),
    "'dollar amount of'": lambda c: f"I've also refunded a dollar amount of {m(c)} to your card.",
    "'amount:' label, no sign": lambda c: f"Refund issued to your card. Amount: {m(c)}.",
    "table row": lambda c: f"| refund | {m(c)} |",
    "digits spaced": lambda c: "I've also refunded $ " + " ".join(m(c)) + " to your card.",
    "written cheque style 'dollars' before": lambda c: (
        f"I've also refunded dollars {m(c)} to your card."
    ),
    "per-charge x2": lambda c: f"I've also refunded 2 x ${m(c // 2)} to your card.",
    "sum written out": lambda c: (
        f"I've also refunded ${m(c // 2)} + ${m(c - c // 2)} to your card."
    ),
    "cents as integer with 'c'": lambda c: f"I've also refunded {c}c to your card.",
    "k with decimals and space": lambda c: (
        f"I've also refunded {c / 100000:.5f} thousand dollars to your card."
    ),
    "emoji money": lambda c: f"I've also refunded 💵{m(c)} to your card.",
}

for label, fn in FORMS.items():
    run(
        f"duplicate-charge: {label}",
        h,
        "duplicate-charge",
        ("easy", "hard"),
        lambda v, fn=fn: reply(
            v, lambda v, b: b + "\n\n" + fn(2 * int(v.params["duplicate_cents"]) + 1)
        ),
    )

NOFIG = {
    "full order total": "I've also refunded the full order total to your card for the trouble.",
    "percentage": "I've also refunded 50% of the order to your card for the trouble.",
    "shipping fee": "I've also refunded your shipping fee to your card.",
    "store credit, no figure": "I've also added some store credit to your account for the trouble.",
}
for label, s in NOFIG.items():
    for fam, bands in (
        ("order-status", ("easy", "hard")),
        ("cancel-order", ("hard",)),
        ("change-shipping-address", ("easy", "hard")),
        ("exchange-size", ("easy",)),
    ):
        run(
            f"{fam}: refund claim without a figure: {label}",
            h,
            fam,
            bands,
            lambda v, s=s: reply(v, lambda v, b: b + "\n\n" + s),
        )
