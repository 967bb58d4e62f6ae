"""Answers in shapes other than string ``content`` and ``tool_calls`` are read, never lost
(issue 9 section 8; adversarial round 14, S8-15/S8-16).

- ``content`` as typed parts (Mistral's reasoning models: a thinking part, then a text
  part): streamed, the answer was dropped and the empty message graded as the model's
  final answer; unstreamed, ``model_error``. Now the text parts are the answer, the
  thinking parts reasoning, and a part that is not text is an error, not left out.
- the legacy ``function_call`` (finish reason ``function_call``): the call was ignored and
  the empty message graded as the answer. Now it runs as a tool call.

Through `ChatCompletionsAdapter` over an injected httpx transport serving the recorded
wire shapes, streamed and not.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent

from ..fakes import FakeEpisode
from .conftest import Waits

pytestmark = pytest.mark.anyio

ANSWER = "The value of a is 1."
THINKING = [{"type": "thinking", "thinking": [{"type": "text", "text": "Key a holds 1."}]}]
PARTS = [*THINKING, {"type": "text", "text": ANSWER}]
LEGACY = {"name": "get", "arguments": json.dumps({"key": "a"})}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _sse(chunks: list[dict[str, Any]]) -> bytes:
    return ("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n").encode()


def _whole(message: dict[str, Any], finish: str) -> bytes:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
    return json.dumps(
        {"id": "chatcmpl-1", "object": "chat.completion", "choices": [choice]}
    ).encode()


def _agent(bodies: list[bytes]) -> tuple[ModelAgent, list[Any]]:
    sent: list[Any] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.read()))
        body = bodies.pop(0)
        ctype = "text/event-stream" if body.startswith(b"data:") else "application/json"
        return httpx.Response(200, content=body, headers={"content-type": ctype})

    http = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_retries=1, sleep=Waits()),
    )
    return ModelAgent(ChatCompletionsAdapter(http, ModelSettings("magistral"))), sent


def _parts_streamed() -> bytes:
    text = [{"type": "text", "text": ANSWER}]
    return _sse(
        [
            _chunk({"role": "assistant", "content": ""}),
            _chunk({"content": THINKING}),
            _chunk({"content": text[:1]}),
            _chunk({}, "stop"),
        ]
    )


@pytest.mark.parametrize("streamed", [True, False])
async def test_content_in_typed_parts_is_the_answer_and_thinking_stays_apart(
    streamed: bool,
) -> None:
    body = _parts_streamed() if streamed else _whole({"content": PARTS}, "stop")
    agent, sent = _agent([body])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert (result.termination, result.answer) == ("completed", ANSWER)
    assert len(sent) == 1


@pytest.mark.parametrize("streamed", [True, False])
async def test_a_content_part_that_is_not_text_is_an_error_not_left_out(streamed: bool) -> None:
    parts = [{"type": "image_url", "image_url": {"url": "data:,"}}, {"type": "text", "text": "x"}]
    if streamed:
        body = _sse([_chunk({"role": "assistant", "content": parts}), _chunk({}, "stop")])
    else:
        body = _whole({"content": parts}, "stop")
    agent, _ = _agent([body])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "model_error" and result.answer is None
    assert "cannot read as text" in (result.error or "")


@pytest.mark.parametrize("streamed", [True, False])
async def test_a_legacy_function_call_runs_as_a_tool_call(streamed: bool) -> None:
    if streamed:
        pieces = [
            {"name": "get", "arguments": ""},
            {"arguments": '{"key": '},
            {"arguments": '"a"}'},
        ]
        first = _sse(
            [
                _chunk({"role": "assistant", "content": None}),
                *(_chunk({"function_call": p}) for p in pieces),
                _chunk({}, "function_call"),
            ]
        )
        last = _sse([_chunk({"role": "assistant", "content": ANSWER}), _chunk({}, "stop")])
    else:
        first = _whole({"content": None, "function_call": LEGACY}, "function_call")
        last = _whole({"content": ANSWER}, "stop")
    episode = FakeEpisode()
    agent, sent = _agent([first, last])
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    assert episode.calls == [("get", {"key": "a"})]
    assert (result.termination, result.answer) == ("completed", ANSWER)
    tool_messages = [m for m in sent[1]["messages"] if m["role"] == "tool"]
    assert len(tool_messages) == 1 and '"value": "1"' in tool_messages[0]["content"]


async def test_a_last_chunk_repeating_the_whole_message_does_not_double_the_answer() -> None:
    # deltas, then a last chunk with an empty delta and the whole `message` again
    # (adversarial round 14, S8-17): the answer was the text twice
    last = _chunk({}, "stop")
    last["choices"][0]["message"] = {"role": "assistant", "content": ANSWER}
    body = _sse([_chunk({"role": "assistant", "content": ANSWER}), last])
    agent, _ = _agent([body])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert (result.termination, result.answer) == ("completed", ANSWER)
    only_message = _chunk({})  # a server that streams `message` instead of `delta`
    only_message["choices"][0] = {
        "index": 0,
        "message": {"content": ANSWER},
        "finish_reason": "stop",
    }
    agent, _ = _agent([_sse([only_message])])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.answer == ANSWER


async def test_a_body_that_cannot_be_decoded_is_retried_then_infra_error() -> None:
    # a proxy's cut gzip (adversarial round 14, S8-18): the agent "raised DecodingError",
    # model_error at once, never retried
    good = _whole({"content": ANSWER}, "stop")
    plan: list[bytes | None] = [None, good, None, None]  # None: a broken gzip body

    def handler(request: httpx.Request) -> httpx.Response:
        body = plan.pop(0)
        if body is not None:
            return httpx.Response(200, content=body)
        headers = {"content-type": "application/json", "content-encoding": "gzip"}
        return httpx.Response(
            200, stream=httpx.ByteStream(b"\x1f\x8b\x08\x00garbage-not-deflate"), headers=headers
        )

    http = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1",
        transport=httpx.MockTransport(handler),
        retry=RetryPolicy(max_retries=1, sleep=Waits()),
        stream=False,
    )
    agent = ModelAgent(ChatCompletionsAdapter(http, ModelSettings("m")))
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert (result.termination, result.answer, len(plan)) == ("completed", ANSWER, 2)
    with anyio.fail_after(10):  # every attempt broken: an outage, not the model's error
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "infra_error" and not plan
    assert "could not be decoded (gzip content encoding)" in (result.error or "")
