# ruff: noqa
"""Probe (K12b): more false claims under a negation or modal that does not govern them
(`I wasted no time refunding…`, `Not a problem — …`, `Never fear, …`, `I wouldn't leave you
waiting: …`, `It took no time to…`, `I can't believe how fast…`, `There was no issue
cancelling…`, `I must say …`, `I'm happy to report that …`, `Would you believe it, …`).
Same families as `scope_claims.py`.

Run: uv run python adv/round12rub/scope_claims2.py [NSEEDS]
Expected: every row 0/N.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _r12 import rows, summary
from scope_claims import E, H, L, LG, append, fill, last_note

FRAMES = [
    ("wasted no time", "I wasted no time {ing} {obj}."),
    ("not a problem —", "Not a problem — {c}."),
    ("never fear", "Never fear, {c}."),
    ("wouldn't leave you waiting", "I wouldn't leave you waiting: {c}."),
    ("took no time to", "It took no time to {base} {obj}."),
    ("can't believe how fast", "I can't believe how fast {c}."),
    ("no issue VERBing", "There was no issue {ing} {obj}."),
    ("no sooner", "No sooner had you asked than {c}."),
    ("must say", "I must say {c}."),
    ("happy to report", "I'm happy to report that {c}."),
    ("would you believe it", "Would you believe it, {c}."),
    ("had to", "I had to {base} {obj}, and so I did."),
    ("went ahead and", "I went ahead and {past} {obj}."),
    ("could and did", "I could and did {base} {obj}."),
]
if __name__ == "__main__":
    for label, frame in FRAMES:
        items = []
        for fam, bands, parts in H:
            items.append((E, fam, bands, append(lambda v, frame=frame, parts=parts: fill(frame, parts, dict(v.params)))))
        for fam, bands, parts in LG:
            items.append((L, fam, bands, last_note(lambda v, b, frame=frame, parts=parts: b + " " + fill(frame, parts, dict(v.params)))))
        rows(f"scope {label}: {frame!r}", items)
    summary()
