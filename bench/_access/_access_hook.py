"""What bench/_access/sitecustomize.py installs (see there): request counts and CPU per
process of an ``mcpgym eval``, written to ``DIR/<pid>.json`` at exit."""

from __future__ import annotations

import atexit
import collections
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

COUNTS: collections.Counter[str] = collections.Counter()
FIGURES: dict[str, Any] = {}


def kind(method: str, path: str, body: bytes, mcp_method: str | None = None) -> str:
    """``POST /episodes``, ``mcp tools/call``...: what one request was (an MCP request's
    JSON-RPC method from its 2026-era ``Mcp-Method`` header, else from its body)."""
    if path.endswith("/mcp"):
        if mcp_method:
            return f"mcp {mcp_method}"
        try:
            return "mcp " + str(json.loads(body).get("method")) if body else f"mcp {method}"
        except ValueError:
            return "mcp ?"
    if path.startswith("/episodes/") and path != "/episodes/":
        rest = path.split("/", 3)[3:] or [""]
        path = "/episodes/{id}" + ("/" + rest[0] if rest[0] else "")
    if path.startswith("/grades/"):
        path = "/grades/{id}"
    return f"{method} {path}"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _write(out: str) -> None:
    data = {"argv": sys.argv, "counts": dict(COUNTS), "cpu_s": _cpu(), **FIGURES}
    (Path(out) / f"{os.getpid()}.json").write_text(json.dumps(data))


def _count_server() -> None:
    """Wrap the app of every uvicorn server of this process in a counting middleware."""
    import functools

    import uvicorn

    def counted(app: Any) -> Any:
        async def wrapper(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                return await app(scope, receive, send)
            if "served_cpu_from" not in FIGURES:  # start-up done: the first request
                FIGURES["served_cpu_from"] = _cpu()
            named = next((v for k, v in scope["headers"] if k == b"mcp-method"), None)
            if named is not None or not scope["path"].endswith("/mcp"):
                try:
                    return await app(scope, receive, send)
                finally:  # the header names it: no body read here
                    m = named.decode("latin-1") if named else None
                    COUNTS[kind(scope["method"], scope["path"], b"", m)] += 1
                    FIGURES["role"] = "server"
            body = bytearray()

            async def recv() -> Any:
                message = await receive()
                if message.get("type") == "http.request":
                    body.extend(message.get("body", b""))
                return message

            try:
                await app(scope, recv, send)
            finally:
                COUNTS[kind(scope["method"], scope["path"], bytes(body))] += 1
                FIGURES["role"] = "server"

        return wrapper

    original = uvicorn.Config.__init__

    @functools.wraps(original)
    def init(self: Any, app: Any, *args: Any, **kwargs: Any) -> None:
        original(self, counted(app), *args, **kwargs)

    uvicorn.Config.__init__ = init  # type: ignore[method-assign]


def _count_client() -> None:
    """Count the requests the command's HTTP clients send; time `run_campaign`."""
    import functools

    import httpx
    import httpx2

    for lib in (httpx, httpx2):
        send = lib.AsyncClient.send

        async def counted(self: Any, request: Any, *a: Any, _send: Any = send, **k: Any) -> Any:
            named = request.headers.get("mcp-method")
            body = b"" if named else request.content
            COUNTS[kind(request.method, request.url.path, body, named)] += 1
            return await _send(self, request, *a, **k)

        lib.AsyncClient.send = counted  # type: ignore[method-assign]

    import mcpgym_clients.campaign as campaign
    import mcpgym_clients.evaluation as evaluation

    original = campaign.run_campaign

    @functools.wraps(original)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        before = dict(COUNTS)
        t0, c0, th0 = time.perf_counter(), _cpu(), time.thread_time()
        try:
            result = await original(*args, **kwargs)
        finally:
            FIGURES["campaign"] = {
                "wall_s": time.perf_counter() - t0,
                "cpu_s": _cpu() - c0,
                "loop_thread_cpu_s": time.thread_time() - th0,
                "counts": {k: v - before.get(k, 0) for k, v in COUNTS.items()},
            }
        FIGURES["campaign"]["episodes"] = len(result.records)
        FIGURES["campaign"]["scores"] = [r.score for r in result.records]
        return result

    campaign.run_campaign = timed  # type: ignore[assignment]
    evaluation.run_campaign = timed  # type: ignore[attr-defined]
    FIGURES["role"] = "campaign"


def install(out: str, way: str) -> None:
    """Count in this process; apply ``way`` (bench/round_trips.py) in the command's."""
    atexit.register(_write, out)
    _count_server()
    if os.path.basename(sys.argv[0]) == "mcpgym":
        _count_client()
        if way:
            import round_trips_ways  # beside this file

            round_trips_ways.apply(way)
