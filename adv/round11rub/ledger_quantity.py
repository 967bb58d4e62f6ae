# ruff: noqa
"""Probe (Q11): credit-returned-item's note states another quantity returned while every amount
stays right (`Credit note for 5 x Water filter returned (5 x $23.50 each, $47.00 net ...)`: 5 x
$23.50 is not $47.00), or the credit note's own reason says another quantity (`returned 9 x
Water filter`). Quantities are bare small numbers: no amount, date, account or id role reads
them.

Run: uv run python adv/round11rub/ledger_quantity.py [NSEEDS]
Expected: fail (the record states a quantity that was not returned).
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r11 import B, L, arg, note, run

run("credit-returned-item: the note's quantity +3 (amounts kept)", L, "credit-returned-item", B,
    note(lambda v, b: re.sub(r"(\d+) x ", lambda m: f"{int(m.group(1)) + 3} x ", b)))
run("credit-returned-item: the credit note's reason quantity +7", L, "credit-returned-item", B,
    arg("issue_credit_note", "reason", lambda v, r: re.sub(r"(\d+) x ", lambda m: f"{int(m.group(1)) + 7} x ", r)))
