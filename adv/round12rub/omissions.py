# ruff: noqa
"""Probe (O12): routes to a pass that state less than the answer: the reference's text with a
fact left out (order-status's ETA; a ledger note's dates; its account codes; co h's tracking
number and ETA). Prints which omissions still pass: each is a rubric choice (the fact is not
required) that a wrong-form fact (D12, H12) then exploits, since an unread form = an omitted one.

Run: uv run python adv/round12rub/omissions.py [NSEEDS]
Expected: a row that passes names a fact no check requires.
"""

import re, sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, last_note, last_reply, rows, summary

ISO = re.compile(r",? ?(estimated delivery |on |against |reversed on )?\(?(2026)-(\d\d)-(\d\d)\)?")
if __name__ == "__main__":
    rows("os: ETA left out", [(E, "order-status", B, last_reply(lambda v, b: re.sub(r",? estimated delivery 2026-\d\d-\d\d", "", b)))])
    rows("co h: tracking number and ETA left out", [(E, "cancel-order", ("hard",), last_reply(lambda v, b: re.sub(r", tracking number \w+, estimated delivery 2026-\d\d-\d\d", "", b)))])
    rows("ledger notes: every ISO date left out", [(L, f, B, last_note(lambda v, b: re.sub(r" ?(on |for )?2026-\d\d-\d\d", "", b))) for f in ("accrue-expense", "correct-misposted-entry", "apply-customer-payment")])
    rows("ae note: account codes left out", [(L, "accrue-expense", B, last_note(lambda v, b: re.sub(r"\b(\d{4}): ", "", b).replace(" against 2100", "")))])
    summary()
