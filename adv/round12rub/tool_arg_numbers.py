# ruff: noqa
"""Probe (T12): a tool's money argument in a number form the schema may let through: a float
with a fraction (`10251.4`), a float equal to the integer (`10251.0`), a numeric string
(`"10251"`), a string with a dollar sign, a negative, and the same in the ledger's lines.
Prints whether the call was refused and the grade.

Run: uv run python adv/round12rub/tool_arg_numbers.py [NSEEDS]
Expected: an off value (`10251.4`, `10250.6`) is refused by the tool or fails the grade.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, ToolCall, grade, rows, summary
from _r11 import edit


def refund_amt(fn):
    return lambda v: edit(v, "issue_refund", lambda a: {**a, "amount_cents": fn(a["amount_cents"])})


def lines_amt(fn):
    def go(v):
        def e(a):
            ls = [dict(x) for x in a["lines"]]
            for x in ls:
                for k in ("debit_cents", "credit_cents"):
                    if x.get(k):
                        x[k] = fn(x[k])
            return {**a, "lines": ls}
        return edit(v, "post_journal_entry", e)
    return go


VALS = [
    ("float +0.4", lambda x: x + 0.4),
    ("float -0.4", lambda x: x - 0.4),
    ("float .0", lambda x: float(x)),
    ("numeric string", lambda x: str(x)),
    ("float +0.5", lambda x: x + 0.5),
]
for label, fn in VALS:
    rows(f"helpdesk issue_refund amount_cents {label}", [(E, "duplicate-charge", B, refund_amt(fn)), (E, "refund-damaged-item", B, refund_amt(fn))])
    rows(f"ledger post_journal_entry cents {label}", [(L, "accrue-expense", B, lines_amt(fn))])

# show what one call did
from _h import final_rows
v = E.variant("duplicate-charge", "easy", 0)
calls = refund_amt(lambda x: x + 0.4)(v)
g, b = grade(E, v, calls)
print("refund rows:", final_rows(E, v, "SELECT amount_cents, typeof(amount_cents) FROM refunds ORDER BY id DESC LIMIT 2", calls))
for r in b.tool_log if hasattr(b, "tool_log") else []:
    pass
summary()
