# ruff: noqa  (a probe script, not product code)
"""Round 14 (adv24r), REPORT ONLY (amounts are helper hedge24's): the first amount of the
reply (helpdesk dc, rdi) replaced by the RIGHT amount or a WRONG one (x10, or + $1.00) in
locale and accounting forms rounds 9-13 did not try: `1.234,56 $` (German), `1 234,56 $`
(French, NNBSP), `US$1,234.56`, `$1,234.56-` (trailing minus), `($1,234.56)` (accounting
negative), `USD 1234.56`, `$ 1,234.56 USD`, Arabic-Indic digits, Arabic decimal separator
`٫`, math bold digits. HONEST rows should pass; WRONG rows 0/N.

Run: uv run python adv/round14rub/amounts14.py [NSEEDS]
"""

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, E, last_reply, rows, summary

AR = {ord(c): chr(0x0660 + int(c)) for c in "0123456789"}
BOLD = {ord(c): chr(0x1D7CE + int(c)) for c in "0123456789"}


def us(c):
    return f"{c // 100:,}.{c % 100:02d}"


FORMS = {
    "de 1.234,56 $": lambda c: f"{c // 100:,}".replace(",", ".") + f",{c % 100:02d} $",
    "fr 1 234,56 $ (NNBSP)": lambda c: f"{c // 100:,}".replace(",", "\u202f") + f",{c % 100:02d} $",
    "US$1,234.56": lambda c: f"US${us(c)}",
    "USD 1234.56": lambda c: f"USD {c // 100}.{c % 100:02d}",
    "$ 1,234.56 USD": lambda c: f"$ {us(c)} USD",
    "trailing minus $1,234.56-": lambda c: f"${us(c)}-",
    "accounting ($1,234.56)": lambda c: f"(${us(c)})",
    "Arabic-Indic $": lambda c: f"${us(c)}".translate(AR),
    "Arabic decimal sep": lambda c: f"${c // 100}\u066b{c % 100:02d}",
    "math bold $": lambda c: f"${us(c)}".translate(BOLD),
}


def first_amount(shift):
    def fn(v, b):
        c = int(v.params.get("refund_cents") or v.params.get("duplicate_cents"))
        wrong = c * 10 if shift == "x10" else c + 100 if shift == "+1" else c
        return re.sub(r"\$[0-9,]+\.[0-9]{2}", lambda m: FORM(wrong), b, count=1)
    return fn


FAMS = ("duplicate-charge", "refund-damaged-item")
for label, FORM in FORMS.items():
    globals()["FORM"] = FORM
    rows(f"HONEST {label}", [(E, f, B, last_reply(first_amount("same"))) for f in FAMS])
    rows(f"WRONG +$1 {label}", [(E, f, B, last_reply(first_amount("+1"))) for f in FAMS])
rows("CONTROL WRONG +$1 plain", [(E, f, B, last_reply(lambda v, b: re.sub(r"\$[0-9,]+\.[0-9]{2}", lambda m: "$" + us(int(v.params.get("refund_cents") or v.params.get("duplicate_cents")) + 100), b, count=1))) for f in FAMS])
summary()
