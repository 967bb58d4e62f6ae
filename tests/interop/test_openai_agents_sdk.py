"""The OpenAI Agents SDK's own loop drives helpdesk episodes through examples/openai_agents_sdk.py.

No key and no network: an `agents.Model` scripted from the variant's reference solution
stands in for the OpenAI model, so what runs is the SDK's real runner, its real MCP client
(`MCPServerStreamableHttp`) and our real servers on loopback; the episode is then graded.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from agents import Model, ModelResponse, RunConfig, Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from mcpgym_clients import LocalServers
from mcpgym_server import Environment

from .conftest import grade

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openai_agents_sdk.py"


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("openai_agents_sdk_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ScriptedModel(Model):
    """Answers each turn with the next planned tool calls (several in one turn when planned
    so), then a final text message; keeps what it was shown."""

    def __init__(self, turns: list[list[tuple[str, dict[str, Any]]]]) -> None:
        self.turns = turns
        self.tool_names: list[str] = []
        self.outputs: dict[str, Any] = {}  # call_id -> function_call_output shown to the model

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kw: Any):
        tools = kw.get("tools", args[2] if len(args) > 2 else [])
        self.tool_names = [t.name for t in tools]
        for item in input if isinstance(input, list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                self.outputs[item["call_id"]] = item["output"]
        step = sum(1 for i in input if isinstance(i, dict) and i.get("type") == "function_call")
        done = 0
        for index, calls in enumerate(self.turns):
            if done == step:
                output = [
                    ResponseFunctionToolCall(
                        type="function_call",
                        id=f"fc_{index}_{n}",
                        call_id=f"call_{index}_{n}",
                        name=name,
                        arguments=json.dumps(arguments),
                        status="completed",
                    )
                    for n, (name, arguments) in enumerate(calls)
                ]
                return ModelResponse(output=output, usage=Usage(), response_id=None)
            done += len(calls)
        message = ResponseOutputMessage(
            id="msg_final",
            type="message",
            role="assistant",
            status="completed",
            content=[ResponseOutputText(type="output_text", text="Done.", annotations=[])],
        )
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def shown(self, call_id: str) -> str:
        """The text the SDK showed the model as the output of call ``call_id``."""
        output = self.outputs[call_id]
        if isinstance(output, str):
            return output
        return "".join(part["text"] for part in output if part.get("type") == "input_text")

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the test runs without streaming")


@pytest.mark.anyio
@pytest.mark.parametrize("band", ["easy", "hard"])
async def test_an_agents_sdk_run_scores_full_marks_and_sees_tool_errors(
    servers: LocalServers, helpdesk: Environment, band: str
) -> None:
    example = load_example()
    variant = helpdesk.variant("order-status", band, 5)
    calls = [(c.name, dict(c.arguments)) for c in variant.reference]
    # turn 1: the first reference call and a failing one, in parallel; then one call a turn
    turns = [[calls[0], ("get_order", {"order_id": 1})], *[[c] for c in calls[1:]]]
    turns.append([("submit", {"answer": "told the customer"})])
    model = ScriptedModel(turns)

    with anyio.fail_after(60):
        episode_id, answer, sealed = await example.run_episode(
            servers.env_url,
            "order-status",
            band,
            5,
            model,
            run_config=RunConfig(tracing_disabled=True),
            control_token=servers.control_token,
        )

    assert answer == "Done."
    assert sealed["termination"] == "submitted"  # the agent's submit sealed it first
    assert len(model.tool_names) == 23 and "submit" in model.tool_names
    # the tool error reached the model as the tool's message, the good call as its JSON
    assert model.shown("call_0_1").startswith("no order with id 1; order numbers look like")
    assert json.loads(model.shown("call_0_0"))["id"] == calls[0][1]["ticket_id"]
    graded = await grade(servers, episode_id)
    failed = [c["name"] for c in graded["checks"] if c["applicable"] and not c["passed"]]
    assert (graded["status"], graded["score"], graded["passed"], failed) == (
        "graded",
        1.0,
        True,
        [],
    )


class FailingModel(ScriptedModel):
    """A model whose API fails on the first request."""

    async def get_response(self, *args: Any, **kw: Any):  # type: ignore[override]
        raise RuntimeError("model API down")


@pytest.mark.anyio
async def test_the_example_ends_the_episode_when_the_run_fails(servers: LocalServers) -> None:
    import httpx

    example = load_example()
    opened: list[str] = []
    real_open = example.open_episode

    async def open_and_note(*args: Any, **kw: Any) -> dict[str, Any]:
        episode = await real_open(*args, **kw)
        opened.append(episode["episode_id"])
        return episode

    example.open_episode = open_and_note
    with anyio.fail_after(60), pytest.raises(RuntimeError, match="model API down"):
        await example.run_episode(
            servers.env_url,
            "order-status",
            "easy",
            0,
            FailingModel([]),
            run_config=RunConfig(tracing_disabled=True),
            control_token=servers.control_token,
        )
    (episode_id,) = opened
    async with httpx.AsyncClient(headers=servers.control_headers) as http:
        meta = (await http.get(f"{servers.env_url}/episodes/{episode_id}")).json()
    assert (meta["state"], meta["termination"]) == ("sealed", "ended")


@pytest.mark.anyio
async def test_an_agents_sdk_run_on_the_connect_to_start_url_is_one_episode(
    servers: LocalServers,
) -> None:
    # The SDK's MCP client on mcp 2.3 probes `server/discover` first; connect-to-start
    # refuses it, so the client falls back to the handshake and its session is an episode.
    from agents import Agent, Runner
    from agents.mcp import MCPServerStreamableHttp

    url = f"{servers.env_url}/tasks/order-status/mcp?seed=2&band=easy"
    model = ScriptedModel([[("list_tickets", {})], [("submit", {"answer": "looked"})]])
    with anyio.fail_after(60):
        async with MCPServerStreamableHttp(
            params={"url": url, "headers": servers.control_headers, "timeout": 60},
            name="mcpgym-connect-to-start",
            client_session_timeout_seconds=60,
        ) as server:
            agent = Agent(name="support", instructions="Help.", mcp_servers=[server], model=model)
            await Runner.run(
                agent, "Look at the tickets.", run_config=RunConfig(tracing_disabled=True)
            )
    assert not model.shown("call_0_0").startswith("this MCP connection has no episode")
    assert json.loads(model.shown("call_0_0"))[0]["id"] > 0  # the tickets, as JSON
    submitted = json.loads(model.shown("call_1_0"))
    assert submitted["status"] == "ended"
    async with httpx.AsyncClient(headers=servers.control_headers) as http:
        meta = (await http.get(f"{servers.env_url}/episodes/{submitted['episode_id']}")).json()
    assert (meta["state"], meta["termination"], meta["steps"]) == ("sealed", "submitted", 2)
