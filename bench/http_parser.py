"""Benchmark: server CPU per 2026-era ``tools/call`` with uvicorn's h11 and httptools parsers.

Usage::

    uv run python bench/http_parser.py [--blocks 40]

Four server processes on 127.0.0.1 (bench/_servers.py): the bare ``mcp`` server (one
``noop`` tool) and the helpdesk environment server, each once with uvicorn's pure-Python
h11 parser (what the servers used before httptools was a dependency) and once with
httptools (``MCPGYM_BENCH_HTTP``). One client calls ``noop`` / ``get_order`` in blocks of 25
calls per server, the order rotating block by block so that load hits all four alike, and
reads each server's CPU (``/proc/PID/task/*/schedstat``). Prints server CPU per call and
the httptools / h11 ratio for each server.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from server_cpu import _cpu_s, _free_port  # noqa: E402  (bench helpers)

KINDS = [(kind, http) for kind in ("bare", "env") for http in ("h11", "httptools")]


def _start(kind: str, http: str) -> tuple[subprocess.Popen[str], str]:
    port = _free_port()
    args = ["bare", str(port)] if kind == "bare" else ["env", "helpdesk", str(port)]
    if kind == "env":
        args.append(tempfile.mkdtemp())
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_servers.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "MCPGYM_BENCH_HTTP": http},
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the {kind} server ({http}) failed to start")
    return proc, f"http://127.0.0.1:{port}" + ("/mcp" if kind == "bare" else "")


async def _measure(servers: dict[tuple[str, str], tuple[subprocess.Popen[str], str]], blocks: int):
    totals = {k: [0.0, 0] for k in servers}
    async with httpx2.AsyncClient(trust_env=False) as http, contextlib.AsyncExitStack() as st:
        clients = {}
        for k, (_, url) in servers.items():
            if k[0] == "env":
                meta = await http.post(url + "/episodes", json={"task": "order-status", "seed": 0})
                url = meta.json()["mcp_url"]
            clients[k] = await st.enter_async_context(
                Client(streamable_http_client(url, http_client=http))
            )
        for i in range(blocks + 1):  # the first block warms up
            for k in KINDS[i % 4 :] + KINDS[: i % 4]:
                pid = servers[k][0].pid
                s0 = _cpu_s([pid])
                for _ in range(25):
                    if k[0] == "bare":
                        await clients[k].call_tool("noop", {})
                    else:
                        await clients[k].call_tool("get_order", {"order_id": 100001})
                if i:
                    totals[k][0] += _cpu_s([pid]) - s0
                    totals[k][1] += 25
    return {k: s * 1000 / n for k, (s, n) in totals.items()}


def main() -> None:
    """Start the four servers, measure, print."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=40, help="blocks of 25 calls per server")
    args = ap.parse_args()
    servers = {k: _start(*k) for k in KINDS}
    try:
        ms = anyio.run(_measure, servers, args.blocks)
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(10)
    print(f"{args.blocks * 25} calls per server, load average {os.getloadavg()[0]:.1f}")
    for kind, tool in (("bare", "noop"), ("env", "get_order")):
        h11, fast = ms[(kind, "h11")], ms[(kind, "httptools")]
        print(
            f"{kind} {tool}: h11 {h11:.3f} ms, httptools {fast:.3f} ms server CPU per call "
            f"(x{fast / h11:.2f})"
        )
    print(f"mcpgym / bare, httptools: x{ms[('env', 'httptools')] / ms[('bare', 'httptools')]:.2f}")


if __name__ == "__main__":
    main()
