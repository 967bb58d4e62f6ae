"""§5 probe (round 13): another episode's tool-call latency while one episode floods its MCP
URL, per server setting, with the bystander measured from its own process (or, as round 12's
`p5_flood12.py` did, on the flooder's own httpx client).

Usage: ``[FLOOD=notif|call|ping] [SHARED=1|2] [DUR=20] uv run python
adv/round13sys/p5_bystander13.py SETTING...``; SETTING is ``RATE:BURST:HOLD`` for
``create_app(max_requests_per_second=RATE, request_burst=BURST)`` with the refusal hold
``HOLD`` seconds, or ``off:1:0`` (no request rate: the server before it). Each setting starts
a helpdesk server in a child process, opens episodes A and B; 50 workers flood A's URL on one
2025-era session (round 12's notification mix; ``FLOOD=call``: ``tools/call``, ``ping``)
while B calls ``get_order`` every 50 ms for DUR seconds, from its own process (default),
``SHARED=2`` its own client in the flooder's process, ``SHARED=1`` the flooder's client.
Prints B's n, p50/p99 and slowest calls (ms, seconds in, status), the flood's status codes,
the server's CPU % and the 1-minute load average.
"""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time

import httpx

ACC = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "p", "version": "1"},
    },
}
DUR = float(os.environ.get("DUR", "20"))


def child(port, rate, burst, hold):
    import tempfile

    import anyio

    from mcpgym_server import load_environment
    from mcpgym_server.runtime import create_app, serve

    app = create_app(
        load_environment("helpdesk"),
        tempfile.mkdtemp(),
        control_token=None,
        max_requests_per_second=None if rate == "off" else float(rate),
        request_burst=int(burst),
    )
    if app.state.request_rate is not None:
        app.state.request_rate.hold_s = float(hold)

    async def run():
        async with serve(app, port=port):
            print("ready", flush=True)
            await anyio.sleep_forever()

    anyio.run(run)


async def session(c, url):
    r = await c.post(url, headers=ACC, json=INIT)
    h = {**ACC, "mcp-protocol-version": "2025-06-18", "mcp-session-id": r.headers["mcp-session-id"]}
    await c.post(url, headers=h, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return h


async def bystander(url, shared=None):
    async with httpx.AsyncClient(timeout=60) if shared is None else shared as c:
        h = await session(c, url)
        lat, t0, i = [], time.perf_counter(), 0
        while time.perf_counter() - t0 < DUR:
            i += 1
            t = time.perf_counter()
            r = await c.post(
                url,
                headers=h,
                json={
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "get_order", "arguments": {"order_id": 100500}},
                },
            )
            lat.append((time.perf_counter() - t, round(t - t0, 1), r.status_code))
            await asyncio.sleep(0.05)
        xs = sorted(x[0] for x in lat)
        slow = sorted(lat, key=lambda x: -x[0])[:3]
        return json.dumps(
            {
                "n": len(xs),
                "p50_ms": round(xs[len(xs) // 2] * 1000),
                "p99_ms": round(xs[int(len(xs) * 0.99)] * 1000),
                "slowest": [(round(a * 1000), b, s) for a, b, s in slow],
            }
        )


async def by_main(url):
    print(await bystander(url))


SHARED = {}


async def flood(url, stop):
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=300)) as c:
        SHARED["c"] = c
        h = await session(c, url)
        codes = {}

        async def worker(k):
            i = k
            while not stop.is_set():
                i += 50
                try:
                    ms = [
                        "notifications/initialized",
                        "notifications/cancelled",
                        "notifications/progress",
                        "notifications/x-unknown",
                        "notifications/roots/list_changed",
                    ]
                    m = ms[i % 5]
                    params = (
                        {"requestId": i, "reason": "x" * 1000}
                        if "cancel" in m
                        else {"progressToken": i, "progress": i, "message": "y" * 1000}
                    )
                    body = {"jsonrpc": "2.0", "method": m, "params": params}
                    if os.environ.get("FLOOD") == "call":
                        body = {
                            "jsonrpc": "2.0",
                            "id": i,
                            "method": "tools/call",
                            "params": {"name": "get_order", "arguments": {"order_id": 100500}},
                        }
                    elif os.environ.get("FLOOD") == "ping":
                        body = {"jsonrpc": "2.0", "id": i, "method": "ping"}
                    r = await c.post(url, headers=h, json=body)
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1
                except httpx.HTTPError as e:
                    codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1

        await asyncio.gather(*(worker(k) for k in range(50)))
        return codes


def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().split(")")[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


async def main_async(base, pid):
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        a = (await c.post("/episodes", json={"task": "order-status"})).json()
        b = (await c.post("/episodes", json={"task": "order-status"})).json()
    stop = asyncio.Event()
    c0 = cpu(pid)
    ft = asyncio.create_task(flood(a["mcp_url"], stop))
    if os.environ.get("SHARED"):
        await asyncio.sleep(0.5)

        class NoClose:
            def __init__(self, c):
                self.c = c

            async def __aenter__(self):
                return self.c

            async def __aexit__(self, *a):
                pass

        out = await bystander(
            b["mcp_url"], NoClose(SHARED["c"]) if os.environ["SHARED"] == "1" else None
        )
    else:
        by = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "by", b["mcp_url"], stdout=asyncio.subprocess.PIPE
        )
        out = (await by.stdout.read()).decode().strip()
    stop.set()
    codes = await ft
    return out, codes, round((cpu(pid) - c0) / DUR * 100), os.getloadavg()[0]


def main():
    if sys.argv[1] == "child":
        child(int(sys.argv[2]), *sys.argv[3:6])
        return
    if sys.argv[1] == "by":
        asyncio.run(by_main(sys.argv[2]))
        return
    for label in sys.argv[1:]:
        rate, burst, hold = label.split(":")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        p = subprocess.Popen(
            [sys.executable, __file__, "child", str(port), rate, burst, hold],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert p.stdout.readline().strip() == "ready"
        try:
            out, codes, cpu_pct, load = asyncio.run(main_async(f"http://127.0.0.1:{port}", p.pid))
            print(
                label,
                "B:",
                out,
                "flood:",
                codes,
                "server CPU %:",
                cpu_pct,
                "load:",
                load,
                flush=True,
            )
        finally:
            p.terminate()
            p.wait()


if __name__ == "__main__":
    main()
