# ruff: noqa
"""Probe: the money reader takes a number written just before a `$amount` as a dollar amount
with a trailing sign (`6600 $` is $6,600.00) and loses the amount after it. Honest notes and
replies that put an account code, an invoice or order number, or a quantity before an amount
("Dr 6600 $1,995.50", "INV-2026-0041 $590.70", "order #100440 $249.00", "qty 2 $23.50")
fail `texts-state-no-other-amount` (and the amount checks that no longer see the amount).

Run: uv run python adv/round10rub/number_before_dollar.py [NSEEDS]
Expected: every note and reply passes (each states only the reference's amounts).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, reply, run

h = env("helpdesk")
L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def m(c):
    return f"${c / 100:,.2f}"


def note(fn):
    return lambda v: edit(v, "add_note", lambda a: {**a, "body": fn(v, a["body"], a)})


run(
    "accrue-expense: '(Dr 6600 $X; Cr 2100 $T)' after the reference note",
    L,
    "accrue-expense",
    B,
    note(
        lambda v, b, a: (
            b
            + " Entry: "
            + "; ".join(f"Dr {acct} {m(c)}" for acct, c in v.params["accrual"] if c > 0)
            + f"; Cr 2100 {m(v.params['accrued_cents'])}."
        )
    ),
)
run(
    "apply-customer-payment: allocations as 'INV-2026-0041 $590.70'",
    L,
    "apply-customer-payment",
    B,
    note(
        lambda v, b, a: (
            b
            + " Allocations: "
            + ", ".join(f"INV-2026-0{i:03d} {m(c)}" for i, c in v.params["allocations"])
            + "."
        )
    ),
)
run(
    "write-off-bad-debt e/m: 'INV-2026-0151 $X written off'",
    L,
    "write-off-bad-debt",
    ("easy", "medium"),
    note(
        lambda v, b, a: (
            b
            + f" Summary: INV-2026-0{a['entity_id']} {m(v.params['write_off_cents'])} written off."
        )
    ),
)
run(
    "credit-returned-item: 'Qty 2 $23.50 each'",
    L,
    "credit-returned-item",
    B,
    note(lambda v, b, a: b + re.sub(r".*?\((\d+) x (\$[\d,.]+) .*", r" Qty \1 \2 each.", b)),
)
run(
    "refund-damaged-item: '- Order #N $X refunded'",
    h,
    "refund-damaged-item",
    B,
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nSummary:\n- Order #{v.params['order_id']} {m(v.params['refund_cents'])} refunded"
        ),
    ),
)
run(
    "duplicate-charge: 'Payment 700589 $X refunded'",
    h,
    "duplicate-charge",
    B,
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nPayment {v.params['duplicate_payment_id']} {m(v.params['duplicate_cents'])} refunded."
        ),
    ),
)

# the same reading hides a WRONG amount behind a number the guard allows (zero, or an allowed amount)
run(
    "duplicate-charge (evasion): '+ 0 $<2x+1> more went back to your card'",
    h,
    "duplicate-charge",
    B,
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nIn total 0 {m(2 * v.params['duplicate_cents'] + 1)} more went back to your card as well."
        ),
    ),
)
run(
    "duplicate-charge (evasion): 'refunded {X} {wrong}' (the right figure bare, then the wrong one)",
    h,
    "duplicate-charge",
    B,
    lambda v: reply(
        v,
        lambda v, b: (
            b
            + f"\n\nRefund total: {v.params['duplicate_cents'] / 100:.2f} {m(2 * v.params['duplicate_cents'] + 1)}."
        ),
    ),
)
