"""``--tool-choice``: Chat Completions ``tool_choice``, sent only when given.

llama-cpp-python's ``chatml-function-calling`` reads a missing ``tool_choice`` as ``none``
and leaves the tools out of the prompt (adversarial round 20, S20-R6); vLLM started without
``--enable-auto-tool-choice`` answers 400 to ``auto``. So it is never sent by default, sent
as given with ``--tool-choice``, recorded with the run only when given (a run recorded
before the option resumes), and a 400 naming it says which flag and what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
import typer
from typer.testing import CliRunner

from mcpgym_clients import RunStore
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import DEFAULT_SYSTEM_PROMPT, ModelAgent
from mcpgym_clients.cli import app
from mcpgym_clients.resume import differences

from ..fakes import FakeEpisode
from ..test_cli import flat
from .conftest import Tape, Waits
from .test_cli_vendors import build

pytestmark = pytest.mark.anyio

ANSWER = {
    "status": 200,
    "response": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "qwen",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "done"},
                "finish_reason": "stop",
            }
        ],
    },
}

VLLM_REFUSAL = {  # vLLM started without --enable-auto-tool-choice
    "status": 400,
    "response": {
        "object": "error",
        "message": '"auto" tool choice requires --enable-auto-tool-choice and '
        "--tool-call-parser to be set",
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    },
}


def agent_on(tape: Tape, tool_choice: str | None) -> ModelAgent:
    client = ChatCompletionsClient(
        base_url="http://127.0.0.1:8001/v1",
        transport=tape.httpx_transport(),
        retry=RetryPolicy(max_retries=1, sleep=Waits()),
    )
    settings = ModelSettings("qwen", 0.0, 0, 300, tool_choice)
    return ModelAgent(ChatCompletionsAdapter(client, settings))


@pytest.mark.parametrize("tool_choice", [None, "auto", "required", "none"])
async def test_tool_choice_is_sent_as_given_and_not_at_all_by_default(
    tool_choice: str | None,
) -> None:
    tape = Tape.of([ANSWER])
    agent = agent_on(tape, tool_choice)
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "completed", result.error
    (body,) = tape.bodies
    assert body["tools"]
    if tool_choice is None:
        assert "tool_choice" not in body
    else:
        assert body["tool_choice"] == tool_choice


async def test_a_400_naming_tool_choice_names_the_flag_and_the_way_out() -> None:
    tape = Tape.of([VLLM_REFUSAL])
    agent = agent_on(tape, "auto")
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "model_error"  # the request's, not an outage: no retry
    assert len(tape.requests) == 1
    assert result.error is not None
    assert "refused --tool-choice auto" in result.error
    assert "--enable-auto-tool-choice" in result.error
    assert "run without --tool-choice" in result.error


async def test_a_400_not_naming_it_is_left_as_it_is() -> None:
    other = {"status": 400, "response": {"error": {"message": "bad temperature"}}}
    tape = Tape.of([other])
    agent = agent_on(tape, "auto")
    with anyio.fail_after(10):
        result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    assert result.termination == "model_error"
    assert result.error is not None and "--tool-choice" not in result.error


LOCAL = {"base_url": "http://127.0.0.1:8088/v1", "max_turns": 8, "temperature": 0.0}
LOCAL |= {"model_seed": 0, "max_output_tokens": 300}


def test_the_option_reaches_the_settings_only_when_given() -> None:
    given = build("openai-compatible:qwen", tool_choice="auto", **LOCAL)
    plain = build("openai-compatible:qwen", **LOCAL)
    assert isinstance(given, ModelAgent) and isinstance(plain, ModelAgent)
    assert given.settings()["tool_choice"] == "auto"
    assert "tool_choice" not in plain.settings()
    sdk = build("openai:gpt-4.1", api_key="sk-test", tool_choice="required")
    assert isinstance(sdk, ModelAgent) and sdk.settings()["tool_choice"] == "required"


@pytest.mark.parametrize(
    ("model", "choice", "says"),
    [
        ("openai-compatible:qwen", "any", "not a tool choice; valid: auto, required, none"),
        ("anthropic:claude-sonnet-5-5", "auto", "Chat Completions vendors"),
        ("gemini:gemini-2.5-flash", "auto", "Chat Completions vendors"),
    ],
)
def test_a_value_or_vendor_it_does_not_fit_is_refused(model: str, choice: str, says: str) -> None:
    with pytest.raises(typer.BadParameter, match=says):
        build(model, api_key="k", tool_choice=choice, **LOCAL)


RECORDED_BEFORE_THE_OPTION = {  # a run's settings as real30's mcpgym recorded them
    "base_url": "http://127.0.0.1:8088/v1",
    "max_tokens": 300,
    "max_turns": 8,
    "model": "qwen",
    "parse_text_tool_calls": True,
    "seed": 0,
    "stream": True,
    "system_prompt": DEFAULT_SYSTEM_PROMPT,
    "temperature": 0.0,
    "time_limit": None,
    "token_budget": None,
    "vendor": "openai-compatible",
}


def test_a_run_recorded_before_the_option_resumes_without_it(tmp_path: Path) -> None:
    plain = build("openai-compatible:qwen", **LOCAL)
    given = build("openai-compatible:qwen", tool_choice="auto", **LOCAL)
    assert isinstance(plain, ModelAgent) and isinstance(given, ModelAgent)
    assert plain.settings() == RECORDED_BEFORE_THE_OPTION
    kw: dict[str, Any] = {"env": "toy", "lock": "l", "agent": "openai-compatible"}
    kw |= {"model": "qwen", "selection": {"variants": ["set-target@easy#0"], "epochs": 1}}
    with RunStore(tmp_path / "runs.db") as store:
        old = store.create_run(env_version="1", settings=RECORDED_BEFORE_THE_OPTION, **kw)
        assert store.find_resumable(settings=plain.settings(), **kw) == old
        assert store.find_resumable(settings=given.settings(), **kw) is None
        row = store.run(old)
    said = differences(
        row, lock="l", model="qwen", settings=given.settings(), conditions=row["conditions"] or {}
    )
    assert said == ["agent settings: tool_choice (--tool-choice)", *said[1:]]


def test_the_flag_without_a_model_agent_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["eval", "helpdesk", "--tool-choice", "auto"])
    assert result.exit_code == 2
    assert "--tool-choice is for model agents" in flat(result.output)
