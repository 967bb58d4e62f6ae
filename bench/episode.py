"""Benchmark: episode start and tool-call latency over loopback HTTP, against bare `mcp` servers.

Usage::

    uv run python bench/episode.py [--episodes 300] [--calls 1000] [--eras 2025,2026]
        [--ways bare,bare-work,bare-fresh,mcpgym[,before][,main --main-src DIR]]

Each way is a server process on 127.0.0.1 (uvicorn, JSON responses; bench/_servers.py):

- ``bare``: a bare `mcp` ``MCPServer`` with one trivial ``noop`` tool;
- ``bare-work``: a bare ``MCPServer`` doing the measured tool's own work (the tool function,
  the same SQL, on one in-memory copy of the snapshot; the same result bytes);
- ``bare-fresh``: bare-work with a new copy of the snapshot per ``tools/list`` (per episode);
- ``mcpgym``: the environment server of this tree; ``main``: the same from another source
  tree (``--main-src``, e.g. main's ``server/src``), for an A/B in one run;
- ``before``: the environment server without the tool-schema lookup (the SDK then ran a
  whole ``tools/list`` per ``tools/call``).

Episodes alternate between the ways (the order rotating), so a change of load hits all
alike. The client reuses one ``httpx2.AsyncClient`` (see notes/mcp-sdk-2.md §6).

- episode start (mcpgym): ``POST /episodes`` + MCP session open + ``tools/list``;
  bare ways: MCP session open + ``tools/list``.
- tool call: the one call of each episode (bare: ``noop``).
- ``--calls N``: then N calls per way in blocks of 25, the ways alternating block by block,
  with each server process's CPU per call (``/proc/PID/task/*/schedstat``).
- in-process episode start: ``EpisodeManager.open`` (snapshot copy + variant setup),
  variant generation cached, as a trainer would call it.

Prints medians and p90 in milliseconds, the ratios to ``bare`` and to ``bare-work`` (the
issue's ratio: the framework's overhead over a plain MCP server doing the same work; aim
1.3), the load average, and with ``main`` the ratios of this tree to main.
"""

from __future__ import annotations

import argparse
import contextlib
import os
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
def _process(*args: str, src: str | None = None) -> Iterator[int]:
    """A `_servers.py` process; ``src``: a source tree of `mcpgym_server` imported first."""
    env = None
    if src is not None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_servers.py"), *args],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"server {args} failed to start")
        yield proc.pid
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


async def _bare_episode(
    shared: httpx2.AsyncClient, url: str, mode: str, call: tuple[str, dict[str, Any]]
) -> tuple[float, float]:
    """One bare episode: session open + ``tools/list``, then one call (ms, ms)."""
    t0 = time.perf_counter()
    async with Client(streamable_http_client(url, http_client=shared), mode=mode) as c:  # type: ignore[arg-type]
        await c.list_tools()
        t1 = time.perf_counter()
        res = await c.call_tool(*call)
        t2 = time.perf_counter()
        assert not res.is_error, res.content
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
                    start, took = await _bare_episode(shared, urls[k], mode, ("noop", {}))
                elif k in ("bare-work", "bare-fresh"):
                    start, took = await _bare_episode(shared, urls[k], mode, call)
                else:
                    start, took = await _env_episode(shared, urls[k], mode, task, i % 50, call)
                if i >= 5:  # warm-up
                    out[k][0].append(start)
                    out[k][1].append(took)
    return out


