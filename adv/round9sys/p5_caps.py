"""§5 probe: log caps (per value, length + sha256) and the per-episode byte budget against
large, unicode, escape-heavy and deeply nested tool calls; a malformed call never crashes
the server or touches another episode.

Usage: ``uv run python adv/round9sys/p5_caps.py``  (own `mcpgym serve`, 2026-era raw
JSON-RPC). Prints per input: HTTP status, the largest log line, log.jsonl size after
sealing, termination; then episode B's state and a call latency on B.
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
W = Path("/tmp/r9/p5caps")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19721
ENVV = dict(os.environ, MCPGYM_CONTROL_TOKEN="c5", MCPGYM_BUNDLE_KEY="k" * 32)
CA = {"authorization": "Bearer c5"}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p5", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(
    c: httpx.Client, url: str, name: str, args, raw: bytes | None = None
) -> tuple[int, str, float]:
    h = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
    }
    body = (
        raw
        if raw is not None
        else json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": name, "arguments": args, "_meta": META},
            },
            ensure_ascii=False,
        ).encode()
    )
    t = time.perf_counter()
    try:
        r = c.post(url, headers=h, content=body, timeout=120)
        return r.status_code, r.text[:160], time.perf_counter() - t
    except httpx.HTTPError as e:
        return -1, repr(e)[:160], time.perf_counter() - t


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
        c = httpx.Client()

        def new() -> dict:
            return c.post(base + "/episodes", headers=CA, json={"task": "order-status"}).json()

        B = new()
        inputs = {
            "emoji_1M_chars": (
                "add_ticket_note",
                {"ticket_id": 1, "body": "\U0001f600" * 1_000_000},
            ),
            "ctrl_chars_3.9MB": ("add_ticket_note", {"ticket_id": 1, "body": "\x01" * 3_900_000}),
            "quotes_backslashes": ("add_ticket_note", {"ticket_id": 1, "body": '"\\' * 1_900_000}),
            "many_keys": ("get_order", {f"k{i}": i for i in range(200_000)}),
            "deep_list_50k": (None, None),
            "deep_dict_50k": (None, None),
            "lone_surrogate": (None, None),
            "huge_int": ("get_order", {"order_id": int("9" * 4000)}),
            "nan_inf": (None, None),
        }
        A = new()
        rows = []
        for name, (tool, args) in inputs.items():
            raw = None
            if name == "deep_list_50k":
                raw = (
                    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":'
                    + "[" * 50000
                    + "]" * 50000
                    + '},"_meta":'
                    + json.dumps(META)
                    + "}}"
                ).encode()
                tool = "get_order"
            if name == "deep_dict_50k":
                raw = (
                    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_ticket_note","arguments":{"ticket_id":1,"body":"x","z":'
                    + '{"a":' * 50000
                    + "1"
                    + "}" * 50000
                    + '},"_meta":'
                    + json.dumps(META)
                    + "}}"
                ).encode()
                tool = "add_ticket_note"
            if name == "lone_surrogate":
                raw = (
                    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_ticket_note","arguments":{"ticket_id":1,"body":"\\ud800 x \\udfff"},"_meta":'
                    + json.dumps(META)
                    + "}}"
                ).encode()
                tool = "add_ticket_note"
            if name == "nan_inf":
                raw = (
                    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":NaN,"x":Infinity},"_meta":'
                    + json.dumps(META)
                    + "}}"
                ).encode()
                tool = "get_order"
            st, text, dt = call(c, A["mcp_url"], tool, args, raw)
            hz = c.get(base + "/healthz").status_code
            sb, tb, db = call(c, B["mcp_url"], "get_policy", {})
            rows.append(
                {
                    "input": name,
                    "status": st,
                    "resp": text[:120],
                    "secs": round(dt, 2),
                    "healthz": hz,
                    "B_status": sb,
                    "B_ms": round(db * 1000, 1),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
        # budget: many big calls on a fresh episode C (refused calls with 3.9 MB args, as in the issue)
        C = new()
        for _i in range(12):
            st, text, dt = call(
                c, C["mcp_url"], "get_order", {"order_id": 1, "pad": "y" * 3_900_000}
            )
        print("C after 12 x 3.9 MB:", st, text[:200], flush=True)
        for ep in (A, C, B):
            c.post(base + f"/episodes/{ep['episode_id']}/end", headers=CA)
        for tag, ep in (("A", A), ("C", C), ("B", B)):
            d = W / "eps" / ep["episode_id"]
            log = d / "log.jsonl"
            if not log.exists():
                print(tag, "no bundle", flush=True)
                continue
            lines = log.read_bytes().splitlines()
            meta = json.loads((d / "meta.json").read_text())
            print(
                json.dumps(
                    {
                        "ep": tag,
                        "log_bytes": log.stat().st_size,
                        "lines": len(lines),
                        "max_line": max(map(len, lines)) if lines else 0,
                        "termination": meta["termination"],
                        "steps": meta["steps"],
                    }
                ),
                flush=True,
            )
            if tag == "A":
                for ln in lines:
                    j = json.loads(ln)
                    print(
                        "   ",
                        len(ln),
                        str(
                            {
                                k: (str(v)[:90])
                                for k, v in j.items()
                                if k
                                in (
                                    "tool",
                                    "name",
                                    "arguments",
                                    "error",
                                    "args_truncated",
                                    "arguments_sha256",
                                )
                            }
                        )[:300],
                    )
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait(30)


if __name__ == "__main__":
    main()
