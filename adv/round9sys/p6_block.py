"""§5/§6 probe: does one episode's malformed-but-within-limits tool call stall every other
episode? Episode A gets a 4 MiB call with 200,000 unknown argument keys (validation produces
200,000 errors); meanwhile /healthz and a tool call on episode B are timed every 50 ms.

Usage: ``uv run python adv/round9sys/p6_block.py [KEYS]``  (own `mcpgym serve`).
Prints the A call's seconds and the max / p99 latency of /healthz and of B's calls meanwhile.
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
W = Path("/tmp/r9/p6block")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19731
KEYS = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c6")
CA = {"authorization": "Bearer c6"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p6", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def body(name: str, args: dict) -> tuple[dict, bytes]:
    h = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
    }
    return h, json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": args, "_meta": META},
        }
    ).encode()


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
        c = httpx.Client(timeout=120)
        A = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
        B = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
        hA, bA = body("get_order", {f"k{i}": i for i in range(KEYS)})
        hB, bB = body("get_policy", {})
        print("A body bytes", len(bA), flush=True)
        for _ in range(5):  # warm
            c.post(B["mcp_url"], headers=hB, content=bB)
        done = threading.Event()
        out: dict = {}

        def hammer() -> None:
            t = time.perf_counter()
            r = httpx.post(A["mcp_url"], headers=hA, content=bA, timeout=300)
            out["A_secs"] = round(time.perf_counter() - t, 2)
            out["A_status"] = r.status_code
            out["A_response_bytes"] = len(r.content)
            done.set()

        th = threading.Thread(target=hammer)
        hz, bl = [], []
        th.start()
        while not done.is_set():
            t = time.perf_counter()
            c.get(base + "/healthz")
            hz.append(time.perf_counter() - t)
            t = time.perf_counter()
            c.post(B["mcp_url"], headers=hB, content=bB)
            bl.append(time.perf_counter() - t)
            time.sleep(0.05)
        th.join()

        def stats(xs: list[float]) -> dict:
            xs = sorted(xs)
            return {
                "n": len(xs),
                "p50_ms": round(xs[len(xs) // 2] * 1000, 1),
                "p99_ms": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1000, 1),
                "max_ms": round(xs[-1] * 1000, 1),
            }

        print(
            json.dumps({"keys": KEYS, **out, "healthz": stats(hz), "B_call": stats(bl)}), flush=True
        )
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(30)


if __name__ == "__main__":
    main()
