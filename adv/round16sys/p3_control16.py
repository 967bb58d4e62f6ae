"""§3 probe (round 16): the control token and routes, asked every way an agent could.

Usage: ``uv run python adv/round16sys/p3_control16.py``
Starts ``mcpgym serve helpdesk`` with a control token (adv/_sys.py), opens one episode with
it, then sends, with no token or an odd one, each control route in odd spellings (case,
slashes, encoded dots, methods, a token in the query, two Authorization headers, Basic),
and each MCP method on the episode URL. Prints per request: status, and whether the answer
names the variant (its id, ``#SEED``, the band) or the reference.
Expected: without the exact token nothing names the variant; control routes 401/403/404/405.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402

W = Path("/tmp/r16/p3")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
EP = 19611
B = f"http://127.0.0.1:{EP}"
TOK = "ctl-tok"
ENVV = S.probe_env(control=TOK)


def leaks(text: str, variant: str, seed: int) -> list[str]:
    found = [w for w in (variant, f"#{seed}", "variant_id", "requested_seed") if w in text]
    return found + (["reference"] if "reference" in text.lower() else [])


with S.servers(EP, None, W / "eps", ENVV, W) as procs, httpx.Client(timeout=10) as c:
    good = {"authorization": f"Bearer {TOK}"}
    meta = c.post(
        f"{B}/episodes", json={"task": "order-status", "band": "hard", "seed": 3}, headers=good
    ).json()
    eid, variant, seed = meta["episode_id"], meta["variant_id"], meta["seed"]
    url = meta["mcp_url"]
    print("opened", eid, variant)
    odd_headers = {
        "none": {},
        "lower-bearer": {"authorization": f"bearer {TOK}"},
        "token-space": {"authorization": f"Bearer  {TOK} "},
        "basic": {"authorization": "Basic Y3RsLXRvazo="},
        "prefix": {"authorization": f"Bearer {TOK[:-1]}"},
        "longer": {"authorization": f"Bearer {TOK}x"},
        "nul": {"authorization": f"Bearer {TOK}\x00"},
        "x-token": {"x-control-token": TOK},
        "cookie": {"cookie": f"token={TOK}"},
    }
    paths = [
        ("GET", f"/episodes/{eid}"),
        ("GET", f"/episodes/{eid}/"),
        ("GET", f"//episodes/{eid}"),
        ("GET", f"/EPISODES/{eid}"),
        ("GET", f"/episodes/{eid}/mcp/../"),
        ("GET", f"/episodes/{eid}/mcp/%2e%2e"),
        ("GET", f"/episodes/{eid}?token={TOK}"),
        ("GET", f"/episodes/{eid}/end"),
        ("HEAD", f"/episodes/{eid}"),
        ("OPTIONS", f"/episodes/{eid}"),
        ("POST", f"/episodes/{eid}"),
        ("GET", "/tasks"),
        ("GET", "/tasks?token=" + TOK),
        ("GET", "/tasks/order-status/mcp?seed=3&band=hard"),
        ("POST", "/episodes"),
        ("GET", "/healthz"),
        ("GET", "/episodes"),
        ("GET", "/openapi.json"),
        ("GET", "/docs"),
        ("GET", f"/episodes/{eid}/bundle"),
        ("GET", f"/episodes/{eid}/log"),
    ]
    bad: list[str] = []
    for hname, h in odd_headers.items():
        for method, path in paths:
            body = {"task": "order-status", "band": "hard", "seed": 3}
            try:
                r = c.request(method, B + path, headers=h, json=body if method == "POST" else None)
                st, text = r.status_code, r.text
            except httpx.HTTPError as e:
                st, text = f"ERR {type(e).__name__}", ""
            found = leaks(text, variant, seed)
            if found or (isinstance(st, int) and st < 300 and path not in ("/healthz",)):
                bad.append(f"{hname:12s} {method:7s} {path[:60]:60s} {st} {found} {text[:100]!r}")
    # two Authorization headers: a wrong one first, the right one second (and the reverse)
    for pair in (
        [("authorization", "Bearer nope"), ("authorization", f"Bearer {TOK}")],
        [("authorization", f"Bearer {TOK}"), ("authorization", "Bearer nope")],
    ):
        r = c.get(f"{B}/episodes/{eid}", headers=pair)
        print("two headers", [v for _, v in pair], r.status_code, leaks(r.text, variant, seed))
    # MCP methods on the episode URL, session-less (2026-07-28)
    mh = {**S.ACC, "mcp-protocol-version": "2026-07-28"}
    for i, (mname, params) in enumerate(
        [
            ("server/discover", {}),
            ("tools/list", {}),
            ("resources/list", {}),
            ("resources/templates/list", {}),
            ("resources/read", {"uri": f"mcpgym://episodes/{eid}"}),
            ("prompts/list", {}),
            ("prompts/get", {"name": "reference"}),
            (
                "completion/complete",
                {
                    "ref": {"type": "ref/prompt", "name": "x"},
                    "argument": {"name": "a", "value": ""},
                },
            ),
            ("logging/setLevel", {"level": "debug"}),
            ("ping", {}),
            ("tools/call", {"name": "get_order", "arguments": {"order_id": "../../tasks"}}),
        ]
    ):
        h = {**mh, "mcp-method": mname}
        if mname == "tools/call":
            h["mcp-name"] = "get_order"
        r = c.post(
            url,
            headers=h,
            json={
                "jsonrpc": "2.0",
                "id": i,
                "method": mname,
                "params": {**params, "_meta": S.META},
            },
        )
        text = r.text
        found = [w for w in leaks(text, variant, seed) if w != f"#{seed}" or "#" in text]
        print(f"mcp {mname:26s} {r.status_code} leaks={found} {text[:120]!r}")
    print("control-route answers < 300 or naming the variant without the token:")
    for line in bad:
        print(" ", line)
    print("n_bad", len(bad))
    st = c.get(f"{B}/episodes/{eid}", headers=good).json()
    print("with token:", json.dumps(st)[:200])
    _ = procs
