# ruff: noqa
"""Probe (M11's control): honest memos and reasons that state the right dates, accounts and
documents, in the words a bookkeeper uses, beside the reference's own notes.

Run: uv run python adv/round11rub/ledger_memo_honest.py [NSEEDS]
Expected: every run passes (each text is true).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, arg, then, run

memo = lambda fn: arg("post_journal_entry", "memo", fn)
rmemo = lambda fn: arg("reverse_journal_entry", "memo", fn)

run(
    "accrue-expense: accrual memo with its date, accounts and the reversal day",
    L, "accrue-expense", B,
    then(
        memo(lambda v, m: m + f"; accrued on {v.params['accrual_date']}, debit "
             + ", ".join(c for c, _ in v.params["accrual"] if c != "2100")
             + f", credit 2100; to be reversed on {v.params['reversal_date']}"),
        rmemo(lambda v, m: f"Reverse the May accrual of {v.params['accrual_date']} on {v.params['reversal_date']}"),
    ),
)
run(
    "correct-misposted-entry: both memos with the date",
    L, "correct-misposted-entry", B,
    then(
        memo(lambda v, m: m + f", reposted on {v.params['today']}"),
        rmemo(lambda v, m: m + f" (reversed on {v.params['today']})"),
    ),
)
run(
    "closed-period-posting e/m/x: April memo with the date asked and the posting date",
    L, "closed-period-posting", ("easy", "medium", "expert"),
    memo(lambda v, m: m.replace("(belongs to April 2026)", f"(asked for {v.params['issue_date']} in closed April; posted on 2026-05-01)")),
)
run(
    "write-off-bad-debt e/m/x: the reason names the invoice written off",
    L, "write-off-bad-debt", ("easy", "medium", "expert"),
    arg("write_off_invoice", "reason", lambda v, r: r + f"; {v.params['write_off_invoice_number'] if 'write_off_invoice_number' in v.params else 'INV-2026-0151'} is more than 90 days past due"),
)
run(
    "enter-vendor-bill expert: the bill line says the bill's date",
    L, "enter-vendor-bill", ("expert",),
    arg("create_bill", "lines", lambda v, ls: [{**x, "description": x["description"] + f" (bill dated {v.params['bill_date']})"} for x in ls]),
)
