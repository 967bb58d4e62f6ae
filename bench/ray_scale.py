"""Benchmark: campaign throughput on Ray with 1, 2 and 4 environment actors.

Usage::

    uv pip install 'mcpgym-clients[ray]'   # or: the `ray` extra
    uv run --no-sync python bench/ray_scale.py [--seeds 4] [--actors 1,2,4] [--concurrency 16]

Runs the `reference` agent (no baseline) over every helpdesk family x band x ``--seeds``
seeds through `run_campaign`, first with the local backend (both servers in this process,
`serve_locally`: the baseline), then on a local Ray (``num_cpus=2``, no dashboard) with
each number of environment actors (one grading actor beside them). Prints episodes/s end
to end (actor start-up excluded, the campaign's own run-store writes included) and the
ratio to the local backend measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import anyio

os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


async def _campaign(runner: object, variants: list, store_path: Path, concurrency: int) -> float:
    from mcpgym_clients.agents import ReferenceAgent
    from mcpgym_clients.campaign import run_campaign
    from mcpgym_clients.runstore import RunStore

    with RunStore(store_path) as store:
        t = time.perf_counter()
        result = await run_campaign(
            runner,  # type: ignore[arg-type]
            ReferenceAgent(),
            variants,
            store,
            concurrency=concurrency,
            baseline=False,
            show_progress=False,
        )
        elapsed = time.perf_counter() - t
    assert result.incomplete() is None, result.incomplete()
    return len(result.records) / elapsed


async def main(seeds: int, actors: list[int], concurrency: int) -> None:
    """Measure and print (see the module docstring)."""
    import ray

    from mcpgym_clients import serve_locally
    from mcpgym_clients.backends.ray import ray_backend
    from mcpgym_clients.driver import EpisodeDriver
    from mcpgym_clients.selection import VariantKey
    from mcpgym_server import load_environment

    env = load_environment("helpdesk")
    variants = [
        VariantKey(name, band, seed)
        for name, fam in sorted(env.families.items())
        for band in fam.bands
        for seed in range(seeds)
    ]
    tmp = Path(tempfile.mkdtemp(prefix="bench-ray-"))
    print(f"{len(variants)} reference episodes per campaign, concurrency {concurrency}")
    async with (
        serve_locally(env, tmp / "local") as s,
        EpisodeDriver(
            s.env_url,
            s.grading_url,
            s.grading_token,
            control_token=s.control_token,
            environment=env,
        ) as driver,
    ):
        local = await _campaign(driver, variants, tmp / "local.db", concurrency)
    print(f"local backend (baseline): {local:6.1f} episodes/s")
    for n in actors:  # a fresh local Ray for each figure
        await anyio.to_thread.run_sync(
            lambda: ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        )
        try:
            async with ray_backend(env, tmp / f"ray{n}", actors=n) as runner:
                rate = await _campaign(runner, variants, tmp / f"ray{n}.db", concurrency)
        finally:
            ray.shutdown()
        ratio = rate / local
        print(f"ray, {n} environment actor(s): {rate:6.1f} episodes/s ({ratio:.2f}x local)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--actors", default="1,2,4")
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    anyio.run(
        main,
        args.seeds,
        [int(a) for a in args.actors.split(",")],
        args.concurrency,
        backend="asyncio",
    )
