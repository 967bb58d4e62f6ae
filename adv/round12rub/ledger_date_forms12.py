# ruff: noqa
"""Probe (D12l): ledger notes' dates replaced by a WRONG date (+1 month... here +30 days) in
the forms `date_forms12.py` uses (ordinal words, `30-Apr-2026`, roman month, ISO week, no
year), and the RIGHT date in them (HONEST). Families whose notes state dates in roles:
accrue-expense, correct-misposted-entry, apply-customer-payment, closed-period-posting.

Run: uv run python adv/round12rub/ledger_date_forms12.py [NSEEDS]
Expected: WRONG rows 0/N; HONEST rows N/N.
"""

import datetime as dt, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, L, last_note, rows, summary
from date_forms12 import FORMS, ISO  # noqa: E402  (runs nothing at import: guarded below)

FAMS = ("accrue-expense", "correct-misposted-entry", "apply-customer-payment", "closed-period-posting")


def mut(shift, f):
    def go(v, b):
        return ISO.sub(lambda m: f(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))) + dt.timedelta(days=shift)), b)
    return go


for label, f in FORMS:
    rows(f"WRONG note dates +30d: {label}", [(L, fam, B, last_note(mut(30, f))) for fam in FAMS])
for label, f in FORMS:
    rows(f"HONEST note dates: {label}", [(L, fam, B, last_note(mut(0, f))) for fam in FAMS])
summary()
