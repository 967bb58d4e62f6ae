# ruff: noqa
"""Probe (M11): the note is right, but a memo, a credit note's reason, a write-off's reason or a
payment reference the agent writes states a wrong date, account, document or quantity. These texts
are records the books keep (a journal entry's memo is what the entry says it is for); only their
amounts and claims are read (`EPISODE_TEXT_SQL`); the value roles read notes only.

Run: uv run python adv/round11rub/ledger_memo_facts.py [NSEEDS]
Expected: every mutant fails (the record states a false fact). The books are the reference's.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, arg, run

memo = lambda fn: arg("post_journal_entry", "memo", fn)
rmemo = lambda fn: arg("reverse_journal_entry", "memo", fn)

run(
    "accrue-expense: accrual memo gives the wrong date, account and reversal",
    L, "accrue-expense", B,
    memo(lambda v, m: m + "; accrued on 2026-04-30 to 6900 Travel, reversed on 2026-07-01"),
)
run(
    "accrue-expense: reversal memo dates the reversal 2026-07-01",
    L, "accrue-expense", B,
    rmemo(lambda v, m: "Reverse the May accrual on 2026-07-01"),
)
run(
    "correct-misposted-entry: corrected entry's memo names the wrong account and date",
    L, "correct-misposted-entry", B,
    memo(lambda v, m: m + " (posted to 6900 Travel on 2026-05-15)"),
)
run(
    "closed-period-posting e/m/x: memo says it was posted in April on the date asked",
    L, "closed-period-posting", ("easy", "medium", "expert"),
    memo(lambda v, m: m.replace("(belongs to April 2026)", f"(posted on {v.params['issue_date']}, in April)")),
)
run(
    "credit-returned-item: the credit note's reason states another quantity and product",
    L, "credit-returned-item", B,
    arg("issue_credit_note", "reason", lambda v, r: re.sub(r"returned \d+ x .*", "returned 9 x Camp stove", r)),
)
run(
    "write-off-bad-debt e/m/x: the write-off reason names another invoice",
    L, "write-off-bad-debt", ("easy", "medium", "expert"),
    arg("write_off_invoice", "reason", lambda v, r: r + " (INV-2026-0149, written off to 6900)"),
)
run(
    "apply-customer-payment: the payment reference names another invoice and date",
    L, "apply-customer-payment", B,
    arg("record_customer_payment", "reference", lambda v, r: "INV-2026-0003 paid 2026-01-05"),
)
run(
    "reconcile-bank-lines: the fee entry's memo gives another date and account",
    L, "reconcile-bank-lines", B,
    memo(lambda v, m: m + " on 2026-05-02, charged to 6600 Repairs"),
)
run(
    "reconcile-bank-lines h/x: the ignore reason names another line",
    L, "reconcile-bank-lines", ("hard", "expert"),
    arg("ignore_bank_line", "reason", lambda v, r: r.replace("line 188", "line 150")),
)
run(
    "enter-vendor-bill: a bill line description states another account and date",
    L, "enter-vendor-bill", B,
    arg("create_bill", "lines", lambda v, ls: [{**x, "description": x["description"] + " (coded 6900, dated 2026-03-01)"} for x in ls]),
)
