"""Round 11's fake OpenAI-compatible server: round 9's `fake_openai` (every scenario kept)
plus the tool-call forms of other templates (`f_<form>`, `u_<form>`) and servers that
answer 200 with garbage (`g_*`). Probe only (issue 9 §8).

Run: ``uv run python adv/round11sys/fake11.py PORT LOGDIR`` (stops after 40 minutes).
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "round9sys"))
sys.path.insert(0, str(Path(__file__).parent))
import fake_openai as F  # noqa: E402

import p8_parse11 as P  # noqa: E402  (runs its table once on import: harmless)

for k in (
    "minimax_m2",
    "claude_xml_invoke",
    "internlm2",
    "xlam",
    "mistral_v13_callid",
    "llama3_python_tag_call",
    "openai_tool_calls_list",
    "gemini_function_call",
):
    F.FORMS[k] = P.FORMS[k]
for k in ("u_invoke_broken", "u_minimax_broken", "u_python_tag_broken"):
    F.UNREADABLE[k] = P.UNREADABLE[k]


def _sse(lines: list[str]) -> StreamingResponse:
    async def gen():
        for ln in lines:
            yield ln

    return StreamingResponse(gen(), media_type="text/event-stream")


GARBAGE = {
    "g_html": lambda: Response(
        "<html><body>502 Bad Gateway</body></html>", 200, media_type="text/html"
    ),
    "g_plain_ok": lambda: PlainTextResponse("OK"),
    "g_empty": lambda: Response(b"", 200, media_type="application/json"),
    "g_json_nochoices": lambda: JSONResponse({"object": "chat.completion", "id": "x"}),
    "g_json_error_200": lambda: JSONResponse(
        {"error": {"message": "model is loading", "code": 503}}
    ),
    "g_sse_notjson": lambda: _sse(["data: not json at all\n\n", "data: [DONE]\n\n"]),
    "g_sse_choices_empty": lambda: _sse(['data: {"id":"x","choices":[]}\n\n', "data: [DONE]\n\n"]),
    "g_sse_only_done": lambda: _sse(["data: [DONE]\n\n"]),
    "g_sse_binary": lambda: _sse(["data: \x00\x01\x02\xff\n\n", "data: [DONE]\n\n"]),
    "g_sse_role_only": lambda: _sse(
        [
            'data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n',
            'data: {"id":"x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
            "data: [DONE]\n\n",
        ]
    ),
    "g_sse_bad_toolcall_args": lambda: _sse(
        [
            'data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"get_order","arguments":"{\\"order_id\\": 1"}}]},"finish_reason":null}]}\n\n',
            'data: {"id":"x","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n',
            "data: [DONE]\n\n",
        ]
    ),
}

_inner = F.chat


async def chat(request: Request) -> Response:
    sc = request.path_params["sc"]
    if sc in GARBAGE:
        body = json.loads(await request.body())
        with open(F.LOGDIR / f"{sc}.jsonl", "a") as f:
            f.write(json.dumps(body) + "\n")
        return GARBAGE[sc]()
    return await _inner(request)


F.app.router.routes[:] = [
    Route("/s/{sc}/v1/models", F.models),
    Route("/s/{sc}/v1/chat/completions", chat, methods=["POST"]),
]

if __name__ == "__main__":
    threading.Timer(2400, lambda: __import__("os")._exit(0)).start()
    uvicorn.run(F.app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
