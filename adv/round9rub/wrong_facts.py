# ruff: noqa  (a probe script, not product code: lambdas are applied inside their loop)
"""Probe O3: replies with every fact the checks read kept, and one more fact wrong:
- duplicate-charge hard/expert (the customer asks for both charges back; only the duplicate
  may be refunded; both charges have the same amount): "I've refunded both charges of $X
  in full, as you asked.";
- duplicate-charge / refund-damaged-item: the refund said to go to store credit, not the
  card it went to (policy 9.2: "the amount and where it goes");
- order-status hard/expert (two parcels with different carriers): the two carriers swapped
  between the parcels.

Run: uv run python adv/round9rub/wrong_facts.py [NSEEDS]
Expected: every mutant fails.
"""

from __future__ import annotations

import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import edit, env, grade, report  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
e = env("helpdesk")


def m(c):
    return f"${c // 100:,}.{c % 100:02d}"


res = []
for band in ("hard", "expert"):
    for seed in range(N):
        v = e.variant("duplicate-charge", band, seed)
        d = int(v.params["duplicate_cents"])
        extra = f"\n\nI've refunded both charges of {m(d)} in full, as you asked."
        calls = edit(v, "reply_to_customer", lambda a: {**a, "body": a["body"] + extra})
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} +{extra.strip()!r}", g))
report("duplicate-charge: 'refunded both charges' (only the duplicate was)", res)

CARD = re.compile(r"to your [A-Za-z]+ card ending in \d{4}")
for fam in ("duplicate-charge", "refund-damaged-item"):
    res = []
    for band in ("easy", "medium"):
        for seed in range(N):
            v = e.variant(fam, band, seed)
            calls = edit(
                v,
                "reply_to_customer",
                lambda a: {**a, "body": CARD.sub("as store credit on your account", a["body"])},
            )
            body = next(c.arguments["body"] for c in calls if c.name == "reply_to_customer")
            g, _ = grade(e, v, calls)
            res.append((f"{band}#{seed} {body[:160]!r}", g))
    report(f"{fam}: the card refund said to be store credit", res)

res = []
for band in ("hard", "expert"):
    for seed in range(40):
        if len(res) >= 2 * N:
            break
        v = e.variant("order-status", band, seed)
        body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
        lines = [l for l in body.splitlines() if l.startswith("- ")]
        cs = [l[2:].split(" (")[0] for l in lines]
        if len(cs) != 2 or cs[0] == cs[1]:
            continue
        swapped = body.replace(f"- {cs[0]} (", "- \0 (").replace(f"- {cs[1]} (", f"- {cs[0]} (")
        swapped = swapped.replace("- \0 (", f"- {cs[1]} (")
        calls = edit(v, "reply_to_customer", lambda a: {**a, "body": swapped})
        g, _ = grade(e, v, calls)
        res.append((f"{band}#{seed} {swapped.splitlines()[3:]!r}", g))
report("order-status: the two parcels' carriers swapped", res)
