"""Benchmark: CPU per episode of each process of a warm campaign, by thread.

Usage::

    uv run python bench/campaign_threads.py [--seeds 0-4] [--rounds 3]

bench/campaign_ab.py's ``current`` way (the environment server and the grading service in
child processes as `mcpgym eval` starts them, one `EpisodeDriver`, the run store on disk),
one warm campaign, then ``--rounds`` campaigns, each process's threads read from
``/proc/PID/task/*/schedstat`` (nanoseconds of CPU) around each. Prints per round and
process the CPU ms per episode of its main thread (the event loop: HTTP, MCP, routes) and
of its other threads (the grading service's worker threads grade; the environment server
seals in one), with the load. No profiler: these are the real figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from campaign_ab import _campaign, warm_campaign  # noqa: E402  (bench helpers)

ROLES = ("campaign", "env server", "grading")


def _threads(pid: int) -> dict[int, float]:
    """CPU ms of each live thread of process ``pid``."""
    out: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            out[int(task.name)] = int((task / "schedstat").read_text().split()[0]) / 1e6
    return out


async def main_async(args: argparse.Namespace) -> None:
    """Start the servers, warm them, run the rounds, print the figures."""
    from mcpgym_clients.selection import VariantKey
    from mcpgym_server import load_environment

    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    variants = [
        VariantKey(f, b, s)
        for f in env.families
        for b in env.family(f).bands
        for s in range(int(lo), int(hi or lo) + 1)
    ]
    rows: dict[str, list[tuple[float, float]]] = {r: [] for r in ROLES}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        async with warm_campaign(env, variants, tmp, args.concurrency) as (driver, pids):
            for r in range(args.rounds):
                before = [_threads(p) for p in pids]
                _, n = await _campaign(driver, variants, tmp / f"r{r}.db", args.concurrency)
                after = [_threads(p) for p in pids]
                shown = []
                for role, pid, b, a in zip(ROLES, pids, before, after, strict=True):
                    spent = {t: ms - b.get(t, 0.0) for t, ms in a.items()}
                    main = spent.get(pid, 0.0) / n
                    rest = (sum(spent.values()) - spent.get(pid, 0.0)) / n
                    rows[role].append((main, rest))
                    shown.append(f"{role} {main + rest:.2f} (main {main:.2f}, other {rest:.2f})")
                print(
                    f"round {r}: CPU ms/episode "
                    + "; ".join(shown)
                    + f" (load {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
    med = statistics.median
    print(f"\n{len(variants)} episodes a campaign, {args.rounds} rounds; medians, CPU ms/episode")
    print("| process | all | main thread | other threads |")
    print("|---|---|---|---|")
    for role, xs in rows.items():
        print(
            f"| {role} | {med(a + b for a, b in xs):.2f} | {med(a for a, _ in xs):.2f} | "
            f"{med(b for _, b in xs):.2f} |"
        )


def main() -> None:
    """Parse the arguments and run."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    from mcpgym_server.runtime import run

    run(main_async, args)


if __name__ == "__main__":
    main()
