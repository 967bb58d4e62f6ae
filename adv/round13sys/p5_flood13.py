"""§5 probe (round 13; round 12's `p5_flood12.py` with serve options and the load average):
one agent floods its own MCP URL with sessions, streams,
notifications and JSON-RPC batches. Does one episode stay bounded (server memory, its log,
other episodes' latency), and is what it did recorded or refused?

Usage: ``uv run python adv/round13sys/p5_flood13.py [NSESS] [NNOTIF] [SERVE_OPTION...]``
(default 3000, 5000; e.g. ``--max-requests-per-second 1e9 --request-burst 1000000000`` to
serve without the per-episode request rate, as before it existed). Each phase line also
has the 1-minute load average at its end and B's answers' status codes; a first phase,
``quiet``, measures B alone for 20 s (the noise of the machine at that load);
``B_slowest_at_s_ms`` lists B's slowest calls as (seconds into the phase, ms). A flood
request that fails (``ReadError``...) is counted by its exception's name.
Starts `mcpgym serve helpdesk` (loopback, control token, bundle key; `adv/_sys.py`'s
`servers`, its output in /tmp/r13/p5flood/env.log), opens episode A (the
flooder) and B (a bystander), then on A's URL: NSESS `initialize` calls never closed;
NNOTIF notifications (`notifications/initialized`, `notifications/cancelled`,
`notifications/progress`, unknown ones) on one session; 200 GET streams held open at once;
JSON-RPC batches (an array of 50 `tools/call`, an empty array, a batch of 1,000 pings);
`logging/setLevel`, `resources/subscribe`, `completion/complete`. Prints the server RSS
before/after each phase, B's `tools/call` p50/p99 during it, the answers' status codes,
and A's sealed bundle (log lines, bytes, termination).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _sys as S  # noqa: E402 (the shared probe helpers, adv/_sys.py)

NSESS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
NNOTIF = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
SERVE_OPTIONS = tuple(sys.argv[3:])
QUIET_S = 20
W = Path("/tmp/r13/p5flood")
subprocess.run(["rm", "-rf", str(W)])
(W / "eps").mkdir(parents=True)
PORT = 19871
BASE = f"http://127.0.0.1:{PORT}"
ENVV = S.probe_env(control="c12", grading=None, bundle_key="z" * 32)
CA = {"authorization": "Bearer c12"}
ACC, INIT = S.ACC, S.INIT


def rss_mb(pid: int) -> float:
    """The server's resident memory with its children's, in MB."""
    return S.rss_mb(pid, children=True)


async def bystander(
    c: httpx.AsyncClient,
    url: str,
    h: dict,
    stop: asyncio.Event,
    lat: list,
    codes: dict,
    at: list,
) -> None:
    i, t0 = 0, time.perf_counter()
    while not stop.is_set():
        i += 1
        t = time.perf_counter()
        r = await c.post(
            url,
            headers=h,
            json={
                "jsonrpc": "2.0",
                "id": 100 + i,
                "method": "tools/call",
                "params": {"name": "get_order", "arguments": {"order_id": 100500}},
            },
        )
        lat.append(time.perf_counter() - t)
        at.append((round(t - t0, 1), round((time.perf_counter() - t) * 1000)))
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
        await asyncio.sleep(0.05)


async def session(c: httpx.AsyncClient, url: str) -> dict:
    r = await c.post(url, headers=ACC, json=INIT)
    sid = r.headers.get("mcp-session-id")
    h = {**ACC, "mcp-protocol-version": "2025-06-18"}
    if sid:
        h["mcp-session-id"] = sid
    await c.post(url, headers=h, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return h


async def phase(name: str, pid: int, c: httpx.AsyncClient, b_url: str, b_h: dict, work) -> dict:
    stop, lat, b_codes, at = asyncio.Event(), [], {}, []
    before = rss_mb(pid)
    task = asyncio.create_task(bystander(c, b_url, b_h, stop, lat, b_codes, at))
    t0 = time.monotonic()
    try:
        res = await work()
    except Exception as exc:  # a probe: report, go on
        res = {"exception": repr(exc)[:200]}
    stop.set()
    await task
    out = {
        "phase": name,
        "wall_s": round(time.monotonic() - t0, 1),
        "rss_before_mb": before,
        "rss_after_mb": rss_mb(pid),
        "B_calls": S.stats(lat),
        "B_codes": b_codes,
        "B_slowest_at_s_ms": sorted(at, key=lambda x: -x[1])[:4],
        "load1": os.getloadavg()[0],
        **res,
    }
    print(json.dumps(out), flush=True)
    return out


async def main_async(pid: int) -> None:
    limits = httpx.Limits(max_connections=300, max_keepalive_connections=300)
    async with httpx.AsyncClient(timeout=60, limits=limits) as c:
        a = (await c.post(BASE + "/episodes", headers=CA, json={"task": "order-status"})).json()
        b = (await c.post(BASE + "/episodes", headers=CA, json={"task": "order-status"})).json()
        a_url, b_url = a["mcp_url"], b["mcp_url"]
        b_h = await session(c, b_url)
        a_h = await session(c, a_url)

        async def sessions():
            codes: dict[int, int] = {}
            sem = asyncio.Semaphore(50)

            async def one():
                async with sem:
                    try:
                        r = await c.post(a_url, headers=ACC, json=INIT)
                    except httpx.HTTPError as exc:  # counted, the phase goes on
                        codes[type(exc).__name__] = codes.get(type(exc).__name__, 0) + 1
                        return
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1

            await asyncio.gather(*(one() for _ in range(NSESS)))
            return {"codes": codes}

        async def notifs():
            codes: dict[int, int] = {}
            methods = [
                "notifications/initialized",
                "notifications/cancelled",
                "notifications/progress",
                "notifications/x-unknown",
                "notifications/roots/list_changed",
            ]
            sem = asyncio.Semaphore(50)

            async def one(i):
                async with sem:
                    m = methods[i % len(methods)]
                    params = (
                        {"requestId": i, "reason": "x" * 1000}
                        if "cancel" in m
                        else {"progressToken": i, "progress": i, "message": "y" * 1000}
                    )
                    try:
                        r = await c.post(
                            a_url,
                            headers=a_h,
                            json={"jsonrpc": "2.0", "method": m, "params": params},
                        )
                    except httpx.HTTPError as exc:  # counted, the phase goes on
                        codes[type(exc).__name__] = codes.get(type(exc).__name__, 0) + 1
                        return
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1

            await asyncio.gather(*(one(i) for i in range(NNOTIF)))
            return {"codes": codes}

        async def streams():
            codes: dict[str, int] = {}
            held = []

            async def one():
                try:
                    req = c.build_request(
                        "GET", a_url, headers={**a_h, "accept": "text/event-stream"}
                    )
                    r = await c.send(req, stream=True)
                    codes[str(r.status_code)] = codes.get(str(r.status_code), 0) + 1
                    held.append(r)
                except Exception as exc:
                    codes[type(exc).__name__] = codes.get(type(exc).__name__, 0) + 1

            await asyncio.gather(*(one() for _ in range(200)))
            await asyncio.sleep(3)
            for r in held:
                await r.aclose()
            return {"codes": codes}

        async def batches():
            out = {}
            call = {
                "jsonrpc": "2.0",
                "method": "tools/call",
                "params": {"name": "get_order", "arguments": {"order_id": 100500}},
            }
            for name, body in [
                ("batch50_calls", [{**call, "id": 1000 + i} for i in range(50)]),
                ("batch_empty", []),
                (
                    "batch1000_ping",
                    [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(1000)],
                ),
                (
                    "logging_setLevel",
                    {
                        "jsonrpc": "2.0",
                        "id": 7,
                        "method": "logging/setLevel",
                        "params": {"level": "debug"},
                    },
                ),
                (
                    "resources_subscribe",
                    {
                        "jsonrpc": "2.0",
                        "id": 8,
                        "method": "resources/subscribe",
                        "params": {"uri": "mcpgym://x"},
                    },
                ),
                (
                    "completion_complete",
                    {
                        "jsonrpc": "2.0",
                        "id": 9,
                        "method": "completion/complete",
                        "params": {
                            "ref": {"type": "ref/prompt", "name": "x"},
                            "argument": {"name": "a", "value": "b"},
                        },
                    },
                ),
                ("id_object", {"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}),
                ("id_huge_string", {"jsonrpc": "2.0", "id": "i" * 500_000, "method": "ping"}),
                ("method_huge", {"jsonrpc": "2.0", "id": 3, "method": "m" * 500_000}),
            ]:
                r = await c.post(a_url, headers=a_h, json=body)
                out[name] = [r.status_code, len(r.content), r.text[:120]]
            return out

        async def quiet():
            await asyncio.sleep(QUIET_S)  # B alone: the machine's own noise at this load
            return {}

        for name, work in [
            ("quiet", quiet),
            ("sessions", sessions),
            ("notifications", notifs),
            ("streams", streams),
            ("batches", batches),
        ]:
            await phase(name, pid, c, b_url, b_h, work)
        ended = await c.post(BASE + f"/episodes/{a['episode_id']}/end", headers=CA)
        print(json.dumps({"end_A": ended.status_code}), flush=True)
    await asyncio.sleep(2)
    for d in sorted((W / "eps").iterdir()):
        files = {p.name: p.stat().st_size for p in d.iterdir()} if d.is_dir() else {}
        meta = json.loads((d / "meta.json").read_text()) if (d / "meta.json").exists() else {}
        lines = None
        for name in ("log.jsonl.gz", "log.jsonl"):
            if (d / name).exists():
                raw = (d / name).read_bytes()
                raw = gzip.decompress(raw) if name.endswith(".gz") else raw
                lines = raw.count(b"\n")
                methods: dict[str, int] = {}
                for ln in raw.splitlines():
                    try:
                        m = json.loads(ln).get("method") or json.loads(ln).get("tool") or "?"
                    except Exception:
                        m = "unparsable"
                    methods[m] = methods.get(m, 0) + 1
        print(
            json.dumps(
                {
                    "bundle": d.name,
                    "files": files,
                    "log_lines": lines,
                    "log_kinds": methods if lines else None,
                    "termination": meta.get("termination") or meta.get("reason"),
                    "steps": meta.get("steps"),
                    "rate_limited": meta.get("rate_limited"),
                }
            )[:900],
            flush=True,
        )


def main() -> None:
    with S.servers(PORT, None, W / "eps", ENVV, W, extra=SERVE_OPTIONS) as procs:
        asyncio.run(main_async(procs["env"].pid))
    log = (W / "env.log").read_text().splitlines()  # the server's output (`S.servers`)
    errs = [ln for ln in log if "Error" in ln or "Traceback" in ln]
    print(json.dumps({"serve_log_error_lines": len(errs), "first": errs[:3]})[:600])
    rate = [ln for ln in log if "faster than" in ln]
    print(json.dumps({"serve_log_rate_lines": len(rate), "first": rate[:2]})[:600])


if __name__ == "__main__":
    main()
