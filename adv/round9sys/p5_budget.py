"""§5 probe: the per-episode log budget (`--log-budget 1048576`) with big unicode calls on
episode A, in both MCP eras' raw form; episode B's calls before and after.

Usage: ``uv run python adv/round9sys/p5_budget.py``
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
W = Path("/tmp/r9/p5budget")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19741
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c7")
CA = {"authorization": "Bearer c7"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(c: httpx.Client, url: str, name: str, args: dict) -> httpx.Response:
    h = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
    }
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": args, "_meta": META},
    }
    return c.post(url, headers=h, content=json.dumps(body, ensure_ascii=False).encode(), timeout=60)


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
            "--log-budget",
            "1048576",
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
        c = httpx.Client()
        A = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
        B = c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()
        last = None
        for i in range(30):
            # a valid call whose note is 40k CJK chars (120 KB) with a nested-list ticket id error mixed in
            r = call(
                c, A["mcp_url"], "add_ticket_note", {"ticket_id": 1, "body": "漢" * 40_000 + str(i)}
            )
            last = (i, r.status_code, r.text[:200])
            if "log_budget" in r.text or "ended" in r.text or r.status_code != 200:
                break
        print("A last:", last)
        r = call(c, A["mcp_url"], "get_policy", {})
        print("A after:", r.status_code, r.text[:200])
        print("B:", call(c, B["mcp_url"], "get_policy", {}).status_code)
        st = c.get(base + f"/episodes/{A['episode_id']}", headers=CA).json()
        print("A status:", st)
        d = W / "eps" / A["episode_id"]
        if d.exists():
            print(
                "A log bytes:",
                (d / "log.jsonl").stat().st_size,
                json.loads((d / "meta.json").read_text())["termination"],
            )
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(30)


if __name__ == "__main__":
    main()
