"""Benchmark: the grading service's CPU per grade over loopback, against grading in process.

Usage::

    uv run python bench/grade_service.py [--seeds 0-4] [--rounds 3] [--ways c1,c16]

helpdesk reference bundles (every family x band x ``--seeds``) are sealed in this process
by an `EpisodeManager` with the bundle key into the store of a grading service started as
`mcpgym eval` starts it (`serve_in_processes`: its own process, bundle key, bearer token).
Each round seals a fresh set of bundles per way (a grade is made once per episode) and has
the service grade them over loopback, the ways alternating (ABBA...):

- ``cN``: one ``POST /grades`` per episode, ``N`` in flight;
- ``in-process``: `EpisodeStore.read_verified` + `grade_bundle` in this process (the
  service's `compute`, without HTTP or threads), this process's thread CPU.

Prints CPU ms per grade of the grading service's process (user and system, ``/proc``),
one line per round, then medians and the median of the per-round ratios to the first way.
Reference end states and the texts' views are warmed by one pass first.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx

from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.selection import VariantKey
from mcpgym_server import EpisodeManager, EpisodeStore, load_environment


def _cpu(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of process ``pid`` (``/proc/PID/stat``)."""
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(f[11]) / tick, int(f[12]) / tick


@contextlib.asynccontextmanager
async def _grading(tmp: Path, key: str) -> AsyncIterator[tuple[str, str, int]]:
    """A grading service (and its environment server, unused) on the store ``tmp/episodes``:
    ``(url, token, pid)``."""
    before = set(_children())
    async with serve_in_processes(
        "helpdesk", tmp / "episodes", log_path=tmp / "servers.log", bundle_key=key
    ) as servers:
        new = [p for p in _children() if p not in before]
        yield servers.grading_url, servers.grading_token, new[1]


def _children() -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        out += [int(p) for p in (task / "children").read_text().split()]

    def started(pid: int) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])

    return sorted(out, key=lambda pid: (started(pid), pid))


async def main_async(args: argparse.Namespace) -> None:
    """Seal, grade each way, print the figures."""
    from mcpgym_grading import ReferenceCache, grade_bundle

    ways = args.ways.split(",")
    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    keys = [
        VariantKey(f, b, s)
        for f in env.families
        for b in env.family(f).bands
        for s in range(int(lo), int(hi or lo) + 1)
    ]
    key = secrets.token_urlsafe(32)
    figures: dict[str, list[tuple[float, float]]] = {w: [] for w in ways}
    cache = ReferenceCache()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        store = EpisodeStore(tmp / "episodes", sign_key=key)
        manager = EpisodeManager(env, store, max_open=64)

        def seal_all() -> list[str]:
            ids = []
            for v in keys:
                variant = env.variant(v.task, v.band, v.seed)
                ep = manager.open(v.task, v.band, v.seed)
                for c in variant.reference:
                    manager.call(ep.id, c.name, dict(c.arguments))
                manager.seal(ep.id, "submitted", answer=variant.answer)
                ids.append(ep.id)
            return ids

        async with (
            _grading(tmp, key) as (url, token, pid),
            httpx.AsyncClient(
                base_url=url,
                headers={"Authorization": f"Bearer {token}"},
                # idle connections dropped before uvicorn's 5 s keep-alive closes them
                limits=httpx.Limits(keepalive_expiry=1.0),
            ) as http,
        ):

            async def grade_way(way: str, ids: list[str]) -> None:
                if way == "in-process":
                    for i in ids:
                        bundle, _ = store.read_verified(i, key)
                        g = grade_bundle(bundle, env, reference_cache=cache)
                        assert g.score == 1.0
                    return
                if not (way[0] == "c" and way[1:].isdigit()):
                    raise SystemExit(f"unknown way {way!r}: cN or in-process")
                limiter = anyio.Semaphore(int(way[1:]))

                async def one(i: str) -> None:
                    async with limiter:
                        r = await http.post("/grades", json={"episode_id": i})
                        assert r.status_code == 200 and r.json()["score"] == 1.0, r.text

                async with anyio.create_task_group() as tg:
                    for i in ids:
                        tg.start_soon(one, i)

            await grade_way("c4", seal_all())  # warm: reference end states, views
            await grade_way("in-process", seal_all())
            for r in range(args.rounds):
                for way in ways if r % 2 == 0 else ways[::-1]:
                    ids = seal_all()
                    if way == "in-process":
                        c0 = time.thread_time()
                        await grade_way(way, ids)
                        cpu = ((time.thread_time() - c0) * 1000 / len(ids), 0.0)
                    else:
                        u0, s0 = _cpu(pid)
                        await grade_way(way, ids)
                        u1, s1 = _cpu(pid)
                        cpu = ((u1 - u0) * 1000 / len(ids), (s1 - s0) * 1000 / len(ids))
                    figures[way].append(cpu)
                    print(
                        f"round {r} {way}: {sum(cpu):.2f} ms CPU per grade (user {cpu[0]:.2f}, "
                        f"system {cpu[1]:.2f}; load {os.getloadavg()[0]:.1f})",
                        flush=True,
                    )
    med = statistics.median
    print(f"\n{len(keys)} grades a way a round, {args.rounds} rounds")
    print("| way | CPU ms/grade | user | system | / first way (median of rounds) |")
    print("|---|---|---|---|---|")
    for way, xs in figures.items():
        ratio = med(sum(a) / sum(b) for a, b in zip(xs, figures[ways[0]], strict=True))
        print(
            f"| {way} | {med(sum(x) for x in xs):.2f} | {med(x[0] for x in xs):.2f} | "
            f"{med(x[1] for x in xs):.2f} | x{ratio:.3f} |"
        )


def main() -> None:
    """Parse the arguments and run."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ways", default="c1,c16,in-process")
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    from mcpgym_server.runtime import run

    run(main_async, args)


if __name__ == "__main__":
    main()
