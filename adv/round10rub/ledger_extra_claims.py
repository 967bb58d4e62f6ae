# ruff: noqa
"""Probe: ledger notes and escalation reasons that add a claim of an action not taken, or
name the wrong document, with no amount: "escalated to the controller" (it was not), "paid
the vendor today", "emailed the customer a statement", and escalation reasons naming
another bill or invoice (the structured entity is right; the controller reads the reason).

Run: uv run python adv/round10rub/ledger_extra_claims.py [NSEEDS]
Expected: every mutant fails.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, run

L = env("ledger")


def note(fn):
    return lambda v: edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"])})


run(
    "write-off-bad-debt e/m: + 'Escalated to the controller as well.' (not escalated)",
    L,
    "write-off-bad-debt",
    ("easy", "medium"),
    note(lambda v, b: b + " Escalated to the controller as well, who approved it."),
)
run(
    "enter-vendor-bill e/m: + 'Paid the vendor in full today from 1000.' (no payment)",
    L,
    "enter-vendor-bill",
    ("easy", "medium"),
    note(lambda v, b: b + " Paid the vendor in full today from 1000."),
)
run(
    "enter-vendor-bill hard: + 'Controller approved it by phone.' (a draft, awaiting approval)",
    L,
    "enter-vendor-bill",
    ("hard",),
    note(lambda v, b: b + " The controller approved it by phone."),
)
run(
    "accrue-expense: + 'Vendor bills for these were received and entered.' (they were not)",
    L,
    "accrue-expense",
    ("easy", "hard"),
    note(lambda v, b: b + " The vendor bills for these were received and entered today."),
)
run(
    "enter-vendor-bill hard: escalation reason names another bill reference",
    L,
    "enter-vendor-bill",
    ("hard",),
    lambda v: edit(
        v,
        "escalate",
        lambda a: {
            **a,
            "reason": a["reason"].replace(
                v.params["vendor_ref"], v.params["vendor_ref"][:-1] + "0"
            ),
        },
    ),
)
run(
    "write-off-bad-debt h/x: escalation reason names another invoice",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    lambda v: edit(
        v,
        "escalate",
        lambda a: {**a, "reason": re.sub(r"INV-2026-0(\d+)", "INV-2026-0149", a["reason"])},
    ),
)
run(
    "write-off-bad-debt h/x: escalation reason says it was already written off",
    L,
    "write-off-bad-debt",
    ("hard", "expert"),
    lambda v: edit(
        v,
        "escalate",
        lambda a: {
            **a,
            "reason": a["reason"].replace(
                "please decide on the write-off.", "already written off; for your records."
            ),
        },
    ),
)
