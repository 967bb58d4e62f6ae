# ruff: noqa
"""Probe (D11): the note's dates written in another numeric form: the reference's ISO dates
replaced by a WRONG date (the accrual on 2026-04-30, the reversal on 2026-07-01, the posting
on the date asked / on 2026-05-15) written as `2026/04/30`, `30/04/2026`, `04/30/2026`,
`30.04.2026`, `20260430`, `2026-4-30`, `Apr 30 2026` (the known "dates in words" is round 10's
F2 and stays out of the count), and the RIGHT dates in the same forms (should pass).

Run: uv run python adv/round11rub/ledger_date_forms.py [NSEEDS]
Expected: every wrong-date mutant fails; every right-date form passes.
"""

import sys
from datetime import date

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, note, run

FORMS = {
    "slashes y/m/d": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",
    "d/m/y": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",
    "m/d/y": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "d.m.y": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    "yyyymmdd": lambda d: f"{d.year}{d.month:02d}{d.day:02d}",
    "unpadded ISO": lambda d: f"{d.year}-{d.month}-{d.day}",
    "ISO with T": lambda d: f"{d.isoformat()}T00:00:00Z",
}

# family, bands, {param of a date the note states: the wrong date}
CASES = [
    ("accrue-expense", B, {"accrual_date": "2026-04-30", "reversal_date": "2026-07-01"}),
    ("correct-misposted-entry", B, {"today": "2026-05-15"}),
    ("apply-customer-payment", B, {"payment_date": "2026-06-01"}),
]
CLOSED = ("closed-period-posting", ("easy", "medium", "expert"), {"@2026-05-01": "@issue_date"})


def swap(fmt, wrong: bool):
    def go(v, body):
        for p, w in CASE_MAP[v.family].items():
            if p.startswith("@"):
                right = p[1:]
                w = v.params[w[1:]]
            else:
                right = v.params[p]
            d = date.fromisoformat(w if wrong else right)
            body = body.replace(right, fmt(d))
        return body

    return note(go)


CASE_MAP = {f: m for f, _b, m in CASES + [CLOSED]}
for wrong in (True, False):
    for name, fmt in FORMS.items():
        tot = [0, 0]
        for fam, bands, _m in CASES + [CLOSED]:
            p, n = run(f"{'WRONG' if wrong else 'right'} {name}: {fam}", L, fam, bands, swap(fmt, wrong))
            tot[0] += p
            tot[1] += n
        print(f"#### {'WRONG' if wrong else 'right'} date as {name}: {tot[0]}/{tot[1]} passed")
