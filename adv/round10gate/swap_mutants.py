# ruff: noqa  (a probe script, not product code)
"""The gate's swap mutants (swap-i-N: two values of one kind exchanged in an answer field)
and second-record mutants (second-record-i: the field's call made again on the neighbouring
record, with a near miss in its text) over every family and band, graded in process as
condition 7 grades them.

Run: uv run python adv/round10gate/swap_mutants.py ENV [NSEEDS]   (NSEEDS default 2, the
gate's default --mutant-seeds). Prints, per family and band, each swap mutant that passes
with no check failing (a finding), then each second-record finding, then the totals.
"""

import sys
from collections import defaultdict
from types import SimpleNamespace

from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=512)
envname = sys.argv[1]
nseeds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
if envname == "helpdesk":
    from mcpgym_helpdesk import environment as e
else:
    from mcpgym_ledger import environment as e

total = found = 0
per: dict[tuple[str, str], list[str]] = defaultdict(list)
made: dict[tuple[str, str], int] = defaultdict(int)
second_lines: list[str] = []
seconds = 0
for fam in e.families:
    for band in e.families[fam].bands:
        for seed in range(nseeds):
            v = e.variant(fam, band, seed)
            jobs = []
            for adv in adversaries(e, v):
                if adv.role not in ("swap", "second"):
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
            n_swap = sum(1 for j in jobs if j.adversary.role == "swap")
            by_label = {j.adversary.label: j.adversary for j in jobs}
            seconds += len(jobs) - n_swap
            total += n_swap
            made[(fam, band)] += n_swap
            for l in lines:
                label = l.split("`second-record-", 1)[-1].split("(`", 1)[-1].split("`", 1)[0]
                if "note on another record" in l:
                    second_lines.append(f"{fam}@{band}#{seed} {l.split(': ', 1)[1][:200]}")
                    continue
                found += 1
                kind, a, b = by_label[label].values
                per[(fam, band)].append(f"#{seed} {label}: {kind} {a} <-> {b}")
for (fam, band), n in made.items():
    lines = per[(fam, band)]
    print(f"== {fam}@{band}: {len(lines)} of {n} swap(s) pass")
    for l in lines:
        print("   ", l)
print(f"== second-record: {len(second_lines)} of {seconds} pass")
for l in second_lines:
    print("   ", l)
print(f"TOTAL {envname}: {found} passing swap mutants of {total} (seeds 0-{nseeds - 1})")
