"""Shared parts of the system probes (``adv/round*sys``): servers, the MCP wire, a fake model.

Probe code, not product code: the probes import it with
``sys.path.insert(0, str(Path(__file__).resolve().parents[1]))`` then ``import _sys as S``.
Every process started here runs in a session of its own, so that a probe can stop it, and
only it, by its process group (`killpg`, `stop_all`).

- processes: `MCPGYM`, `probe_env`, `start`, `wait_up`, `servers`, `killpg`, `stop_all`;
- measures: `rows`, `rss_mb`, `child_pids`, `stats`;
- the MCP wire: `ACC`, `INIT`, `META`, `tools_call`;
- the fake OpenAI-compatible model server's pieces (`fake_app`, `chunk`, `usage`, `sse`,
  `text_stream`, `call_stream`, `err`, `tool_call`, `run_fake`, `start_fake`) and one
  ``mcpgym eval`` per scenario against it (`model_eval`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
"""The repository root."""

MCPGYM = [str(Path(sys.executable).with_name("mcpgym"))]
"""The command line of ``mcpgym`` (the one beside this interpreter: run probes with
``uv run python``)."""


def probe_env(
    control: str | None = "ctl-tok", grading: str | None = "gr-tok", bundle_key: str | None = None
) -> dict[str, str]:
    """This process's environment plus the servers' secrets (``None``: not set)."""
    env = dict(os.environ)
    for name, value in (
        ("MCPGYM_CONTROL_TOKEN", control),
        ("MCPGYM_GRADING_TOKEN", grading),
        ("MCPGYM_BUNDLE_KEY", bundle_key),
    ):
        if value is not None:
            env[name] = value
    return env


def start(
    args: list[str], env: dict[str, str], log: Path, *, cwd: Path | None = None
) -> subprocess.Popen[bytes]:
    """Start ``mcpgym ARGS`` in a session of its own, its output appended to ``log``."""
    return subprocess.Popen(
        MCPGYM + args,
        env=env,
        cwd=cwd,
        stdout=open(log, "a"),  # noqa: SIM115 (the child holds it)
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_up(port: int, path: str = "/healthz", tries: int = 480) -> None:
    """Return once ``GET http://127.0.0.1:PORT{path}`` answers; exit the probe if never."""
    for _ in range(tries):
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}{path}", timeout=1)
            return
        time.sleep(0.25)
    raise SystemExit(f"port {port} never came up")


def killpg(p: subprocess.Popen[Any], sig: int) -> None:
    """Send ``sig`` to ``p``'s process group (started by `start`), if it still exists."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(p.pid, sig)


def stop_all(procs: list[subprocess.Popen[Any]], timeout: float = 15) -> None:
    """Stop each process group: SIGCONT (a probe may have frozen it), SIGTERM, then SIGKILL
    after ``timeout`` seconds."""
    for p in procs:
        killpg(p, signal.SIGCONT)
        killpg(p, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            killpg(p, signal.SIGKILL)
            p.wait()


@contextlib.contextmanager
def servers(
    env_port: int | None,
    grading_port: int | None,
    store: Path,
    env: dict[str, str],
    logs: Path,
    *,
    environment: str = "helpdesk",
    extra: tuple[str, ...] = (),
) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """``mcpgym serve ENVIRONMENT`` and/or ``mcpgym grading serve`` on loopback (a port of
    ``None``: not started), both up on entry, stopped by process group on exit.

    Yields:
        ``{"env": ..., "grading": ...}``: the processes started.
    """
    procs: dict[str, subprocess.Popen[bytes]] = {}
    if env_port is not None:
        args = ["serve", environment, "--port", str(env_port), "--store", str(store), *extra]
        procs["env"] = start(args, env, logs / "env.log")
    if grading_port is not None:
        args = ["grading", "serve", "--port", str(grading_port), "--store", str(store)]
        procs["grading"] = start(args, env, logs / "grading.log")
    try:
        for port in (env_port, grading_port):
            if port is not None:
                wait_up(port)
        yield procs
    finally:
        stop_all(list(procs.values()))


# -- measures -------------------------------------------------------------------------------


ROW_COLUMNS = "task, band, seed, epoch, scored, termination, attempts, run_id"


def rows(store: Path, columns: str = ROW_COLUMNS) -> list[tuple[Any, ...]]:
    """The run store's episode rows (read-only; ``[]`` while it cannot be read)."""
    if not store.exists():
        return []
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute(f"SELECT {columns} FROM episodes").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return []


