# ruff: noqa  (a probe script, not product code)
"""Every family's reference graded in process, seeds 0..N-1 of every band of both
environments: prints the ones below 1.000 and a count.
Run: uv run python adv/round15rub/refs15.py [NSEEDS]"""
import sys
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/round12rub")
from _r12 import E, L, N, grade

for name, e in (("helpdesk", E), ("ledger", L)):
    ok = tot = 0
    for fam in e.families() if callable(getattr(e, "families", None)) else e.families:
        fam = getattr(fam, "name", fam)
        for band in ("easy", "medium", "hard", "expert"):
            for seed in range(N):
                v = e.variant(fam, band, seed)
                g, _ = grade(e, v, list(v.reference))
                tot += 1
                if g.passed and g.score == 1.0:
                    ok += 1
                else:
                    print("BELOW", name, fam, band, seed, g.score, [c.name for c in g.checks if c.passed is False])
    print(f"#### {name} references at 1.000: {ok}/{tot}")
