"""Server processes for the benchmarks: the mcpgym environment server and a bare `mcp` server.

Run as ``python bench/_servers.py env ENV PORT STORE [IDLE_TTL [current|legacy]]`` or ``python
bench/_servers.py bare PORT`` (``plain PORT``: no MCP at all, a raw ASGI app answering every
request with a fixed JSON body, the HTTP floor of bench/sdk_floor.py; or ``bare-work ENV PORT
[fresh]``: a bare server doing the environment's tool work, see `bare_work_app`); ``signed-env
ENV PORT STORE KEY CONTROL MODE`` and ``grading PORT STORE TOKEN KEY [THREADS]`` serve what
`serve_locally` serves, one process each (bench/campaign.py ``--servers processes``). Each
prints ``ready`` on stdout once it accepts connections. ``no-schema-lookup`` (with IDLE_TTL
``-``) serves MCP without the tool-schema lookup (bench/episode.py's *before*); ``no-otel``
without the SDK's OpenTelemetry middleware (bench/sdk_floor.py);
``no-item-limit`` without the limit on JSON items per MCP message (bench/arg_flood.py).
``legacy`` seals as mcpgym did before page deltas (bench/expiry.py's baseline): the whole
database gzipped into a format-1 bundle, idle episodes sealed inline on the event loop.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio


def _force_http() -> None:
    """``MCPGYM_BENCH_HTTP=h11|httptools``: serve with that uvicorn HTTP implementation
    (default: uvicorn's ``auto``, httptools when installed), for A/B runs."""
    import functools
    import os

    import uvicorn

    http = os.environ.get("MCPGYM_BENCH_HTTP")
    if http:
        uvicorn.Config.__init__ = functools.partialmethod(uvicorn.Config.__init__, http=http)  # type: ignore[method-assign]


async def _run(app: object, port: int) -> None:
    from mcpgym_server.runtime import serve

    _force_http()

    async with serve(app, port=port):
        print("ready", flush=True)
        await anyio.sleep_forever()


def bare_app() -> object:
    """A bare `mcp` server with one trivial tool, same transport settings as mcpgym's."""
    from mcp.server import MCPServer

    server = MCPServer("bare", log_level="WARNING")

    @server.tool()
    async def noop() -> str:
        """Do nothing."""
        return "ok"

    app = server.streamable_http_app(json_response=True)
    return app


def plain_app() -> object:
    """A raw ASGI app answering every HTTP request, after reading its body, with one fixed
    JSON-RPC result (~2 KB, the size of a ``get_order`` answer): HTTP and uvicorn only."""
    import json

    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x" * 2000}]}}
    ).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        more = True
        while more:
            more = (await receive()).get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": body})

    return app


def bare_work_app(name: str, tool: str = "get_order", *, fresh: bool = False) -> object:
    """A bare `mcp` server serving one of the environment's tools with the same tool work.

    What a plain `MCPServer` doing the same job would be: the tool function itself (same
    SQL) on a private in-memory copy of the environment's snapshot, its arguments validated
    by the SDK's own tool machinery, its result sent as mcpgym sends it (the JSON as text
    and as ``structuredContent``: the same bytes on the wire). What it leaves out is
    mcpgym's: the episode (lookup, savepoint, virtual clock, its own argument checks), the
    result's conversion to plain JSON (`to_jsonable`), the tool-call log and its caps, the
    Host check and the episode URL's routing, the session caps.

    ``fresh``: a new copy of the snapshot for every ``tools/list`` (every bare "episode"
    of bench/episode.py), as mcpgym gives every episode, so that the first call of each
    prepares its SQL statements on a new database as mcpgym's first call does; otherwise
    one copy serves every call (its statements prepared once).
    """
    import inspect
    import json
    from datetime import timedelta

    from mcp import types
    from mcp.server import MCPServer

    from mcpgym_server import Sandbox, VirtualClock, load_environment

    env = load_environment(name)
    spec = env.tools[tool]
    from mcpgym_server.runtime import SANDBOX_CACHE_KIB

    def new_sandbox() -> Sandbox:
        db = env.snapshot.open_copy()
        db.execute(f"PRAGMA cache_size = -{SANDBOX_CACHE_KIB}")  # as mcpgym's sandboxes
        return Sandbox(
            db=db, clock=VirtualClock(env.clock_start, timedelta(0)), seed=0, episode_id="x"
        )

    sb = new_sandbox()
    fn = spec.fn

    async def fresh_copy(ctx: Any, call_next: Any) -> Any:
        nonlocal sb
        if ctx.method == "tools/list":
            sb.db.close()
            sb = new_sandbox()
        return await call_next(ctx)

    server = MCPServer("bare-work", log_level="WARNING", middleware=[fresh_copy] if fresh else [])

    async def work(**kwargs: object) -> types.CallToolResult:
        result = fn(sb, **kwargs)
        structured = result if isinstance(result, dict) else {"result": result}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(result, ensure_ascii=False))],
            structured_content=structured,
        )

    # the tool's own signature less the sandbox, so the SDK validates the same arguments
    params = list(inspect.signature(fn, eval_str=True).parameters.values())[1:]
    work.__signature__ = inspect.Signature(params, return_annotation=types.CallToolResult)  # type: ignore[attr-defined]
    work.__annotations__ = {p.name: p.annotation for p in params}
    work.__annotations__["return"] = types.CallToolResult
    server.add_tool(work, name=tool, description=spec.description)
    return server.streamable_http_app(json_response=True)


