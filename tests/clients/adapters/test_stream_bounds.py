"""Every model response is bounded, and a cut-off one is never an answer (issue 9 section 8).

- comments (``: keepalive``) are not events: a stream that sends only comments after its
  first chunk is abandoned after ``--request-timeout`` (adversarial round 6b, B2);
- a response that keeps streaming events is abandoned at its total bound
  (``--response-timeout``);
- a stream with chunks but neither a ``finish_reason`` nor ``[DONE]`` is cut off:
  retried, then ``infra_error``, never a completed turn (B3);
- a response over the byte cap (a server ignoring ``max_tokens``) is refused before it is
  stored: ``model_error``, not retried; for the SDK vendors too (B8).

Against `fake_llama.FakeLlamaServer` on loopback where the timing is the server's, and
recorded wire-format bodies through an injected transport otherwise.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.adapters.streaming import assemble
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.errors import ModelAPIError

from ..fakes import FakeEpisode
from .conftest import Tape, Waits, make_agent
from .fake_llama import FakeLlamaServer, Reply

pytestmark = pytest.mark.anyio


def _local_agent(base_url: str, **client: Any) -> ModelAgent:
    client.setdefault("max_retries", 2)
    http = ChatCompletionsClient(base_url=base_url, retry_backoff=0.0, **client)
    return ModelAgent(ChatCompletionsAdapter(http, ModelSettings("qwen", 0.0)))


async def test_keepalive_comments_are_not_events_the_silent_attempt_is_abandoned() -> None:
    server = FakeLlamaServer([Reply(stall=True, keepalive=0.02), Reply("Done.")])
    async with server.running():
        agent = _local_agent(server.base_url, timeout=0.3)
        with anyio.fail_after(10):  # on the old code the first attempt never ends
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    first, retry = server.served
    assert first.outcome == "disconnected" and first.ended - first.started < 5
    assert retry.started >= first.ended
    assert (result.termination, result.answer) == ("completed", "Done.")
    assert result.usage["retries"] == 1


async def test_a_stream_of_comments_only_ends_infra_error_with_the_reason() -> None:
    server = FakeLlamaServer([Reply(stall=True, keepalive=0.02)] * 3)
    async with server.running():
        agent = _local_agent(server.base_url, timeout=0.3)
        with anyio.fail_after(10):
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    assert len(server.served) == 3  # the first attempt and two retries, each abandoned
    assert [s.outcome for s in server.served[:2]] == ["disconnected"] * 2
    assert result.termination == "infra_error"
    assert "no event for 0.3 s" in (result.error or "")
    assert "keep-alives do not count" in (result.error or "")


async def test_a_response_that_keeps_streaming_is_abandoned_at_its_total_bound() -> None:
    endless = Reply("x" * 4000, interval=0.02)  # 1,000 events, 20 s; never silent 0.3 s
    server = FakeLlamaServer([endless, Reply("Done.")])
    async with server.running():
        agent = _local_agent(server.base_url, timeout=0.3, response_timeout=1.0)
        with anyio.fail_after(10):
            result = await agent.run(FakeEpisode().context())
        await agent.aclose()
    first, retry = server.served
    assert first.outcome == "disconnected" and 0.8 <= first.ended - first.started < 5
    assert 10 < first.tokens < 1000
    assert (result.termination, result.answer) == ("completed", "Done.")


def test_the_total_bound_defaults_to_five_request_timeouts() -> None:
    assert ChatCompletionsClient(timeout=4.0).response_timeout == 20.0
    assert ChatCompletionsClient(timeout=4.0, response_timeout=9.0).response_timeout == 9.0


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _sse(chunks: list[dict[str, Any]], *, done: bool) -> bytes:
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return (text + ("data: [DONE]\n\n" if done else "")).encode()


CUT = _sse(
    [_chunk({"role": "assistant", "content": "I will"}), _chunk({"content": " look"})], done=False
)
WHOLE = _sse([_chunk({"role": "assistant", "content": "Shipped."}, "stop")], done=True)


def _streaming(bodies: list[bytes]) -> tuple[httpx.MockTransport, list[Any]]:
    sent: list[Any] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.read()))
        body = bodies.pop(0)
        ctype = "text/event-stream" if body.startswith(b"data:") else "application/json"
        return httpx.Response(200, content=body, headers={"content-type": ctype})

    return httpx.MockTransport(handler), sent


def _tape_agent(bodies: list[bytes], **client: Any) -> tuple[ModelAgent, list[Any]]:
    transport, sent = _streaming(bodies)
    retry = RetryPolicy(max_retries=2, sleep=Waits())
    http = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1", transport=transport, retry=retry, **client
    )
    return ModelAgent(ChatCompletionsAdapter(http, ModelSettings("qwen"))), sent


async def test_a_stream_cut_off_is_retried_not_taken_as_the_answer() -> None:
    agent, sent = _tape_agent([CUT, WHOLE])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert (result.termination, result.answer) == ("completed", "Shipped.")
    assert len(sent) == 2 and result.usage["retries"] == 1


async def test_a_stream_cut_off_on_every_attempt_is_infra_error() -> None:
    agent, sent = _tape_agent([CUT, CUT, CUT])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "infra_error" and len(sent) == 3
    assert "without a finish_reason or [DONE]" in (result.error or "")
    assert "I will look" not in json.dumps(result.transcript)


async def _lines(body: bytes) -> AsyncIterator[str]:
    for line in body.decode().split("\n"):
        yield line


async def test_either_finish_reason_or_done_marks_a_whole_stream() -> None:
    no_done = _sse([_chunk({"content": "a"}), _chunk({}, "stop")], done=False)
    no_finish = _sse([_chunk({"content": "a"})], done=True)
    for body in (no_done, no_finish):
        data = await assemble(_lines(body), where="x")
        assert data["choices"][0]["message"]["content"] == "a"
    with pytest.raises(ModelAPIError) as caught:
        await assemble(_lines(CUT), where="x")
    assert caught.value.transient


async def test_a_stream_of_chunks_without_a_choice_is_no_answer() -> None:
    # A 200 of garbage: chunks whose ``choices`` are empty, then [DONE] (adversarial round
    # 11, S8-10). It was taken as an empty final answer and scored; now model_error, as
    # the non-streaming endpoint's "no choices".
    empty = _sse([{"id": "x", "object": "chat.completion.chunk", "choices": []}], done=True)
    agent, sent = _tape_agent([empty])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "model_error" and len(sent) == 1
    assert "but no choice" in (result.error or "")
    usage_last = _sse(
        [
            _chunk({"role": "assistant", "content": "Shipped."}, "stop"),
            {"id": "chatcmpl-1", "choices": [], "usage": {"prompt_tokens": 5}},
        ],
        done=True,
    )
    data = await assemble(_lines(usage_last), where="x")
    assert data["choices"][0]["message"]["content"] == "Shipped."


def _chat_json(content: str) -> bytes:
    message = {"role": "assistant", "content": content}
    return json.dumps(
        {
            "id": "c",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        }
    ).encode()


@pytest.mark.parametrize("streamed", [True, False])
async def test_a_response_over_the_byte_cap_is_refused_before_it_is_stored(streamed: bool) -> None:
    big = "A" * 50_000
    body = _sse([_chunk({"role": "assistant", "content": big}, "stop")], done=True)
    agent, sent = _tape_agent([body if streamed else _chat_json(big)], max_response_bytes=10_000)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "model_error" and len(sent) == 1  # not retried
    assert "more than 10,000 bytes" in (result.error or "")
    assert "max_tokens 2048 was sent" in (result.error or "")
    assert big not in json.dumps(result.transcript)


def test_the_byte_cap_has_a_default() -> None:
    from mcpgym_clients.adapters.streaming import DEFAULT_MAX_RESPONSE_BYTES

    assert ChatCompletionsClient().max_response_bytes == DEFAULT_MAX_RESPONSE_BYTES == 8 * 2**20


def _vendor_reply(vendor: str, text: str) -> dict[str, Any]:
    if vendor == "anthropic":
        return {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }  # fmt: skip
    if vendor == "gemini":
        return {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}
            ],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5},
        }
    return json.loads(_chat_json(text))


@pytest.mark.parametrize("vendor", ["openai", "anthropic", "gemini"])
async def test_an_sdk_vendor_response_over_the_cap_is_refused(vendor: str) -> None:
    big = "B" * 50_000
    tape = Tape.of([{"response": _vendor_reply(vendor, big)}])
    agent = make_agent(vendor, tape, max_tokens=256)
    agent.adapter.max_response_bytes = 10_000
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "model_error" and len(tape.requests) == 1
    assert "over the cap of 10,000" in (result.error or "")
    assert big not in json.dumps(result.transcript)
    # under the cap the same reply is the answer
    tape = Tape.of([{"response": _vendor_reply(vendor, "short")}])
    agent = make_agent(vendor, tape, max_tokens=256)
    agent.adapter.max_response_bytes = 10_000
    result = await agent.run(FakeEpisode().context())
    assert (result.termination, result.answer) == ("completed", "short")


def test_the_eval_flags_reach_every_vendor() -> None:
    from mcpgym_clients.commands._agent import build_agent

    common: dict[str, Any] = {
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": "k",
        "api_key_env": None,
        "parse_text_tool_calls": None,
        "max_turns": 3,
        "temperature": None,
        "model_seed": None,
        "max_output_tokens": None,
        "request_timeout": 4.0,
    }
    local = build_agent("openai", model="openai-compatible:q", **common)
    assert local.client.response_timeout == 20.0  # type: ignore[attr-defined]
    assert local.adapter.max_response_bytes == 8 * 2**20  # type: ignore[attr-defined]
    local = build_agent(
        "openai",
        model="openai-compatible:q",
        response_timeout=7.0,
        max_response_bytes=1000,
        **common,
    )
    assert local.client.response_timeout == 7.0  # type: ignore[attr-defined]
    assert local.client.max_response_bytes == 1000  # type: ignore[attr-defined]
    assert local.adapter.max_response_bytes == 1000  # type: ignore[attr-defined]
    hosted = build_agent("openai", model="anthropic:c", max_response_bytes=1000, **common)
    assert hosted.adapter.max_response_bytes == 1000  # type: ignore[attr-defined]


@pytest.mark.parametrize("finish", ["abort", "error"])
async def test_a_response_the_server_aborted_is_no_answer(finish: str) -> None:
    # vLLM ends an aborted request with finish_reason "abort"; proxies say "error"
    # (adversarial round 12, S8-11). The fragment was graded as the final answer.
    aborted = _sse(
        [_chunk({"role": "assistant", "content": "Your order shipped with"}), _chunk({}, finish)],
        done=True,
    )
    agent, sent = _tape_agent([aborted])
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "infra_error" and result.answer is None
    assert repr(finish) in (result.error or "")


def _whole_call(call_id: str, key: str, index: int | None) -> dict[str, Any]:
    call: dict[str, Any] = {"id": call_id, "type": "function"}
    call["function"] = {"name": "get", "arguments": json.dumps({"key": key})}
    if index is not None:
        call["index"] = index
    return _chunk({"tool_calls": [call]})


@pytest.mark.parametrize("index", [None, 0])
async def test_whole_calls_in_their_own_chunks_stay_separate_calls(index: int | None) -> None:
    # Each call whole in its own chunk, without an index or all at index 0, distinct ids
    # (adversarial round 12, S8-12): they were merged into one call `getget` with the
    # argument objects run together, and the model was told its JSON was invalid.
    body = _sse(
        [
            _chunk({"role": "assistant", "content": None}),
            _whole_call("c_a", "a", index),
            _whole_call("c_b", "b", index),
            _chunk({}, "tool_calls"),
        ],
        done=True,
    )
    data = await assemble(_lines(body), where="x")
    calls = data["choices"][0]["message"]["tool_calls"]
    assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in calls] == [
        ("c_a", "get", '{"key": "a"}'),
        ("c_b", "get", '{"key": "b"}'),
    ]
    pieces = [  # one call streamed in pieces, the id repeated on each: still one call
        _chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "get"}}]}),
        _chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"arguments": '{"key"'}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ': "a"}'}}]}),
        _chunk({}, "tool_calls"),
    ]
    data = await assemble(_lines(_sse(pieces, done=True)), where="x")
    (call,) = data["choices"][0]["message"]["tool_calls"]
    assert call["function"] == {"name": "get", "arguments": '{"key": "a"}'}
