"""A tiny Ollama-like OpenAI-compatible model server for the new-user trial (fix28): one
model (default ``qwen3:8b``), a scripted agent: turn 0 calls ``list_tickets`` as a real tool
call, turn 1 writes a ``submit`` call as Hermes text (``<tool_call>{...}</tool_call>``),
later turns answer in prose. An unknown model is a 404 in Ollama's words. Each request's
settings (not its messages) are printed.

    uv run python adv/round18sys/fake_ollama18.py PORT [MODEL]
    uv run mcpgym eval helpdesk --base-url http://127.0.0.1:PORT/v1 --tasks order-status --bands easy
    uv run mcpgym eval helpdesk --model qwen3:8b --base-url http://127.0.0.1:PORT/v1 ...  # bare name
"""

import json
import sys
import time

import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

MODEL = sys.argv[2] if len(sys.argv) > 2 else "qwen3:8b"
USAGE = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}


async def models(request):
    return JSONResponse({"object": "list", "data": [{"id": MODEL, "object": "model"}]})


def reply(turn):
    if turn == 0:
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "list_tickets", "arguments": "{}"},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    if turn == 1:
        text = '<tool_call>\n{"name": "submit", "arguments": {"answer": "done"}}\n</tool_call>'
        return {"role": "assistant", "content": text}, "stop"
    return {"role": "assistant", "content": "All done."}, "stop"


def event(delta, finish=None, usage=None):
    body = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": MODEL}
    body["choices"] = [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]
    if usage:
        body["usage"] = usage
    return "data: " + json.dumps(body) + "\n\n"


async def chat(request):
    body = await request.json()
    print(json.dumps({k: v for k, v in body.items() if k != "messages"}), flush=True)
    if body.get("model") != MODEL:
        msg = f'model "{body.get("model")}" not found, try pulling it first'
        return JSONResponse({"error": {"message": msg, "type": "api_error"}}, status_code=404)
    message, finish = reply(sum(1 for m in body["messages"] if m.get("role") == "assistant"))
    if not body.get("stream"):
        choice = {"index": 0, "message": message, "finish_reason": finish}
        return JSONResponse(
            {
                "id": "x",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": MODEL,
                "choices": [choice],
                "usage": USAGE,
            }
        )
    delta = {k: v for k, v in message.items() if k != "role"}
    if "tool_calls" in delta:
        delta["tool_calls"] = [dict(c, index=i) for i, c in enumerate(delta["tool_calls"])]
    events = [event({"role": "assistant", "content": ""}), event(delta), event({}, finish)]
    events += [event({}, usage=USAGE), "data: [DONE]\n\n"]

    async def stream():
        for e in events:
            yield e

    return StreamingResponse(stream(), media_type="text/event-stream")


app = Starlette(
    routes=[Route("/v1/models", models), Route("/v1/chat/completions", chat, methods=["POST"])]
)
if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
