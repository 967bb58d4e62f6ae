"""Benchmark: episode start and tool-call latency over loopback HTTP, against a bare `mcp` server.

Usage::

    uv run python bench/episode.py [--episodes 300] [--env helpdesk] [--task order-status]

Both servers run as separate processes on 127.0.0.1 (uvicorn, JSON responses). The
client reuses one ``httpx2.AsyncClient`` (see notes/mcp-sdk-2.md §6).

- episode start (mcpgym): ``POST /episodes`` + MCP session open + ``tools/list``;
  baseline: MCP session open + ``tools/list`` on the bare server.
- tool call (mcpgym): one read tool call in the episode; baseline: the bare ``noop`` call.
- in-process episode start: ``EpisodeManager.open`` (snapshot copy + variant setup),
  variant generation cached, as a trainer would call it.

Prints medians and p90 in milliseconds and the ratios to the baseline; the aims
(ISSUE: start within 3x of the bare session open, call within 1.3x) are printed beside.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent


@contextlib.contextmanager
def _process(*args: str) -> Iterator[None]:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_servers.py"), *args], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"server {args} failed to start")
        yield
    finally:
        proc.terminate()
        proc.wait(10)


def _free_port() -> int:
    from mcpgym_server.runtime import bind_socket

    sock = bind_socket()
    port = sock.getsockname()[1]
    sock.close()
    return port


def _stats(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {
        "median": statistics.median(xs),
        "p90": xs[int(0.9 * (len(xs) - 1))],
        "n": len(xs),
    }


async def _bench_bare(url: str, n: int, mode: str) -> tuple[list[float], list[float]]:
    starts, calls = [], []
    async with httpx2.AsyncClient() as shared:
        for i in range(n + 5):
            t0 = time.perf_counter()
            async with Client(streamable_http_client(url, http_client=shared), mode=mode) as c:  # type: ignore[arg-type]
                await c.list_tools()
                t1 = time.perf_counter()
                await c.call_tool("noop", {})
                t2 = time.perf_counter()
            if i >= 5:  # warm-up
                starts.append((t1 - t0) * 1000)
                calls.append((t2 - t1) * 1000)
    return starts, calls


async def _bench_env(
    base: str, n: int, mode: str, task: str, call: tuple[str, dict[str, Any]]
) -> tuple[list[float], list[float]]:
    starts, calls = [], []
    async with httpx2.AsyncClient() as shared:
        for i in range(n + 5):
            t0 = time.perf_counter()
            resp = await shared.post(f"{base}/episodes", json={"task": task, "seed": i % 50})
            ep = resp.json()
            async with Client(
                streamable_http_client(ep["mcp_url"], http_client=shared),
                mode=mode,  # type: ignore[arg-type]
            ) as c:
                await c.list_tools()
                t1 = time.perf_counter()
                res = await c.call_tool(*call)
                t2 = time.perf_counter()
                assert not res.is_error, res.content
            await shared.post(f"{base}/episodes/{ep['episode_id']}/end", json={})
            if i >= 5:
                starts.append((t1 - t0) * 1000)
                calls.append((t2 - t1) * 1000)
    return starts, calls


def _bench_inprocess(env_name: str, task: str, n: int) -> list[float]:
    from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment

    env = load_environment(env_name)
    manager = EpisodeManager(env, MemoryEpisodeStore())
    for seed in range(50):
        env.variant(task, env.family(task).bands[0], seed)  # generation cached, as in a campaign
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        ep = manager.open(task, env.family(task).bands[0], i % 50)
        out.append((time.perf_counter() - t0) * 1000)
        manager.seal(ep.id, "ended")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--task", default="order-status")
    parser.add_argument("--tool", default="get_order")
    parser.add_argument("--args", default='{"order_id": 100001}')
    args = parser.parse_args()
    import json

    call = (args.tool, json.loads(args.args))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as store:
        bare_port, env_port = _free_port(), _free_port()
        with _process("bare", str(bare_port)), _process("env", args.env, str(env_port), store):
            for mode in ("legacy", "auto"):
                b_start, b_call = anyio.run(
                    _bench_bare, f"http://127.0.0.1:{bare_port}/mcp", args.episodes, mode
                )
                e_start, e_call = anyio.run(
                    _bench_env, f"http://127.0.0.1:{env_port}", args.episodes, mode, args.task, call
                )
                results[mode] = {
                    "bare_start": _stats(b_start),
                    "bare_call": _stats(b_call),
                    "episode_start": _stats(e_start),
                    "episode_call": _stats(e_call),
                }
    inproc = _stats(_bench_inprocess(args.env, args.task, args.episodes))

    print(
        f"episodes per measurement: {args.episodes} (after 5 warm-up), task {args.env}/{args.task}"
    )
    print(f"tool call measured: {args.tool}({args.args}) vs bare noop()")
    header = ("era", "measure", "mcpgym med", "p90", "bare med", "p90", "ratio")
    print("{:<8} {:<16} {:>11} {:>7} {:>9} {:>7} {:>6} aim".format(*header))
    for mode, r in results.items():
        era = "2025" if mode == "legacy" else "2026"
        for what, ours, bare, aim in (
            ("episode start", "episode_start", "bare_start", 3.0),
            ("tool call", "episode_call", "bare_call", 1.3),
        ):
            ratio = r[ours]["median"] / r[bare]["median"]
            print(
                f"{era:<8} {what:<16} {r[ours]['median']:>9.2f}ms {r[ours]['p90']:>6.2f} "
                f"{r[bare]['median']:>7.2f}ms {r[bare]['p90']:>6.2f} {ratio:>6.2f} <= {aim}"
                f" {'ok' if ratio <= aim else 'MISSED'}"
            )
    print(
        f"in-process episode start (EpisodeManager.open): median {inproc['median']:.3f} ms, "
        f"p90 {inproc['p90']:.3f} ms (aim < 1 ms)"
    )


if __name__ == "__main__":
    main()
