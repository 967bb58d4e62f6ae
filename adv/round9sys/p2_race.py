"""§2 probe: episodes created and tool calls made *while* SIGTERM is being handled.

Usage: ``uv run python adv/round9sys/p2_race.py [SIGNAL]`` (TERM or INT).
8 threads open episodes (keep-alive connections) and call a tool on each over the 2026 era,
in a loop; SIGTERM lands in the middle. Every episode whose POST /episodes answered 201 must
have a bundle after exit (sealed `shutdown`, or `ended` if it was ended) and no `.tmp-`
debris may stay. Prints created / bundled / missing and the terminations.
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
SIG = signal.SIGINT if (sys.argv[1:] or ["TERM"])[0] == "INT" else signal.SIGTERM
W = Path(f"/tmp/r9/p2race-{SIG.name}")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19751 if SIG == signal.SIGTERM else 19752
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c8")
CA = {"authorization": "Bearer c8"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
H = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "get_policy",
}
BODY = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_policy", "arguments": {}, "_meta": META},
    }
)


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
    for _ in range(240):
        try:
            httpx.get(base + "/healthz", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.25)
    created: list[str] = []
    calls_ok_after: list[str] = []
    signalled = threading.Event()
    stop = threading.Event()
    lock = threading.Lock()

    def worker() -> None:
        with httpx.Client(timeout=10) as c:
            while not stop.is_set():
                try:
                    r = c.post(base + "/episodes", headers=CA, json={"task": "order-status"})
                except httpx.HTTPError:
                    return
                if r.status_code != 201:
                    continue
                eid = r.json()["episode_id"]
                with lock:
                    created.append(eid)
                try:
                    r2 = c.post(r.json()["mcp_url"], headers=H, content=BODY)
                    if (
                        signalled.is_set()
                        and r2.status_code == 200
                        and '"isError":false' in r2.text
                    ):
                        calls_ok_after.append(eid)
                except httpx.HTTPError:
                    return

    ths = [threading.Thread(target=worker) for _ in range(8)]
    for t in ths:
        t.start()
    time.sleep(3)
    n_before = len(created)
    srv.send_signal(SIG)
    signalled.set()
    try:
        rc = srv.wait(90)
    except subprocess.TimeoutExpired:
        srv.kill()
        rc = "HUNG"
    stop.set()
    for t in ths:
        t.join(15)
    names = {p.name for p in (W / "eps").iterdir() if p.name.startswith("ep_")}
    debris = [p.name for p in (W / "eps").iterdir() if not p.name.startswith("ep_")]
    terms: dict[str, int] = {}
    for n in names:
        m = W / "eps" / n / "meta.json"
        t = json.loads(m.read_text())["termination"] if m.exists() else "NO_META"
        terms[t] = terms.get(t, 0) + 1
    missing = [e for e in created if e not in names]
    print(
        json.dumps(
            {
                "signal": SIG.name,
                "rc": rc,
                "created_before_signal": n_before,
                "created": len(created),
                "bundles": len(names),
                "missing": len(missing),
                "calls_ok_after_signal": len(calls_ok_after),
                "terms": terms,
                "debris": debris[:5],
            }
        )
    )


if __name__ == "__main__":
    main()
