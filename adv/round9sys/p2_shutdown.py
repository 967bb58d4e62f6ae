"""§2 probe: a graceful stop of `mcpgym serve` seals every open episode (reason `shutdown`),
and a kill -9 during sealing leaves no debris after a restart.

Usage: ``uv run python adv/round9sys/p2_shutdown.py CASE``
CASE:
  many_TERM / many_INT  20 episodes on the episode URL (2025 sessions), 20 sessionless
                        (2026), 5 connect-to-start sessions, 10 never connected, each with
                        one call, 8 calls in flight at the signal; the signal once.
  sse_TERM              a 2025 session holding its standalone GET SSE stream open.
  double_INT            two SIGINTs 50 ms apart (a user pressing Ctrl-C twice).
  kill9                 200 episodes with one call each, SIGTERM, SIGKILL 150 ms later,
                        restart on the same store: debris (.tmp-*) and half-written bundles.
  stdio_TERM / stdio_INT  `serve --stdio` after initialize and one call.
Prints one JSON line: episodes opened, bundles by termination, debris, exit code, seconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[2]
CASE = sys.argv[1]
W = Path(f"/tmp/r9/p2/{CASE}")
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
STORE = W / "eps"
TOKEN = "p2-control"
AUTH = {"authorization": f"Bearer {TOKEN}"}
MC = [sys.executable, "-c", "from mcpgym_clients.cli import main; main()"]
ENVV = dict(
    os.environ, PYTHONUNBUFFERED="1", MCPGYM_CONTROL_TOKEN=TOKEN, MCPGYM_BUNDLE_KEY="b" * 32
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int) -> subprocess.Popen:
    p = subprocess.Popen(
        MC + ["serve", "helpdesk", "--port", str(port), "--store", str(STORE)],
        env=ENVV,
        cwd=ROOT,
        stdout=open(W / "serve.log", "a"),
        stderr=subprocess.STDOUT,
    )
    for _ in range(240):
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return p
        except httpx.HTTPError:
            time.sleep(0.25)
    p.kill()
    raise SystemExit("server never came up")


def bundles() -> dict:
    out: dict[str, int] = {}
    names = []
    if not STORE.exists():
        return {"bundles": out, "debris": []}
    for p in STORE.iterdir():
        if p.name.startswith("ep_"):
            names.append(p.name)
            meta = p / "meta.json"
            try:
                term = (
                    json.loads(meta.read_text()).get("termination") if meta.exists() else "NO_META"
                )
            except ValueError:
                term = "BAD_META"
            out[str(term)] = out.get(str(term), 0) + 1
    debris = [p.name for p in STORE.iterdir() if not p.name.startswith("ep_")]
    return {"bundles": out, "debris": debris[:10], "n_debris": len(debris), "names": names}


async def http_case(sigs: list[int], gap: float) -> dict:
    port = free_port()
    proc = start(port)
    base = f"http://127.0.0.1:{port}"
    opened: list[str] = []
    stack = []
    n_s, n_m, n_c, n_u = (
        (20, 20, 5, 10) if CASE.startswith("many") or CASE.startswith("double") else (1, 0, 0, 0)
    )
    async with httpx.AsyncClient(headers=AUTH, timeout=30) as http:
        eps = [
            (await http.post(f"{base}/episodes", json={"task": "order-status"})).json()
            for _ in range(n_s + n_m + n_u)
        ]
    opened += [e["episode_id"] for e in eps]
    clients = []
    for e in eps[:n_s]:
        c = Client(e["mcp_url"], mode="legacy")
        await c.__aenter__()
        clients.append(c)
    for e in eps[n_s : n_s + n_m]:
        c = Client(e["mcp_url"], mode="2026-07-28")
        await c.__aenter__()
        clients.append(c)
    harness = httpx2.AsyncClient(headers=AUTH)
    for i in range(n_c):
        c = Client(
            streamable_http_client(f"{base}/tasks/order-status/mcp?seed={i}", http_client=harness),
            mode="legacy",
        )
        await c.__aenter__()
        clients.append(c)
        r = await c.read_resource("mcpgym://episode")
        opened.append(json.loads(r.contents[0].text)["episode_id"])  # type: ignore[union-attr]
    for c in clients:
        await c.call_tool("get_policy", {})
    sse = None
    if CASE.startswith("sse"):
        # hold a raw standalone GET stream on the first 2025 session
        sid = None
        async with httpx.AsyncClient(timeout=10) as h:
            r = await h.post(
                eps[0]["mcp_url"],
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
                headers={"accept": "application/json, text/event-stream"},
            )
            sid = r.headers.get("mcp-session-id")
        sse = httpx.AsyncClient(timeout=None)
        req = sse.build_request(
            "GET",
            eps[0]["mcp_url"],
            headers={
                "accept": "text/event-stream",
                "mcp-session-id": sid or "",
                "mcp-protocol-version": "2025-06-18",
            },
        )
        resp = await sse.send(req, stream=True)
        stack.append(resp)
    # calls in flight at the signal
    inflight = [asyncio.create_task(c.call_tool("list_tickets", {})) for c in clients[:8]]
    await asyncio.sleep(0)
    t0 = time.monotonic()
    for i, s in enumerate(sigs):
        proc.send_signal(s)
        if i + 1 < len(sigs):
            await asyncio.sleep(gap)
    try:
        rc = await asyncio.wait_for(asyncio.to_thread(proc.wait), 60)
    except TimeoutError:
        proc.kill()
        rc = "HUNG>60s"
    dt = time.monotonic() - t0
    for t in inflight:
        t.cancel()
    b = bundles()
    missing = sorted(set(opened) - set(b.pop("names")))
    return {
        "case": CASE,
        "rc": rc,
        "secs": round(dt, 2),
        "opened": len(opened),
        "missing": len(missing),
        **b,
    }


async def kill9_case() -> dict:
    port = free_port()
    proc = start(port)
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(headers=AUTH, timeout=30) as http:
        eps = await asyncio.gather(
            *[http.post(f"{base}/episodes", json={"task": "order-status"}) for _ in range(200)]
        )
    eps = [e.json() for e in eps]
    for e in eps[:60]:
        async with Client(e["mcp_url"], mode="2026-07-28") as c:
            await c.call_tool("get_policy", {})
    proc.send_signal(signal.SIGTERM)
    await asyncio.sleep(float(os.environ.get("KILL_AFTER", "0.15")))
    proc.kill()
    proc.wait()
    before = bundles()
    before.pop("names")
    proc2 = start(port)
    after = bundles()
    names = after.pop("names")
    # can the grading side read every bundle left?
    proc2.send_signal(signal.SIGTERM)
    proc2.wait(30)
    return {
        "case": CASE,
        "kill_after": os.environ.get("KILL_AFTER", "0.15"),
        "opened": len(eps),
        "after_kill": before,
        "after_restart": after,
        "n": len(names),
    }


def stdio_case(sig: int) -> dict:
    p = subprocess.Popen(
        MC + ["serve", "helpdesk", "--stdio", "--task", "order-status", "--store", str(STORE)],
        env=ENVV,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=open(W / "stdio.log", "w"),
    )
    assert p.stdin and p.stdout

    def send(obj: dict) -> None:
        p.stdin.write((json.dumps(obj) + "\n").encode())
        p.stdin.flush()

    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "p", "version": "1"},
            },
        }
    )
    p.stdout.readline()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "get_policy", "arguments": {}},
        }
    )
    line = p.stdout.readline()
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "HUNG>30s"
    b = bundles()
    b.pop("names")
    return {
        "case": CASE,
        "call_ok": b'"isError":false' in line.replace(b" ", b""),
        "rc": rc,
        "secs": round(time.monotonic() - t0, 2),
        **b,
    }


def main() -> None:
    if CASE.startswith("stdio"):
        r = stdio_case(signal.SIGTERM if CASE.endswith("TERM") else signal.SIGINT)
    elif CASE == "kill9":
        r = asyncio.run(kill9_case())
    elif CASE == "double_INT":
        r = asyncio.run(http_case([signal.SIGINT, signal.SIGINT], 0.05))
    else:
        r = asyncio.run(http_case([signal.SIGTERM if CASE.endswith("TERM") else signal.SIGINT], 0))
    print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
