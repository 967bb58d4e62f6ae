"""Benchmark: CPU each server process spends per request of an episode, against a bare `mcp` server.

Usage::

    uv run python bench/server_cpu.py [--seeds 0-1] [--calls 500] [--rounds 2] [--py-spy DIR]

The environment server and the grading service run as `mcpgym eval` serves them (control
token, bundle key; bench/_servers.py ``signed-env`` and ``grading``), each in a process of
its own on 127.0.0.1, beside a bare ``mcp==2.3.0`` `MCPServer` with one ``noop`` tool on
the same transport settings. This process drives them over loopback, 2026-07-28 era (what
the campaign's driver speaks), one request at a time, and reads each server process's CPU
(``/proc``, user + system) around each phase:

- ``POST /episodes``: one per variant (all helpdesk families x bands x ``--seeds``);
- ``open``: the MCP client's ``server/discover`` + ``tools/list`` on each episode URL
  (bare: the same two requests);
- ``reference call``: the reference solution's tool calls (bare: as many ``noop`` calls);
- ``submit``: the ``submit`` call, which seals the episode (page delta, digests, gzip,
  signature, the bundle's files);
- ``POST /grades``: the grading service (bundle read, signature, rebuild, rubric);
- ``tool call``: ``--calls`` times one read call (``get_order``) against as many bare
  ``noop`` calls, interleaved in blocks of 50: the server CPU ratio of a 2026-era tool call.

Phases and the two servers alternate round by round so that load hits all alike. Prints
per phase the server CPU per request (median over rounds), this process's CPU per request
(the client half), and ratios to the bare server where it has the same request.
``--py-spy DIR`` samples each server process during its phases (``DIR/ROLE.raw``; read it
with ``bench/_shares.py`` or any py-spy raw reader).
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from campaign import _seeds, start_py_spy  # noqa: E402  (bench helpers)


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds the threads of these processes have run (``/proc/PID/task/*/schedstat``:
    nanoseconds, where ``/proc/PID/stat`` counts 10 ms ticks); threads that ended are not
    counted (the servers' worker threads live through a phase)."""
    total = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def _free_port() -> int:
    from mcpgym_server.runtime import bind_socket

    sock = bind_socket()
    port = int(sock.getsockname()[1])
    sock.close()
    return port


@contextlib.contextmanager
def _servers(store: Path, key: str, control: str, token: str) -> Iterator[dict[str, Any]]:
    """The environment server, the grading service and the bare server, a process each."""
    ports = {"env server": _free_port(), "grading": _free_port(), "bare": _free_port()}
    argvs = {
        "env server": [
            "signed-env",
            "helpdesk",
            str(ports["env server"]),
            str(store),
            key,
            control,
            "current",
        ],
        "grading": ["grading", str(ports["grading"]), str(store), token, key],
        "bare": ["bare", str(ports["bare"])],
    }
    procs = {
        role: subprocess.Popen(
            [sys.executable, str(HERE / "_servers.py"), *argv], stdout=subprocess.PIPE, text=True
        )
        for role, argv in argvs.items()
    }
    try:
        for role, proc in procs.items():
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"the {role} process failed to start")
        yield {
            "pids": {role: p.pid for role, p in procs.items()},
            "env": f"http://127.0.0.1:{ports['env server']}",
            "grading": f"http://127.0.0.1:{ports['grading']}",
            "bare": f"http://127.0.0.1:{ports['bare']}/mcp",
        }
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(10)


class _Meter:
    """CPU seconds of a server process and of this one around the phases of a round;
    `server` and `client`: per phase name, ms per request of each round."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self._totals: dict[str, list[float]] = {}  # name -> [server s, client s, requests]
        self.server: dict[str, list[float]] = {}
        self.client: dict[str, list[float]] = {}

    @contextlib.contextmanager
    def phase(self, name: str, role: str, n: int) -> Iterator[None]:
        s0, c0 = _cpu_s([self.pids[role]]), time.process_time()
        yield
        s1, c1 = _cpu_s([self.pids[role]]), time.process_time()
        t = self._totals.setdefault(name, [0.0, 0.0, 0])
        t[0], t[1], t[2] = t[0] + s1 - s0, t[1] + c1 - c0, t[2] + n

    def end_round(self) -> None:
        """Record this round's ms per request of every phase (summed over its blocks)."""
        for name, (server, client, n) in self._totals.items():
            self.server.setdefault(name, []).append(server * 1000 / n)
            self.client.setdefault(name, []).append(client * 1000 / n)
        self._totals.clear()


