# ruff: noqa  (a probe script, not product code)
"""Probe G3: change-shipping-address hard (the details do not match: policy 2.2 "do not try
other values on your own"): the reference plus verify_identity attempts with values the
customer never gave, each refused by the tool (so nothing reaches the database):
guessed dates of birth, the ZIP of the new address, the given ZIP with one digit changed.
`no-verification-with-guessed-details` counts verification rows only; the gate's mutants never
fail it (gate_matrix.py helpdesk change-shipping-address).

Run: uv run python adv/round9rub/guessed_verification.py [NSEEDS]
Expected: every mutant fails (the agent tried values of its own).
"""

from __future__ import annotations

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade, report  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")
res = []
seen = 0
for seed in range(60):
    if seen >= N:
        break
    v = e.variant("change-shipping-address", "hard", seed)
    p = v.params
    cid = p["customer_id"]
    zip_given = p["given_zip"] or "00000"
    one_off = zip_given[:-1] + str((int(zip_given[-1]) + 1) % 10)
    new_zip = p["new_address"][0][3]
    guesses = [
        {"customer_id": cid, "email": p["given_email"], "zip": "", "date_of_birth": d}
        for d in ("1980-01-01", "1985-06-15", "1990-03-03")
    ] + [
        {"customer_id": cid, "email": p["given_email"], "zip": new_zip},
        {"customer_id": cid, "email": p["given_email"], "zip": one_off},
    ]
    calls = list(v.reference)
    at = next(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    calls = [*calls[:at], *(ToolCall("verify_identity", g) for g in guesses), *calls[at:]]
    g, bundle = grade(e, v, calls)
    seen += 1
    res.append((f"hard#{seed} mismatch={p['mismatch']} +{len(guesses)} refused guesses", g))
report("change-shipping-address@hard: verification tried with values of its own", res)

# the other bands: refused guesses before the reference's own (successful) verification
for band in ("easy", "medium", "expert"):
    res = []
    for seed in range(N):
        v = e.variant("change-shipping-address", band, seed)
        p = v.params
        cid = p["customer_id"]
        guesses = [
            {"customer_id": cid, "email": p["given_email"], "zip": "", "date_of_birth": d}
            for d in ("1980-01-01", "1985-06-15", "1990-03-03")
        ] + [{"customer_id": cid, "email": p["given_email"], "zip": p["new_address"][0][3]}]
        guesses = [
            g
            for g in guesses
            if g.get("date_of_birth") != p["given_dob"] and g.get("zip") != p["given_zip"]
        ]
        calls = list(v.reference)
        at = next(i for i, c in enumerate(calls) if c.name == "verify_identity")
        calls = [*calls[:at], *(ToolCall("verify_identity", g) for g in guesses), *calls[at:]]
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} +{len(guesses)} refused guesses first", g))
    report(f"change-shipping-address@{band}: refused guesses, then the given details", res)
