"""Benchmark: the grading service's CPU per grade with its grades limited to N at once.

Usage::

    uv run python bench/grade_threads.py [--seeds 0-4] [--rounds 4] [--threads 0,1,2]
        [--in-flight 16]

One grading service per ``--threads`` value, each its own process on loopback
(bench/_servers.py ``grading``, bundle key, bearer token; ``0``: no limit of its own,
anyio's 40 worker threads, as before `GRADING_THREADS`), all on one store. helpdesk
reference bundles (every family x band x ``--seeds``) are sealed in this process. Each
round seals a fresh set per way (a grade is made once per episode) and has that way's
service grade them, ``--in-flight`` ``POST /grades`` at once (a campaign's 16 episodes),
the ways alternating (ABBA...); ``in-process`` grades them in this thread
(`read_verified` + `grade_bundle`), the same grade without HTTP or threads.

Prints CPU ms per grade of each service's process (``/proc``, user + system) per round,
then medians and the median of the per-round ratios to the first way. Every service
grades one set first (reference end states, the texts' views).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx

from mcpgym_server import EpisodeManager, EpisodeStore, load_environment

HERE = Path(__file__).resolve().parent


def _cpu(pid: int) -> float:
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    from mcpgym_server.runtime import bind_socket

    sock = bind_socket()
    port = int(sock.getsockname()[1])
    sock.close()
    return port


@contextlib.contextmanager
def _services(
    store: Path, token: str, key: str, threads: list[int]
) -> Iterator[dict[int, tuple[str, int]]]:
    """One grading service per value of ``threads``: ``{threads: (url, pid)}``."""
    procs: dict[int, tuple[str, subprocess.Popen[str]]] = {}
    try:
        for n in threads:
            port = _free_port()
            argv = ["grading", str(port), str(store), token, key, str(n)]
            proc = subprocess.Popen(
                [sys.executable, str(HERE / "_servers.py"), *argv],
                stdout=subprocess.PIPE,
                text=True,
            )
            procs[n] = (f"http://127.0.0.1:{port}", proc)
        for n, (_, proc) in procs.items():
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise SystemExit(f"the grading service with {n} threads did not start")
        yield {n: (url, proc.pid) for n, (url, proc) in procs.items()}
    finally:
        for _, proc in procs.values():
            proc.terminate()
            proc.wait(10)


async def main_async(args: argparse.Namespace) -> None:
    """Seal, grade each way, print the figures."""
    from mcpgym_grading import ReferenceCache, grade_bundle

    threads = [int(x) for x in args.threads.split(",")]
    ways = [f"t{n}" for n in threads] + ["in-process"]
    env = load_environment("helpdesk")
    lo, _, hi = args.seeds.partition("-")
    keys = [
        (f, b, s)
        for f in env.families
        for b in env.family(f).bands
        for s in range(int(lo), int(hi or lo) + 1)
    ]
    key, token = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
    figures: dict[str, list[float]] = {w: [] for w in ways}
    cache = ReferenceCache()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        root = Path(tmp_name) / "episodes"
        store = EpisodeStore(root, sign_key=key)
        manager = EpisodeManager(env, store, max_open=64)

        def seal_all() -> list[str]:
            ids = []
            for f, b, s in keys:
                variant = env.variant(f, b, s)
                ep = manager.open(f, b, s)
                for c in variant.reference:
                    manager.call(ep.id, c.name, dict(c.arguments))
                manager.seal(ep.id, "submitted", answer=variant.answer)
                ids.append(ep.id)
            return ids

        with _services(root, token, key, threads) as services:
            async with httpx.AsyncClient(
                headers={"Authorization": f"Bearer {token}"},
                limits=httpx.Limits(keepalive_expiry=1.0),
                timeout=120,
            ) as http:

                async def grade_way(way: str, ids: list[str]) -> None:
                    if way == "in-process":
                        for i in ids:
                            bundle, _ = store.read_verified(i, key)
                            assert grade_bundle(bundle, env, reference_cache=cache).score == 1.0
                        return
                    url = services[int(way[1:])][0]
                    limiter = anyio.Semaphore(args.in_flight)

                    async def one(i: str) -> None:
                        async with limiter:
                            r = await http.post(f"{url}/grades", json={"episode_id": i})
                            assert r.status_code == 200 and r.json()["score"] == 1.0, r.text

                    async with anyio.create_task_group() as tg:
                        for i in ids:
                            tg.start_soon(one, i)

                for way in ways:  # warm: reference end states, views
                    await grade_way(way, seal_all())
                for r in range(args.rounds):
                    for way in ways if r % 2 == 0 else ways[::-1]:
                        ids = seal_all()
                        if way == "in-process":
                            c0 = time.thread_time()
                            await grade_way(way, ids)
                            cpu = (time.thread_time() - c0) * 1000 / len(ids)
                        else:
                            pid = services[int(way[1:])][1]
                            c0 = _cpu(pid)
                            await grade_way(way, ids)
                            cpu = (_cpu(pid) - c0) * 1000 / len(ids)
                        figures[way].append(cpu)
                        print(
                            f"round {r} {way}: {cpu:.2f} ms CPU per grade "
                            f"(load {os.getloadavg()[0]:.1f})",
                            flush=True,
                        )
    med = statistics.median
    print(f"\n{len(keys)} grades a way a round, {args.rounds} rounds, {args.in_flight} in flight")
    print("| way | CPU ms/grade | / first way (median of per-round ratios) |")
    print("|---|---|---|")
    for way, xs in figures.items():
        ratio = med(a / b for a, b in zip(xs, figures[ways[0]], strict=True))
        print(f"| {way} | {med(xs):.2f} | x{ratio:.3f} |")


def main() -> None:
    """Parse the arguments and run."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="0-4")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--threads", default="0,1,2", help="one service per value; 0: no limit")
    ap.add_argument("--in-flight", type=int, default=16)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    from mcpgym_server.runtime import run

    run(main_async, args)


if __name__ == "__main__":
    main()