async def _round(
    urls: dict[str, Any],
    meter: _Meter,
    variants: list[tuple[str, str, int]],
    calls: int,
    control: str,
    token: str,
    first: str,
) -> None:
    from mcpgym_server import load_environment

    env = load_environment("helpdesk")
    n = len(variants)
    async with (
        httpx2.AsyncClient(trust_env=False) as mcp_http,
        httpx2.AsyncClient(
            base_url=urls["env"], trust_env=False, headers={"authorization": f"Bearer {control}"}
        ) as env_http,
        httpx2.AsyncClient(
            base_url=urls["grading"], trust_env=False, headers={"authorization": f"Bearer {token}"}
        ) as grading_http,
    ):

        async def mcpgym() -> None:
            with meter.phase("POST /episodes", "env server", n):
                metas = [
                    (
                        await env_http.post("/episodes", json={"task": f, "band": b, "seed": s})
                    ).json()
                    for f, b, s in variants
                ]
            stack = contextlib.AsyncExitStack()
            async with stack:
                with meter.phase("open (discover + tools/list)", "env server", n):
                    clients = []
                    for m in metas:
                        c = await stack.enter_async_context(
                            Client(streamable_http_client(m["mcp_url"], http_client=mcp_http))
                        )
                        await c.list_tools()
                        clients.append(c)
                plans = [env.variant(m["task"], m["band"], m["seed"]) for m in metas]
                done = sum(len(v.reference) for v in plans)
                with meter.phase("reference call", "env server", done):
                    for c, v in zip(clients, plans, strict=True):
                        for call in v.reference:
                            await c.call_tool(call.name, dict(call.arguments))
                with meter.phase("submit (seals)", "env server", n):
                    for c, v in zip(clients, plans, strict=True):
                        answer = {} if v.answer is None else {"answer": v.answer}
                        r = await c.call_tool("submit", answer)
                        assert not r.is_error, r.content
            with meter.phase("POST /grades", "grading", n):
                for m in metas:
                    g = await grading_http.post("/grades", json={"episode_id": m["episode_id"]})
                    assert g.json()["score"] == 1.0, g.text

        async def bare() -> None:
            stack = contextlib.AsyncExitStack()
            async with stack:
                with meter.phase("open (discover + tools/list)/bare", "bare", n):
                    clients = []
                    for _ in range(n):
                        c = await stack.enter_async_context(
                            Client(streamable_http_client(urls["bare"], http_client=mcp_http))
                        )
                        await c.list_tools()
                        clients.append(c)
                with meter.phase("reference call/bare", "bare", n):
                    for c in clients:
                        await c.call_tool("noop", {})

        async def tool_calls() -> None:
            meta = (
                await env_http.post("/episodes", json={"task": "order-status", "seed": 0})
            ).json()
            async with (
                Client(streamable_http_client(meta["mcp_url"], http_client=mcp_http)) as ours,
                Client(streamable_http_client(urls["bare"], http_client=mcp_http)) as theirs,
            ):
                for i in range(0, calls, 50):
                    k = min(50, calls - i)
                    for side in ("ours", "bare") if (i // 50) % 2 == 0 else ("bare", "ours"):
                        if side == "ours":
                            with meter.phase("tool call", "env server", k):
                                for _ in range(k):
                                    await ours.call_tool("get_order", {"order_id": 100001})
                        else:
                            with meter.phase("tool call/bare", "bare", k):
                                for _ in range(k):
                                    await theirs.call_tool("noop", {})

        for part in (mcpgym, bare) if first == "mcpgym" else (bare, mcpgym):
            await part()
        await tool_calls()


def _start_spies(pids: dict[str, int], out_dir: str | None) -> list[subprocess.Popen[bytes]]:
    """``py-spy record`` of each server process into ``out_dir/ROLE.raw`` (none without)."""
    if not out_dir:
        return []
    return [
        start_py_spy(pid, Path(out_dir) / f"{role.replace(' ', '-')}.raw", rate=250)
        for role, pid in pids.items()
    ]


async def main() -> None:
    """Run the rounds and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0-1")
    ap.add_argument("--calls", type=int, default=500, help="tool calls per side for the ratio")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--py-spy", default=None, metavar="DIR")
    ap.add_argument(
        "--http",
        default=None,
        choices=("h11", "httptools"),
        help="the servers' uvicorn HTTP implementation (default: uvicorn's choice)",
    )
    args = ap.parse_args()
    if args.http:
        import os

        os.environ["MCPGYM_BENCH_HTTP"] = args.http
    from mcpgym_server import load_environment

    env = load_environment("helpdesk")
    variants = [
        (f, b, s) for f in env.families for b in env.family(f).bands for s in _seeds(args.seeds)
    ]
    key, control, token = (secrets.token_urlsafe(24) for _ in range(3))
    with tempfile.TemporaryDirectory() as tmp, _servers(Path(tmp), key, control, token) as urls:
        meter = _Meter(urls["pids"])
        spies = _start_spies(urls["pids"], args.py_spy)
        # warm-up: variants generated, reference end states built, lazy imports done
        await _round(urls, _Meter(urls["pids"]), variants, 50, control, token, "mcpgym")
        for r in range(args.rounds):
            await _round(
                urls, meter, variants, args.calls, control, token, "mcpgym" if r % 2 else "bare"
            )
            meter.end_round()
        for p in spies:
            p.send_signal(2)
            p.wait(30)
    med = statistics.median
    import os

    print(
        f"{len(variants)} episodes a round, {args.calls} tool calls a side, medians of "
        f"{args.rounds} rounds, load average {os.getloadavg()[0]:.1f} at the end"
    )
    print("| request | server CPU ms | client CPU ms | bare server CPU ms | ratio |")
    print("|---|---|---|---|---|")
    for name, xs in meter.server.items():
        if name.endswith("/bare"):
            continue
        bare = meter.server.get(name + "/bare")
        ratio = f"{med(xs) / med(bare):.2f}" if bare else ""
        shown = f"{med(bare):.3f}" if bare else ""
        print(f"| {name} | {med(xs):.3f} | {med(meter.client[name]):.3f} | {shown} | {ratio} |")
    per_episode = (
        med(meter.server["POST /episodes"])
        + med(meter.server["open (discover + tools/list)"])
        + med(meter.server["submit (seals)"])
    )
    calls = sum(len(env.variant(f, b, s).reference) for f, b, s in variants) / len(variants)
    per_episode += calls * med(meter.server["reference call"])
    print(
        f"env server per episode ({calls:.2f} reference calls): {per_episode:.2f} ms CPU; "
        f"grading service: {med(meter.server['POST /grades']):.2f} ms"
    )


if __name__ == "__main__":
    anyio.run(main)
