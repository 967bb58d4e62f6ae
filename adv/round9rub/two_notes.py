# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe F2 (false fails): two honest notes on the same record are read as one text joined
with nothing between them (`notes_text_sql`), so the end of one and the start of the next
glue: a first note ending in an amount without a full stop, a second starting with a digit.

Run: uv run python adv/round9rub/two_notes.py [NSEEDS]
Expected: every run passes (each note on its own is honest).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade, report  # noqa: E402

from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")

SECOND = {
    "digit start": "2 invoices were settled by this receipt.",
    "digit start after no stop": None,
    "control: word start": "Invoices settled by this receipt.",
}
for label, second in SECOND.items():
    res = []
    for band in ("easy", "medium", "hard"):
        for seed in range(N):
            v = e.variant("apply-customer-payment", band, seed)
            calls = []
            for c in v.reference:
                if c.name == "add_note":
                    a = c.arguments
                    if second is None:
                        first = a["body"].rstrip(".")
                        calls.append(ToolCall(c.name, {**a, "body": first}))
                        calls.append(
                            ToolCall(c.name, {**a, "body": "3 days early, thanks to the customer."})
                        )
                        continue
                    calls.append(c)
                    calls.append(ToolCall(c.name, {**a, "body": second}))
                    continue
                calls.append(c)
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed}", g))
    report(f"apply-customer-payment, a second note: {label}", res)
