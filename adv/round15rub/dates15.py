# ruff: noqa  (a probe script, not product code)
"""Probe: the gate's ``dates-i`` mutants in process (a field stating ISO dates also lists
each one's neighbours and the variant's other dates on file), graded for every family and
band of both environments, seeds 0..N-1. Prints one line per mutant: ``FINDING`` where it
is graded passed with no check failing (`fact.dates_finding`: what condition 7 reports).

Run: uv run python adv/round15rub/dates15.py [NSEEDS]
Asserts nothing.
"""
import sys
from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_clients.instrument.fact import dates_finding
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import ToolCall, replay
CACHE = ReferenceCache(maxsize=64)
seeds = range(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
for env in (ledger, helpdesk):
    for fam in sorted(env.families):
        for band in ("easy", "medium", "hard", "expert"):
            for seed in seeds:
                try:
                    v = env.variant(fam, band, seed)
                except Exception:
                    continue
                for a in [a for a in adversaries(env, v) if a.role == "dates"]:
                    calls = [ToolCall(n, args) for n, args in a.calls]
                    g = grade_bundle(replay(env, fam, band, seed, calls), env, reference_cache=CACHE)
                    gj = g.model_dump() if hasattr(g, "model_dump") else g
                    failing = [c["name"] for c in gj["checks"] if c.get("applicable") and not c.get("passed")]
                    line = dates_finding(f"{env.name}/{fam}@{band}#{seed}", a.label, a.group, a.values, gj)
                    print(("FINDING " if line else "ok      ") + f"{env.name} {fam}@{band}#{seed} {a.label} passed={gj['passed']} failing={failing}", flush=True)
