"""A model server whose context the prompt fills, and template tool calls, end to end
(issue 9 section 8; adversarial round 9, S8-1, S8-1b, S8-2, S8-5).

Through the real model loop (`ModelAgent` over `ChatCompletionsAdapter`, streaming) against
a fake OpenAI-compatible server: an injected transport that answers each request with the
server-sent events a real server writes (recorded wire format, one body per request).

- S8-1: a first reply that is 200 with ``finish_reason: length`` and 0 completion tokens
  (vLLM's ignored prompt, llama.cpp at ``n_ctx``, a truncating Ollama), or far fewer than
  the ``max_tokens`` sent (llama.cpp with the prompt near ``n_ctx``), stops the campaign
  with the figures, like a first-request overflow; a model that rambles to its cap does not.
- S8-1b: a later overflow (a 400, or a ``length`` cut well short of the cap) is a scored
  ``max_tokens`` flagged ``context_overflow``.
- S8-2: a gpt-oss harmony call written as text is executed.
- S8-5: a broken tagged call sent every turn ends ``max_turns`` flagged.
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
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.measure.metrics import episode_flags

from ..fakes import FakeEpisode
from .conftest import Waits

pytestmark = pytest.mark.anyio


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "qwen",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


def sse(text: str, finish: str = "stop", *, prompt: int = 900, completion: int = 12) -> str:
    """A streamed reply as llama.cpp and vLLM send it (usage in a last, choiceless chunk)."""
    usage = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "qwen",
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }
    parts = [_chunk({"role": "assistant", "content": ""})]
    if text:
        parts.append(_chunk({"content": text}))
    parts += [_chunk({}, finish), f"data: {json.dumps(usage)}\n\n", "data: [DONE]\n\n"]
    return "".join(parts)


def sse_call(name: str, args: dict[str, Any]) -> str:
    call = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }
    return "".join(
        [
            _chunk({"role": "assistant", "content": None, "tool_calls": [call]}),
            _chunk({}, "tool_calls"),
            "data: [DONE]\n\n",
        ]
    )


class Server:
    """Answers chat requests with ``replies`` in order (an SSE body, or ``(status, json)``);
    records the request bodies."""

    def __init__(self, replies: list[Any]) -> None:
        self.replies = list(replies)
        self.bodies: list[dict[str, Any]] = []

    def transport(self) -> httpx.MockTransport:
        def handler(request: httpx.Request) -> httpx.Response:
            self.bodies.append(json.loads(request.read()))
            reply = self.replies.pop(0) if self.replies else sse("Done.")
            if isinstance(reply, tuple):
                return httpx.Response(reply[0], json=reply[1])
            headers = {"content-type": "text/event-stream"}
            return httpx.Response(200, content=reply.encode(), headers=headers)

        return httpx.MockTransport(handler)


def agent_for(server: Server, **loop: Any) -> ModelAgent:
    retry = RetryPolicy(max_retries=1, base_delay=1.0, sleep=Waits())
    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1", transport=server.transport(), retry=retry
    )
    loop.setdefault("parse_text_tool_calls", True)
    return ModelAgent(ChatCompletionsAdapter(client, ModelSettings("qwen")), **loop)


async def run(server: Server, **loop: Any) -> Any:
    agent = agent_for(server, **loop)
    episode = FakeEpisode()
    try:
        with anyio.fail_after(10):
            result = await agent.run(episode.context())
    finally:
        await agent.aclose()
    return result, episode


@pytest.mark.parametrize(
    ("reply", "figures"),
    [
        pytest.param(
            sse("", "length", prompt=4090, completion=0),
            "0 completion tokens of the 2,048 allowed (max_tokens) after a prompt of 4,090",
            id="0 tokens: the prompt fills the context",
        ),
        pytest.param(
            sse("I will look up the key", "length", prompt=4000, completion=96),
            "96 completion tokens of the 2,048 allowed (max_tokens) after a prompt of 4,000 "
            "tokens (a context of about 4,096 tokens)",
            id="far fewer than max_tokens: llama.cpp at n_ctx",
        ),
    ],
)
async def test_a_first_reply_cut_by_the_context_stops_the_campaign(
    reply: str, figures: str
) -> None:
    server = Server([reply, reply])
    with pytest.raises(ConfigurationError) as caught:
        await run(server)
    text = str(caught.value)
    assert "context window is too small" in text and "3 tools" in text
    assert figures in text
    assert len(server.bodies) == 1 and server.bodies[0]["max_tokens"] == 2048


async def test_a_first_reply_cut_empty_without_usage_stops_the_campaign() -> None:
    """llama-cpp-python reports no usage when streaming: empty output is the sign."""
    reply = sse("", "length").replace('"usage"', '"no_usage"')
    with pytest.raises(ConfigurationError, match="an unknown number of completion tokens"):
        await run(Server([reply]))


async def test_a_model_that_rambles_to_its_cap_is_a_scored_max_tokens_unflagged() -> None:
    result, episode = await run(Server([sse("blah " * 40, "length", completion=2048)]))
    assert result.termination == "max_tokens"
    assert result.error == "the response was cut off at the token limit; its calls were not run"
    assert episode_flags({"transcript": result.transcript}) == []


async def test_a_later_reply_cut_by_the_context_is_flagged_context_overflow() -> None:
    server = Server([sse_call("get", {"key": "a"}), sse("", "length", completion=0)])
    result, episode = await run(server)
    assert episode.calls == [("get", {"key": "a"})]
    assert result.termination == "max_tokens"
    assert result.error is not None and result.error.startswith("context_overflow:")
    assert episode_flags({"transcript": result.transcript}) == ["context_overflow"]


async def test_a_later_overflow_400_is_flagged_apart_from_a_rambling_model() -> None:
    overflow = {
        "error": {
            "message": "This model's maximum context length is 4096 tokens. However, your "
            "request has 4102 input tokens. Please reduce the length of the input messages.",
            "type": "BadRequestError",
            "code": 400,
        }
    }
    result, _ = await run(Server([sse_call("get", {"key": "a"}), (400, overflow)]))
    assert result.termination == "max_tokens"
    assert episode_flags({"transcript": result.transcript}) == ["context_overflow"]


async def test_a_harmony_call_written_as_text_is_run() -> None:
    harmony = (
        '<|channel|>commentary to=functions.get <|constrain|>json<|message|>{"key": "a"}<|call|>'
    )
    server = Server([sse(harmony), sse("`a` holds 1.")])
    result, episode = await run(server)
    assert episode.calls == [("get", {"key": "a"})]
    assert (result.termination, result.answer) == ("completed", "`a` holds 1.")
    assert result.transcript[2]["mcpgym_parsed_tool_calls"] == ["harmony"]
    assert episode_flags({"transcript": result.transcript}) == []
    tool_results = [m for m in server.bodies[1]["messages"] if m["role"] == "tool"]
    assert json.loads(tool_results[0]["content"]) == {"key": "a", "value": "1"}


async def test_a_broken_tagged_call_every_turn_ends_max_turns_flagged() -> None:
    broken = sse('<tool_call>{"name": "get", "arguments": {"key": "a"</tool_call>')
    result, episode = await run(Server([broken] * 3), max_turns=3)
    assert episode.calls == []
    assert result.termination == "max_turns"
    assert episode_flags({"transcript": result.transcript}) == ["unparsed_tool_call"]


async def test_every_episode_ended_by_the_context_is_warned_about(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """S8-1b: each episode overflows on its second request; after the first three the
    campaign is told that it measures the server's context."""
    cut = sse("", "length", completion=0)
    server = Server([sse_call("get", {"key": "a"}), cut] * 3)
    agent = agent_for(server)
    try:
        for _ in range(3):
            with anyio.fail_after(10):
                result = await agent.run(FakeEpisode().context())
            assert episode_flags({"transcript": result.transcript}) == ["context_overflow"]
    finally:
        await agent.aclose()
    warned = [r.getMessage() for r in caplog.records if "context window" in r.getMessage()]
    assert len(warned) == 1 and "the first 3 episodes all ended" in warned[0]


async def test_a_stream_with_done_but_no_finish_reason_is_whole_and_recorded_so() -> None:
    """S8-8, as decided in docs/models.md: ``[DONE]`` is the server's end marker."""
    body = _chunk({"role": "assistant", "content": "Shipped."}) + "data: [DONE]\n\n"
    result, _ = await run(Server([body]))
    assert (result.termination, result.answer) == ("completed", "Shipped.")
    last = result.transcript[-1]
    assert (last["mcpgym_stop"], last["mcpgym_finish_reason"]) == ("other", None)
