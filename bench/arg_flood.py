"""Benchmark: `/healthz` and another episode's tool call while one call floods its arguments.

Usage::

    uv run python bench/arg_flood.py [--keys 200000] [--modes no-item-limit,current]
        [--baseline-root /work/main]

For each mode an environment server (helpdesk, separate process) is started and two episodes
opened; episode A gets one ``tools/call`` of ``get_order`` with ``--keys`` unknown argument
keys (200,000 keys are 3.6 MB, under the 4 MiB body limit; adversarial round 9, S5-1), while
the bench polls ``/healthz`` and calls ``get_policy`` on episode B, alternately, every 20 ms,
from before the call is sent until 0.5 s after it is answered.

- ``current``: this tree (messages over 10,000 JSON items refused before parsing);
- ``no-item-limit``: this tree with that limit off (``create_app(max_message_items=None)``);
- ``baseline``: with ``--baseline-root DIR``, the server of another checkout (its own
  ``.venv`` and ``bench/_servers.py``), e.g. the commit before the limit.

Prints, per mode, A's status, seconds and answer size, and p50 / p99 / max of both latencies.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


@contextlib.contextmanager
def _server(python: str, servers: Path, port: int, store: str, mode: str) -> Iterator[None]:
    args = ["env", "helpdesk", str(port), store, "-", mode]
    proc = subprocess.Popen([python, str(servers), *args], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError(f"server {args} failed to start")
        yield
    finally:
        proc.terminate()
        proc.wait(30)


def _free_port() -> int:
    from mcpgym_server.runtime import bind_socket

    sock = bind_socket()
    port = sock.getsockname()[1]
    sock.close()
    return port


def _call(name: str, arguments: dict[str, object]) -> tuple[dict[str, str], bytes]:
    headers = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
    }
    params = {"name": name, "arguments": arguments, "_meta": META}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    return headers, json.dumps(body).encode()


def _stats(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    pick = lambda q: round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 1)  # noqa: E731
    return {"n": len(xs), "p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": pick(1.0)}


def _measure(base: str, keys: int) -> dict[str, object]:
    c = httpx.Client(base_url=base, timeout=300)
    a = c.post("/episodes", json={"task": "order-status"}).json()
    b = c.post("/episodes", json={"task": "order-status"}).json()
    head_a, body_a = _call("get_order", {f"k{i}": i for i in range(keys)})
    head_b, body_b = _call("get_policy", {})
    for _ in range(5):  # warm up
        c.post(b["mcp_url"], headers=head_b, content=body_b)
        c.get("/healthz")
    done = threading.Event()
    out: dict[str, object] = {"request_bytes": len(body_a)}

    def flood() -> None:
        t = time.perf_counter()
        reply = httpx.post(a["mcp_url"], headers=head_a, content=body_a, timeout=300)
        out.update(
            status=reply.status_code,
            secs=round(time.perf_counter() - t, 2),
            answer_bytes=len(reply.content),
        )
        done.set()

    health: list[float] = []
    other: list[float] = []
    thread = threading.Thread(target=flood)
    thread.start()
    until = float("inf")
    while time.perf_counter() < until:
        t = time.perf_counter()
        c.get("/healthz")
        health.append(time.perf_counter() - t)
        t = time.perf_counter()
        c.post(b["mcp_url"], headers=head_b, content=body_b)
        other.append(time.perf_counter() - t)
        if done.is_set() and until == float("inf"):
            until = time.perf_counter() + 0.5
        time.sleep(0.02)
    thread.join()
    return {**out, "healthz": _stats(health), "other_episode_call": _stats(other)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--keys", type=int, default=200_000)
    parser.add_argument("--modes", default="no-item-limit,current")
    parser.add_argument("--baseline-root", type=Path, default=None)
    args = parser.parse_args()
    modes = args.modes.split(",")
    baseline: Path | None = args.baseline_root
    if baseline is not None:
        modes.insert(0, "baseline")
    for mode in modes:
        python, servers, served_mode = sys.executable, HERE / "_servers.py", mode
        if mode == "baseline" and baseline is not None:
            root = baseline.resolve()
            python, servers, served_mode = (
                str(root / ".venv/bin/python"),
                root / "bench/_servers.py",
                "current",
            )
        with tempfile.TemporaryDirectory() as store:
            port = _free_port()
            with _server(python, servers, port, store, served_mode):
                result = _measure(f"http://127.0.0.1:{port}", args.keys)
        print(json.dumps({"mode": mode, "keys": args.keys, **result}), flush=True)


if __name__ == "__main__":
    main()
