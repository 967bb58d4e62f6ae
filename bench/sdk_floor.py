"""Benchmark: what one request costs here with no mcpgym code in it (the floor of a campaign).

Usage::

    uv run python bench/sdk_floor.py [--calls 1000] [--block 25] [--ways plain,sdk,sdk-work,mcpgym]
        [--concurrency 1] [--base sdk] [--main-src /tmp/main/server/src]

Servers in child processes on 127.0.0.1, served as mcpgym serves (`mcpgym_server.runtime.serve`,
uvicorn, `bench/_servers.py`); one client process (this one), ``--concurrency`` lanes of
requests (each one after the other on its own session or episode), ``--calls`` per way in
blocks of ``--block`` per lane, the ways alternating block by block (the order
rotating), the first block of each a warm-up:

- ``plain``: ``POST`` of a small JSON body by the harness's MCP HTTP client (`McpConnections`'
  ``httpx2`` client, pooled) to a raw ASGI app answering a fixed ~2 KB JSON body
  (``_servers.py plain``): HTTP over loopback in Python, no MCP on either side;
- ``sdk``: the MCP SDK on both ends: an `mcp.Client` (2026-07-28 era) over the same HTTP
  client, calling a bare `MCPServer`'s ``noop`` tool (``_servers.py bare``);
- ``sdk-work``: the same client calling ``get_order`` on a bare `MCPServer` that runs the
  helpdesk tool's own SQL on its own copy of the snapshot and answers the same ~2 KB
  (``_servers.py bare-work``);
- ``mcpgym``: an episode per lane of the mcpgym environment server (``_servers.py env``)
  through `McpConnections.connect` (what the driver opens), calling ``get_order`` (an
  episode takes at most 1,000 calls: keep ``--calls / --concurrency`` under ~900);
- ``main``: ``mcpgym`` with the server of ``--main-src`` (a source tree of main's
  ``server/src``): the A/B of a server change in the same run;
- ``no-otel``: ``mcpgym`` without the SDK's OpenTelemetry middleware (``_servers.py env``
  mode ``no-otel``): what that middleware costs a request;
- ``plain-lean``, ``mcpgym-lean``: ``plain`` and ``mcpgym`` with the HTTP client's
  transport replaced by `bench/_lean_http.py`'s bench-only one (kept-alive asyncio streams,
  no ``httpcore2``/``h11``/pool, no timeouts): what the client's HTTP stack costs a request
  above the least it could (each its own server process).

Prints per way the median over blocks of this process's CPU per request (the client), the
server process's CPU per request (``/proc/PID/task/*/schedstat``), their sum, the latency,
and each way's ratios to ``--base``. A reference episode makes ~9 such requests (7 tool
calls, ``POST /episodes``, ``POST /grades``): the client + server CPU of ``sdk`` times that
is what the SDK and the HTTP stack alone cost an episode on the two processes that serve
and drive it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _lean_http import LeanTransport  # noqa: E402  # pyright: ignore[reportMissingImports]
from episode import _cpu_s, _free_port, _process  # noqa: E402  # pyright: ignore[reportMissingImports]

from mcpgym_clients._parsed_urls import ParsedUrlClient  # noqa: E402
from mcpgym_clients.mcp_connection import McpConnections  # noqa: E402

WAYS = ("plain", "sdk", "sdk-work", "mcpgym", "main", "no-otel", "plain-lean", "mcpgym-lean")
CALL = ("get_order", {"order_id": 100001})


def _servers(
    ways: list[str], main_src: str | None, stack: contextlib.ExitStack
) -> tuple[dict[str, str], dict[str, int]]:
    urls: dict[str, str] = {}
    pids: dict[str, int] = {}
    for way in ways:
        port = _free_port()
        if way in ("plain", "sdk", "sdk-work", "plain-lean"):
            argv = {"plain": ["plain"], "sdk": ["bare"], "sdk-work": ["bare-work", "helpdesk"]}
            pids[way] = stack.enter_context(_process(*argv.get(way, ["plain"]), str(port)))
            urls[way] = f"http://127.0.0.1:{port}" + ("/mcp" if "plain" not in way else "/")
            continue
        if way == "main" and main_src is None:
            raise SystemExit("--ways main needs --main-src")
        store = stack.enter_context(tempfile.TemporaryDirectory())
        src = main_src if way == "main" else None
        extra = ("-", "no-otel") if way == "no-otel" else ()
        pids[way] = stack.enter_context(
            _process("env", "helpdesk", str(port), store, *extra, src=src)
        )
        urls[way] = f"http://127.0.0.1:{port}"
    return urls, pids


async def _bench(
    urls: dict[str, str], pids: dict[str, int], calls: int, block: int, lanes: int
) -> dict[str, dict[str, list[float]]]:
    ways = list(urls)
    out = {w: {"client": [], "server": [], "latency": []} for w in ways}
    conns = McpConnections("auto", trust_env=False)
    http = conns._http  # noqa: SLF001  # the harness's pooled MCP HTTP client
    lean = McpConnections("auto", http=ParsedUrlClient(transport=LeanTransport()))
    lean_http = lean._http  # noqa: SLF001
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": CALL[0]}}
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(conns.aclose)
        stack.push_async_callback(lean_http.aclose)
        clients: dict[tuple[str, int], Any] = {}
        for way in ways:  # opened here: a client's scopes must close in the task that opened them
            for lane in range(lanes if "plain" not in way else 0):
                url = urls[way]
                if not way.startswith("sdk"):
                    resp = await http.post(
                        f"{url}/episodes", json={"task": "order-status", "seed": lane}
                    )
                    url = resp.json()["mcp_url"]
                via = lean if way.endswith("-lean") else conns
                c = await stack.enter_async_context(via.connect(url))
                await c.list_tools()
                clients[(way, lane)] = c

        async def one(way: str, lane: int) -> None:
            if "plain" in way:
                via = lean_http if way.endswith("-lean") else http
                (await via.post(urls[way], json=body)).raise_for_status()
                return
            res = await clients[(way, lane)].call_tool(*(("noop", {}) if way == "sdk" else CALL))
            assert not res.is_error, res.content

        async def lane_run(way: str, lane: int, k: int) -> None:
            for _ in range(k):
                await one(way, lane)

        async def run_lanes(way: str, k: int) -> None:
            async with anyio.create_task_group() as tg:
                for lane in range(lanes):
                    tg.start_soon(lane_run, way, lane, k)

        per_block = block * lanes
        blocks = -(-calls // per_block) + 1
        for i in range(blocks):
            for way in ways[i % len(ways) :] + ways[: i % len(ways)]:
                await run_lanes(way, 1)
                s0, c0, t0 = _cpu_s(pids[way]), time.process_time(), time.perf_counter()
                await run_lanes(way, block)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                server = _cpu_s(pids[way]) - s0
                if i:
                    out[way]["client"].append(cpu * 1000 / per_block)
                    out[way]["server"].append(server * 1000 / per_block)
                    out[way]["latency"].append(wall * 1000 / block)
    return out


def main() -> None:
    """Parse the arguments, start the servers, run and print."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--block", type=int, default=25)
    ap.add_argument("--ways", default="plain,sdk,sdk-work,mcpgym")
    ap.add_argument("--main-src", default=None)
    ap.add_argument("--concurrency", type=int, default=1, help="requests in flight per way")
    ap.add_argument("--base", default="sdk", help="the way the ratios are to")
    args = ap.parse_args()
    ways = args.ways.split(",")
    if unknown := [w for w in ways if w not in WAYS]:
        ap.error(f"unknown way {unknown[0]!r}; ways: {', '.join(WAYS)}")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load0 = os.getloadavg()[0]
    with contextlib.ExitStack() as stack:
        urls, pids = _servers(ways, args.main_src, stack)
        from mcpgym_server.runtime import run

        got = run(_bench, urls, pids, args.calls, args.block, args.concurrency)
    med = statistics.median
    print(
        f"{started}; {args.calls} requests per way in blocks of {args.block} per lane, "
        f"{args.concurrency} in flight; "
        f"load average {load0:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    base = args.base if args.base in ways else ways[0]
    head = f"{'way':<9} {'client ms':>9} {'server ms':>9} {'both ms':>8} {'latency':>8}"
    print(f"{head}  ratios to {base}")
    for way in ways:
        g = got[way]
        both = [c + s for c, s in zip(g["client"], g["server"], strict=True)]
        ratios = ""
        if way != base:
            rb = [
                (c + s) / (bc + bs)
                for c, s, bc, bs in zip(
                    g["client"], g["server"], got[base]["client"], got[base]["server"], strict=True
                )
            ]
            ratios = (
                f"client x{med(g['client']) / med(got[base]['client']):.3f}, server "
                f"x{med(g['server']) / med(got[base]['server']):.3f}, both (median of "
                f"per-block ratios) x{med(rb):.3f}"
            )
        print(
            f"{way:<9} {med(g['client']):9.3f} {med(g['server']):9.3f} {med(both):8.3f} "
            f"{med(g['latency']):8.3f}  {ratios}"
        )


if __name__ == "__main__":
    main()
