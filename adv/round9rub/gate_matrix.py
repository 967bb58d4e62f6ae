# ruff: noqa  (a probe script, not product code)
"""Probe G2: which checks no mutant of the ship gate fails (reference mutants of
`controls.mutants` and the plain `adversaries`; null and random left out), per family and
band, seed 0: such a check is exercised only by doing nothing or by chance, so the gate
cannot tell whether a shortcut passes it.

Run: uv run python adv/round9rub/gate_matrix.py ENV [FAMILY ...]
"""

from __future__ import annotations

import sys
from collections import defaultdict

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _h import env, grade  # noqa: E402
from mcpgym_clients.instrument.adversarial import adversaries  # noqa: E402
from mcpgym_clients.instrument.controls import mutants  # noqa: E402
from mcpgym_server import ToolCall  # noqa: E402

e = env(sys.argv[1])
fams = sys.argv[2:] or sorted(e.families)
for fam in fams:
    failed_by: dict[str, set[str]] = defaultdict(set)
    applicable: set[str] = set()
    for band in e.families[fam].bands:
        v = e.variant(fam, band, 0)
        cands = [(l, c) for l, c in mutants(e, v)]
        cands += [(a.label, a.calls) for a in adversaries(e, v) if "~" not in a.label]
        for label, calls in cands:
            tc = [ToolCall(n, a) for n, a in calls if n != "submit"]
            try:
                g, _ = grade(e, v, tc)
            except Exception as exc:  # a refused call sequence
                continue
            for c in g.checks:
                if c.passed is None:
                    continue
                applicable.add(f"{c.name}")
                if c.passed is False:
                    failed_by[c.name].add(label.split("-")[0])
    never = sorted(applicable - set(failed_by))
    print(f"{fam}: checks no mutant fails: {never}")
    for name in sorted(failed_by):
        print(f"   {name}: failed by {sorted(failed_by[name])}")
    sys.stdout.flush()
