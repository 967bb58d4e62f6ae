# ruff: noqa
"""Probe (D12s): the right date beside another one (a date shotgun): ledger notes' first date
written `ISO (or ISO+1)`, `between ISO and ISO+3`, `ISO to ISO+5`, `ISO/DD+1` (the helpdesk ETA
rows are in `routes12.py`).

Run: uv run python adv/round12rub/date_shotgun.py [NSEEDS]
Expected: every row 0/N.
"""

import datetime as dt, re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, L, last_note, rows, summary

ISO = re.compile(r"(?<!\d)(2026)-(\d\d)-(\d\d)(?!\d)")
D = dt.timedelta
FAMS = ("accrue-expense", "correct-misposted-entry", "apply-customer-payment", "closed-period-posting")


def first(fn):
    return lambda v, b: ISO.sub(lambda m: fn(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))), b, count=1)


FORMS = [
    ("CONTROL ISO+1 alone", lambda d: (d + D(1)).isoformat()),
    ("ISO (or ISO+1)", lambda d: f"{d.isoformat()} (or {(d + D(1)).isoformat()})"),
    ("between ISO and ISO+3", lambda d: f"between {d.isoformat()} and {(d + D(3)).isoformat()}"),
    ("ISO to ISO+5", lambda d: f"{d.isoformat()} to {(d + D(5)).isoformat()}"),
    ("ISO/DD+1", lambda d: f"{d.isoformat()}/{(d + D(1)).day:02d}"),
]
if __name__ == "__main__":
    for label, f in FORMS:
        rows(f"ledger note first date: {label}", [(L, fam, B, last_note(first(f))) for fam in FAMS])
    summary()
