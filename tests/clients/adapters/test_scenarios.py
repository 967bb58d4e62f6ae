"""Every adapter against recorded responses: the same six situations, vendor by vendor.

Two tool calls in one turn (one a tool error), a call cut off by the token limit, a 429
then success, a 500 that persists, a refusal. Vendor-specific request shapes are checked
in ``test_wire_<vendor>.py``.
"""

from __future__ import annotations

import anyio
import pytest

from mcpgym_clients.errors import ConfigurationError

from ..fakes import FakeEpisode
from .conftest import ADAPTERS, Tape, Waits, make_agent

pytestmark = pytest.mark.anyio

FINAL = "Done: key `target` now holds 103 (it did not exist before; `a` holds 1)."


@pytest.mark.parametrize("vendor", ADAPTERS)
async def test_two_calls_in_one_turn_a_tool_error_and_a_final_answer(
    vendor: str, tape_for: object
) -> None:
    tape = tape_for(vendor, "parallel")  # type: ignore[operator]
    agent = make_agent(vendor, tape)
    episode = FakeEpisode()
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    await agent.aclose()

    assert result.termination == "completed", result.error
    assert result.answer == FINAL
    assert episode.calls == [
        ("get", {"key": "a"}),
        ("get", {"key": "target"}),
        ("put", {"key": "target", "value": "103"}),
    ]
    assert episode.kv["target"] == "103"
    assert len(tape.requests) == 3
    # the transcript is Chat Completions-shaped whatever the vendor
    roles = [m["role"] for m in result.transcript]
    assert roles == [
        "system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
    ]  # fmt: skip
    first = result.transcript[2]
    ids = [c["id"] for c in first["tool_calls"]]
    assert [m["tool_call_id"] for m in result.transcript[3:5]] == ids
    assert len(set(ids)) == 2
    assert [m["mcpgym_is_error"] for m in result.transcript[3:5]] == [False, True]
    assert result.transcript[4]["content"].startswith("Error")
    assert first["mcpgym_stop"] == "tool_calls" and "mcpgym_raw" in first
    assert result.usage["requests"] == 3
    assert result.usage["total_tokens"] > result.usage["prompt_tokens"] > 0
    assert result.usage["retries"] == 0
    assert "sk-test" not in repr(result.transcript) + repr(agent.settings())


@pytest.mark.parametrize("vendor", ADAPTERS)
async def test_a_call_cut_off_by_the_token_limit_is_never_executed(
    vendor: str, tape_for: object
) -> None:
    tape = tape_for(vendor, "truncated")  # type: ignore[operator]
    agent = make_agent(vendor, tape, max_tokens=12)
    episode = FakeEpisode()
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert episode.calls == []
    assert result.termination == "max_tokens"
    assert result.transcript[-1]["mcpgym_stop"] == "max_tokens"
    assert len(tape.requests) == 1


@pytest.mark.parametrize("vendor", ADAPTERS)
async def test_a_429_is_retried_after_the_wait_the_server_asks_for(
    vendor: str, tape_for: object
) -> None:
    tape = tape_for(vendor, "rate_limited")  # type: ignore[operator]
    waits = Waits()
    agent = make_agent(vendor, tape, waits=waits, time_limit=60.0)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "completed", result.error
    assert result.answer == FINAL
    assert len(tape.requests) == 2
    # Retry-After: 2 s; retry-after-ms 1500 (Responses); 3 s (Anthropic); RetryInfo 7 s (Gemini)
    expected = {"openai-responses": 1.5, "anthropic": 3.0, "gemini": 7.0}.get(vendor, 2.0)
    assert waits.asked == [expected]
    assert result.usage["retries"] == 1
    # the wait is not charged to the episode's time limit
    assert result.usage["retry_wait_ms"] >= expected * 1000


@pytest.mark.parametrize("vendor", ADAPTERS)
async def test_a_500_that_persists_is_an_infra_error(vendor: str, tape_for: object) -> None:
    tape = tape_for(vendor, "server_error")  # type: ignore[operator]
    waits = Waits()
    agent = make_agent(vendor, tape, waits=waits, max_retries=3)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert len(tape.requests) == 4  # one attempt and three retries
    assert result.termination == "infra_error"
    assert result.error is not None and "500" in result.error and "after 4 attempts" in result.error
    # exponential backoff with jitter: each wait in [base * 2**n / 2, base * 2**n]
    assert len(waits.asked) == 3
    for n, wait in enumerate(waits.asked):
        assert 2**n / 2 <= wait <= 2**n


