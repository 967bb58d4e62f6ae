"""Token usage: unknown when the API does not report it (never 0); --max-tokens a hard cap."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import pytest

from mcpgym_clients.agents.model import BREAKER_EPISODES
from mcpgym_clients.errors import ConfigurationError

from ..fakes import FakeEpisode
from .conftest import Tape, make_agent

pytestmark = pytest.mark.anyio


def chat(calls: int, usage: dict[str, int] | None, turn: int = 1) -> dict[str, Any]:
    """A Chat Completions reply with ``calls`` calls of ``get`` (none: a final answer)."""
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else "done"}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"c{turn}_{i}",
                "type": "function",
                "function": {"name": "get", "arguments": '{"key": "a"}'},
            }
            for i in range(calls)
        ]
    reply: dict[str, Any] = {
        "id": f"r{turn}",
        "object": "chat.completion",
        "model": "m",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
    }
    if usage is not None:
        reply["usage"] = usage
    return {"status": 200, "headers": {}, "response": reply}


async def test_missing_usage_is_left_out_and_an_unenforceable_budget_warned_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tape = Tape.of([chat(1, None, 1), chat(1, None, 2), chat(0, None, 3)])
    agent = make_agent("openai-compatible", tape, token_budget=10)
    with caplog.at_level(logging.WARNING), anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "completed"
    assert "prompt_tokens" not in result.usage and "total_tokens" not in result.usage
    assert result.usage["requests"] == 3
    notes = [m.get("mcpgym_usage") for m in result.transcript if m["role"] == "assistant"]
    assert notes == ["not reported"] * 3
    warned = [r for r in caplog.records if "cannot be enforced" in r.getMessage()]
    assert len(warned) == 1 and "--max-tokens 10" in warned[0].getMessage()


async def test_the_token_budget_is_a_hard_cap_the_over_budget_calls_never_run() -> None:
    usage = {"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120}
    tape = Tape.of([chat(2, usage)])
    agent = make_agent("openai-compatible", tape, token_budget=100)
    episode = FakeEpisode()
    with anyio.fail_after(10):
        result = await agent.run(episode.context())
    assert result.termination == "max_tokens"
    assert episode.calls == []  # the reply that went over the budget had its calls dropped
    assert result.usage["total_tokens"] == 120


async def test_the_first_episodes_failing_alike_stop_the_campaign() -> None:
    wrong = {"error": {"message": "The model `gpt-nope` does not exist", "type": "x"}}
    tape = Tape.of([{"status": 404, "headers": {}, "response": wrong}] * 3)
    agent = make_agent("openai-compatible", tape)
    with anyio.fail_after(10):
        for _ in range(BREAKER_EPISODES - 1):
            result = await agent.run(FakeEpisode().context())
            assert result.termination == "model_error"
        with pytest.raises(ConfigurationError, match="first 3 episodes all failed"):
            await agent.run(FakeEpisode().context())


async def test_the_breaker_is_off_once_a_request_succeeded() -> None:
    wrong = {"error": {"message": "bad request", "type": "x"}}
    tape = Tape.of([chat(0, None)] + [{"status": 400, "headers": {}, "response": wrong}] * 3)
    agent = make_agent("openai-compatible", tape)
    with anyio.fail_after(10):
        results = [await agent.run(FakeEpisode().context()) for _ in range(4)]
    assert [r.termination for r in results] == ["completed"] + ["model_error"] * 3
