"""Benchmark: where each process of a warm reference campaign spends its CPU (cProfile).

Usage::

    uv run python bench/campaign_profile.py [--seeds 0-4] [--rounds 2] [--top 30]
        [--out DIR]

What bench/campaign_ab.py's ``current`` way runs (the environment server and the grading
service in child processes as `mcpgym eval` starts them, one `EpisodeDriver`, the run store
on disk, no progress), with every thread of the three processes under a `cProfile.Profile`
timed by thread CPU time (bench/_profile: the script re-runs itself with that hook on
``PYTHONPATH``, the children inherit it). One warm campaign, then the figures are cleared
and ``--rounds`` campaigns profiled. Writes ``DIR/{campaign,env,grading}.prof`` (read them
with `pstats`) and prints, per process, the profiled CPU ms per episode and the functions
with the most own time and the most time under them, per episode. cProfile's own cost
inflates the figures (~2x on code made of many small calls): read shares, not ms.
"""

from __future__ import annotations

import argparse
import os
import pstats
import signal
import sys
import tempfile
import time
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent


def _report(path: Path, role: str, episodes: int, top: int) -> None:
    st = pstats.Stats(str(path))
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    print(f"\n## {role}: {total * 1000 / episodes:.2f} ms profiled CPU per episode")
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    print("own time, ms/episode, share, calls/episode, function")
    for (file, line, name), (_cc, nc, tt, _ct, _c) in rows:
        _row(tt, total, nc, episodes, f"{'/'.join(file.split('/')[-2:])}:{line} {name}")
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][3])[: top * 2]  # type: ignore[attr-defined]
    print("time under, ms/episode, share, calls/episode, function")
    for (file, line, name), (_cc, nc, _tt, ct, _c) in rows:
        _row(ct, total, nc, episodes, f"{'/'.join(file.split('/')[-2:])}:{line} {name}")


def _row(t: float, total: float, calls: int, episodes: int, where: str) -> None:
    print(f"  {t * 1000 / episodes:7.3f} {t / total:6.1%} {calls / episodes:7.1f}  {where}")


def main() -> None:
    """Parse the arguments, re-run under the hook if needed, run and report."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--out", default=None, help="where the .prof files go (default: a temp dir)")
    args = ap.parse_args()
    if not os.environ.get("MCPGYM_BENCH_PROFILE"):
        out = Path(args.out or tempfile.mkdtemp(prefix="campaign-profile-"))
        out.mkdir(parents=True, exist_ok=True)
        os.environ["MCPGYM_BENCH_PROFILE"] = str(out)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(HERE / "_profile"), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        os.execv(sys.executable, [sys.executable, *sys.argv])
    from mcpgym_server.runtime import run

    run(_main_async, args)


async def _main_async(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(HERE))
    from campaign_ab import _campaign, warm_campaign  # pyright: ignore[reportMissingImports]

    from mcpgym_clients.selection import VariantKey
    from mcpgym_server import load_environment

    out = Path(os.environ["MCPGYM_BENCH_PROFILE"])
    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    seeds = list(range(int(lo), int(hi or lo) + 1))
    variants = [
        VariantKey(f, b, s) for f in env.families for b in env.family(f).bands for s in seeds
    ]
    n = 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        async with warm_campaign(env, variants, tmp, args.concurrency) as (driver, pids):
            for pid in pids:
                os.kill(pid, signal.SIGUSR1)
            t0 = time.perf_counter()
            for r in range(args.rounds):
                _, k = await _campaign(driver, variants, tmp / f"r{r}.db", args.concurrency)
                n += k
            wall = time.perf_counter() - t0
            for pid in pids:
                os.kill(pid, signal.SIGUSR2)
            for _ in range(300):  # the files appear within seconds
                if all((out / f"{p}.prof").exists() for p in pids):
                    break
                await anyio.sleep(0.1)
    print(
        f"{n} episodes profiled, {n / wall:.1f} episodes/s under the profiler, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    for pid, role in zip(pids, ("campaign", "env", "grading"), strict=True):
        path = out / f"{role}.prof"
        (out / f"{pid}.prof").replace(path)
        _report(path, role, n, args.top)


if __name__ == "__main__":
    main()