def env_app(name: str, store: str, idle_ttl: float | None = None, mode: str = "current") -> object:
    """The mcpgym environment server for ``name`` (``idle_ttl``: reaped every second)."""
    from mcpgym_server import load_environment
    from mcpgym_server.runtime import create_app

    if idle_ttl is None:
        from mcpgym_server.runtime import MAX_MESSAGE_ITEMS

        items = None if mode == "no-item-limit" else MAX_MESSAGE_ITEMS
        env = load_environment(name)  # loopback bench: no control token
        app = create_app(env, store, control_token=None, max_message_items=items)
        if mode == "no-schema-lookup":
            no_schema_lookup(app)
        elif mode == "no-otel":
            no_otel(app)
        return app
    app = create_app(
        load_environment(name), store, idle_ttl=idle_ttl, reap_interval=1.0, control_token=None
    )
    if mode == "legacy":
        legacy_sealing(app.state.manager)  # type: ignore[attr-defined]
    return app


def no_schema_lookup(app: object) -> None:
    """Serve MCP as before the tool-schema lookup: the SDK then runs (and serializes) a
    whole ``tools/list`` per ``tools/call`` to check its ``Mcp-Param-*`` headers."""
    app.state.mcp_server.get_tool_input_schema = None  # type: ignore[attr-defined]


def no_otel(app: object) -> None:
    """Serve MCP without the SDK's OpenTelemetry middleware (on by default in every
    `mcp.server.Server`; a no-op span when no OpenTelemetry SDK is installed): what it costs
    a request, for bench/sdk_floor.py's ``no-otel`` way. Since stop 28 the server wraps it
    (`SpansWhenTraced`: passed by while no tracer provider is set); the wrapper is taken out
    too, so against ``mcpgym`` this way measures what the wrapper's check costs."""
    from mcp.server._otel import OpenTelemetryMiddleware  # pyright: ignore[reportPrivateUsage]

    server = app.state.mcp_server  # type: ignore[attr-defined]
    server.middleware[:] = [
        m
        for m in server.middleware
        if not isinstance(m, OpenTelemetryMiddleware)
        and not isinstance(getattr(m, "inner", None), OpenTelemetryMiddleware)  # the wrapper
    ]


def legacy_sealing(manager: object) -> None:
    """Make ``manager`` seal as before page deltas: whole db gzipped, expiry inline."""
    import hashlib

    from mcpgym_server.bundles import EpisodeBundle, EpisodeMeta
    from mcpgym_server.runtime import EpisodeManager

    assert isinstance(manager, EpisodeManager)

    def finish(job: object) -> None:
        try:
            ep = job.ep  # type: ignore[attr-defined]
            meta = EpisodeMeta(
                episode_id=ep.id,
                env=manager.env.name,
                env_version=manager.env.version,
                task=ep.variant.family,
                band=ep.variant.band,
                seed=ep.variant.seed,
                variant_id=ep.variant.id,
                lock=manager.lock,
                opened_at=ep.opened_at,
                sealed_at=job.sealed_at,  # type: ignore[attr-defined]
                termination=job.reason,  # type: ignore[attr-defined]
                steps=len(ep.log),
                internal_errors=ep.internal_errors,
                final_sha256=hashlib.sha256(job.final).hexdigest(),  # type: ignore[attr-defined]
                clock_end=job.clock_end,  # type: ignore[attr-defined]
            )
            manager.store.write(EpisodeBundle(meta, tuple(ep.log), job.final))  # type: ignore[attr-defined]
            job.meta = meta  # type: ignore[attr-defined]
        except BaseException as exc:
            job.error = exc  # type: ignore[attr-defined]
        finally:
            job.finished.set()  # type: ignore[attr-defined]

    async def reap_inline(now: float | None = None) -> list[str]:
        return manager.reap_idle(now)

    manager._finish = finish  # type: ignore[method-assign]  # noqa: SLF001
    manager.reap_idle_async = reap_inline  # type: ignore[method-assign]


def signed_env_app(name: str, store: str, key: str, control: str, mode: str) -> object:
    """The environment server as `serve_locally` builds it (control token, bundle key)."""
    from mcpgym_server import load_environment
    from mcpgym_server.runtime import create_app

    app = create_app(load_environment(name), store, control_token=control, bundle_key=key)
    if mode == "no-schema-lookup":
        no_schema_lookup(app)
    return app


def grading_app(store: str, token: str, key: str, threads: int | None = None) -> object:
    """The grading service as `serve_locally` builds it (``threads``: its
    ``grading_threads``; ``0``: no limit but anyio's 40 worker threads, as before it)."""
    from mcpgym_grading.service import GRADING_THREADS, create_app
    from mcpgym_server import load_environment

    n = GRADING_THREADS if threads is None else threads or 1000
    return create_app(store, token, env_loader=load_environment, bundle_key=key, grading_threads=n)


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "signed-env":  # ENV PORT STORE KEY CONTROL MODE
        app = signed_env_app(sys.argv[2], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7])
        anyio.run(_run, app, int(sys.argv[3]))
    elif kind == "grading":  # PORT STORE TOKEN KEY [THREADS]
        threads = int(sys.argv[6]) if len(sys.argv) > 6 else None
        app = grading_app(sys.argv[3], sys.argv[4], sys.argv[5], threads)
        anyio.run(_run, app, int(sys.argv[2]))
    elif kind == "bare-work":  # ENV PORT
        fresh = len(sys.argv) > 4 and sys.argv[4] == "fresh"
        anyio.run(_run, bare_work_app(sys.argv[2], fresh=fresh), int(sys.argv[3]))
    elif kind == "bare":
        anyio.run(_run, bare_app(), int(sys.argv[2]))
    elif kind == "plain":
        anyio.run(_run, plain_app(), int(sys.argv[2]))
    else:
        ttl = float(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] != "-" else None
        mode = sys.argv[6] if len(sys.argv) > 6 else "current"
        anyio.run(_run, env_app(sys.argv[2], sys.argv[4], ttl, mode), int(sys.argv[3]))
