# ruff: noqa  (a probe script, not product code)
"""Run: uv run python adv/round9gate/amount_mutants.py ENV. The gate's amount mutants (amounts-i, its forms, near-i, blank-i) over every family and
band, seeds 0-1, in process; prints findings."""

import sys
from types import SimpleNamespace
from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_grading import grade_bundle, ReferenceCache
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=512)
envname = sys.argv[1]
if envname == "helpdesk":
    from mcpgym_helpdesk import environment as e
else:
    from mcpgym_ledger import environment as e
total = n_all = 0
for fam in e.families:
    for band in e.families[fam].bands:
        for seed in range(2):
            v = e.variant(fam, band, seed)
            jobs = []
            for adv in adversaries(e, v):
                keep = adv.role in ("amounts", "near", "blank") or adv.base.startswith("amounts")
                if not keep:
                    continue
                b = replay(e, fam, band, seed, [ToolCall(n, a) for n, a in adv.calls])
                g = grade_bundle(b, e, reference_cache=CACHE)
                rec = SimpleNamespace(
                    grade=g.model_dump(mode="json"),
                    transcript=[{"mcpgym_is_error": x.status != "ok"} for x in b.log],
                )
                jobs.append(
                    SimpleNamespace(task=fam, band=band, seed=seed, adversary=adv, record=rec)
                )
            lines, n = shortcut_failures(e, jobs)
            total += len(lines)
            n_all += n
            for l in lines:
                print("  ", l[:300], flush=True)
print("TOTAL findings", total, "over", n_all, "amount mutants")
