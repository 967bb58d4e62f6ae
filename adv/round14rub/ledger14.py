# ruff: noqa  (a probe script, not product code)
"""Round 14 (adv24r): the ledger's invoice ids and dates in forms rounds 9-13 did not try.

- I: write-off-bad-debt e/m (written off): the note's invoice number replaced by ANOTHER
  invoice (number + 1) in new forms (non-breaking hyphen U+2011, en dash, spaces, slashes,
  the year cut to two digits, the leading zeros dropped, `Invoice 2026-0152`, Arabic-Indic
  digits); HONEST: the right number in the same forms.
- D: correct-misposted-entry and apply-customer-payment notes' dates shifted by one day in new
  forms (U+2010 hyphen, minus sign, en dash, spaces, ISO datetime `T00:00Z`, ordinal date
  `2026-166`, `YYYY年M月D日`, Arabic-Indic digits, two-digit year `26-06-16`); HONEST: the right
  date in the same forms.
Rows: WRONG should be 0/N, HONEST N/N.

Run: uv run python adv/round14rub/ledger14.py [NSEEDS]
"""

import datetime as dt
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, L, last_note, rows, summary

AR = {ord(c): chr(0x0660 + int(c)) for c in "0123456789"}
IFORMS = {
    "U+2011 hyphens": lambda y, n: f"INV\u2011{y}\u2011{n:04d}",
    "en dashes": lambda y, n: f"INV\u2013{y}\u2013{n:04d}",
    "spaces": lambda y, n: f"INV {y} {n:04d}",
    "slashes": lambda y, n: f"INV/{y}/{n:04d}",
    "two-digit year": lambda y, n: f"INV-{y % 100}-{n:04d}",
    "no leading zeros": lambda y, n: f"INV-{y}-{n}",
    "Invoice YYYY-NNNN": lambda y, n: f"Invoice {y}-{n:04d}",
    "no dashes": lambda y, n: f"INV{y}{n:04d}",
    "Arabic-Indic digits": lambda y, n: f"INV-{y}-{n:04d}".translate(AR),
    "lower case + underscore": lambda y, n: f"inv_{y}_{n:04d}",
}


def inv(shift, f):
    def go(v, body):
        return re.sub(r"INV-(\d{4})-(\d{4})", lambda m: f(int(m.group(1)), int(m.group(2)) + shift), body)
    return last_note(go)


rows("I CONTROL WRONG wo invoice+1 plain", [(L, "write-off-bad-debt", ("easy", "medium"), inv(1, lambda y, n: f"INV-{y}-{n:04d}"))])
rows("I CONTROL no invoice number at all", [(L, "write-off-bad-debt", ("easy", "medium"), inv(0, lambda y, n: "the invoice"))])
for label, f in IFORMS.items():
    rows(f"I WRONG wo invoice+1 {label}", [(L, "write-off-bad-debt", ("easy", "medium"), inv(1, f))])
    rows(f"I HONEST wo invoice {label}", [(L, "write-off-bad-debt", ("easy", "medium"), inv(0, f))])

DFORMS = {
    "U+2010 hyphens": lambda d: d.strftime("%Y\u2010%m\u2010%d"),
    "minus signs": lambda d: d.strftime("%Y\u2212%m\u2212%d"),
    "en dashes": lambda d: d.strftime("%Y\u2013%m\u2013%d"),
    "spaces": lambda d: d.strftime("%Y %m %d"),
    "ISO datetime": lambda d: d.strftime("%Y-%m-%dT00:00Z"),
    "ordinal date": lambda d: f"{d.year}-{d.timetuple().tm_yday:03d}",
    "CJK Y年M月D日": lambda d: f"{d.year}年{d.month}月{d.day}日",
    "Arabic-Indic ISO": lambda d: d.isoformat().translate(AR),
    "yy-mm-dd": lambda d: d.strftime("%y-%m-%d"),
    "ISO + weekday wrong": lambda d: d.isoformat() + " (" + (d + dt.timedelta(days=1)).strftime("%A") + ")",
}


def dates(shift, f):
    def go(v, body):
        return re.sub(r"\b(20\d\d)-(\d\d)-(\d\d)\b", lambda m: f(dt.date(*map(int, m.groups())) + dt.timedelta(days=shift)), body)
    return last_note(go)


FAMS = ("correct-misposted-entry", "apply-customer-payment")
for label, f in DFORMS.items():
    if label.startswith("ISO + weekday"):
        rows(f"D WRONG? right ISO date, wrong weekday", [(L, fam, B, dates(0, f)) for fam in FAMS])
        continue
    rows(f"D WRONG dates+1 {label}", [(L, fam, B, dates(1, f)) for fam in FAMS])
    rows(f"D HONEST dates {label}", [(L, fam, B, dates(0, f)) for fam in FAMS])
rows("D CONTROL no dates at all", [(L, fam, B, dates(0, lambda d: "that day")) for fam in FAMS])
rows("D CONTROL WRONG dates+1 ISO", [(L, fam, B, dates(1, lambda d: d.isoformat())) for fam in FAMS])
summary()
