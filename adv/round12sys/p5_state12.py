"""§5 probe (round 12): the log is capped, is the state? One agent writes large texts into
the environment's own state (ticket notes), each under the 4 MiB request cap.

Usage: ``uv run python adv/round12sys/p5_state12.py [N] [KB]`` (default 60 calls of 1,000 KB).
Starts `mcpgym serve helpdesk`, opens one episode, calls `add_ticket_note` N times with a
KB-kilobyte random (incompressible) body, ends it, and prints: answers, server RSS, the
bundle's files and sizes (state delta vs log), the termination. Expected (issue 9 §5): one
episode's footprint in the store and in memory is bounded, like its log.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
KB = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
W = Path("/tmp/r12/p5state")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19871
BASE = f"http://127.0.0.1:{PORT}"
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c12", MCPGYM_BUNDLE_KEY="z" * 32)
CA = {"authorization": "Bearer c12"}
ACC = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(c: httpx.Client, url: str, i: int, name: str, args: dict) -> httpx.Response:
    h = {**ACC, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name}
    return c.post(
        url,
        headers=h,
        json={
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"name": name, "arguments": args, "_meta": META},
        },
    )


def rss_mb(pid: int) -> float:
    for ln in Path(f"/proc/{pid}/status").read_text().splitlines():
        if ln.startswith("VmRSS:"):
            return round(int(ln.split()[1]) / 1024, 1)
    return -1.0


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
    try:
        for _ in range(240):
            try:
                httpx.get(BASE + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.25)
        c = httpx.Client(timeout=120)
        ep = c.post(BASE + "/episodes", headers=CA, json={"task": "order-status"}).json()
        url = ep["mcp_url"]
        r = call(c, url, 1, "list_tickets", {})
        text = r.text
        tid = None
        for tok in text.replace('"', " ").replace(",", " ").split():
            if tok.isdigit() and len(tok) >= 4:
                tid = int(tok)
                break
        print(r.text[:200])
        print(
            json.dumps({"list_tickets": r.status_code, "ticket": tid, "rss0": rss_mb(srv.pid)}),
            flush=True,
        )
        codes: dict[str, int] = {}
        t0 = time.monotonic()
        for i in range(N):
            body = base64.b64encode(os.urandom(KB * 768)).decode()
            r = call(c, url, 10 + i, "add_ticket_note", {"ticket_id": tid, "body": body})
            err = '"isError":true' in r.text.replace(" ", "")
            k = f"{r.status_code}{' tool-error' if err else ''}"
            codes[k] = codes.get(k, 0) + 1
            if i in (0, N - 1) or (err and codes[k] == 1):
                print(
                    json.dumps({"call": i, "status": r.status_code, "head": r.text[:240]}),
                    flush=True,
                )
        print(
            json.dumps(
                {
                    "codes": codes,
                    "wall_s": round(time.monotonic() - t0, 1),
                    "rss_mb": rss_mb(srv.pid),
                }
            ),
            flush=True,
        )
        st = c.get(BASE + f"/episodes/{ep['episode_id']}", headers=CA)
        print(json.dumps({"status_route": st.text[:300]}), flush=True)
        c.post(BASE + f"/episodes/{ep['episode_id']}/end", headers=CA)
        time.sleep(3)
        for d in (W / "eps").iterdir():
            if d.is_dir():
                meta = (
                    json.loads((d / "meta.json").read_text()) if (d / "meta.json").exists() else {}
                )
                print(
                    json.dumps(
                        {
                            "bundle": d.name,
                            "files": {p.name: p.stat().st_size for p in d.iterdir()},
                            "termination": meta.get("termination"),
                        }
                    ),
                    flush=True,
                )
        print(json.dumps({"rss_after_mb": rss_mb(srv.pid)}))
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(60)


if __name__ == "__main__":
    main()