@pytest.mark.parametrize("vendor", ADAPTERS)
async def test_a_refusal_is_mapped(vendor: str, tape_for: object) -> None:
    tape = tape_for(vendor, "refusal")  # type: ignore[operator]
    agent = make_agent(vendor, tape)
    episode = FakeEpisode()
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert episode.calls == []
    last = result.transcript[-1]
    if vendor == "gemini":  # Gemini has no refusal stop: its safety filter blocks instead
        assert last["mcpgym_stop"] == "content_filter"
        assert last["mcpgym_finish_reason"] == "SAFETY"
        # a block is the model's outcome like a refusal: completed and scored
        assert (result.termination, result.answer, result.error) == ("completed", None, None)
    else:
        # declining is the model's own outcome: graded, never excluded as an error
        assert last["mcpgym_stop"] == "refusal"
        assert result.termination == "completed"
        assert result.answer is None
        assert last["refusal"] == "I'm sorry, but I can't help with that request."


@pytest.mark.parametrize(
    ("vendor", "status", "body"),
    [
        (
            "openai",
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 128000 tokens. "
                    "However, your messages resulted in 131000 tokens. Please reduce it.",
                    "type": "invalid_request_error",
                    "code": "context_length_exceeded",
                }
            },
        ),
        (
            "gemini",
            400,
            {
                "error": {
                    "code": 400,
                    "message": "The input token count (1200000) exceeds the maximum number "
                    "of tokens allowed (1048576).",
                    "status": "INVALID_ARGUMENT",
                }
            },
        ),
        (
            "anthropic",
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "prompt is too long: 210000 tokens > 200000 maximum",
                },
            },
        ),
    ],
)
async def test_a_context_overflow_on_the_first_request_stops_the_campaign(
    vendor: str, status: int, body: dict
) -> None:
    """The first prompt (system, tools, task) not fitting is the server's configuration,
    not the model's outcome: never scored as ``max_tokens``."""
    tape = Tape.of([{"status": status, "headers": {}, "response": body}])
    agent = make_agent(vendor, tape)
    with anyio.fail_after(10), pytest.raises(ConfigurationError) as caught:
        await agent.run(FakeEpisode().context())
    await agent.aclose()
    text = str(caught.value)
    assert "context window is too small" in text and "3 tools" in text
    figures = {
        "openai": "vs a context window of 128,000",
        "gemini": "1,200,000 prompt tokens vs a context window of 1,048,576",
        "anthropic": "210,000 prompt tokens vs a context window of 200,000",
    }
    assert figures[vendor] in text


async def test_a_context_overflow_after_the_first_turn_is_max_tokens_and_scored() -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get", "arguments": '{"key": "a"}'},
    }
    turn = {
        "choices": [
            {
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            }
        ]
    }
    overflow = {
        "error": {
            "message": "This model's maximum context length is 4096 tokens. However, you "
            "requested 4102 tokens (4102 in the messages, None in the completion). Please "
            "reduce the length of the messages or completion.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    }
    tape = Tape.of([{"response": turn}, {"status": 400, "response": overflow}])
    agent = make_agent("openai-compatible", tape)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "max_tokens"
    assert result.error is not None and result.error.startswith("context window exceeded")


async def test_a_bad_request_that_is_not_an_overflow_stays_model_error() -> None:
    body = {"error": {"message": "Invalid schema for function 'get'", "type": "x"}}
    tape = Tape.of([{"status": 400, "headers": {}, "response": body}])
    agent = make_agent("openai", tape)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "model_error"


RAW_LLAMA_CPP_OVERFLOW = {
    # llama-cpp-python's server when it cannot re-read the request as its own type: the
    # library's ValueError, raw, as a 500 (llama_cpp/server/errors.py)
    "error": {
        "message": "Requested tokens (4745) exceed context window of 4096",
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}


async def test_a_500_context_overflow_on_the_first_request_stops_the_campaign_unretried() -> None:
    """llama-cpp-python's raw 500 overflow is the configuration's fault: the campaign stops
    with the figures, and the request is not retried as an outage."""
    tape = Tape.of([{"status": 500, "headers": {}, "response": RAW_LLAMA_CPP_OVERFLOW}] * 4)
    waits = Waits()
    agent = make_agent("openai-compatible", tape, waits=waits)
    with anyio.fail_after(10), pytest.raises(ConfigurationError) as caught:
        await agent.run(FakeEpisode().context())
    await agent.aclose()
    text = str(caught.value)
    assert "context window is too small" in text
    assert "4,745 prompt tokens vs a context window of 4,096" in text
    assert len(tape.requests) == 1 and waits.asked == []


async def test_a_500_context_overflow_after_the_first_turn_is_max_tokens_unretried() -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get", "arguments": '{"key": "a"}'},
    }
    turn = {
        "choices": [
            {
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
            }
        ]
    }
    overflow = {"status": 500, "headers": {}, "response": RAW_LLAMA_CPP_OVERFLOW}
    tape = Tape.of([{"response": turn}, overflow, overflow, overflow, overflow])
    waits = Waits()
    agent = make_agent("openai-compatible", tape, waits=waits)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "max_tokens"
    assert result.error is not None and result.error.startswith("context window exceeded")
    assert len(tape.requests) == 2 and waits.asked == []
