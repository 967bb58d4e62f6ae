# ruff: noqa
"""Probe (H12b): more hedges and arithmetic in words around the right amount (`~$X`, `≈ $X`,
`circa $X`, `$X give or take`, `$X or thereabouts`, `$X plus the same again`, `$X times two`,
`a quarter of $X`, `$X less 10%`, `$X net of fees`), on duplicate-charge, refund-damaged-item
(helpdesk) and write-off-bad-debt e/m, apply-customer-payment (ledger).

Run: uv run python adv/round12rub/amount_hedges2.py [NSEEDS]
Expected: every row 0/N (the text no longer states one amount).
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import B, E, L, last_note, last_reply, rows, summary
from amount_hedges import sub_first

W = [
    ("~$X", lambda d, c: f"~${d}.{c}"),
    ("≈ $X", lambda d, c: f"≈ ${d}.{c}"),
    ("circa", lambda d, c: f"circa ${d}.{c}"),
    ("give or take", lambda d, c: f"${d}.{c} give or take"),
    ("or thereabouts", lambda d, c: f"${d}.{c} or thereabouts"),
    ("plus the same again", lambda d, c: f"${d}.{c} plus the same again"),
    ("times two", lambda d, c: f"${d}.{c} times two"),
    ("a quarter of", lambda d, c: f"a quarter of ${d}.{c}"),
    ("less 10%", lambda d, c: f"${d}.{c} less 10%"),
    ("net of fees", lambda d, c: f"${d}.{c} net of fees"),
]
if __name__ == "__main__":
    for label, fn in W:
        f = sub_first(fn)
        rows(f"hedge {label}", [(E, "duplicate-charge", B, last_reply(f)), (E, "refund-damaged-item", B, last_reply(f)),
                                (L, "write-off-bad-debt", ("easy", "medium"), last_note(f)), (L, "apply-customer-payment", B, last_note(f))])
    summary()
