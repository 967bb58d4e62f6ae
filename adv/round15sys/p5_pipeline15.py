"""§3/§5 probe (round 15): HTTP/1.1 pipelining on episode URLs.

Usage: ``uv run python adv/round15sys/p5_pipeline15.py``
Starts `mcpgym serve helpdesk` (adv/_sys.py), opens episodes A and B, then on ONE TCP
connection writes, in a single send, three session-less `tools/call` requests: A
`get_policy`, B `get_policy`, A `get_order` (the Host, Mcp-* headers each), and reads the
answers. Then the same with the second request's Content-Length one byte short (its last
byte read as the start of the third request: request smuggling between episodes).
Prints the status lines read, and per episode the tool calls its status counts.
Expected: each request answered in order and run on its own episode only; a malformed
pipeline answered 400, never a call run on the other episode.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r15/p5pipe")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19521
CTL = {"authorization": "Bearer ctl-tok"}


def request(path: str, i: int, name: str, args: dict, short: int = 0) -> bytes:
    params = {"name": name, "arguments": args, "_meta": S.META}
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {name}\r\n"
        f"Content-Length: {len(body) - short}\r\n\r\n"
    )
    return head.encode() + body.encode()


def pipeline(payload: bytes) -> list[str]:
    s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
    s.sendall(payload)
    got = b""
    t = time.monotonic()
    while time.monotonic() - t < 5:
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    s.close()
    text = got.decode(errors="replace")  # a body has no trailing CRLF: split on the status
    return ["HTTP/1.1" + x.split("\r\n", 1)[0] for x in text.split("HTTP/1.1")[1:]]


def main() -> None:
    p = S.start(["serve", "helpdesk", "--port", str(PORT), "--store", str(W / "eps")],
                S.probe_env(), W / "env.log")  # fmt: skip
    try:
        S.wait_up(PORT)
        c = httpx.Client(base_url=f"http://127.0.0.1:{PORT}", timeout=30)
        a = c.post("/episodes", json={"task": "order-status"}, headers=CTL).json()
        b = c.post("/episodes", json={"task": "order-status", "seed": 1}, headers=CTL).json()
        pa, pb = f"/episodes/{a['episode_id']}/mcp", f"/episodes/{b['episode_id']}/mcp"
        for short in (0, 1):
            payload = request(pa, 1, "get_policy", {"topic": "returns"})
            payload += request(pb, 2, "get_policy", {"topic": "shipping"}, short=short)
            payload += request(pa, 3, "get_order", {"order_id": 1})
            statuses = pipeline(payload)
            steps = {
                k: c.get(f"/episodes/{e['episode_id']}", headers=CTL).json().get("steps")
                for k, e in (("A", a), ("B", b))
            }
            print(json.dumps({"short": short, "statuses": statuses, "steps": steps}), flush=True)
    finally:
        S.stop_all([p])


if __name__ == "__main__":
    main()
