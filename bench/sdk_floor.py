"""Benchmark: what one request costs here with no mcpgym code in it (the floor of a campaign).

Usage::

    uv run python bench/sdk_floor.py [--calls 1000] [--block 25] [--ways plain,sdk,sdk-work,mcpgym]
        [--main-src /tmp/main/server/src]

Servers in child processes on 127.0.0.1, served as mcpgym serves (`mcpgym_server.runtime.serve`,
uvicorn, `bench/_servers.py`); one client process (this one), requests one at a time,
``--calls`` per way in blocks of ``--block``, the ways alternating block by block (the order
rotating), the first block of each a warm-up:

- ``plain``: ``POST`` of a small JSON body by the harness's MCP HTTP client (`McpConnections`'
  ``httpx2`` client, pooled) to a raw ASGI app answering a fixed ~2 KB JSON body
  (``_servers.py plain``): HTTP over loopback in Python, no MCP on either side;
- ``sdk``: the MCP SDK on both ends: an `mcp.Client` (2026-07-28 era) over the same HTTP
  client, calling a bare `MCPServer`'s ``noop`` tool (``_servers.py bare``);
- ``sdk-work``: the same client calling ``get_order`` on a bare `MCPServer` that runs the
  helpdesk tool's own SQL on its own copy of the snapshot and answers the same ~2 KB
  (``_servers.py bare-work``);
- ``mcpgym``: an episode of the mcpgym environment server (``_servers.py env``) through
  `McpConnections.connect` (what the driver opens), calling ``get_order``; a new episode
  every 500 calls;
- ``main``: ``mcpgym`` with the server of ``--main-src`` (a source tree of main's
  ``server/src``): the A/B of a server change in the same run.

Prints per way the median over blocks of this process's CPU per request (the client), the
server process's CPU per request (``/proc/PID/task/*/schedstat``), their sum, the latency,
and each way's ratios to ``sdk``. A reference episode makes ~9 such requests (7 tool
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from episode import _cpu_s, _free_port, _process  # noqa: E402  # pyright: ignore[reportMissingImports]

from mcpgym_clients.mcp_connection import McpConnections  # noqa: E402

WAYS = ("plain", "sdk", "sdk-work", "mcpgym", "main")
CALL = ("get_order", {"order_id": 100001})


def _servers(
    ways: list[str], main_src: str | None, stack: contextlib.ExitStack
) -> tuple[dict[str, str], dict[str, int]]:
    urls: dict[str, str] = {}
    pids: dict[str, int] = {}
    for way in ways:
        port = _free_port()
        if way in ("plain", "sdk", "sdk-work"):
            argv = {"plain": ["plain"], "sdk": ["bare"], "sdk-work": ["bare-work", "helpdesk"]}
            pids[way] = stack.enter_context(_process(*argv[way], str(port)))
            urls[way] = f"http://127.0.0.1:{port}" + ("/mcp" if way != "plain" else "/")
            continue
        if way == "main" and main_src is None:
            raise SystemExit("--ways main needs --main-src")
        store = stack.enter_context(tempfile.TemporaryDirectory())
        src = main_src if way == "main" else None
        pids[way] = stack.enter_context(_process("env", "helpdesk", str(port), store, src=src))
        urls[way] = f"http://127.0.0.1:{port}"
    return urls, pids


async def _bench(
    urls: dict[str, str], pids: dict[str, int], calls: int, block: int
) -> dict[str, dict[str, list[float]]]:
    ways = list(urls)
    out = {w: {"client": [], "server": [], "latency": []} for w in ways}
    conns = McpConnections("auto", trust_env=False)
    http = conns._http  # noqa: SLF001  # the harness's pooled MCP HTTP client
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": CALL[0]}}
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(conns.aclose)
        clients: dict[str, Any] = {}
        made = dict.fromkeys(ways, 0)

        async def client(way: str) -> Any:
            if way in clients and (way.startswith("sdk") or made[way] % 500):
                return clients[way]
            if way.startswith("sdk"):
                c = await stack.enter_async_context(conns.connect(urls[way]))
                await c.list_tools()
            else:
                resp = await http.post(
                    f"{urls[way]}/episodes", json={"task": "order-status", "seed": made[way]}
                )
                c = await stack.enter_async_context(conns.connect(resp.json()["mcp_url"]))
                await c.list_tools()
            clients[way] = c
            return c

        async def one(way: str) -> None:
            if way == "plain":
                (await http.post(urls[way], json=body)).raise_for_status()
                return
            c = await client(way)
            made[way] += 1
            res = await c.call_tool(*(("noop", {}) if way == "sdk" else CALL))
            assert not res.is_error, res.content

        blocks = -(-calls // block) + 1
        for i in range(blocks):
            for way in ways[i % len(ways) :] + ways[: i % len(ways)]:
                await one(way)  # a new episode or session is not in the block
                s0, c0, t0 = _cpu_s(pids[way]), time.process_time(), time.perf_counter()
                for _ in range(block):
                    await one(way)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                server = _cpu_s(pids[way]) - s0
                if i:
                    out[way]["client"].append(cpu * 1000 / block)
                    out[way]["server"].append(server * 1000 / block)
                    out[way]["latency"].append(wall * 1000 / block)
    return out


def main() -> None:
    """Parse the arguments, start the servers, run and print."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--block", type=int, default=25)
    ap.add_argument("--ways", default="plain,sdk,sdk-work,mcpgym")
    ap.add_argument("--main-src", default=None)
    args = ap.parse_args()
    ways = args.ways.split(",")
    if unknown := [w for w in ways if w not in WAYS]:
        ap.error(f"unknown way {unknown[0]!r}; ways: {', '.join(WAYS)}")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load0 = os.getloadavg()[0]
    with contextlib.ExitStack() as stack:
        urls, pids = _servers(ways, args.main_src, stack)
        from mcpgym_server.runtime import run

        got = run(_bench, urls, pids, args.calls, args.block)
    med = statistics.median
    print(
        f"{started}; {args.calls} requests per way in blocks of {args.block}, one at a time; "
        f"load average {load0:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'way':<9} {'client ms':>9} {'server ms':>9} {'both ms':>8} {'latency':>8}  ratios to sdk"
    )
    base = "sdk" if "sdk" in ways else ways[0]
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
