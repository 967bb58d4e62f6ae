"""A fake OpenAI-compatible server (loopback) whose behaviour is chosen by a path prefix:
``http://127.0.0.1:PORT/s/SCENARIO/v1``. Every chat request body is appended to
``LOGDIR/SCENARIO.jsonl``. Probe only (issue 9 §8, round 9 system review).

Run: ``uv run python adv/round9sys/fake_openai.py PORT LOGDIR`` (stops after 40 minutes).
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import uuid
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

LOGDIR = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/fakeoai")
LOGDIR.mkdir(parents=True, exist_ok=True)

FINAL = "Your order shipped with UPS, tracking 1Z999."


def _chunk(delta: dict, finish: str | None = None) -> str:
    body = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "fake",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


def _usage(prompt: int = 100, completion: int = 10) -> str:
    body = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "fake",
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }
    return f"data: {json.dumps(body)}\n\n"


def text_stream(text: str, finish: str = "stop", completion: int = 10) -> StreamingResponse:
    async def gen():
        yield _chunk({"role": "assistant", "content": ""})
        yield _chunk({"content": text})
        yield _chunk({}, finish)
        yield _usage(completion=completion)
        yield "data: [DONE]\n\n"

    return StreamingResponse(gen(), media_type="text/event-stream")


def call_stream(name: str, args: dict) -> StreamingResponse:
    async def gen():
        yield _chunk({"role": "assistant", "content": None})
        yield _chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                ]
            }
        )
        yield _chunk({}, "tool_calls")
        yield _usage()
        yield "data: [DONE]\n\n"

    return StreamingResponse(gen(), media_type="text/event-stream")


def err(status: int, message: str, extra: dict | None = None, headers=None) -> JSONResponse:
    e = {"message": message, "type": "invalid_request_error", "code": status}
    e.update(extra or {})
    return JSONResponse({"error": e}, status_code=status, headers=headers or {"Retry-After": "0"})


# -- text tool-call forms: turn 0 writes the call in that form, turn 1 answers ----------
ARGS = '{"order_id": 1}'
FORMS = {
    "doubled": '{{"name": "get_order", "arguments": {{"order_id": 1}}}}',
    "tools_tag": f'<tools>{{"name": "get_order", "arguments": {ARGS}}}</tools>',
    "bare_json": f'{{"name": "get_order", "arguments": {ARGS}}}',
    "xml_name": f'<function name="get_order">{ARGS}</function>',
    "xml_name_params": '<function name="get_order"><parameter name="order_id">1</parameter></function>',
    "xml_eq": f"<function=get_order>{ARGS}</function>",
    "qwen3coder": "<tool_call>\n<function=get_order>\n<parameter=order_id>\n1\n</parameter>\n</function>\n</tool_call>",
    "hermes_unclosed": f'<tool_call>\n{{"name": "get_order", "arguments": {ARGS}}}',
    "hermes_argstr": '<tool_call>{"name": "get_order", "arguments": "{\\"order_id\\": 1}"}</tool_call>',
    "hermes_think": f'<think>I should look it up.</think>\n<tool_call>{{"name": "get_order", "arguments": {ARGS}}}</tool_call>',
    "prose_then_bare": f'Let me look that up.\n{{"name": "get_order", "arguments": {ARGS}}}',
    "fence_nolang": f'```\n{{"name": "get_order", "arguments": {ARGS}}}\n```',
    "fence_json_list": f'```json\n[{{"name": "get_order", "arguments": {ARGS}}}]\n```',
    "gptoss_harmony": f"<|channel|>commentary to=functions.get_order <|constrain|>json<|message|>{ARGS}<|call|>",
    "kimi": f"<|tool_calls_section_begin|><|tool_call_begin|>functions.get_order:0<|tool_call_argument_begin|>{ARGS}<|tool_call_end|><|tool_calls_section_end|>",
    "glm4": f"get_order\n{ARGS}",
    "glm45": "<tool_call>get_order\n<arg_key>order_id</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
    "command_r": f'Action: ```json\n[{{"tool_name": "get_order", "parameters": {ARGS}}}]\n```',
    "llama_type_fn": f'{{"type": "function", "name": "get_order", "parameters": {ARGS}}}',
    "mistral_v11": f"[TOOL_CALLS]get_order[ARGS]{ARGS}",
    "deepseek_v31": f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_order<｜tool▁sep｜>{ARGS}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "gemma_tool_code": "```tool_code\nget_order(order_id=1)\n```",
    "pythonic_bare": "[get_order(order_id=1)]",
    "im_start_leak": f'<|im_start|>assistant\n<tool_call>\n{{"name": "get_order", "arguments": {ARGS}}}\n</tool_call><|im_end|>',
    "function_call_tag": f'<function_call>{{"name": "get_order", "arguments": {ARGS}}}</function_call>',
    "json_tool_key": f'{{"tool": "get_order", "tool_input": {ARGS}}}',
    "xml_args_tag": '<tool_call><name>get_order</name><arguments>{"order_id": 1}</arguments></tool_call>',
}

# final messages that look like a call but cannot be read (always sent)
UNREADABLE = {
    "u_hermes_broken": '<tool_call>{"name": "get_order", "arguments": {"order_id": 1</tool_call>',
    "u_tools_broken": '<tools>{"name": "get_order", "arguments": </tools>',
    "u_xml_fn": '<function name="get_order">order_id=1</function>',
    "u_bare_json_broken": '{"name": "get_order", "arguments": {"order_id": 1,, }}',
    "u_harmony": "<|channel|>commentary to=functions.get_order <|message|>order 1<|call|>",
    "u_pythonic_positional": "get_order(1)",
    "u_tool_code": "```tool_code\nget_order(1)\n```",
    "u_mistral": "[TOOL_CALLS]get_order[ARGS]{order_id: 1",
    "u_unknown_tool": '<tool_call>{"name": "get_orders_v2", "arguments": {"id": 1}}</tool_call>',
    "u_doubled_broken": '{{"name": "get_order", "arguments": {{"order_id": 1}}',
    "u_json_fence_named": '```json\n{"name": "get_order", "args": {"order_id": 1}, "id": 3}\n```',
}

OVERFLOW = {
    "o_openai": (
        400,
        "This model's maximum context length is 4096 tokens. However, you requested 6793 tokens (4745 in the messages, 2048 in the completion). Please reduce the length of the messages or completion.",
        {"code": "context_length_exceeded"},
    ),
    "o_vllm_new": (
        400,
        "This model's maximum context length is 4096 tokens. However, your request has 4745 input tokens. Please reduce the length of the input messages.",
        {},
    ),
    "o_vllm10": (
        400,
        "The decoder prompt (length 4745) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.",
        {},
    ),
    "o_llamacpp": (
        400,
        "the request exceeds the available context size, try increasing it",
        {"type": "exceed_context_size_error", "n_prompt_tokens": 4745, "n_ctx": 4096},
    ),
    "o_sglang": (
        400,
        "The input (4745 tokens) is longer than the model's context length (4096 tokens).",
        {},
    ),
    "o_tgi": (
        422,
        "`inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4745 `inputs` tokens and 2048 `max_new_tokens`",
        {},
    ),
    "o_lmstudio": (
        400,
        "Trying to keep the first 4745 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
        {},
    ),
    "o_ollama": (400, "prompt too long; exceeded max context length by 649 tokens", {}),
    "o_llamacpppy500": (500, "Requested tokens (4745) exceed context window of 4096", {}),
    # wordings not in the documented list
    "o_mlx_server": (400, "Prompt length 4745 exceeds the maximum context length 4096", {}),
    "o_vllm_input_tokens": (
        400,
        "Input prompt (4745 tokens) is too long and exceeds limit of 4096",
        {},
    ),
    "o_llamacpp_old": (
        400,
        "the request exceeds the available context size, try increasing it",
        {},
    ),
    "o_tabbyapi": (400, "Prompt length 4745 is greater than max_seq_len 4096", {}),
    "o_koboldcpp": (400, "Warning: KCPP prompt (4745 tokens) exceeds context size (4096)", {}),
    "o_openrouter": (
        400,
        "This endpoint's maximum context length is 4096 tokens. However, you requested about 6793 tokens (4745 of text input, 2048 in the output). Please reduce the length of either one.",
        {},
    ),
    "o_jan_nitro": (400, "Context size has been exceeded.", {}),
    "o_vllm_500": (
        500,
        "This model's maximum context length is 4096 tokens. However, your request has 4745 input tokens.",
        {},
    ),
    "o_llamacpp_413": (413, "Payload Too Large: prompt exceeds context", {}),
}

STATE: dict[str, int] = {}


def turn_of(body: dict) -> int:
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


async def models(request: Request) -> Response:
    return JSONResponse({"object": "list", "data": [{"id": "fake", "object": "model"}]})


async def chat(request: Request) -> Response:
    sc = request.path_params["sc"]
    raw = await request.body()
    body = json.loads(raw)
    with open(LOGDIR / f"{sc}.jsonl", "a") as f:
        f.write(json.dumps(body) + "\n")
    n = STATE[sc] = STATE.get(sc, 0) + 1
    t = turn_of(body)
    body.get("stream", False)

    if sc == "resend":
        # llama-cpp-python: content null beside tool_calls -> 500 validation error
        for m in body["messages"]:
            if m.get("role") == "assistant" and "content" in m and m["content"] is None:
                return err(
                    500, "1 validation error for ChatCompletionRequestAssistantMessage content"
                )
        return call_stream("get_order", {"order_id": 1}) if t == 0 else text_stream(FINAL)
    if sc == "same500_all":
        return err(500, "Internal Server Error: template failed to render tools")
    if sc == "same500_t1":
        if t == 0:
            return call_stream("get_order", {"order_id": 1})
        return err(500, "Internal Server Error: template failed to render tool message")
    if sc == "same500_reqid":
        if t == 0:
            return call_stream("get_order", {"order_id": 1})
        return err(500, f"Internal Server Error (request id {uuid.uuid4()})")
    if sc == "flaky500":  # outage for the first 3 requests, then fine
        if n <= 3:
            return err(503, "Service Unavailable")
        return text_stream(FINAL)
    if sc == "o_second":  # the first request fits; the second (after one tool result) never does
        if t == 0:
            return call_stream("get_order", {"order_id": 1})
        st, msg, extra = OVERFLOW["o_vllm_new"]
        return err(st, msg.replace("4745", "4102"), extra)
    if sc in OVERFLOW:
        st, msg, extra = OVERFLOW[sc]
        return err(st, msg, extra)
    if sc == "o_stream_error_event":
        # 200 stream whose first event is an error object (vLLM/llama.cpp style)
        async def gen():
            yield (
                "data: "
                + json.dumps(
                    {
                        "error": {
                            "message": "the request exceeds the available context size, try increasing it",
                            "type": "exceed_context_size_error",
                            "n_prompt_tokens": 4745,
                            "n_ctx": 4096,
                            "code": 400,
                        }
                    }
                )
                + "\n\n"
            )
            yield "data: [DONE]\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc == "o_length_zero":
        # Ollama-like: the prompt was cut to the context; finish length with no output
        return text_stream("", finish="length", completion=0)
    if sc == "stall_mid":

        async def gen():
            yield _chunk({"role": "assistant", "content": ""})
            yield _chunk({"content": "Your order"})
            await asyncio.sleep(60)
            yield _chunk({}, "stop")
            yield "data: [DONE]\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc == "stall_head":
        await asyncio.sleep(60)
        return text_stream(FINAL)
    if sc == "drip":  # events keep coming, never ends (bounded 60 s)

        async def gen():
            yield _chunk({"role": "assistant", "content": ""})
            for _ in range(120):
                await asyncio.sleep(0.5)
                yield _chunk({"content": "."})

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc == "stream_error_midway":  # chunks, then an error event, then DONE

        async def gen():
            yield _chunk({"role": "assistant", "content": ""})
            yield _chunk({"content": "Your order shipped with"})
            yield (
                "data: "
                + json.dumps({"error": {"message": "CUDA out of memory", "code": 500}})
                + "\n\n"
            )
            yield "data: [DONE]\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc == "done_no_finish":  # chunks then [DONE] with no finish_reason

        async def gen():
            yield _chunk({"role": "assistant", "content": ""})
            yield _chunk({"content": "Your order shipped with"})
            yield "data: [DONE]\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc == "finish_no_done_cut":  # finish_reason length then close

        async def gen():
            yield _chunk({"role": "assistant", "content": ""})
            yield _chunk({"content": "Your order shipped with"})
            yield _chunk({}, "length")

        return StreamingResponse(gen(), media_type="text/event-stream")
    if sc.startswith("f_"):
        form = FORMS[sc[2:]]
        if t == 0:
            return text_stream(form)
        return text_stream(FINAL)
    if sc in UNREADABLE:
        return text_stream(UNREADABLE[sc])
    if sc == "final_answer":
        return text_stream(FINAL)
    return err(404, f"unknown scenario {sc}")


app = Starlette(
    routes=[
        Route("/s/{sc}/v1/models", models),
        Route("/s/{sc}/v1/chat/completions", chat, methods=["POST"]),
    ]
)

if __name__ == "__main__":
    port = int(sys.argv[1])
    threading.Timer(2400, lambda: __import__("os")._exit(0)).start()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
