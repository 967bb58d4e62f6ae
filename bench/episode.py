"""Benchmark: episode start and tool-call latency over loopback HTTP, against a bare `mcp` server.

Usage::

    uv run python bench/episode.py [--episodes 300] [--env helpdesk] [--task order-status]

Three servers run as separate processes on 127.0.0.1 (uvicorn, JSON responses): the bare
`mcp` server, the mcpgym environment server, and *before*: the same environment server
without the tool-schema lookup (the code path before it: the SDK ran a whole ``tools/list``
per ``tools/call``). Episodes alternate between the three (the order rotating), so a change
of load hits all alike. The client reuses one ``httpx2.AsyncClient`` (see
notes/mcp-sdk-2.md §6).

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


async def _bare_episode(shared: httpx2.AsyncClient, url: str, mode: str) -> tuple[float, float]:
    """One bare episode: session open + ``tools/list``, then one ``noop`` call (ms, ms)."""
    t0 = time.perf_counter()
    async with Client(streamable_http_client(url, http_client=shared), mode=mode) as c:  # type: ignore[arg-type]
        await c.list_tools()
        t1 = time.perf_counter()
        await c.call_tool("noop", {})
        t2 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000


async def _env_episode(
    shared: httpx2.AsyncClient, base: str, mode: str, task: str, seed: int, call: Any
) -> tuple[float, float]:
    """One mcpgym episode: ``POST /episodes`` + session open + ``tools/list``, one call."""
    t0 = time.perf_counter()
    resp = await shared.post(f"{base}/episodes", json={"task": task, "seed": seed})
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
    return (t1 - t0) * 1000, (t2 - t1) * 1000


async def _bench_interleaved(
    urls: dict[str, str], n: int, mode: str, task: str, call: tuple[str, dict[str, Any]]
) -> dict[str, tuple[list[float], list[float]]]:
    """Episodes on every server in turn (the order rotating), so load hits all alike."""
    out: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in urls}
    kinds = list(urls)
    async with httpx2.AsyncClient() as shared:
        for i in range(n + 5):
            for k in kinds[i % len(kinds) :] + kinds[: i % len(kinds)]:
                if k == "bare":
                    start, took = await _bare_episode(shared, urls[k], mode)
                else:
                    start, took = await _env_episode(shared, urls[k], mode, task, i % 50, call)
                if i >= 5:  # warm-up
                    out[k][0].append(start)
                    out[k][1].append(took)
    return out


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
    with tempfile.TemporaryDirectory() as store, tempfile.TemporaryDirectory() as store2:
        bare_port, env_port, before_port = _free_port(), _free_port(), _free_port()
        with (
            _process("bare", str(bare_port)),
            _process("env", args.env, str(env_port), store),
            _process("env", args.env, str(before_port), store2, "-", "no-schema-lookup"),
        ):
            urls = {
                "bare": f"http://127.0.0.1:{bare_port}/mcp",
                "mcpgym": f"http://127.0.0.1:{env_port}",
                "before": f"http://127.0.0.1:{before_port}",
            }
            for mode in ("legacy", "auto"):
                got = anyio.run(_bench_interleaved, urls, args.episodes, mode, args.task, call)
                results[mode] = {
                    "bare_start": _stats(got["bare"][0]),
                    "bare_call": _stats(got["bare"][1]),
                    "episode_start": _stats(got["mcpgym"][0]),
                    "episode_call": _stats(got["mcpgym"][1]),
                    "before_start": _stats(got["before"][0]),
                    "before_call": _stats(got["before"][1]),
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
            before = ours.replace("episode", "before")
            was = r[before]["median"] / r[bare]["median"]
            print(
                f"{era:<8} {what:<16} {r[ours]['median']:>9.2f}ms {r[ours]['p90']:>6.2f} "
                f"{r[bare]['median']:>7.2f}ms {r[bare]['p90']:>6.2f} {ratio:>6.2f} <= {aim}"
                f" {'ok' if ratio <= aim else 'MISSED'}"
                f" (before: {r[before]['median']:.2f}ms, {was:.2f})"
            )
    print(
        f"in-process episode start (EpisodeManager.open): median {inproc['median']:.3f} ms, "
        f"p90 {inproc['p90']:.3f} ms (aim < 1 ms)"
    )


if __name__ == "__main__":
    main()
