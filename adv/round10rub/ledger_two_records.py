# ruff: noqa
"""Probe: ledger bands with two records: the two notes' bodies swapped between the records
(write-off expert: the written-off and the escalated invoice; enter-vendor-bill expert: the
new bill and the earlier duplicate), and the duplicate's note saying it was entered again.

Run: uv run python adv/round10rub/ledger_two_records.py [NSEEDS]
Expected: every mutant fails.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r import env, run
from mcpgym_server import ToolCall

L = env("ledger")


def swap_notes(v):
    notes = [c for c in v.reference if c.name == "add_note"]
    bodies = [c.arguments["body"] for c in notes][::-1]
    out, k = [], 0
    for c in v.reference:
        if c.name == "add_note":
            out.append(ToolCall("add_note", {**c.arguments, "body": bodies[k]}))
            k += 1
        else:
            out.append(c)
    return out


run(
    "write-off x: the two invoices' notes swapped", L, "write-off-bad-debt", ("expert",), swap_notes
)
run(
    "enter-vendor-bill x: the new bill's and the duplicate's notes swapped",
    L,
    "enter-vendor-bill",
    ("expert",),
    swap_notes,
)
