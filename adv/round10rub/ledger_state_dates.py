# ruff: noqa
"""Probe: ledger state with a date or account changed in one tool call and everything else
as the reference (amounts balance): bill due dates, payment/credit/write-off dates,
accrual/reversal dates, fee dates, the accrual's liability account.

Run: uv run python adv/round10rub/ledger_state_dates.py [NSEEDS]
Expected: every mutant fails a state check (the books or the documents hold a wrong date or
account).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, run

L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def arg(tool, **kw):
    return lambda v: edit(
        v, tool, lambda a: {**a, **{k: (f(v, a) if callable(f) else f) for k, f in kw.items()}}
    )


run(
    "enter-vendor-bill: due date a month later",
    L,
    "enter-vendor-bill",
    B,
    arg(
        "create_bill",
        due_date=lambda v, a: (
            a["due_date"][:5] + f"{int(a['due_date'][5:7]) + 1:02d}" + a["due_date"][7:]
        ),
    ),
)
run(
    "enter-vendor-bill: bill date a day later (same period)",
    L,
    "enter-vendor-bill",
    ("easy", "medium"),
    arg(
        "create_bill",
        bill_date=lambda v, a: a["bill_date"][:8] + f"{int(a['bill_date'][8:]) + 1:02d}",
    ),
)
run(
    "apply-customer-payment: payment date a day earlier",
    L,
    "apply-customer-payment",
    B,
    arg(
        "record_customer_payment",
        payment_date=lambda v, a: a["payment_date"][:8] + f"{int(a['payment_date'][8:]) - 1:02d}",
    ),
)
run(
    "apply-customer-payment: reference (RCPT) changed",
    L,
    "apply-customer-payment",
    B,
    arg("record_customer_payment", reference="RCPT 000000"),
)
run(
    "credit-returned-item: credit note issue date a week earlier",
    L,
    "credit-returned-item",
    B,
    arg("issue_credit_note", issue_date="2026-06-08"),
)
run(
    "write-off-bad-debt e/m/x: write-off date a week earlier",
    L,
    "write-off-bad-debt",
    ("easy", "medium", "expert"),
    arg("write_off_invoice", write_off_date="2026-06-08"),
)
run(
    "accrue-expense: accrual dated 2026-05-30",
    L,
    "accrue-expense",
    B,
    arg("post_journal_entry", entry_date="2026-05-30"),
)
run(
    "accrue-expense: reversal dated 2026-06-02",
    L,
    "accrue-expense",
    B,
    arg("reverse_journal_entry", reversal_date="2026-06-02"),
)


def liab(v):
    return edit(
        v,
        "post_journal_entry",
        lambda a: {
            **a,
            "lines": [
                dict(l, account_code="2000") if l["account_code"] == "2100" else l
                for l in a["lines"]
            ],
        },
    )


run("accrue-expense: accrual credited to 2000 (AP) instead of 2100", L, "accrue-expense", B, liab)
run(
    "correct-misposted-entry: reversal dated 2026-06-14",
    L,
    "correct-misposted-entry",
    B,
    arg("reverse_journal_entry", reversal_date="2026-06-14"),
)
run(
    "correct-misposted-entry: corrected entry dated 2026-06-14",
    L,
    "correct-misposted-entry",
    B,
    arg("post_journal_entry", entry_date="2026-06-14"),
)
run(
    "reconcile-bank-lines: fee entry dated a day later",
    L,
    "reconcile-bank-lines",
    B,
    arg(
        "post_journal_entry",
        entry_date=lambda v, a: a["entry_date"][:8] + f"{int(a['entry_date'][8:]) + 1:02d}",
    ),
)
run(
    "reconcile-bank-lines h/x: deposit payment dated a day later",
    L,
    "reconcile-bank-lines",
    ("hard", "expert"),
    arg(
        "record_customer_payment",
        payment_date=lambda v, a: a["payment_date"][:8] + f"{int(a['payment_date'][8:]) + 1:02d}",
    ),
)
run(
    "closed-period-posting e/x: entry dated 2026-05-02",
    L,
    "closed-period-posting",
    ("easy", "expert"),
    lambda v: edit(
        v,
        "post_journal_entry",
        lambda a: {**a, "entry_date": "2026-05-02"} if a["entry_date"] == "2026-05-01" else a,
    ),
)
