# ruff: noqa  (a probe script, not product code)
"""R1: a false claim inside a reporting frame whose modal or `want/like` hedges it: `I can
confirm that order #N has been cancelled.` (hard: it shipped). The reader's hedges (`can`,
`would`, `want`) govern the verb of saying, not the claim it introduces.
Usage: uv run python adv/round11rub/reporting_frames.py [NSEEDS]"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _q import over_families  # noqa: E402

FRAMES = [
    "I can confirm that {}",
    "I'd like to let you know that {}",
    "We can confirm that {}",
    "You will be pleased to know that {}",
]
CONTROL = "{}"  # the bare claim: must fail (it does)
tot = [0, 0]
for f in [CONTROL, *FRAMES]:
    p, t = over_families(f"frame {f!r}", lambda c, f=f: f.format(c[0].upper() + c[1:] if f == "{}" else c))
    if f != CONTROL:
        tot[0] += p
        tot[1] += t
print(f"TOTAL reporting frames: {tot[0]}/{tot[1]} passed (should be 0)")
