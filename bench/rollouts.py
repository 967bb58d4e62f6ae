"""Benchmark: rollouts per second through `mcpgym_clients.train`, against `mcpgym eval`.

Usage::

    uv run python bench/rollouts.py [--env helpdesk] [--variants 4] [--group 8] [--rounds 2]

The reference policy (it replays each variant's reference solution, so every rollout
scores 1.0 and the cost is mcpgym's own: episode, MCP calls, sealing, grading) runs
``--variants`` training rows (``easy``, one per task family in turn) in groups of
``--group``, three ways, interleaved round by round (the order rotating) in this
one process:

- ``in process``: `Rollouts.in_process` (servers in this event loop, ASGI, no sockets);
- ``over HTTP``: `Rollouts.served` (both servers on loopback, uvicorn);
- ``mcpgym eval``: `run_campaign` over the same loopback servers, the same variants with
  ``epochs = --group`` (no baseline run), into a throw-away run store.

Each way runs the same number of rollouts with up to ``--group`` in flight. Prints
rollouts/s (the median over rounds) and the ratios to ``mcpgym eval``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import anyio

from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign, serve_locally
from mcpgym_clients.campaign import VariantKey
from mcpgym_clients.train import Rollouts, TrainingRow, training_rows
from mcpgym_server import load_environment


def pick_rows(env_name: str, n: int) -> list[TrainingRow]:
    rows = training_rows(env_name, bands=["easy"], seeds=range(50))
    by_task: dict[str, list[TrainingRow]] = {}
    for r in rows:
        by_task.setdefault(r.task, []).append(r)
    out: list[TrainingRow] = []
    while len(out) < n:
        for task_rows in by_task.values():
            if len(out) < n and task_rows:
                out.append(task_rows.pop(0))
    return out


async def via_library(ro: Rollouts, rows: list[TrainingRow], group: int) -> float:
    t = time.perf_counter()
    groups = await ro.rollout_groups(rows, ReferenceAgent(), n=group)
    elapsed = time.perf_counter() - t
    assert all(g.rewards == [1.0] * group for g in groups), "a reference rollout failed"
    return len(rows) * group / elapsed


async def via_eval(env_name: str, rows: list[TrainingRow], group: int, tmp: Path) -> float:
    env = load_environment(env_name)
    variants = [VariantKey(r.task, r.band, r.seed) for r in rows]
    async with serve_locally(env, tmp / "eval-episodes") as s:
        async with EpisodeDriver(
            s.env_url,
            s.grading_url,
            s.grading_token,
            control_token=s.control_token,
            environment=env,
        ) as d:
            await d.server_info()
            with RunStore(tmp / f"runs-{time.monotonic_ns()}.db") as store:
                t = time.perf_counter()
                await run_campaign(
                    d, ReferenceAgent(), variants, store, epochs=group, concurrency=group,
                    baseline=False, show_progress=False, resume=False, environment=env,
                )
                elapsed = time.perf_counter() - t
    return len(rows) * group / elapsed


async def main(args: argparse.Namespace) -> None:
    rows = pick_rows(args.env, args.variants)
    n = len(rows) * args.group
    results: dict[str, list[float]] = {"in process": [], "over HTTP": [], "mcpgym eval": []}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        async with Rollouts.in_process(args.env, concurrency=args.group) as warm:
            await via_library(warm, rows[:1], 2)  # imports, first variant generation
        async def in_process(i: int) -> float:
            async with Rollouts.in_process(args.env, concurrency=args.group) as ro:
                return await via_library(ro, rows, args.group)

        async def over_http(i: int) -> float:
            async with Rollouts.served(args.env, tmp / f"http-{i}", concurrency=args.group) as ro:
                return await via_library(ro, rows, args.group)

        async def eval_(i: int) -> float:
            return await via_eval(args.env, rows, args.group, tmp)

        ways = [("in process", in_process), ("over HTTP", over_http), ("mcpgym eval", eval_)]
        for i in range(args.rounds):
            for name, way in ways[i % 3 :] + ways[: i % 3]:  # rotate the order each round
                results[name].append(await way(i))
    base = statistics.median(results["mcpgym eval"])
    print(f"{args.env}: {len(rows)} variants x groups of {args.group} = {n} rollouts per way, "
          f"{args.rounds} rounds (median)")
    for name, xs in results.items():
        med = statistics.median(xs)
        print(f"  {name:12s} {med:7.1f} rollouts/s   ratio to mcpgym eval {med / base:5.2f}"
              f"   (rounds: {', '.join(f'{x:.1f}' for x in xs)})")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="helpdesk")
    p.add_argument("--variants", type=int, default=4)
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--rounds", type=int, default=2)
    anyio.run(main, p.parse_args())
