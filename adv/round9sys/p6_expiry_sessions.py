"""§6 probe: `/healthz` and another episode's tool-call latency while N episodes expire that
each hold a live 2025-era MCP session and have written (4 ticket notes of 20 KB: larger
deltas and logs than bench/expiry.py's idle episodes).

Usage: ``uv run python adv/round9sys/p6_expiry_sessions.py [N] [TTL]`` (default 200, 20).
Prints p50/p99/max of both latencies from the first TTL until every bundle is stored.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
TTL = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
W = Path("/tmp/r9/p6exp")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19761
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c9", MCPGYM_BUNDLE_KEY="z" * 32)
CA = {"authorization": "Bearer c9"}
ACC = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def stats(xs: list[float]) -> dict:
    xs = sorted(xs)
    if not xs:
        return {}
    return {
        "n": len(xs),
        "p50_ms": round(xs[len(xs) // 2] * 1000, 1),
        "p99_ms": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1000, 1),
        "max_ms": round(xs[-1] * 1000, 1),
    }


def main() -> None:
    srv = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/mcpgym"),
            "serve",
            "helpdesk",
            "--port",
            str(PORT),
            "--store",
            str(W / "eps"),
            "--idle-ttl",
            str(TTL),
        ],
        env=ENVV,
        stdout=open(W / "serve.log", "w"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{PORT}"
    try:
        for _ in range(240):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.25)
        c = httpx.Client(timeout=30)
        t_open = time.monotonic()
        for i in range(N):
            ep = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
            r = c.post(
                ep["mcp_url"],
                headers=ACC,
                json={
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "p", "version": "1"},
                    },
                },
            )
            h = {
                **ACC,
                "mcp-session-id": r.headers["mcp-session-id"],
                "mcp-protocol-version": "2025-06-18",
            }
            c.post(
                ep["mcp_url"],
                headers=h,
                json={"jsonrpc": "2.0", "method": "notifications/initialized"},
            )
            for k in range(4):
                c.post(
                    ep["mcp_url"],
                    headers=h,
                    json={
                        "jsonrpc": "2.0",
                        "id": 10 + k,
                        "method": "tools/call",
                        "params": {
                            "name": "add_ticket_note",
                            "arguments": {
                                "ticket_id": 5000 + (i % 50),
                                "body": f"n{k} " + "x" * 20_000,
                            },
                        },
                    },
                )
        opened_in = time.monotonic() - t_open
        # the live episode (opened last, calls keep it alive)
        live = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
        hl = {
            **ACC,
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "get_order",
        }
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "get_order", "arguments": {"order_id": 100500}, "_meta": META},
            }
        )
        # wait until the first idle episode's TTL is close
        first_expiry = t_open + TTL
        hz: list[float] = []
        calls: list[float] = []
        stop = threading.Event()

        def poll_health() -> None:
            with httpx.Client(timeout=60) as hc:
                while not stop.is_set():
                    t = time.perf_counter()
                    hc.get(base + "/healthz")
                    if time.monotonic() >= first_expiry:
                        hz.append(time.perf_counter() - t)
                    time.sleep(0.01)

        th = threading.Thread(target=poll_health)
        th.start()
        deadline = time.monotonic() + opened_in + TTL + 120
        while time.monotonic() < deadline:
            t = time.perf_counter()
            c.post(live["mcp_url"], headers=hl, content=body)
            if time.monotonic() >= first_expiry:
                calls.append(time.perf_counter() - t)
            sealed = sum(1 for p in (W / "eps").iterdir() if p.name.startswith("ep_"))
            if sealed >= N:
                break
            time.sleep(0.02)
        stop.set()
        th.join()
        sealed = sum(1 for p in (W / "eps").iterdir() if p.name.startswith("ep_"))
        print(
            json.dumps(
                {
                    "episodes": N,
                    "ttl": TTL,
                    "opened_in_s": round(opened_in, 1),
                    "sealed": sealed,
                    "expiry_window_s": round(time.monotonic() - first_expiry, 1),
                    "healthz": stats(hz),
                    "live_calls": stats(calls),
                }
            )
        )
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(60)


if __name__ == "__main__":
    main()
