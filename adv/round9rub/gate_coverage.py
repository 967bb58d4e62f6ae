# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe G1: which adversarial mutants the ship gate builds for the fields M1, N1 and N2 use,
and whether `shortcut_failures` could report them: a shotgun or near miss is reported only
when an answer check of the same kind *reads* the field (fails on `blank-i`), and `amounts-i`
/ `near-i` are built only from the money answer checks' kinds. A text that states amounts no
check reads, or allowed amounts in each other's roles, is never a finding.

Run: uv run python adv/round9rub/gate_coverage.py
"""

from __future__ import annotations

import sys
from collections import Counter

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env  # noqa: E402

from mcpgym_clients.instrument.adversarial import adversaries  # noqa: E402
from mcpgym_grading import AnswerMatch  # noqa: E402

CASES = [
    ("helpdesk", "order-status", "hard", 0),
    ("helpdesk", "cancel-order", "easy", 0),
    ("helpdesk", "cancel-order", "hard", 0),
    ("helpdesk", "change-shipping-address", "hard", 0),
    ("ledger", "accrue-expense", "medium", 0),
    ("ledger", "correct-misposted-entry", "medium", 0),
    ("ledger", "enter-vendor-bill", "easy", 0),
    ("ledger", "apply-customer-payment", "expert", 0),
    ("ledger", "credit-returned-item", "easy", 0),
]
for en, fam, band, seed in CASES:
    e = env(en)
    v = e.variant(fam, band, seed)
    money_checks = [
        c.name
        for c in e.families[fam].rubric.checks
        if isinstance(c, AnswerMatch)
        and c.normalize == "money"
        and c.expected is not None
        and (c.bands is None or band in c.bands)
    ]
    advs = adversaries(e, v)
    roles = Counter(a.role for a in advs if "~" not in a.label)
    labels = sorted({a.label.split("~")[0] for a in advs if a.role in ("amounts", "near")})
    print(
        f"{en} {fam}@{band}#{seed}: money answer checks={money_checks}; plain mutants by role="
        f"{dict(roles)}; amounts/near mutants={labels}"
    )
