# ruff: noqa  (a probe script, not product code)
"""Stop 25 (issue 9 §4 item 2): a ledger note naming the NEXT invoice (or vendor bill) by its
number alone, no year nor prefix (WRONG, should be 0/N), and the note's own one so written
(HONEST, should be N/N); and ``INV 2026-152`` beside a note of a family with no invoice
roles (HONEST: a document's number, no ordinal date).

Run: uv run python adv/round15rub/fut25_invoice.py [NSEEDS]
"""

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import B, L, last_note, rows, summary

INV = re.compile(r"INV-\d{4}-(\d{4})")
REF = re.compile(r"\b[A-Z]{4}-(\d{4})\b")


def shifted(pattern, form, shift):
    def mut(v):
        def body(v_, b):
            new = pattern.sub(lambda m: form.format(n=int(m.group(1)) + shift), b)
            return new if new != b else None

        calls = last_note(body)(v)
        if calls is None or any(
            c.name == "add_note" and c.arguments["body"] is None for c in calls
        ):
            return None
        return calls

    return mut


for form in ("invoice {n}", "Invoice #{n}", "invoice no. {n}", "#{n}"):
    rows(
        f"WRONG wo e/m: INV+1 as '{form}'",
        [(L, "write-off-bad-debt", ("easy", "medium"), shifted(INV, form, 1))],
    )
    rows(
        f"HONEST wo e/m: own INV as '{form}'",
        [(L, "write-off-bad-debt", ("easy", "medium"), shifted(INV, form, 0))],
    )
for form in ("bill {n}", "bill #{n}", "invoice {n}"):
    rows(f"WRONG evb: ref+1 as '{form}'", [(L, "enter-vendor-bill", B, shifted(REF, form, 1))])
    rows(f"HONEST evb: own ref as '{form}'", [(L, "enter-vendor-bill", B, shifted(REF, form, 0))])
for fam in ("accrue-expense", "correct-misposted-entry", "closed-period-posting"):
    rows(
        f"HONEST {fam}: + '(vendor invoice INV 2026-152)'",
        [(L, fam, B, last_note(lambda v, b: b + " (vendor invoice INV 2026-152)"))],
    )
summary()
