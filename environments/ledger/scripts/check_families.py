"""Dev loop: reference 1.0, null fails, which checks no control fails (in process)."""

import sys
import time

from mcpgym_clients.instrument.controls import mutants
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import ToolCall, load_environment, replay

env = load_environment("ledger")
cache = ReferenceCache(maxsize=4096)
fams = sys.argv[1:] or list(env.families)
seeds = range(int(__import__("os").environ.get("SEEDS", "5")))
for fam in fams:
    t = time.time()
    failed_on: dict[str, int] = {c.name: 0 for c in getattr(env.families[fam].rubric, "checks", ())}
    for band in env.families[fam].bands:
        for seed in seeds:
            v = env.variant(fam, band, seed)
            b = replay(env, fam, band, seed, list(v.reference), answer=v.answer)
            bad = [(e.tool, e.error) for e in b.log if e.status != "ok"]
            g = grade_bundle(b, env, reference_cache=cache)
            fails = [c.name for c in g.checks if c.applicable and not c.passed]
            if bad or fails or g.score != 1.0:
                print(f"REF {fam}@{band}#{seed}: errors {bad} fails {fails} {g.error}")
                for c in g.checks:
                    if c.applicable and not c.passed:
                        print("   ", c.name, str(c.detail)[:600])
            gn = grade_bundle(replay(env, fam, band, seed, []), env, reference_cache=cache)
            if gn.passed:
                print(f"NULL PASSES {fam}@{band}#{seed}")
            for c in gn.checks:
                if c.applicable and not c.passed:
                    failed_on[c.name] += 1
            if seed < 2:
                for _label, calls in mutants(env, v):
                    body = [ToolCall(n, a) for n, a in calls if n != "submit"]
                    gm = grade_bundle(
                        replay(env, fam, band, seed, body), env, reference_cache=cache
                    )
                    for c in gm.checks:
                        if c.applicable and not c.passed:
                            failed_on[c.name] += 1
    print(fam, "vacuous:", [k for k, n in failed_on.items() if n == 0], f"{time.time() - t:.1f}s")
