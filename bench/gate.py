"""The ship gate's wall time: servers in process (the old path) against child processes.

Runs `validate_environment` (real servers over loopback MCP, as ``mcpgym validate``) on a
subset of an environment's families, each round once per way, the order rotating so that
a change of load hits both alike:

- ``in-process``: the environment server and the grading service in the gate's own
  process (`serve_locally`; what ``mcpgym validate`` did before);
- ``processes``: each server in a child process (`serve_in_processes`; what it does now
  on a machine with more than one core).

Both ways must give the same report (conditions, findings, figures, episode count): the
bench says so, or names the first difference, and exits 1. It prints each run's wall
seconds, episodes/s and CPU seconds (this process and its reaped children), then the
median ratio processes / in-process.

Run (from the repository root)::

    uv run python bench/gate.py ledger --families write-off --rounds 2
    uv run python bench/gate.py helpdesk --families cancel-order --mutant-seeds 2

The families' jobs are kept and the others' left out (as ``adv/round10gate/gate_family.py``
does), so conditions 1 and 4 report the families left out: compare, do not read them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio

import mcpgym_clients.instrument.validate as gate
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_server import load_environment


def _keep_families(families: set[str]) -> None:
    """Make the gate build jobs for ``families`` only (all of them when empty)."""
    if not families:
        return
    jobs, adversarial, mutant = gate._jobs, gate._adversarial_jobs, gate._mutant_jobs
    gate._jobs = lambda env, seeds, runs: [j for j in jobs(env, seeds, runs) if j.task in families]
    gate._adversarial_jobs = lambda env, seeds: [
        j for j in adversarial(env, seeds) if j.task in families
    ]
    gate._mutant_jobs = lambda env, family, seeds: (
        mutant(env, family, seeds) if family in families else []
    )


_CHILD_CPU: dict[str, float] = {}
"""CPU seconds of each child server (by role) of the last ``processes`` run."""


def _proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _measure_children() -> None:
    """Wrap the gate's `serve_in_processes` to read each child's CPU before it stops."""
    real = serve_in_processes

    @contextlib.asynccontextmanager
    async def measured(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with real(*args, **kwargs) as children:
            try:
                yield children
            finally:
                for child in children.children:
                    if child.proc is not None:
                        _CHILD_CPU[child.role] = _proc_cpu_s(child.proc.pid)

    setattr(gate, "serve_in_processes", measured)  # noqa: B010 - the name validate calls


def _cpu_s() -> float:
    """User + system CPU seconds of this process and its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _comparable(report: gate.ValidationReport) -> dict[str, Any]:
    """The report without its timings and paths."""
    out = report.to_json()
    for key in ("wall_s", "server_log"):
        out.pop(key, None)
    return out


async def _one(env: Any, way: str, args: argparse.Namespace) -> tuple[float, float, Any]:
    _CHILD_CPU.clear()
    with tempfile.TemporaryDirectory(prefix="bench-gate-") as tmp:
        cpu, t0 = _cpu_s(), time.perf_counter()
        report = await gate.validate_environment(
            env,
            store_dir=Path(tmp) / "episodes",
            seeds=args.seeds,
            mutant_seeds=args.mutant_seeds,
            concurrency=args.concurrency_now,
            servers="in-process" if way.startswith("in-process") else "processes",
            server_log=Path(tmp) / "servers.log",
        )
        return time.perf_counter() - t0, _cpu_s() - cpu, report


def _ratio_line(walls: dict[str, list[float]]) -> str:
    """Each way's median wall and its ratio to the first way's."""
    med = {w: statistics.median(v) for w, v in walls.items() if v}
    base = next(iter(med.values()))
    return "median wall: " + ", ".join(f"{w} {m:.1f} s (x{m / base:.3f})" for w, m in med.items())


def main() -> int:
    """Parse the arguments, run the rounds, print the figures; 1 when the reports differ."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("env")
    ap.add_argument("--families", default="", help="comma-separated (default: all)")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--mutant-seeds", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=8, help="for ways without :N")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--ways", default="in-process,processes", help="e.g. in-process,processes:16")
    ap.add_argument("--json", type=Path, help="write every run's figures here")
    args = ap.parse_args()
    env = load_environment(args.env)
    _keep_families({f for f in args.families.split(",") if f})
    _measure_children()
    ways = args.ways.split(",")  # NAME or NAME:CONCURRENCY
    conc_of = {w: int(w.partition(":")[2] or args.concurrency) for w in ways}
    walls: dict[str, list[float]] = {w: [] for w in ways}
    rows: list[dict[str, Any]] = []
    first: dict[str, Any] | None = None
    differs = False
    print(
        f"{args.env} families={args.families or 'all'} seeds={args.seeds} "
        f"mutant_seeds={args.mutant_seeds} concurrency={args.concurrency} "
        f"cores={len(os.sched_getaffinity(0))} load={os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for r in range(args.rounds):
        order = ways[r % len(ways) :] + ways[: r % len(ways)]
        for way in order:
            args.concurrency_now = conc_of[way]
            wall, cpu, report = anyio.run(_one, env, way, args, backend="asyncio")
            n = report.episodes
            walls[way].append(wall)
            row = {
                "round": r,
                "way": way,
                "concurrency": conc_of[way],
                "wall_s": round(wall, 2),
                "episodes": n,
                "eps_per_s": round(n / wall, 2),
                "cpu_ms_per_episode": round(cpu / n * 1000, 1),
                "load": round(os.getloadavg()[0], 1),
            }
            if _CHILD_CPU:  # the split: harness, environment server, grading service
                kids = sum(_CHILD_CPU.values())
                row["split_ms"] = {"harness": round((cpu - kids) / n * 1000, 1)} | {
                    role: round(s / n * 1000, 1) for role, s in _CHILD_CPU.items()
                }
            rows.append(row)
            print(json.dumps(row), flush=True)
            got = _comparable(report)
            if first is None:
                first = got
            elif got != first:
                differs = True
                keys = [k for k in got if got[k] != first[k]]
                print(f"REPORTS DIFFER ({way}, round {r}): {keys}", flush=True)
    if not differs:
        print("reports identical across ways and rounds (conditions, findings, episodes)")
    print(_ratio_line(walls))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
