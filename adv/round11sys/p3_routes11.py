"""§3 probe (round 11): new routes to the answer from an episode URL without the control
token: the token put in a query string, ids with path tricks on both servers, a session of
episode A used on episode B's URL, and the grading service reached without its token.

Usage: ``uv run python adv/round11sys/p3_routes11.py`` (own `mcpgym serve` and
`mcpgym grading serve` on loopback, stopped by pid). Prints every response whose status is
2xx where a refusal was expected, and every response holding a secret (variant id, served
seed, salt, control or grading token, reference answer or argument of 16+ characters).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from mcpgym_server import load_environment

W = Path("/tmp/r11/p3")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
TOKEN, SALT, GTOKEN = "p3-control-tok-r11", "p3-salt-SECRETSALT-r11", "p3-grading-tok-r11"
MC = [sys.executable, "-c", "from mcpgym_clients.cli import main; main()"]
ENVV = dict(
    os.environ,
    MCPGYM_CONTROL_TOKEN=TOKEN,
    MCPGYM_SEED_SALT=SALT,
    MCPGYM_BUNDLE_KEY="c" * 32,
    MCPGYM_GRADING_TOKEN=GTOKEN,
)
AUTH = {"authorization": f"Bearer {TOKEN}"}
ACC = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(url: str) -> None:
    for _ in range(400):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.25)


def rpc(method: str, params: dict, id_: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


INIT = rpc(
    "initialize",
    {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "p", "version": "1"},
    },
)


def main() -> None:
    ep_port, gr_port = free_port(), free_port()
    procs = [
        subprocess.Popen(
            MC + ["serve", "helpdesk", "--port", str(ep_port), "--store", str(W / "eps")],
            env=ENVV,
            stdout=open(W / "serve.log", "w"),
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            MC + ["grading", "serve", "--port", str(gr_port), "--store", str(W / "eps")],
            env=ENVV,
            stdout=open(W / "grading.log", "w"),
            stderr=subprocess.STDOUT,
        ),
    ]
    base, gbase = f"http://127.0.0.1:{ep_port}", f"http://127.0.0.1:{gr_port}"
    findings: list[str] = []
    n = 0
    try:
        wait_up(base + "/healthz")
        wait_up(gbase + "/healthz")
        env = load_environment("helpdesk")
        a = httpx.post(
            f"{base}/episodes",
            headers=AUTH,
            json={"task": "order-status", "band": "hard", "seed": 5},
        ).json()
        b = httpx.post(
            f"{base}/episodes",
            headers=AUTH,
            json={"task": "refund-damaged-item", "band": "expert", "seed": 2},
        ).json()
        secrets = {"token": TOKEN, "salt": SALT, "gtoken": GTOKEN}
        for ep in (a, b):
            v = env.variant(ep["task"], ep["band"], ep["seed"])
            secrets[f"{ep['task']}:variant_id"] = v.id
            if v.answer and len(v.answer) > 12:
                secrets[f"{ep['task']}:answer"] = v.answer
            for i, call in enumerate(v.reference):
                for k, val in (getattr(call, "arguments", None) or {}).items():
                    if isinstance(val, str) and len(val) >= 16 and val not in ep["instruction"]:
                        secrets[f"{ep['task']}:ref{i}.{k}"] = val
        c = httpx.Client(timeout=15)

        def check(label: str, r: httpx.Response, refuse: bool) -> None:
            nonlocal n
            n += 1
            text = r.text + json.dumps(dict(r.headers))
            for name, sec in secrets.items():
                if sec in text:
                    findings.append(f"LEAK {name} via {label} -> {r.status_code}")
            if refuse and r.status_code < 400:
                findings.append(f"ACCEPTED {label} -> {r.status_code} {r.text[:160]!r}")

        eid, bid = a["episode_id"], b["episode_id"]
        # 1. the control token in a query string (never read: each must be refused)
        for q in (
            f"token={TOKEN}",
            f"access_token={TOKEN}",
            f"authorization=Bearer%20{TOKEN}",
            f"control_token={TOKEN}",
            f"MCPGYM_CONTROL_TOKEN={TOKEN}",
        ):
            check(
                f"POST /episodes?{q[:20]}",
                c.post(f"{base}/episodes?{q}", json={"task": "order-status"}),
                True,
            )
            check(f"POST /episodes/A/end?{q[:20]}", c.post(f"{base}/episodes/{bid}/end?{q}"), True)
            r = c.get(f"{base}/episodes/{eid}?{q}")
            check(f"GET /episodes/A?{q[:20]}", r, False)
            if "variant_id" in r.text:
                findings.append(f"VARIANT via query token {q[:20]}")
            check(f"GET grading /grades/A?{q[:20]}", c.get(f"{gbase}/grades/{eid}?{q}"), True)
        # other header spellings of the token on the MCP URL: does the MCP side reveal more?
        for h in (
            {"authorization": f"Bearer {TOKEN}"},
            {"x-control-token": TOKEN},
            {"cookie": f"token={TOKEN}"},
        ):
            r = c.post(
                f"{base}/episodes/{eid}/mcp", headers={**ACC, **h}, json=rpc("resources/list", {})
            )
            check(f"resources/list with {list(h)[0]}", r, False)
        # 2. path tricks in ids
        ids = [
            "..",
            "%2e%2e",
            "..%2f..%2ftasks",
            f"{eid}%2f..%2f{bid}",
            f"{eid}/../{bid}",
            ".tmp-" + eid,
            eid + "%00",
            eid + "\\..\\x",
            "ep_" + "a" * 200,
            eid.upper(),
            f"{eid}.",
            f"{eid}%20",
            "．．",
            "%252e%252e",
            eid + ";x",
            "~root",
            "ep_*",
            "ep_%",
            "ep_?",
        ]
        for i in ids:
            for meth, url in (
                ("GET", f"{base}/episodes/{i}"),
                ("POST", f"{base}/episodes/{i}/end"),
                ("POST", f"{base}/episodes/{i}/mcp"),
                ("GET", f"{gbase}/grades/{i}"),
            ):
                try:
                    r = c.request(meth, url, headers=ACC, content=json.dumps(INIT))
                except (httpx.HTTPError, ValueError) as e:
                    n += 1
                    print(f"client refused {meth} {url[:80]}: {type(e).__name__}")
                    continue
                check(
                    f"{meth} {url.split('/', 3)[3][:60]}",
                    r,
                    meth == "POST" and url.endswith("/end"),
                )
                if r.status_code >= 500:
                    findings.append(f"5xx {meth} {url[:90]} -> {r.status_code}")
        # grading POST with path-trick ids, with the grading token (an operator's typo)
        G = {"authorization": f"Bearer {GTOKEN}"}
        for i in (
            "../eps/" + eid,
            "/etc/passwd",
            eid + "/meta.json",
            ".tmp-x",
            "",
            "a" * 5000,
            ["x"],
            None,
            5,
        ):
            r = c.post(f"{gbase}/grades", headers=G, json={"episode_id": i})
            check(f"POST /grades {str(i)[:30]}", r, True)
            if r.status_code >= 500:
                findings.append(f"5xx POST /grades {str(i)[:40]} -> {r.status_code} {r.text[:120]}")
        # 3. a session of A used on B's URL
        r = c.post(f"{base}/episodes/{eid}/mcp", headers=ACC, json=INIT)
        sid = r.headers.get("mcp-session-id", "")
        h = {**ACC, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
        c.post(
            f"{base}/episodes/{eid}/mcp",
            headers=h,
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        )
        for meth, params in (
            ("tools/call", {"name": "get_policy", "arguments": {}}),
            ("resources/read", {"uri": "mcpgym://episode"}),
            ("tools/list", {}),
        ):
            r = c.post(f"{base}/episodes/{bid}/mcp", headers=h, json=rpc(meth, params, 7))
            check(f"A's session on B's URL: {meth}", r, True)
            if bid in r.text or "refund-damaged-item" in r.text:
                findings.append(
                    f"CROSS: A's session on B's URL answered about B: {meth} {r.text[:160]!r}"
                )
        # A's session on the connect-to-start URL
        r = c.post(
            f"{base}/tasks/order-status/mcp",
            headers=h,
            json=rpc("resources/read", {"uri": "mcpgym://episode"}, 8),
        )
        check("A's session on /tasks/order-status/mcp", r, True)
        # 4. steps of A through B's URL after A ends
        print(json.dumps({"responses": n, "findings": len(findings)}))
        for f in findings:
            print(f)
    finally:
        for p in procs:
            p.terminate()
            p.wait(20)


main()
