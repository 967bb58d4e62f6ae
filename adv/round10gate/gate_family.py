# ruff: noqa  (a probe script, not product code)
"""The ship gate end to end (real servers over MCP, `validate_environment`) on ONE family,
seeds 0 and mutant seeds 0: shows that condition 7 reports the swap mutants that pass,\nand the other conditions' findings that name the family (condition 4: a vacuous check).
The other families' jobs are left out, so conditions 1 and 4 complain about them: read
condition 7 only.

Run: uv run python adv/round10gate/gate_family.py ENV FAMILY
"""

import sys
import tempfile
from pathlib import Path

import anyio

import mcpgym_clients.instrument.validate as v

envname, family = sys.argv[1], sys.argv[2]
if envname == "helpdesk":
    from mcpgym_helpdesk import environment as e
else:
    from mcpgym_ledger import environment as e

_jobs, _adv, _mut = v._jobs, v._adversarial_jobs, v._mutant_jobs
v._jobs = lambda env, seeds, runs: [j for j in _jobs(env, seeds, runs) if j.task == family]
v._adversarial_jobs = lambda env, seeds: [j for j in _adv(env, seeds) if j.task == family]
v._mutant_jobs = lambda env, fam, seeds: _mut(env, fam, seeds) if fam == family else []


async def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        report = await v.validate_environment(
            e, store_dir=Path(d), seeds=1, mutant_seeds=1, concurrency=4
        )
    print(f"{envname} {family}: {report.episodes} episodes, {report.wall_s:.0f} s")
    for c in report.conditions:
        n = c.id
        mine = [line for line in c.failures if family in line or n == 7]
        if n == 7 or mine:
            print(f"condition {n} passed={c.passed} figures={c.figures}")
        for line in mine:
            print("   ", line[:220])


anyio.run(main)
