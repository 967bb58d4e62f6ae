# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe N3: the escalation's reason to the controller (ledger enter-vendor-bill hard,
write-off-bad-debt hard and expert) states a wrong amount: the amount in the reason doubled
(+1 cent), the limit sentence left as it is (not the limit-role work in flight); and the
accrual's journal memo with a wrong amount (accrue-expense).

Run: uv run python adv/round9rub/escalation_reason.py [NSEEDS]
Expected: every mutant fails (the controller decides on the reason's figure).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")


def m(c):
    return f"${c // 100:,}.{c % 100:02d}"


for fam, bands, param in (
    ("enter-vendor-bill", ("hard",), "total_cents"),
    ("write-off-bad-debt", ("hard", "expert"), "escalate_cents"),
):
    res = []
    for band in bands:
        for seed in range(N):
            v = e.variant(fam, band, seed)
            right = int(v.params[param])
            wrong = 2 * right + 1
            calls = edit(
                v, "escalate", lambda a: {**a, "reason": a["reason"].replace(m(right), m(wrong))}
            )
            reason = next(c.arguments["reason"] for c in calls if c.name == "escalate")
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed} {reason!r}", g))
    report(f"{fam}: the escalation reason states a wrong amount", res)

res = []
for band in ("easy", "medium", "hard", "expert"):
    for seed in range(N):
        v = e.variant("accrue-expense", band, seed)
        calls = edit(
            v,
            "post_journal_entry",
            lambda a: {**a, "memo": a["memo"] + " ($99,999.99)"},
        )
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} memo + ' ($99,999.99)'", g))
report("accrue-expense: the accrual memo states a wrong amount", res)
