"""Benchmark: rollouts per second through `mcpgym_clients.train`, against `mcpgym eval`.

Usage::

    uv run python bench/rollouts.py [--env helpdesk] [--variants 4] [--group 8] [--rounds 2]

The reference policy (it replays each variant's reference solution, so every rollout
scores 1.0 and the cost is mcpgym's own: episode, MCP calls, sealing, grading) runs
``--variants`` training rows (``easy``, one per task family in turn) in groups of
``--group``, five ways, interleaved round by round (the order rotating) in this
one process:

- ``direct``: `Rollouts.direct` (no HTTP, no MCP: tool calls straight to the sandbox,
  bundles in memory, the sealed sandbox graded in place);
- ``direct xN``: `Rollouts.direct(workers=N)` (``--workers``, default 2): the same in N
  worker processes, one core each (CPU is this process's only: the workers' is not in it);
- ``in process``: `Rollouts.in_process` (servers in this event loop, ASGI, no sockets);
- ``over HTTP``: `Rollouts.served` (both servers on loopback, uvicorn);
- ``mcpgym eval``: `run_campaign` over the same loopback servers, the same variants with
  ``epochs = --group`` (no baseline run), into a throw-away run store.

Each way runs the same number of rollouts with up to ``--group`` in flight. Prints
rollouts/s (the median over rounds), the CPU time of this process per rollout, and the
ratios to ``in process`` (the trainer path before `Rollouts.direct`) and ``mcpgym eval``.
``--ways`` picks some of them (``direct,in process``: the two trainer paths only).

``--copy-ab`` runs each way also as ``WAY [open_copy]``: `EpisodeManager.private_copy` off
(each sandbox a `Snapshot.open_copy`, the copy before stop 29), the two alternating in the
rotation: an A/B of the sandbox's copy in one process (ways whose servers run in child
processes, ``mcpgym eval`` and ``direct xN``, are not switched).

``--floor`` also prints what bounds the direct path: the same episodes run synchronously
(no event loop) with the CPU time of each part measured: opening (the snapshot's copy
and the variant's setup SQL), the tool calls, sealing (the sandbox's copy, the page delta
and the rest of the bundle) and grading, each per episode; and apart, the final state's
digests (its sha256, the delta's, the page-wise one) that the MCP path computes and the
direct path skips (``hash_final=False``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign, serve_locally
from mcpgym_clients.selection import VariantKey
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


async def via_library(ro: Rollouts, rows: list[TrainingRow], group: int) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    groups = await ro.rollout_groups(rows, ReferenceAgent(), n=group)
    elapsed, cpu = time.perf_counter() - t, time.process_time() - c
    assert all(g.rewards == [1.0] * group for g in groups), "a reference rollout failed"
    n = len(rows) * group
    return n / elapsed, cpu * 1000 / n


async def via_eval(
    env_name: str, rows: list[TrainingRow], group: int, tmp: Path
) -> tuple[float, float]:
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
                t, c = time.perf_counter(), time.process_time()
                await run_campaign(
                    d,
                    ReferenceAgent(),
                    variants,
                    store,
                    epochs=group,
                    concurrency=group,
                    baseline=False,
                    show_progress=False,
                    resume=False,
                    environment=env,
                )
                elapsed, cpu = time.perf_counter() - t, time.process_time() - c
    n = len(rows) * group
    return n / elapsed, cpu * 1000 / n


def floor(env_name: str, rows: list[TrainingRow], repeats: int) -> None:
    """Print the CPU per part of a direct rollout (see the module docstring)."""
    from mcpgym_grading import ReferenceCache, StateConnection, grade_bundle
    from mcpgym_server import MemoryEpisodeStore
    from mcpgym_server.bundles import PageDelta, delta_meta, forget_final_sha256
    from mcpgym_server.runtime import EpisodeManager

    env = load_environment(env_name)
    store = MemoryEpisodeStore()
    manager = EpisodeManager(
        env,
        store,
        connection_factory=StateConnection,
        keep_final_db=True,
        max_open=16,
        hash_final=False,  # as `DirectEpisodes` (its bundles are dropped once graded)
    )
    cache = ReferenceCache()
    parts = dict.fromkeys(
        (
            "open: copy",
            "open: setup",
            "calls",
            "seal: copy",
            "seal: delta",
            "seal: digests",
            "seal: rest",
            "grade",
        ),
        0.0,
    )
    clock = time.thread_time

    def one(row: TrainingRow, record: bool) -> None:
        v = env.variant(row.task, row.band, row.seed)
        t0 = clock()
        ep = manager.open(row.task, row.band, row.seed)
        t1 = clock()
        for c in v.reference:
            manager.call(ep.id, c.name, dict(c.arguments))
        t2 = clock()
        manager.call(ep.id, "submit", {} if v.answer is None else {"answer": v.answer})
        t3 = clock()
        db = manager.take_final_db(ep.id)
        bundle = store.take(ep.id)
        grade = grade_bundle(bundle, env, reference_cache=cache, final_db=db)
        t4 = clock()
        assert grade.score == 1.0 and db is not None
        # the parts of opening and sealing, measured apart on the same databases
        c0 = clock()
        copy = env.snapshot.open_copy()
        c1 = clock()
        final = db.serialize()
        c2 = clock()
        delta = PageDelta.between(env.snapshot.data, final)
        c3 = clock()
        forget_final_sha256()  # as for a final state not seen before
        delta_meta(final, delta, env.snapshot)  # the digests the MCP path computes
        c4 = clock()
        copy.close()
        db.close()
        if record:
            parts["open: copy"] += c1 - c0
            parts["open: setup"] += (t1 - t0) - (c1 - c0)
            parts["calls"] += t2 - t1
            parts["seal: copy"] += c2 - c1
            parts["seal: delta"] += c3 - c2
            parts["seal: digests"] += c4 - c3
            parts["seal: rest"] += (t3 - t2) - (c3 - c1)  # the submit call, meta, log
            parts["grade"] += t4 - t3

    for row in rows:
        one(row, False)  # variants, reference end states, the snapshot's page digests
    for _ in range(repeats):
        for row in rows:
            one(row, True)
    n = repeats * len(rows)
    sha = parts.pop("seal: digests")
    total = sum(parts.values()) * 1000 / n
    print(f"floor of a direct rollout ({n} episodes, thread CPU ms each):")
    for name, t in parts.items():
        print(f"  {name:14s} {t * 1000 / n:6.3f} ms")
    print(f"  {'sum':14s} {total:6.3f} ms  -> at most {1000 / total:.0f} rollouts/s on one core")
    print(
        f"  (not in the sum: the final state's digests, {sha * 1000 / n:.3f} ms: the whole "
        "file's sha256, the delta's, the page digests; the MCP path computes them, the "
        "direct path skips them: nobody reads a dropped bundle's)"
    )


def _open_copy(way: Any) -> Any:
    """``way`` run with `EpisodeManager.private_copy` off (sandboxes by `Snapshot.open_copy`:
    the code path before stop 29), in this process only."""
    from mcpgym_server.runtime import EpisodeManager

    async def run(i: int) -> tuple[float, float]:
        EpisodeManager.private_copy = False
        try:
            return await way(i)
        finally:
            EpisodeManager.private_copy = True

    return run


async def main(args: argparse.Namespace) -> None:
    rows = pick_rows(args.env, args.variants)
    if args.floor:
        floor(args.env, rows, max(2, args.rounds))
    n = len(rows) * args.group
    names = [w.strip() for w in args.ways.split(",")]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        async with Rollouts.in_process(args.env, concurrency=args.group) as warm:
            await via_library(warm, rows, 2)  # imports, variant generation, reference states
        async with Rollouts.direct(args.env, concurrency=args.group) as warm:
            await via_library(warm, rows, 2)

        async def direct(i: int) -> tuple[float, float]:
            async with Rollouts.direct(args.env, concurrency=args.group) as ro:
                await via_library(ro, rows, 1)  # this session's reference end states
                return await via_library(ro, rows, args.group)

        async def direct_workers(i: int) -> tuple[float, float]:
            async with Rollouts.direct(
                args.env, concurrency=args.group, workers=args.workers
            ) as ro:
                # the workers' start, and each worker's reference end states (a worker
                # computes those of the variants it meets: a whole untimed round)
                await via_library(ro, rows, args.group)
                return await via_library(ro, rows, args.group)

        async def in_process(i: int) -> tuple[float, float]:
            async with Rollouts.in_process(args.env, concurrency=args.group) as ro:
                return await via_library(ro, rows, args.group)

        async def over_http(i: int) -> tuple[float, float]:
            async with Rollouts.served(args.env, tmp / f"http-{i}", concurrency=args.group) as ro:
                return await via_library(ro, rows, args.group)

        async def eval_(i: int) -> tuple[float, float]:
            return await via_eval(args.env, rows, args.group, tmp)

        every = {
            "direct": direct,
            "direct xN": direct_workers,
            "in process": in_process,
            "over HTTP": over_http,
            "mcpgym eval": eval_,
        }
        ways = [(name, every[name]) for name in names]
        if args.copy_ab:  # each way again with the sandbox copy before stop 29
            for name, way in list(ways):
                results[f"{name} [open_copy]"] = []
                ways.append((f"{name} [open_copy]", _open_copy(way)))
        for i in range(args.rounds):
            k = i % len(ways)
            for name, way in ways[k:] + ways[:k]:  # rotate the order each round
                results[name].append(await way(i))
    med = {name: statistics.median(x for x, _ in xs) for name, xs in results.items()}
    print(
        f"{args.env}: {len(rows)} variants x groups of {args.group} = {n} rollouts per way, "
        f"{args.rounds} rounds (median)"
    )
    for name, xs in results.items():
        cpu = statistics.median(c for _, c in xs)
        ratios = "   ".join(
            f"ratio to {base} {med[name] / med[base]:5.2f}"
            for base in ("in process", "mcpgym eval")
            if base in med
        )
        print(
            f"  {name:12s} {med[name]:7.1f} rollouts/s  {cpu:6.2f} ms CPU each   {ratios}"
            f"   (rounds: {', '.join(f'{x:.1f}' for x, _ in xs)})"
        )


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=(__doc__ or "rollouts").splitlines()[0])
    p.add_argument("--env", default="helpdesk")
    p.add_argument("--variants", type=int, default=4)
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--ways", default="direct,direct xN,in process,over HTTP,mcpgym eval")
    p.add_argument("--workers", type=int, default=2, help="processes for `direct xN`")
    p.add_argument("--floor", action="store_true", help="also print the direct path's parts")
    p.add_argument(
        "--copy-ab",
        action="store_true",
        help="each way also with sandboxes by open_copy (before stop 29), alternating",
    )
    anyio.run(main, p.parse_args())
