"""The Chat Completions agent against recorded responses (offline; injected transport)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest

from mcpgym_clients import ChatCompletionsClient, OpenAIAgent
from mcpgym_clients.agents import DEFAULT_SYSTEM_PROMPT

from .conftest import Cassette
from .fakes import TOOLS, FakeEpisode

pytestmark = pytest.mark.anyio

MakeCassette = Callable[[str], Cassette]


def make_agent(tape: Cassette, **kw: Any) -> OpenAIAgent:
    client = ChatCompletionsClient(
        base_url="https://api.openai.example/v1/",
        api_key="sk-test",
        transport=tape.transport,
        retry_backoff=0.0,
        max_retries=kw.pop("max_retries", 2),
    )
    return OpenAIAgent(client=client, model=kw.pop("model", "gpt-4o-mini"), **kw)


async def test_multi_turn_episode_pairs_every_tool_call_with_its_result(
    cassette: MakeCassette,
) -> None:
    tape = cassette("openai_multi_turn.json")
    agent = make_agent(tape, temperature=0.0, seed=7)
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()

    assert result.termination == "completed"
    assert (
        result.answer == "I set the key `target` to 103. It did not exist before; key `a` holds 1."
    )
    assert episode.calls == [
        ("get", {"key": "a"}),
        ("get", {"key": "target"}),
        ("put", {"key": "target", "value": "103"}),
    ]
    assert episode.submitted is None  # the driver submits the final answer, not the agent
    assert result.usage == {
        "requests": 3,
        "prompt_tokens": 288 + 401 + 452,
        "completion_tokens": 52 + 24 + 26,
        "total_tokens": 340 + 425 + 478,
        "cached_tokens": 0,
        "reasoning_tokens": 0,
        "retries": 0,
        "retry_wait_ms": 0,
    }

    req = tape.requests[0]
    assert req.url == "https://api.openai.example/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-test"
    first, second, third = tape.bodies
    assert first == {
        "model": "gpt-4o-mini",
        "temperature": 0.0,
        "seed": 7,
        "max_tokens": 2048,  # every response is bounded by default
        "stream": True,  # so that an abandoned attempt stops on the server
        "stream_options": {"include_usage": True},
        "messages": [
            {"role": "system", "content": DEFAULT_SYSTEM_PROMPT + "\n\nA key-value store."},
            {"role": "user", "content": "Set key `target` to 103."},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": dict(t.input_schema),
                },
            }
            for t in TOOLS
        ],
    }
    # turn 2 carries turn 1's assistant message and one tool message per call, in order
    assert second["messages"][2:] == [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "call_k3VnQ8rT1mZx4bLw9pYs2HdE",
                    "type": "function",
                    "function": {"name": "get", "arguments": '{"key":"a"}'},
                },
                {
                    "id": "call_P7aJc2WmN5uR8tXq1vGy6KzB",
                    "type": "function",
                    "function": {"name": "get", "arguments": '{"key":"target"}'},
                },
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_k3VnQ8rT1mZx4bLw9pYs2HdE",
            "content": '{"key": "a", "value": "1"}',
        },
        {
            "role": "tool",
            "tool_call_id": "call_P7aJc2WmN5uR8tXq1vGy6KzB",
            "content": "Error executing tool get: no key 'target'",
        },
    ]
    assert third["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_W2sLd9QeR4nT7yUx3mBv8KcF",
        "content": '{"key": "target", "value": "103"}',
    }
    assert len(third["messages"]) == 7
    # the transcript is the conversation plus annotations
    assert [m["role"] for m in result.transcript] == [
        "system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
    ]  # fmt: skip
    assert result.transcript[4]["mcpgym_is_error"] is True
    assert result.transcript[2]["mcpgym_response_id"] == "chatcmpl-BfR2kq7mXhT9vLw3ZpN1cYd8sA4e"


async def test_a_successful_submit_ends_the_turn_and_the_episode(cassette: MakeCassette) -> None:
    tape = cassette("openai_submit.json")
    agent = make_agent(tape)
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert result.termination == "completed"
    assert result.answer == "target is now 103"
    assert episode.calls == [
        ("put", {"key": "target", "value": "103"}),
        ("submit", {"answer": "target is now 103"}),
    ]
    assert episode.kv["target"] == "103"  # the call after submit did not run
    assert "temperature" not in tape.bodies[0] and "seed" not in tape.bodies[0]


async def test_tool_errors_are_passed_back_marked_as_errors(cassette: MakeCassette) -> None:
    tape = cassette("openai_multi_turn.json")
    agent = make_agent(tape)

    class Refusing(FakeEpisode):
        async def call_tool(self, name: str, arguments: Any) -> Any:
            outcome = await super().call_tool(name, arguments)
            if name == "put":
                return type(outcome)(True, "value '103' is not allowed")
            return outcome

    with anyio.fail_after(5):
        result = await agent.run(Refusing().context())
    await agent.aclose()
    assert tape.bodies[2]["messages"][-1]["content"] == "Error: value '103' is not allowed"
    assert result.termination == "completed"


async def test_text_tool_calls_are_executed_when_parsing_is_on(cassette: MakeCassette) -> None:
    tape = cassette("local_text_tool_calls.json")
    agent = make_agent(tape, model="qwen2.5-7b-instruct", parse_text_tool_calls=True)
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()

    assert episode.calls == [("get", {"key": "target"}), ("put", {"key": "target", "value": "103"})]
    assert result.termination == "completed"
    # the last reply holds JSON that is not a call: it is the answer, not a misfire
    assert result.answer is not None and result.answer.startswith("Done. The store now holds:")
    # parsed calls are sent back as structured calls with paired tool messages
    assert tape.bodies[1]["messages"][2:] == [
        {
            "role": "assistant",
            "content": "I'll check the current value first.",
            "tool_calls": [
                {
                    "id": "call_text_1_1",
                    "type": "function",
                    "function": {"name": "get", "arguments": '{"key": "target"}'},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_text_1_1",
            "content": "Error executing tool get: no key 'target'",
        },
    ]
    parsed = [m for m in result.transcript if "mcpgym_parsed_tool_calls" in m]
    assert [m["mcpgym_parsed_tool_calls"] for m in parsed] == [["hermes"], ["fenced_json"]]
    assert parsed[0]["mcpgym_raw_content"].startswith("I'll check")


async def test_text_tool_calls_are_plain_text_when_parsing_is_off(cassette: MakeCassette) -> None:
    tape = cassette("local_text_tool_calls.json")
    agent = make_agent(tape, model="qwen2.5-7b-instruct")
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert episode.calls == []
    assert result.termination == "completed"
    assert result.answer is not None and "<tool_call>" in result.answer
    assert len(tape.requests) == 1


async def test_a_malformed_hermes_call_gets_feedback(cassette: MakeCassette) -> None:
    tape = cassette("local_malformed_call.json")
    agent = make_agent(tape, parse_text_tool_calls=True)
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert episode.calls == []
    feedback = tape.bodies[1]["messages"][-1]
    assert feedback["role"] == "user"
    assert feedback["content"].startswith("Your tool call could not be read: the <tool_call> block")
    assert result.answer == "I could not complete the task."


async def test_server_errors_are_retried_then_reported_as_infra_error(
    cassette: MakeCassette,
) -> None:
    tape = cassette("openai_server_errors.json")
    agent = make_agent(tape)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert len(tape.requests) == 3  # one attempt and two retries
    assert result.termination == "infra_error"  # the service's failure, never a score
    assert result.error == (
        "model API answered 503: The engine is currently overloaded, please try again later"
        " (after 3 attempts)"
    )
    assert result.usage["retries"] == 2


async def test_a_rejected_key_is_a_model_error_without_retries(cassette: MakeCassette) -> None:
    tape = cassette("openai_bad_key.json")
    agent = make_agent(tape)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert len(tape.requests) == 1
    assert result.termination == "model_error"
    assert result.error is not None and result.error.startswith("model API answered 401: Incorrect")


async def test_a_response_cut_off_at_max_tokens_stops_the_episode(cassette: MakeCassette) -> None:
    tape = cassette("openai_length.json")
    agent = make_agent(tape, max_tokens=16)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert tape.bodies[0]["max_tokens"] == 16
    assert result.termination == "max_tokens"
    assert result.usage["total_tokens"] == 304


async def test_the_turn_budget_ends_the_episode_with_max_turns(cassette: MakeCassette) -> None:
    tape = cassette("openai_multi_turn.json")
    agent = make_agent(tape, max_turns=2)
    episode = FakeEpisode()
    with anyio.fail_after(5):
        result = await agent.run(episode.context())
    await agent.aclose()
    assert result.termination == "max_turns"
    assert result.answer is None
    assert len(episode.calls) == 3


async def test_an_infrastructure_failure_keeps_the_partial_transcript(
    cassette: MakeCassette,
) -> None:
    tape = cassette("openai_multi_turn.json")
    agent = make_agent(tape)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode(fail_after=2).context())
    await agent.aclose()
    assert result.termination == "infra_error"
    assert result.error == "mcp server: connection reset"
    assert [m["role"] for m in result.transcript] == ["system", "user", "assistant", "tool"]


async def test_settings_record_the_model_but_not_the_key(cassette: MakeCassette) -> None:
    agent = make_agent(cassette("openai_length.json"), temperature=0.2)
    settings = agent.settings()
    await agent.aclose()
    assert settings["model"] == "gpt-4o-mini"
    assert settings["base_url"] == "https://api.openai.example/v1"
    assert settings["temperature"] == 0.2
    assert "sk-test" not in repr(settings)
