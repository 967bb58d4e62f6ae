"""§3 probe: every response reachable from an episode's mcp_url without a token, checked for
the variant id, the served seed, the seed salt, the reference answer and reference
arguments.

Usage: ``uv run python adv/round9sys/p3_routes.py``  (starts its own `mcpgym serve` with a
control token and a seed salt; stops it by pid). Prints the number of responses and every
leak found (with the request that got it); writes all to /tmp/r9/p3/responses.jsonl.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from mcpgym_server import load_environment

W = Path("/tmp/r9/p3")
subprocess.run(["rm", "-rf", str(W)])
W.mkdir(parents=True)
TOKEN, SALT = "p3-control-tok", "p3-salt-SECRETSALT"
MC = [sys.executable, "-c", "from mcpgym_clients.cli import main; main()"]
ENVV = dict(
    os.environ, MCPGYM_CONTROL_TOKEN=TOKEN, MCPGYM_SEED_SALT=SALT, MCPGYM_BUNDLE_KEY="c" * 32
)
AUTH = {"authorization": f"Bearer {TOKEN}"}
TASKS = [
    ("order-status", "hard", 5),
    ("refund-damaged-item", "expert", 2),
    ("duplicate-charge", "medium", 1),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def secrets_of(ep: dict, env) -> dict[str, str]:
    v = env.variant(ep["task"], ep["band"], ep["seed"])
    out = {
        "variant_id": v.id,
        "served_seed": str(ep["seed"]),
        "salt": SALT,
        "token": TOKEN,
        "id_tail": f"@{v.band}#",
    }
    if v.answer and len(v.answer) > 12:
        out["answer"] = v.answer
    for i, call in enumerate(v.reference):
        for k, val in (call.arguments or {}).items():
            if isinstance(val, str) and len(val) >= 16 and val not in ep["instruction"]:
                out[f"ref{i}.{k}"] = val[:60]
    return out


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        MC + ["serve", "helpdesk", "--port", str(port), "--store", str(W / "eps")],
        env=ENVV,
        stdout=open(W / "serve.log", "w"),
        stderr=subprocess.STDOUT,
    )
    env = load_environment("helpdesk")
    responses: list[dict] = []
    try:
        for _ in range(240):
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.25)
        eps = []
        for task, band, seed in TASKS:
            r = httpx.post(
                f"{base}/episodes", headers=AUTH, json={"task": task, "band": band, "seed": seed}
            )
            eps.append(r.json())
        secrets: dict[str, str] = {}
        for ep in eps:
            secrets.update({f"{ep['task']}:{k}": v for k, v in secrets_of(ep, env).items()})
        c = httpx.Client(timeout=10)

        def rec(method: str, url: str, **kw) -> httpx.Response | None:
            try:
                r = c.request(method, url, **kw)
            except httpx.HTTPError as e:
                responses.append({"req": f"{method} {url}", "err": str(e)})
                return None
            responses.append(
                {
                    "req": f"{method} {url} {json.dumps(kw.get('json'))[:200] if 'json' in kw else kw.get('content', b'')[:100]!r} {kw.get('headers', {})}",
                    "status": r.status_code,
                    "headers": dict(r.headers),
                    "body": r.text[:20000],
                }
            )
            return r

        ep = eps[0]
        eid, mcp = ep["episode_id"], ep["mcp_url"]
        paths = [
            "/",
            "/healthz",
            "/tasks",
            "/tasks/",
            "/episodes",
            "/episodes/",
            f"/episodes/{eid}",
            f"/episodes/{eid}/",
            f"/episodes/{eid}/end",
            f"/episodes/{eid}/mcp",
            f"/episodes/{eid}/mcp/",
            f"/episodes/{eid}/mcp/..",
            f"/episodes/{eid}/mcp/%2e%2e",
            f"/episodes/{eid}/mcp/%2e%2e/",
            f"//episodes/{eid}",
            f"/episodes//{eid}",
            f"/EPISODES/{eid}",
            f"/episodes/{eid.upper()}",
            f"/episodes/{eid}?token={TOKEN[:3]}",
            f"/episodes/{eid}%2F",
            f"/episodes/{eid}%2fmcp",
            f"/episodes/{eid}/mcp/../../episodes/{eid}",
            f"/episodes/{eid};x",
            f"/episodes/{eid}/status",
            f"/episodes/{eid}/meta",
            f"/episodes/{eid}/bundle",
            f"/episodes/{eid}.json",
            f"/episodes/{eid}?verbose=1&detail=full",
            f"/episodes/%65p_{eid[3:]}",
            "/tasks/order-status/mcp",
            "/tasks/order-status/mcp?seed=5&band=hard",
            "/tasks/order-status",
            "/docs",
            "/openapi.json",
            "/metrics",
            "/debug",
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-authorization-server",
            f"/episodes/{eid}/mcp/.well-known/x",
            f"/episodes/{eid}/end?x=1",
            "/tasks?band=hard",
            "/episodes?episode_id=" + eid,
        ]
        for p in paths:
            for m in ("GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"):
                rec(m, base + p)
            rec("POST", base + p, json={"task": "order-status", "band": "hard", "seed": 5})
            rec("GET", base + p, headers={"authorization": "Bearer wrong"})
            rec("GET", base + p, headers={"authorization": "Bearer "})
            rec("GET", base + p, headers={"authorization": f"bearer {TOKEN.upper()}"})
            rec("GET", base + p, headers={"host": "evil.example"})
        # raw request-target tricks (httpx normalises the path): write them on a socket
        for target in [
            f"/episodes/{eid}/mcp/../",
            f"/episodes/{eid}/./",
            f"/episodes/{eid}/mcp/..%2f",
            f"/episodes/./{eid}",
            f"http://127.0.0.1:{port}/episodes/{eid}",
            f"/episodes/{eid}#x",
            f"/episodes/{eid}/mcp/%2e%2e%2f%2e%2e%2fepisodes/{eid}",
            "*",
        ]:
            for m in ("GET", "OPTIONS"):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(
                    f"{m} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
                )
                data = b""
                s.settimeout(5)
                try:
                    while chunk := s.recv(65536):
                        data += chunk
                except OSError:
                    pass
                s.close()
                responses.append(
                    {"req": f"RAW {m} {target}", "body": data.decode(errors="replace")[:20000]}
                )
        # MCP, 2025 era on the episode URL
        acc = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        r = rec(
            "POST",
            mcp,
            headers=acc,
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"sampling": {}, "elicitation": {}, "roots": {}},
                    "clientInfo": {"name": "p3", "version": "1"},
                },
            },
        )
        sid = r.headers.get("mcp-session-id", "") if r is not None else ""
        h = {**acc, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
        rec("POST", mcp, headers=h, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        calls = [
            ("tools/list", {}),
            ("resources/list", {}),
            ("resources/templates/list", {}),
            ("prompts/list", {}),
            ("prompts/get", {"name": "task"}),
            ("prompts/get", {"name": "reference"}),
            ("resources/read", {"uri": "mcpgym://episode"}),
            ("resources/read", {"uri": "mcpgym://variant"}),
            ("resources/read", {"uri": "mcpgym://episode/../variant"}),
            ("resources/read", {"uri": "mcpgym://reference"}),
            ("resources/read", {"uri": "file:///etc/passwd"}),
            ("resources/read", {"uri": "mcpgym://rubric"}),
            ("resources/subscribe", {"uri": "mcpgym://episode"}),
            (
                "completion/complete",
                {
                    "ref": {"type": "ref/prompt", "name": "x"},
                    "argument": {"name": "a", "value": ""},
                },
            ),
            (
                "completion/complete",
                {
                    "ref": {"type": "ref/resource", "uri": "mcpgym://episode"},
                    "argument": {"name": "a", "value": ""},
                },
            ),
            ("logging/setLevel", {"level": "debug"}),
            ("ping", {}),
            ("server/discover", {}),
            ("tasks/list", {}),
            ("sampling/createMessage", {}),
            ("roots/list", {}),
            ("no/such", {}),
            ("tools/call", {"name": "get_order", "arguments": {"order_id": "x"}}),
            ("tools/call", {"name": "get_order", "arguments": {"order_id": 10**30}}),
            ("tools/call", {"name": "get_order", "arguments": {}}),
            ("tools/call", {"name": "__variant__", "arguments": {}}),
            ("tools/call", {"name": "submit", "arguments": {"answer": {"x": 1}}}),
            (
                "tools/call",
                {"name": "reply_to_customer", "arguments": {"ticket_id": -1, "body": "x"}},
            ),
            ("tools/call", {"name": "find_orders", "arguments": {"query": "%' OR 1=1 --"}}),
            ("tools/call", {"name": "get_policy", "arguments": {"topic": "../../reference"}}),
            ("tools/call", {"name": "get_order", "arguments": None}),
            ("tools/call", {}),
            ("tools/call", None),
        ]
        for i, (method, params) in enumerate(calls):
            body = {"jsonrpc": "2.0", "id": 100 + i, "method": method}
            if params is not None:
                body["params"] = params
            rec("POST", mcp, headers=h, json=body)
        # malformed bodies
        for raw in [
            b"{",
            b"[]",
            b"[{}]",
            b'{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
            b'{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
            b"\xff\xfe",
            b"null",
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}',
            b'[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"resources/list"}]',
        ]:
            rec("POST", mcp, headers=h, content=raw)
            rec("POST", mcp, headers=acc, content=raw)
        # 2026 era: sessionless requests
        h26 = {**acc, "mcp-protocol-version": "2026-07-28"}
        for i, (method, params) in enumerate(calls):
            body = {
                "jsonrpc": "2.0",
                "id": 300 + i,
                "method": method,
                "params": {
                    **(params or {}),
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientInfo": {"name": "p3", "version": "1"},
                        "io.modelcontextprotocol/clientCapabilities": {},
                    },
                },
            }
            hx = {**h26, "mcp-method": method}
            if params and isinstance(params.get("name"), str):
                hx["mcp-name"] = params["name"]
            rec("POST", mcp, headers=hx, json=body)
        rec("GET", mcp, headers={"accept": "text/event-stream", "mcp-session-id": sid})
        rec("DELETE", mcp, headers={"mcp-session-id": sid})
        # connect-to-start without the token and with a wrong one
        for hh in ({}, {"authorization": "Bearer nope"}):
            rec(
                "POST",
                f"{base}/tasks/order-status/mcp?seed=5&band=hard",
                headers={**acc, **hh},
                json={
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "p3", "version": "1"},
                    },
                },
            )
        # the episode after sealing (submit), then its routes again
        rec(
            "POST",
            mcp,
            headers={**h26, "mcp-method": "tools/call", "mcp-name": "submit"},
            json={
                "jsonrpc": "2.0",
                "id": 900,
                "method": "tools/call",
                "params": {
                    "name": "submit",
                    "arguments": {"answer": "done"},
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientInfo": {"name": "p3", "version": "1"},
                        "io.modelcontextprotocol/clientCapabilities": {},
                    },
                },
            },
        )
        for p in (f"/episodes/{eid}", f"/episodes/{eid}/mcp", f"/episodes/{eid}/end"):
            for m in ("GET", "POST"):
                rec(m, base + p, headers=acc)
        rec(
            "POST",
            mcp,
            headers=h,
            json={
                "jsonrpc": "2.0",
                "id": 901,
                "method": "tools/call",
                "params": {"name": "get_policy", "arguments": {}},
            },
        )
        rec(
            "POST",
            mcp,
            headers=h,
            json={
                "jsonrpc": "2.0",
                "id": 902,
                "method": "resources/read",
                "params": {"uri": "mcpgym://episode"},
            },
        )
    finally:
        proc.terminate()
        proc.wait(30)
    with open(W / "responses.jsonl", "w") as f:
        for r in responses:
            f.write(json.dumps(r) + "\n")
    leaks = []
    for r in responses:
        text = json.dumps({k: v for k, v in r.items() if k != "req"})
        for name, s in secrets.items():
            if name.endswith("served_seed") and len(s) < 6:
                hit = (
                    re.search(rf"(?<![0-9a-f]){re.escape(s)}(?![0-9a-f])", text) and "seed" in text
                )
            else:
                hit = s.lower() in text.lower()
            if hit:
                leaks.append((name, r["req"][:160], r.get("status")))
    print(
        json.dumps(
            {"responses": len(responses), "secrets": secrets, "n_leaks": len(leaks)}, indent=1
        )[:3000]
    )
    for lk in leaks[:40]:
        print("LEAK", lk)


if __name__ == "__main__":
    main()
