"""Benchmark (adversarial): one episode URL opening many MCP sessions, capped and not.

Usage::

    uv run python bench/session_flood.py [--sessions 2000] [--env helpdesk]

For each setting it starts an environment server in a child process, opens one episode,
then sends ``--sessions`` 2025-era ``initialize`` requests to its ``mcp_url`` (never
closing them, as a flooding agent would) and reads the server's RSS before and after:

- ``uncapped``: ``max_sessions_per_episode`` 1,000,000 (mcpgym before the cap: every
  session accepted, each held until ``--idle-ttl``);
- ``capped``: the default cap (`mcpgym_server._session_caps.DEFAULT_SESSIONS_PER_EPISODE`).

Prints the sessions accepted, refused (by HTTP status), the RSS growth and KiB per session,
whether another episode still opens a session, and the ratio of memory held (capped over
uncapped).
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
from typing import Any

import httpx

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "flood", "version": "1"},
    },
}
MCP = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _serve(env: str, port: int, store: str, cap: int) -> None:
    import anyio

    from mcpgym_server import load_environment
    from mcpgym_server.runtime import create_app, serve

    app = create_app(
        load_environment(env),
        store,
        control_token=None,
        max_sessions_per_episode=cap,
        max_requests_per_second=None,  # the sessions' memory, not the request rate
    )

    async def run() -> None:
        async with serve(app, port=port):
            print("ready", flush=True)
            await anyio.sleep_forever()

    anyio.run(run)


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flood(env: str, cap: int, sessions: int) -> dict[str, Any]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as store:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", env, str(port), store, str(cap)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=30) as http:
                task = http.get("/tasks").json()["tasks"][0]["name"]
                ep = http.post("/episodes", json={"task": task}).json()
                other = http.post("/episodes", json={"task": task, "seed": 1}).json()
                http.post(ep["mcp_url"], json=INITIALIZE, headers=MCP)  # warm up
                before = _rss_kib(child.pid)
                accepted, refused = 1, {}
                for _ in range(sessions - 1):
                    r = http.post(ep["mcp_url"], json=INITIALIZE, headers=MCP)
                    if r.status_code == 200:
                        accepted += 1
                    else:
                        refused[r.status_code] = refused.get(r.status_code, 0) + 1
                grown = _rss_kib(child.pid) - before
                others = http.post(other["mcp_url"], json=INITIALIZE, headers=MCP).status_code
        finally:
            child.terminate()
            child.wait(timeout=60)
    return {"accepted": accepted, "refused": refused, "rss_kib": grown, "other": others}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        _serve(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
        return
    from mcpgym_server.runtime import DEFAULT_SESSIONS_PER_EPISODE

    parser = argparse.ArgumentParser(description="One episode URL flooded with MCP sessions.")
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--env", default="helpdesk")
    args = parser.parse_args()
    got: dict[str, dict[str, Any]] = {}
    for name, cap in (("uncapped", 1_000_000), ("capped", DEFAULT_SESSIONS_PER_EPISODE)):
        got[name] = r = flood(args.env, cap, args.sessions)
        per = r["rss_kib"] / max(r["accepted"] - 1, 1)
        print(
            f"{name:9} cap {cap:>9}: accepted {r['accepted']}/{args.sessions}, refused "
            f"{r['refused']}, RSS +{r['rss_kib'] / 1024:.1f} MiB ({per:.1f} KiB/session), "
            f"another episode's initialize: HTTP {r['other']}"
        )
    ratio = max(got["capped"]["rss_kib"], 0) / max(got["uncapped"]["rss_kib"], 1)
    print(f"memory held by the flood, capped / uncapped: {ratio:.3f}")


if __name__ == "__main__":
    main()
