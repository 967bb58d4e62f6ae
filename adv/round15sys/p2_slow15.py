"""§2/§6 probe (round 15): slowloris on the environment server, then SIGTERM.

Usage: ``uv run python adv/round15sys/p2_slow15.py [HEADERS BODIES]`` (default 500 100)
Starts `mcpgym serve helpdesk` (adv/_sys.py), opens 3 episodes (one `get_policy` each),
then opens HEADERS connections that send a request line and one header byte every 2 s
(never finishing the headers) and BODIES connections to episode 1's MCP URL that send
full headers with ``Content-Length: 100000`` and 10 body bytes every 2 s. While they hang:
``GET /healthz`` and a bystander's `tools/call` latency (20 each). Then SIGTERM: seconds
to exit, rc, which of the 3 episodes have a bundle (and its termination), debris.
Expected: the server stays responsive; SIGTERM seals all 3 (``shutdown``) and exits.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

NH = int(sys.argv[1]) if len(sys.argv) > 1 else 500
NB = int(sys.argv[2]) if len(sys.argv) > 2 else 100
W = Path("/tmp/r15/p2slow")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19511
CTL = {"authorization": "Bearer ctl-tok"}
stop = threading.Event()


def slow(kind: str, path: str) -> None:
    socks = []
    for _ in range(NH if kind == "headers" else NB):
        try:
            s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
        except OSError:
            continue
        if kind == "headers":
            s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ".encode())
        else:
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n"
                "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                "Mcp-Protocol-Version: 2026-07-28\r\nContent-Length: 100000\r\n\r\n"
            )
            s.sendall(head.encode() + b'{"jsonrpc"')
        socks.append(s)
    while not stop.is_set():
        for s in socks:
            try:
                s.sendall(b"a" if kind == "headers" else b"          ")
            except OSError:
                pass
        time.sleep(2)


def main() -> None:
    env = S.probe_env()
    p = S.start(["serve", "helpdesk", "--port", str(PORT), "--store", str(W / "eps")], env,
                W / "env.log")  # fmt: skip
    S.wait_up(PORT)
    c = httpx.Client(base_url=f"http://127.0.0.1:{PORT}", timeout=30)
    eps = []
    for seed in range(3):
        r = c.post("/episodes", json={"task": "order-status", "seed": seed}, headers=CTL).json()
        S.tools_call(c, r["mcp_url"], 1, "get_policy", {"topic": "returns"})
        eps.append(r["episode_id"])
    url1 = f"/episodes/{eps[0]}/mcp"
    for kind in ("headers", "bodies"):
        threading.Thread(target=slow, args=(kind, url1), daemon=True).start()
    time.sleep(15)
    hz, tc = [], []
    for i in range(20):
        t = time.monotonic()
        c.get("/healthz")
        hz.append(time.monotonic() - t)
        t = time.monotonic()
        S.tools_call(c, f"/episodes/{eps[2]}/mcp", 10 + i, "get_policy", {"topic": "returns"})
        tc.append(time.monotonic() - t)
    conns = subprocess.run(["ss", "-tn", f"sport = :{PORT}"], capture_output=True, text=True).stdout
    print(json.dumps({"open_conns": conns.count("ESTAB"), "healthz": S.stats(hz),
                      "bystander_call": S.stats(tc)}), flush=True)  # fmt: skip
    t = time.monotonic()
    S.killpg(p, signal.SIGTERM)
    try:
        rc: object = p.wait(60)
    except subprocess.TimeoutExpired:
        rc = "still running after 60 s"
    took = round(time.monotonic() - t, 1)
    stop.set()
    sealed = {}
    for e in eps:
        m = W / "eps" / e / "meta.json"
        sealed[e[:11]] = json.loads(m.read_text()).get("termination") if m.exists() else None
    debris = [x.name for x in (W / "eps").iterdir() if x.name.startswith(".tmp")]
    tail = (W / "env.log").read_text(errors="replace").splitlines()[-4:]
    print(json.dumps({"sigterm_to_exit_s": took, "rc": rc, "sealed": sealed, "debris": debris,
                      "tail": [x[:200] for x in tail]}), flush=True)  # fmt: skip
    S.stop_all([p])


if __name__ == "__main__":
    main()