def child_pids(pid: int) -> list[int]:
    """The direct children of ``pid``."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def rss_mb(pid: int, *, children: bool = False) -> float:
    """Resident memory of ``pid`` (plus its direct children), in MB; -1.0 if unknown."""
    total, seen = 0, False
    for p in [pid, *(child_pids(pid) if children else [])]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total, seen = total + int(line.split()[1]), True
    return round(total / 1024, 1) if seen else -1.0


def stats(xs: list[float]) -> dict[str, float]:
    """Count, p50, p99 and max of latencies ``xs`` (seconds), in ms."""
    xs = sorted(xs)
    if not xs:
        return {}
    return {
        "n": len(xs),
        "p50_ms": round(xs[len(xs) // 2] * 1000, 1),
        "p99_ms": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1000, 1),
        "max_ms": round(xs[-1] * 1000, 1),
    }


# -- the MCP wire ---------------------------------------------------------------------------

ACC = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
"""Headers of every MCP POST."""

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
"""An ``initialize`` request (protocol 2025-06-18, with sessions)."""

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "p", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
"""The ``_meta`` of a session-less request (protocol 2026-07-28)."""


def tools_call(
    c: httpx.Client, url: str, i: int, name: str, args: dict[str, Any]
) -> httpx.Response:
    """One session-less ``tools/call`` (protocol 2026-07-28) to an episode's ``url``."""
    h = {**ACC, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name}
    params = {"name": name, "arguments": args, "_meta": META}
    return c.post(
        url, headers=h, json={"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
    )


# -- the fake model server ------------------------------------------------------------------

FINAL = "Your order shipped with UPS, tracking 1Z999."
"""The fake model's final answer."""

DONE = "data: [DONE]\n\n"


def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    """One Chat Completions stream event holding ``delta`` (and a finish reason)."""
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "fake"}
    return f"data: {json.dumps({**body, 'choices': [choice]})}\n\n"


def usage(prompt: int = 100, completion: int = 10) -> str:
    """The stream's usage event."""
    counts = {"prompt_tokens": prompt, "completion_tokens": completion}
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "fake"}
    body |= {"choices": [], "usage": {**counts, "total_tokens": prompt + completion}}
    return f"data: {json.dumps(body)}\n\n"


def tool_call(i: int | None, cid: str | None, name: str | None, args: str | None) -> dict[str, Any]:
    """A streamed tool-call delta; a ``None`` field is left out."""
    d: dict[str, Any] = {"type": "function", "function": {}}
    if i is not None:
        d["index"] = i
    if cid is not None:
        d["id"] = cid
    if name is not None:
        d["function"]["name"] = name
    if args is not None:
        d["function"]["arguments"] = args
    return d


def sse(events: list[str]) -> Any:
    """A ``text/event-stream`` response sending ``events`` as they are."""
    from starlette.responses import StreamingResponse

    async def gen() -> Any:
        for e in events:
            yield e

    return StreamingResponse(gen(), media_type="text/event-stream")


def text_stream(text: str, finish: str = "stop", completion: int = 10) -> Any:
    """A streamed reply of ``text``."""
    head = chunk({"role": "assistant", "content": ""})
    return sse(
        [head, chunk({"content": text}), chunk({}, finish), usage(completion=completion), DONE]
    )


def call_stream(name: str, args: dict[str, Any]) -> Any:
    """A streamed reply calling ``name`` with ``args`` (id ``call_1``)."""
    call = tool_call(0, "call_1", name, json.dumps(args))
    head = chunk({"role": "assistant", "content": None})
    return sse([head, chunk({"tool_calls": [call]}), chunk({}, "tool_calls"), usage(), DONE])


def err(status: int, message: str, headers: dict[str, str] | None = None) -> Any:
    """An OpenAI-style error answer (``Retry-After: 0`` unless ``headers`` say otherwise)."""
    from starlette.responses import JSONResponse

    e = {"message": message, "type": "invalid_request_error", "code": status}
    return JSONResponse({"error": e}, status_code=status, headers=headers or {"Retry-After": "0"})


def turn_of(body: dict[str, Any]) -> int:
    """The 0-based turn of a chat request: how many assistant messages it carries."""
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


Chat = Callable[[str, dict[str, Any], int], Awaitable[Any] | Any]
"""A scenario's answer: ``(scenario, request body, its request number from 1) -> response``."""


