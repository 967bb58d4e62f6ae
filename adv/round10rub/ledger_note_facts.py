# ruff: noqa
"""Probe: ledger notes (policy 10.1: the note is the record) that keep every amount right but
state a date, an account, a bank line, a quantity or a document number wrong. The books are
the reference's (right).

Run: uv run python adv/round10rub/ledger_note_facts.py [NSEEDS]
Expected: every mutant fails (the note records a false fact).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, run

L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def note(fn):
    return lambda v: edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"])})


run(
    "accrue-expense: accrual and reversal dates wrong in the note",
    L,
    "accrue-expense",
    B,
    note(
        lambda v, b: b.replace(v.params["accrual_date"], "2026-04-30").replace(
            v.params["reversal_date"], "2026-07-01"
        )
    ),
)
run(
    "accrue-expense: expense accounts wrong in the note (6900 for each)",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: re.sub(r"\((\d{4}): ", "(6900: ", re.sub(r", (\d{4}): ", ", 6900: ", b))),
)
run(
    "accrue-expense: 'against 2000' (AP) instead of 2100",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: b.replace("against 2100", "against 2000")),
)
run(
    "accrue-expense: 'not reversed' (it was)",
    L,
    "accrue-expense",
    B,
    note(lambda v, b: re.sub(r", reversed on [\d-]+\.", ". Not reversed: it stays in June.", b)),
)
run(
    "correct-misposted-entry: note names the wrong account (6400 Office for 6500)",
    L,
    "correct-misposted-entry",
    B,
    note(lambda v, b: re.sub(r"on (\d{4}) [A-Z][\w ]+? \(policy", "on 6000 Rent (policy", b)),
)
run(
    "correct-misposted-entry: reversal date wrong",
    L,
    "correct-misposted-entry",
    B,
    note(lambda v, b: b.replace(v.params["today"], "2026-05-15")),
)
run(
    "closed-period-posting: posting date wrong in the note (the closed day)",
    L,
    "closed-period-posting",
    B,
    note(
        lambda v, b: b.replace(
            "posted on 2026-05-01, the first day of the earliest open period",
            f"posted on {v.params['issue_date']}, as asked",
        )
    ),
)
run(
    "apply-customer-payment: bank line and date wrong",
    L,
    "apply-customer-payment",
    B,
    note(
        lambda v, b: b.replace(
            f"bank line {v.params['bank_line_id']}", f"bank line {v.params['bank_line_id'] + 1}"
        ).replace(v.params["payment_date"], "2026-06-01")
    ),
)
run(
    "apply-customer-payment: invoice number wrong (amounts right)",
    L,
    "apply-customer-payment",
    B,
    note(
        lambda v, b: re.sub(
            r"applied to INV-2026-0(\d+)",
            lambda m: f"applied to INV-2026-0{int(m.group(1)) + 2:03d}",
            b,
            count=1,
        )
    ),
)
run(
    "credit-returned-item: quantity wrong, unit price scaled so the total stays",
    L,
    "credit-returned-item",
    B,
    note(
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned \((\d+) x \$([\d.,]+)",
            lambda m: (
                f"for {int(m.group(1)) * 2} x {m.group(2)} returned ({int(m.group(3)) * 2} x ${float(m.group(4).replace(',', '')) / 2:,.2f}"
            ),
            b,
        )
    ),
)
run(
    "credit-returned-item: item named is another product",
    L,
    "credit-returned-item",
    B,
    note(
        lambda v, b: re.sub(
            r"for (\d+) x (.*?) returned \((\d+) x", r"for \1 x Camp chair returned (\3 x", b
        )
    ),
)
run(
    "write-off-bad-debt e/m/x: account wrong (6900 for 6800)",
    L,
    "write-off-bad-debt",
    ("easy", "medium", "expert"),
    note(lambda v, b: b.replace("(6800)", "(6900)")),
)
run(
    "write-off-bad-debt e/m/x: invoice number wrong",
    L,
    "write-off-bad-debt",
    ("easy", "medium", "expert"),
    note(lambda v, b: b.replace("INV-2026-0151", "INV-2026-0149")),
)
run(
    "enter-vendor-bill expert: posting date wrong in the note",
    L,
    "enter-vendor-bill",
    ("expert",),
    note(lambda v, b: b.replace("posted on 2026-05-01", "posted on 2026-04-28")),
)
run(
    "enter-vendor-bill e/m/x: vendor reference wrong",
    L,
    "enter-vendor-bill",
    ("easy", "medium", "expert"),
    note(lambda v, b: b.replace(v.params["vendor_ref"], v.params["vendor_ref"][:-1] + "0")),
)
