"""Benchmark: an episode's tools listed by a request, or the checked listing reused.

Usage::

    uv run python bench/tool_listing.py [--episodes 50] [--rounds 6]

The helpdesk environment server and grading service as ``mcpgym eval`` serves them (child
processes, `serve_in_processes`). Per episode, opened with ``POST /episodes``: the MCP
client connects (``server/discover``) and gets its tools, either by ``tools/list`` (*list*,
the way before `mcpgym_clients.tool_listing`) or from `ToolListings` after one checked
listing (*reuse*), and closes. Blocks of ``--episodes`` alternate between the two, the
order rotating; prints the CPU ms per episode of this process (the client) and of the
environment server (``/proc/PID/stat``), medians of the rounds, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
from campaign import _children_pids  # bench/ is the script's folder

from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.mcp_connection import McpConnections
from mcpgym_clients.tool_listing import ToolListings
from mcpgym_server import compute_lock, load_environment
from mcpgym_server.lock import served_tools


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main() -> None:
    """Run the alternating blocks and print the figures."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--episodes", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args()
    env = load_environment("helpdesk")
    lock, tools = compute_lock(env), served_tools(env)

    async def expected(of: str) -> list[dict[str, Any]] | None:
        return tools if of == lock else None

    figures: dict[str, list[tuple[float, float]]] = {"list": [], "reuse": []}
    with tempfile.TemporaryDirectory() as tmp:
        async with serve_in_processes(
            env.name, Path(tmp) / "episodes", log_path=Path(tmp) / "servers.log"
        ) as servers:
            env_pid = _children_pids()[0]  # the environment server starts first
            headers = {"authorization": f"Bearer {servers.control_token}"}
            conns = McpConnections(trust_env=False)
            async with httpx.AsyncClient(base_url=servers.env_url, headers=headers) as http:

                async def block(way: str) -> tuple[float, float]:
                    listings = ToolListings(expected)
                    if way == "reuse":  # the one checked listing, outside the block
                        await one(listings)
                    c0, s0 = time.process_time(), _cpu_s(env_pid)
                    for _ in range(args.episodes):
                        await one(listings if way == "reuse" else ToolListings(expected))
                    n = args.episodes
                    return (
                        (time.process_time() - c0) * 1000 / n,
                        (_cpu_s(env_pid) - s0) * 1000 / n,
                    )

                async def one(listings: ToolListings) -> None:
                    meta = (
                        await http.post(
                            "/episodes", json={"task": "cancel-order", "band": "easy", "seed": 0}
                        )
                    ).json()
                    async with conns.connect(meta["mcp_url"]) as client:
                        got = await listings.list_tools(client, servers.env_url, meta["lock"])
                        assert len(got.tools) == len(tools)
                    await http.post(f"/episodes/{meta['episode_id']}/end", json={})

                await block("list")  # warm-up
                for r in range(args.rounds):
                    for way in ("list", "reuse") if r % 2 == 0 else ("reuse", "list"):
                        figures[way].append(await block(way))
            await conns.aclose()
    med = statistics.median
    print(f"{args.rounds} rounds of {args.episodes} episodes, load {os.getloadavg()[0]:.1f}")
    for way, xs in figures.items():
        print(
            f"{way}: client {med(x[0] for x in xs):.2f} ms, "
            f"env server {med(x[1] for x in xs):.2f} ms CPU per episode "
            "(POST /episodes, connect, tools, /end)"
        )
    for i, part in enumerate(("client", "env server")):
        ratio = med(x[i] for x in figures["reuse"]) / med(x[i] for x in figures["list"])
        print(f"reuse / list, {part}: x{ratio:.2f}")


if __name__ == "__main__":
    anyio.run(main)