def _cpu_s(pid: int) -> float:
    """CPU seconds the threads of process ``pid`` have run (``/proc/PID/task/*/schedstat``)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


async def _bench_calls(
    urls: dict[str, str],
    pids: dict[str, int],
    n: int,
    mode: str,
    task: str,
    call: tuple[str, dict[str, Any]],
    block: int = 25,
) -> dict[str, tuple[list[float], list[float]]]:
    """``n`` tool calls per server in blocks of ``block``, the servers alternating block by
    block (the order rotating): per server, each call's latency (ms) and each block's server
    CPU per call (ms). The mcpgym servers get a fresh episode every 500 calls."""
    out: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in urls}
    kinds = list(urls)
    async with httpx2.AsyncClient() as shared, contextlib.AsyncExitStack() as stack:
        clients: dict[str, Any] = {}
        made: dict[str, int] = dict.fromkeys(kinds, 0)

        async def client(way: str) -> Any:
            if way in clients and (way.startswith("bare") or made[way] % 500):
                return clients[way]
            url = urls[way]
            if not way.startswith("bare"):
                resp = await shared.post(f"{url}/episodes", json={"task": task, "seed": made[way]})
                url = resp.json()["mcp_url"]
            transport = streamable_http_client(url, http_client=shared)
            c = await stack.enter_async_context(Client(transport, mode=mode))  # type: ignore[arg-type]
            await c.list_tools()
            clients[way] = c
            return c

        blocks = -(-n // block) + 1  # the first block is a warm-up
        for i in range(blocks):
            for way in kinds[i % len(kinds) :] + kinds[: i % len(kinds)]:
                the_call = ("noop", {}) if way == "bare" else call
                took: list[float] = []
                cpu0 = _cpu_s(pids[way])
                for _ in range(block):
                    c = await client(way)
                    made[way] += 1
                    t0 = time.perf_counter()
                    res = await c.call_tool(*the_call)
                    took.append((time.perf_counter() - t0) * 1000)
                    assert not res.is_error, res.content
                cpu = (_cpu_s(pids[way]) - cpu0) * 1000 / block
                if i:
                    out[way][0].extend(took)
                    out[way][1].append(cpu)
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


def _servers(
    ways: list[str], env: str, main_src: str | None, stack: contextlib.ExitStack
) -> tuple[dict[str, str], dict[str, int]]:
    """Start the servers of ``ways``, a process each: their MCP (bare) or base URLs, pids."""
    urls: dict[str, str] = {}
    pids: dict[str, int] = {}
    for way in ways:
        port = _free_port()
        if way.startswith("bare"):
            argv = {
                "bare": ["bare"],
                "bare-work": ["bare-work", env],
                "bare-fresh": ["bare-work", env],
            }[way]
            tail = ["fresh"] if way == "bare-fresh" else []
            pids[way] = stack.enter_context(_process(*argv, str(port), *tail))
            urls[way] = f"http://127.0.0.1:{port}/mcp"
            continue
        store = stack.enter_context(tempfile.TemporaryDirectory())
        extra = ("-", "no-schema-lookup") if way == "before" else ()
        if way == "main" and main_src is None:
            raise SystemExit("--ways main needs --main-src (a checkout of main's server/src)")
        src = main_src if way == "main" else None
        pids[way] = stack.enter_context(_process("env", env, str(port), store, *extra, src=src))
        urls[way] = f"http://127.0.0.1:{port}"
    return urls, pids


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--env", default="helpdesk")
    parser.add_argument("--task", default="order-status")
    parser.add_argument("--tool", default="get_order")
    parser.add_argument("--args", default='{"order_id": 100001}')
    parser.add_argument(
        "--ways",
        default="bare,bare-work,bare-fresh,mcpgym",
        help="servers to alternate: bare, bare-work, bare-fresh, mcpgym, before, main "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--main-src", help="for way `main`: a source tree of mcpgym_server (`.../server/src`)"
    )
    parser.add_argument(
        "--calls",
        type=int,
        default=0,
        help="then this many tool calls per server in blocks of 25, alternating, with each "
        "server's CPU per call (default: none)",
    )
    parser.add_argument("--eras", default="2025,2026", help="protocol eras (default: %(default)s)")
    args = parser.parse_args()
    import json

    call = (args.tool, json.loads(args.args))
    ways = args.ways.split(",")
    if "bare" not in ways or "mcpgym" not in ways:
        raise SystemExit("--ways must include bare and mcpgym")
    modes = [{"2025": "legacy", "2026": "auto"}[e] for e in args.eras.split(",")]
    results: dict[str, Any] = {}
    load: list[float] = [os.getloadavg()[0]]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with contextlib.ExitStack() as stack:
        urls, pids = _servers(ways, args.env, args.main_src, stack)
        for mode in modes:
            got = anyio.run(_bench_interleaved, urls, args.episodes, mode, args.task, call)
            load.append(os.getloadavg()[0])
            results[mode] = {
                way: {"start": _stats(got[way][0]), "call": _stats(got[way][1])} for way in ways
            }
            if args.calls:
                calls = anyio.run(_bench_calls, urls, pids, args.calls, mode, args.task, call)
                load.append(os.getloadavg()[0])
                for way in ways:
                    results[mode][way]["calls"] = _stats(calls[way][0])
                    results[mode][way]["cpu"] = _stats(calls[way][1])
    inproc = _stats(_bench_inprocess(args.env, args.task, args.episodes))

    print(
        f"{started}; episodes per measurement: {args.episodes} (after 5 warm-up), "
        f"task {args.env}/{args.task}; load average (1 min) {', '.join(f'{x:.1f}' for x in load)}"
    )
    print(
        f"tool call measured: {args.tool}({args.args}); bare: noop(); "
        f"bare-work: the same {args.tool} on a bare MCPServer"
    )
    print(
        "{:<6} {:<14} {:<10} {:>9} {:>7} {:>9} {:>9}".format(
            "era", "measure", "way", "median", "p90", "/ bare", "/ work"
        )
    )
    for mode, r in results.items():
        era = "2025" if mode == "legacy" else "2026"
        measures = [("episode start", "start"), ("tool call", "call")]
        if args.calls:
            measures += [("calls: latency", "calls"), ("calls: srv CPU", "cpu")]
        for what, key in measures:
            for way in ways:
                med = r[way][key]["median"]
                vs_bare = med / r["bare"][key]["median"]
                vs_work = (
                    f"{med / r['bare-work'][key]['median']:>9.2f}" if "bare-work" in ways else ""
                )
                print(
                    f"{era:<6} {what:<14} {way:<10} {med:>7.2f}ms {r[way][key]['p90']:>7.2f}"
                    f" {vs_bare:>9.2f}{vs_work}"
                )
        if "bare-work" in ways:
            ratio = r["mcpgym"]["call"]["median"] / r["bare-work"]["call"]["median"]
            print(
                f"{era} tool call, the framework's overhead (mcpgym / bare-work): {ratio:.2f}"
                f" (aim <= 1.3: {'ok' if ratio <= 1.3 else 'MISSED'}); against the bare noop:"
                f" {r['mcpgym']['call']['median'] / r['bare']['call']['median']:.2f}"
            )
        if "main" in ways:
            for what, key in measures[1:]:
                ab = r["mcpgym"][key]["median"] / r["main"][key]["median"]
                print(f"{era} {what}, this tree / main: {ab:.3f}")
    print(
        f"in-process episode start (EpisodeManager.open): median {inproc['median']:.3f} ms, "
        f"p90 {inproc['p90']:.3f} ms (aim < 1 ms)"
    )


if __name__ == "__main__":
    main()