def fake_app(
    answer: Chat, logdir: Path, fallback: Callable[[Any], Awaitable[Any]] | None = None
) -> Any:
    """A fake OpenAI-compatible server: ``/s/SCENARIO/v1/...`` picks the behaviour; every
    chat request body ``answer`` answers (not ``None``) is appended to
    ``LOGDIR/SCENARIO.jsonl``; the others go to ``fallback`` (an older round's fake, which
    logs them itself), else 404."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    logdir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}

    async def models(request: Request) -> Any:
        return JSONResponse({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def chat(request: Request) -> Any:
        sc = request.path_params["sc"]
        body = json.loads(await request.body())
        n = counts[sc] = counts.get(sc, 0) + 1
        out = answer(sc, body, n)
        out = await out if isinstance(out, Awaitable) else out
        if out is None:
            counts[sc] -= 1
            return await fallback(request) if fallback else err(404, f"unknown scenario {sc}")
        with open(logdir / f"{sc}.jsonl", "a") as f:  # noqa: ASYNC230 (a probe's log)
            f.write(json.dumps(body) + "\n")
        return out

    return Starlette(
        routes=[
            Route("/s/{sc}/v1/models", models),
            Route("/s/{sc}/v1/chat/completions", chat, methods=["POST"]),
        ]
    )


def run_fake(app: Any, port: int, lifetime: float = 2400) -> None:
    """Serve ``app`` on 127.0.0.1:``port`` until ``lifetime`` seconds have passed."""
    import uvicorn

    threading.Timer(lifetime, lambda: os._exit(0)).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def start_fake(script: Path, port: int, logdir: Path) -> subprocess.Popen[bytes]:
    """Start a fake model server script (``script PORT LOGDIR``) and wait until it answers."""
    p = subprocess.Popen(
        [sys.executable, str(script), str(port), str(logdir)], start_new_session=True
    )
    wait_up(port, "/s/up/v1/models")
    return p


def model_eval(
    sc: str,
    *,
    port: int,
    store: Path,
    logdir: Path,
    env: dict[str, str],
    args: list[str],
    seeds: str | None = None,
) -> dict[str, Any]:
    """One ``mcpgym eval helpdesk`` (order-status, easy) of scenario ``sc`` of the fake model
    on ``port``, with ``args`` (the servers' URLs...), on ``seeds`` (default: 0, or 0-2 for
    the scenarios that need three episodes); what it did, as one JSON-able dict:
    rc, wall, requests the fake saw, whether a tool result / a told-once note / a null
    content went back, the stored rows, the eval's last error lines."""
    store.unlink(missing_ok=True)
    (logdir / f"{sc}.jsonl").unlink(missing_ok=True)
    seeds = seeds or ("0-2" if sc.startswith(("o_", "same500")) else "0")
    cmd = MCPGYM + ["eval", "helpdesk", "--base-url", f"http://127.0.0.1:{port}/s/{sc}/v1"]
    cmd += ["--tasks", "order-status", "--bands", "easy", "--seeds", seeds, "--no-baseline"]
    cmd += ["--store", str(store), "--concurrency", "1", "--request-timeout", "2"]
    cmd += ["--infra-retries", "1", "--infra-retry-wait", "0", "--timeout", "90", *args]
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            cmd, cwd=store.parent, capture_output=True, text=True, timeout=240, env=env
        )
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = "TIMEOUT", str(e.stdout or "") + str(e.stderr or "")
    wall = time.monotonic() - t0
    found = []
    cols = "termination, episode_termination, error, transcript, scored, attempts"
    for term, eterm, error, tr, scored, attempts in rows(store, cols):
        msgs = json.loads(tr) if tr else []
        parsed = [m["mcpgym_parsed_tool_calls"] for m in msgs if m.get("mcpgym_parsed_tool_calls")]
        found.append(
            {
                "term": term,
                "eterm": eterm,
                "scored": scored,
                "attempts": attempts,
                "err": (error or "")[:160],
                "roles": "".join((m.get("role") or "?")[0] for m in msgs),
                "flagged": any(m.get("mcpgym_unparsed_tool_call") for m in msgs),
                "parsed": str(parsed)[:80],
            }
        )
    log = logdir / f"{sc}.jsonl"
    reqs = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    sent = [m for r in reqs for m in r["messages"]]
    tail = [ln for ln in out.splitlines() if "error" in ln.lower() or "stop" in ln.lower()][-3:]
    return {
        "sc": sc,
        "rc": rc,
        "wall": round(wall, 1),
        "requests": len(reqs),
        "tool_result_sent": any(m.get("role") == "tool" for m in sent),
        "told_once": any(
            m.get("role") == "user" and "could not" in str(m.get("content")) for m in sent
        ),
        "null_content_sent": any(
            m.get("role") == "assistant" and "content" in m and m["content"] is None for m in sent
        ),
        "rows": found,
        "tail": tail,
    }
