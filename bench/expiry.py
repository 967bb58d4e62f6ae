"""Benchmark: `/healthz` and tool-call latency while 1,000 idle episodes expire.

Usage::

    uv run python bench/expiry.py [--episodes 1000] [--idle-ttl 10] [--modes legacy,current]

For each mode an environment server (helpdesk, separate process, reaping every second) is
started; ``--episodes`` episodes are opened and left idle; one live episode keeps calling
``get_order`` over MCP (every 20 ms) while a poller hits ``/healthz`` (every 10 ms). Both
latencies are recorded from the moment the first idle episode passes its TTL until every
idle episode's bundle is in the store.

- ``legacy``: sealing as before page deltas (whole database gzipped, the expiry sweep
  sealing inline on the event loop), reproduced by ``bench/_servers.py``;
- ``current``: page-delta bundles, the sweep sealing in worker threads and yielding.

Prints p50 / p99 / max of both latencies per mode and the ratio current / legacy
(aim, issue 9 §6: p99 < 100 ms on 2 cores).
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent


@contextlib.contextmanager
def _server(port: int, store: str, ttl: float, mode: str) -> Iterator[None]:
    args = ["env", "helpdesk", str(port), store, str(ttl), mode]
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_servers.py"), *args], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError(f"server {args} failed to start")
        yield
    finally:
        proc.terminate()
        proc.wait(30)


def _free_port() -> int:
    from mcpgym_server.runtime import bind_socket

    sock = bind_socket()
    port = sock.getsockname()[1]
    sock.close()
    return port


def _sealed(store: Path) -> int:
    return sum(1 for p in store.iterdir() if not p.name.startswith("."))


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def _run(base: str, store: Path, n: int, ttl: float) -> dict[str, object]:
    health: list[float] = []
    calls: list[float] = []
    async with httpx2.AsyncClient(timeout=120) as http:
        sem = anyio.Semaphore(8)

        async def open_one(i: int) -> None:
            async with sem:
                r = await http.post(
                    f"{base}/episodes", json={"task": "order-status", "seed": i % 50}
                )
                r.raise_for_status()

        t_open = time.monotonic()
        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(open_one, i)
        opened_in = time.monotonic() - t_open
        live = (await http.post(f"{base}/episodes", json={"task": "order-status"})).json()
        window: dict[str, float] = {}
        done = anyio.Event()

        async with Client(streamable_http_client(live["mcp_url"], http_client=http)) as mcp:

            async def caller() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    res = await mcp.call_tool("get_order", {"order_id": 100001})
                    dt = (time.perf_counter() - t0) * 1000
                    assert not res.is_error, res.content
                    if "start" in window:
                        calls.append(dt)
                    await anyio.sleep(0.02)

            async def poller() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    (await http.get(f"{base}/healthz")).raise_for_status()
                    dt = (time.perf_counter() - t0) * 1000
                    if "start" in window:
                        health.append(dt)
                    await anyio.sleep(0.01)

            async def watcher() -> None:
                await anyio.sleep(max(0.0, t_open + ttl - 0.5 - time.monotonic()))
                window["start"] = time.monotonic()
                first = None
                while (count := _sealed(store)) < n:
                    if count and first is None:
                        first = time.monotonic()
                    await anyio.sleep(0.05)
                window["first"] = first or time.monotonic()
                window["end"] = time.monotonic()
                done.set()

            async with anyio.create_task_group() as tg:
                tg.start_soon(caller)
                tg.start_soon(poller)
                tg.start_soon(watcher)
    return {
        "opened_in_s": opened_in,
        "expiry_s": window["end"] - window["first"],
        "health": health,
        "calls": calls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--idle-ttl", type=float, default=10.0)
    parser.add_argument("--modes", default="legacy,current")
    args = parser.parse_args()
    results: dict[str, dict[str, object]] = {}
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            store = Path(tmp) / "episodes"
            port = _free_port()
            with _server(port, str(store), args.idle_ttl, mode):
                results[mode] = anyio.run(
                    _run, f"http://127.0.0.1:{port}", store, args.episodes, args.idle_ttl
                )
    print(f"{args.episodes} idle episodes expiring (--idle-ttl {args.idle_ttl}, reaped each 1 s)")
    print(f"{'mode':<8} {'what':<10} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  expiry")
    for mode, r in results.items():
        for what in ("health", "calls"):
            xs: list[float] = r[what]  # type: ignore[assignment]
            print(
                f"{mode:<8} {what:<10} {len(xs):>5} {_pct(xs, 0.5):>8.1f} {_pct(xs, 0.99):>8.1f} "
                f"{max(xs, default=float('nan')):>8.1f}  {r['expiry_s']:.1f} s"
            )
    if {"legacy", "current"} <= results.keys():
        for what in ("health", "calls"):
            old = _pct(results["legacy"][what], 0.99)  # type: ignore[arg-type]
            new = _pct(results["current"][what], 0.99)  # type: ignore[arg-type]
            verdict = "ok" if new < 100 else "MISSED"
            print(f"{what} p99: current / legacy = {new / old:.3f} (aim p99 < 100 ms: {verdict})")


if __name__ == "__main__":
    main()
