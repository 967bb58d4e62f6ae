"""Benchmark: an episode's MCP session opened with a ``server/discover`` probe, or adopting
the server's answer with the episode's own instructions (`mcpgym_clients.discover_reuse`).

Usage::

    uv run python bench/discover_reuse.py [--episodes 50] [--rounds 6]

The helpdesk environment server and grading service as ``mcpgym eval`` serves them (child
processes, `serve_in_processes`). Per episode, opened with ``POST /episodes``: the MCP
client connects, either probing ``server/discover`` (*probe*, the way before) or adopting
the answer `DiscoverResults` kept from one probe (*adopt*), takes the checked tool
listing (`ToolListings`, both ways), and closes; then ``POST /episodes/{id}/end``. Blocks
of ``--episodes`` alternate between the two, the order rotating; prints the CPU ms per
episode of this process (the client) and of the environment server (``/proc/PID/stat``),
medians of the rounds and of the per-round ratios, and the load average.
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
from mcpgym_clients.discover_reuse import DiscoverResults
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

    figures: dict[str, list[tuple[float, float]]] = {"probe": [], "adopt": []}
    with tempfile.TemporaryDirectory() as tmp:
        async with serve_in_processes(
            env.name, Path(tmp) / "episodes", log_path=Path(tmp) / "servers.log"
        ) as servers:
            env_pid = _children_pids()[0]  # the environment server starts first
            headers = {"authorization": f"Bearer {servers.control_token}"}
            conns = McpConnections(trust_env=False)
            listings = ToolListings(expected)
            async with httpx.AsyncClient(base_url=servers.env_url, headers=headers) as http:

                async def one(found: DiscoverResults, way: str) -> None:
                    meta = (
                        await http.post(
                            "/episodes", json={"task": "cancel-order", "band": "easy", "seed": 0}
                        )
                    ).json()
                    named = meta["server_instructions"]
                    prior = found.prior(servers.env_url, meta["lock"], named)
                    assert (prior is None) == (way == "probe")
                    async with conns.connect(meta["mcp_url"], prior) as client:
                        found.learn(servers.env_url, meta["lock"], named, client)
                        got = await listings.list_tools(client, servers.env_url, meta["lock"])
                        assert len(got.tools) == len(tools)
                        assert client.instructions == named
                    await http.post(f"/episodes/{meta['episode_id']}/end", json={})

                async def block(way: str) -> tuple[float, float]:
                    found = DiscoverResults()
                    if way == "adopt":  # the one probe, outside the block
                        await one(found, "probe")
                    c0, s0 = time.process_time(), _cpu_s(env_pid)
                    for _ in range(args.episodes):
                        await one(found if way == "adopt" else DiscoverResults(), way)
                    n = args.episodes
                    return (
                        (time.process_time() - c0) * 1000 / n,
                        (_cpu_s(env_pid) - s0) * 1000 / n,
                    )

                await block("probe")  # warm-up
                for r in range(args.rounds):
                    for way in ("probe", "adopt") if r % 2 == 0 else ("adopt", "probe"):
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
    pairs = list(zip(figures["adopt"], figures["probe"], strict=True))
    for i, part in enumerate(("client", "env server")):
        ratio = med(a[i] / b[i] for a, b in pairs)
        print(f"adopt / probe, {part}: x{ratio:.3f} (median of per-round ratios)")


if __name__ == "__main__":
    anyio.run(main)
