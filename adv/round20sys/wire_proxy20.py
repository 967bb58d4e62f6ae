"""A recording proxy between mcpgym and a real OpenAI-compatible model server (a probe tool).

    uv run python adv/round20sys/wire_proxy20.py UPSTREAM PORT OUT.jsonl [STOP ...] [set:KEY=JSON ...]
    e.g. uv run python adv/round20sys/wire_proxy20.py http://127.0.0.1:8088 8089 /tmp/w.jsonl '<|im_end|>'

A copy of ``adv/round18sys/wire_proxy.py`` with one addition: each STOP string given is
added to a chat request's ``stop`` list before it is forwarded (standing in for a server
configured with stop strings, as an Ollama Modelfile's ``PARAMETER stop`` does; the
llama-cpp-python server has no such option). The recorded ``request`` is the request as
mcpgym sent it; ``stop_added`` names what was added. ``set:KEY=JSON`` (e.g.
``set:tool_choice="auto"``) sets a field that the request does not have (recorded under
``fields_added``), to see what a server does with a field mcpgym does not send;
``first:KEY=JSON`` does so only on an episode's first request (2 messages), e.g. a
``tool_choice`` naming one tool, so that a model that would not call does call once.

Every request to ``/v1/...`` is forwarded to UPSTREAM unchanged (streamed responses are
passed through as they come, so closing the client's connection closes the upstream one and
stops the server's generation); one JSON line per exchange is appended to OUT.jsonl:
``{"t0", "seconds", "method", "path", "request", "status", "headers", "body",
"client_closed"}`` where ``body`` is the response text exactly as sent (SSE lines for a
streamed answer) and ``client_closed`` is true when the client went away before the end.
These lines are the recorded wire responses REAL_MODEL.md and the tests quote.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import AsyncIterator

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route


def make_app(
    upstream: str,
    out: str,
    extra_stop: tuple[str, ...] = (),
    fields: dict[str, object] | None = None,
    first: dict[str, object] | None = None,
) -> Starlette:
    """The proxy app: forwards to ``upstream`` (with ``extra_stop`` added to each chat
    request's ``stop``) and records to ``out`` (JSON lines)."""
    # no keep-alive upstream: llama-cpp-python closes a connection after an error raised
    # inside a stream, and a pooled one then fails the next request with ReadError (the
    # proxy's 500, which the client rightly retried: REAL_MODEL.md)
    client = httpx.AsyncClient(
        base_url=upstream,
        timeout=httpx.Timeout(None),
        limits=httpx.Limits(max_keepalive_connections=0),
    )

    stops = list(extra_stop)

    def record(entry: dict[str, object]) -> None:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")

    async def forward(request: Request) -> Response:
        raw = await request.body()
        try:
            req_json: object = json.loads(raw) if raw else None
        except ValueError:
            req_json = raw.decode("utf-8", "replace")
        t0 = time.time()
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in {"content-type", "authorization", "accept"}
        }
        sent, added = raw, dict[str, object]()
        if isinstance(req_json, dict) and "messages" in req_json and (stops or fields or first):
            old = req_json.get("stop") or []
            old = [old] if isinstance(old, str) else list(old)
            wanted = dict(fields or {})
            if len(req_json["messages"]) == 2:
                wanted.update(first or {})
            added = {k: v for k, v in wanted.items() if k not in req_json}
            forwarded: dict[str, object] = {**req_json, **added}
            if stops:
                forwarded["stop"] = old + stops
            sent = json.dumps(forwarded).encode()
        up_req = client.build_request(
            request.method, request.url.path, content=sent, headers=headers
        )
        try:
            resp = await client.send(up_req, stream=True)
        except httpx.HTTPError as exc:  # recorded too: the client got the proxy's 502
            record(
                {
                    "t0": t0,
                    "method": request.method,
                    "path": request.url.path,
                    "request": req_json,
                    "status": 502,
                    "proxy_error": repr(exc),
                }
            )
            return Response(f"proxy: upstream failed: {exc!r}", status_code=502)
        entry: dict[str, object] = {
            "t0": t0,
            "method": request.method,
            "path": request.url.path,
            "request": req_json,
            "status": resp.status_code,
            "stop_added": stops if sent is not raw else [],
            "fields_added": added,
            "headers": {k: v for k, v in resp.headers.items() if k.lower() in {"content-type"}},
        }
        chunks: list[bytes] = []

        async def body() -> AsyncIterator[bytes]:
            closed = True
            try:
                async for chunk in resp.aiter_raw():
                    chunks.append(chunk)
                    yield chunk
                closed = False
            finally:
                await resp.aclose()
                entry["seconds"] = round(time.time() - t0, 3)
                entry["body"] = b"".join(chunks).decode("utf-8", "replace")
                entry["client_closed"] = closed
                record(entry)

        return StreamingResponse(
            body(),
            status_code=resp.status_code,
            media_type=resp.headers.get("content-type"),
        )

    return Starlette(routes=[Route("/v1/{rest:path}", forward, methods=["GET", "POST"])])


def main() -> None:
    """Serve the proxy on 127.0.0.1:PORT (arguments: UPSTREAM PORT OUT.jsonl [STOP ...])."""
    upstream, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rest = sys.argv[4:]
    fields = {
        a[4:].split("=", 1)[0]: json.loads(a[4:].split("=", 1)[1])
        for a in rest
        if a.startswith("set:")
    }
    first = {
        a[6:].split("=", 1)[0]: json.loads(a[6:].split("=", 1)[1])
        for a in rest
        if a.startswith("first:")
    }
    stops = tuple(a for a in rest if not a.startswith(("set:", "first:")))
    app = make_app(upstream, out, stops, fields, first)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
