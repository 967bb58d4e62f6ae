# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe N2: ledger notes whose amounts are all allowed but stand in each other's places:
apply-customer-payment (the allocations swapped between invoices; expert: the credit held and
the allocation swapped), credit-returned-item (unit price and total swapped), write-off (the
written-off amount and another allowed amount swapped).

Run: uv run python adv/round9rub/ledger_note_swaps.py [NSEEDS]
Expected: every mutant fails (the note records which amount went where wrongly).
"""

from __future__ import annotations

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade, report  # noqa: E402

from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("ledger")
MONEY = re.compile(r"\$[0-9,]+\.[0-9]{2}")


def swap_first_two_distinct(body: str, skip_first: bool) -> str | None:
    found = MONEY.findall(body)
    uniq = list(dict.fromkeys(found))
    if skip_first:
        uniq = uniq[1:]
    if len(uniq) < 2:
        return None
    a, b = uniq[0], uniq[1]
    return body.replace(a, "\0").replace(b, a).replace("\0", b)


for fam, bands, skip_first in (
    ("apply-customer-payment", ("medium", "hard", "expert"), True),
    ("credit-returned-item", ("easy", "medium", "hard", "expert"), False),
    ("write-off-bad-debt", ("easy", "medium", "hard", "expert"), False),
    ("enter-vendor-bill", ("easy", "medium", "hard", "expert"), False),
):
    res = []
    for band in bands:
        for seed in range(N):
            v = e.variant(fam, band, seed)
            calls, changed = [], None
            for c in v.reference:
                if c.name == "add_note" and changed is None:
                    new = swap_first_two_distinct(c.arguments["body"], skip_first)
                    if new is not None:
                        changed = new
                        c = ToolCall(c.name, {**c.arguments, "body": new})
                calls.append(c)
            if changed is None:
                continue
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed} note={changed!r}", g))
    report(f"{fam}: two allowed amounts swapped in the note", res)
