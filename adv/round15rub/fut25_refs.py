# ruff: noqa  (a probe script, not product code)
"""Stop 25 (fut25): every family and band's reference, seeds 0..N-1, both environments,
graded in process: prints each one below 1.000 and a tally (should be all at 1.000).

Run: uv run python adv/round15rub/fut25_refs.py [NSEEDS]
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round10rub")
from _r import N, env, grade

for name in ("helpdesk", "ledger"):
    e = env(name)
    ok = total = 0
    for fam in sorted(e.families):
        for band in ("easy", "medium", "hard", "expert"):
            for seed in range(N):
                v = e.variant(fam, band, seed)
                g, _ = grade(e, v, list(v.reference))
                total += 1
                if g.score >= 1.0 and g.passed:
                    ok += 1
                else:
                    failed = [c.name for c in g.checks if c.applicable and not c.passed]
                    print(f"  {name} {fam} {band} #{seed} score={g.score:.3f} failed={failed}")
    print(f"#### {name} references at 1.000: {ok}/{total}")
