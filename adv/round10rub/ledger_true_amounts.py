# ruff: noqa
"""Probe: honest ledger notes (policy 10.1: "what you did and the amounts") that state true
amounts the reference note leaves out: each bill line's net and tax, the bill's net and tax
in hard/expert, the already-billed expense the accrual left out.

Run: uv run python adv/round10rub/ledger_true_amounts.py [NSEEDS]
Expected: pass (each amount is true, in its role).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import edit, env, run, final_rows

L = env("ledger")
B = ("easy", "medium", "hard", "expert")


def m(c):
    return f"${c / 100:,.2f}"


def bill_lines(v, b, a):
    if a["entity_id"] != v.params["bill_id"]:
        return b
    parts = "; ".join(
        f"{acct}: {m(net)} net + {m(tax)} tax" for acct, net, code, tax in v.params["lines"]
    )
    return b + f" Lines: {parts}."


run(
    "enter-vendor-bill: + each line's net and tax ('Lines: 1200: $1,496.49 net + $149.65 tax.')",
    L,
    "enter-vendor-bill",
    B,
    lambda v: edit(v, "add_note", lambda a: {**a, "body": bill_lines(v, a["body"], a)}),
)


def bill_net_tax(v, b, a):
    if a["entity_id"] != v.params["bill_id"]:
        return b
    net = sum(n for _, n, _, _ in v.params["lines"])
    tax = sum(t for *_, t in v.params["lines"])
    return b + f" ({m(net)} net + {m(tax)} tax.)"


run(
    "enter-vendor-bill h/x: + the bill's net and tax, as easy/medium's reference writes them",
    L,
    "enter-vendor-bill",
    ("hard", "expert"),
    lambda v: edit(v, "add_note", lambda a: {**a, "body": bill_net_tax(v, a["body"], a)}),
)
