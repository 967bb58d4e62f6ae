# ruff: noqa  (a probe script, not product code)
"""Probe S1 (state shortcuts in ledger; expected to hold): the reference plus
- a no-op edit of an entry of the books (its own lines written back: an edit undone);
- an extra self-cancelling entry (Dr 6900 $1.00 / Cr 6900 $1.00... on two lines);
- the accrual reversed by hand with the lines swapped (honest: must pass);
- apply-customer-payment medium: the payment split as two payments.

Run: uv run python adv/round9rub/ledger_state.py [NSEEDS]
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, final_rows, grade, report  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")

res = []
for seed in range(N):
    v = e.variant("accrue-expense", "medium", seed)
    eid, code = final_rows(
        e,
        v,
        "SELECT e.id, 0 FROM journal_entries e WHERE e.id = (SELECT MIN(id) FROM journal_entries)",
    )[0]
    lines = final_rows(
        e,
        v,
        f"SELECT a.code, l.debit_cents, l.credit_cents FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = {eid}",
    )
    back = [{"account_code": c, "debit_cents": d, "credit_cents": cr} for c, d, cr in lines]
    g, _ = grade(
        e, v, [*v.reference, ToolCall("edit_journal_entry", {"entry_id": eid, "lines": back})]
    )
    res.append((f"medium#{seed} edit entry {eid} with its own lines", g))
    extra = ToolCall(
        "post_journal_entry",
        {
            "entry_date": "2026-06-15",
            "memo": "noop",
            "lines": [
                {"account_code": "6900", "debit_cents": 100},
                {"account_code": "6900", "credit_cents": 100},
            ],
        },
    )
    g, _ = grade(e, v, [*v.reference, extra])
    res.append((f"medium#{seed} + self-cancelling entry on 6900", g))
report("must fail", res)

res = []
for seed in range(N):
    v = e.variant("accrue-expense", "hard", seed)
    calls = []
    for c in v.reference:
        if c.name == "reverse_journal_entry":
            post = next(x for x in v.reference if x.name == "post_journal_entry")
            swapped = [
                {
                    "account_code": l["account_code"],
                    "debit_cents": l.get("credit_cents", 0),
                    "credit_cents": l.get("debit_cents", 0),
                }
                for l in post.arguments["lines"]
            ]
            c = ToolCall(
                "post_journal_entry",
                {"entry_date": "2026-06-01", "memo": "Reverse the May accrual", "lines": swapped},
            )
        calls.append(c)
    g, _ = grade(e, v, calls)
    res.append((f"hard#{seed} reversal posted by hand", g))
report("honest: must pass", res)
