"""Round 12's fake OpenAI-compatible server: round 11's `fake11` (every scenario kept) plus
model-server outcomes not tried before (`m_*`): finish reasons other than stop/length/
tool_calls (`abort`, `error`), streamed calls without an `index`, a stream cut inside a
call, 429 with `Retry-After`, duplicated call ids, non-object arguments. Probe only (§8).

Run: ``uv run python adv/round12sys/fake12.py PORT LOGDIR`` (stops after 40 minutes).
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import uvicorn
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round11sys"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
import fake11 as G  # noqa: E402
import fake_openai as F  # noqa: E402

_chunk, _usage = F._chunk, F._usage
DONE = "data: [DONE]\n\n"


def _tc(i: int | None, cid: str | None, name: str | None, args: str | None) -> dict:
    d: dict = {"type": "function", "function": {}}
    if i is not None:
        d["index"] = i
    if cid is not None:
        d["id"] = cid
    if name is not None:
        d["function"]["name"] = name
    if args is not None:
        d["function"]["arguments"] = args
    return d


def _sse(events: list[str]) -> StreamingResponse:
    async def gen():
        for e in events:
            yield e

    return StreamingResponse(gen(), media_type="text/event-stream")


A1, A2 = '{"order_id": 1}', '{"order_id": 2}'


def scenario(sc: str, t: int, n: int) -> Response | None:
    role = _chunk({"role": "assistant", "content": None})
    if sc == "m_abort_text":  # vLLM: the request was aborted server-side (finish "abort")
        return _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": "Your order shipped with"}),
                _chunk({}, "abort"),
                _usage(),
                DONE,
            ]
        )
    if sc == "m_error_finish":  # finish_reason "error" (some proxies / llama.cpp forks)
        return _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": "Your order"}),
                _chunk({}, "error"),
                _usage(),
                DONE,
            ]
        )
    if sc == "m_two_calls_no_index":  # each call whole in its own chunk, no `index` (Gemini compat)
        if t == 0:
            return _sse(
                [
                    role,
                    _chunk({"tool_calls": [_tc(None, "c_a", "get_order", A1)]}),
                    _chunk({"tool_calls": [_tc(None, "c_b", "get_order", A2)]}),
                    _chunk({}, "tool_calls"),
                    _usage(),
                    DONE,
                ]
            )
        return F.text_stream(F.FINAL)
    if sc == "m_two_calls_same_index":  # both whole calls say index 0, distinct ids
        if t == 0:
            return _sse(
                [
                    role,
                    _chunk({"tool_calls": [_tc(0, "c_a", "get_order", A1)]}),
                    _chunk({"tool_calls": [_tc(0, "c_b", "get_order", A2)]}),
                    _chunk({}, "tool_calls"),
                    _usage(),
                    DONE,
                ]
            )
        return F.text_stream(F.FINAL)
    if (
        sc == "m_cut_in_call"
    ):  # a call's arguments half sent, then the body ends (no finish, no DONE)
        return _sse([role, _chunk({"tool_calls": [_tc(0, "c1", "get_order", '{"order_')]})])
    if sc == "m_cut_in_call_done":  # same, then [DONE] with no finish_reason
        return _sse([role, _chunk({"tool_calls": [_tc(0, "c1", "get_order", '{"order_')]}), DONE])
    if sc == "m_cut_text_nodone":  # text, then the body ends (no finish, no DONE)
        return _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": "Your order shipped with"}),
            ]
        )
    if sc == "m_length_in_call":  # finish length inside the call's arguments
        return _sse(
            [
                role,
                _chunk({"tool_calls": [_tc(0, "c1", "get_order", '{"order_')]}),
                _chunk({}, "length"),
                _usage(completion=2048),
                DONE,
            ]
        )
    if sc == "m_dup_ids":  # two calls, one id, both turns reuse call_1
        if t == 0:
            return _sse(
                [
                    role,
                    _chunk(
                        {
                            "tool_calls": [
                                _tc(0, "call_1", "get_order", A1),
                                _tc(1, "call_1", "get_order", A2),
                            ]
                        }
                    ),
                    _chunk({}, "tool_calls"),
                    _usage(),
                    DONE,
                ]
            )
        if t == 1:
            return F.call_stream("get_order", {"order_id": 1})
        return F.text_stream(F.FINAL)
    if sc == "m_args_string":  # arguments double-encoded (a JSON string holding JSON)
        if t == 0:
            return _sse(
                [
                    role,
                    _chunk({"tool_calls": [_tc(0, "c1", "get_order", json.dumps(A1))]}),
                    _chunk({}, "tool_calls"),
                    _usage(),
                    DONE,
                ]
            )
        return F.text_stream(F.FINAL)
    if sc == "m_429_ra_small":  # 429 Retry-After 1 on the first two requests, then fine
        if n <= 2:
            return F.err(429, "Rate limit reached", headers={"Retry-After": "1"})
        return F.text_stream(F.FINAL)
    if sc == "m_429_ra_huge":  # 429 with Retry-After one day, always
        return F.err(429, "Rate limit reached", headers={"Retry-After": "86400"})
    if sc == "m_429_ra_date":  # 429 with an HTTP-date Retry-After in the past, then fine
        if n <= 1:
            return F.err(
                429, "Rate limit", headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}
            )
        return F.text_stream(F.FINAL)
    if sc == "m_finish_calls_none":  # finish tool_calls but no call, text is the answer
        return _sse(
            [
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": F.FINAL}),
                _chunk({}, "tool_calls"),
                _usage(),
                DONE,
            ]
        )
    if sc == "m_name_split":  # the name streamed in two pieces, args in three
        if t == 0:
            return _sse(
                [
                    role,
                    _chunk({"tool_calls": [_tc(0, "c1", "get_", "")]}),
                    _chunk({"tool_calls": [_tc(0, None, "order", '{"ord')]}),
                    _chunk({"tool_calls": [_tc(0, None, None, 'er_id": ')]}),
                    _chunk({"tool_calls": [_tc(0, None, None, "1}")]}),
                    _chunk({}, "tool_calls"),
                    _usage(),
                    DONE,
                ]
            )
        return F.text_stream(F.FINAL)
    return None


async def chat(request: Request) -> Response:
    sc = request.path_params["sc"]
    if not sc.startswith("m_"):
        return await G.chat(request)
    body = json.loads(await request.body())
    with open(F.LOGDIR / f"{sc}.jsonl", "a") as f:
        f.write(json.dumps(body) + "\n")
    n = F.STATE[sc] = F.STATE.get(sc, 0) + 1
    r = scenario(sc, F.turn_of(body), n)
    return r if r is not None else F.err(404, f"unknown scenario {sc}")


F.app.router.routes[:] = [
    Route("/s/{sc}/v1/models", F.models),
    Route("/s/{sc}/v1/chat/completions", chat, methods=["POST"]),
]

if __name__ == "__main__":
    threading.Timer(2400, lambda: __import__("os")._exit(0)).start()
    uvicorn.run(F.app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
