"""Every vendor adapter completes a helpdesk task over real loopback servers, graded 1.0.

The model API is scripted (no network): a handler behind the adapter's injected transport
answers in the vendor's wire format with the variant's reference calls, two per turn
(parallel calls), then ``submit``. Before answering it checks that the previous turn's
calls were all answered, paired by id (by name and order for Gemini), so a mis-paired
history fails the episode. For the strict-mode vendors it also writes ``null`` for every
optional argument the reference leaves out, as OpenAI's strict mode makes models do.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import httpx2
import pytest

from mcpgym_clients import EpisodeDriver, LocalServers
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import VENDORS, build_adapter
from mcpgym_server import Environment

pytestmark = pytest.mark.anyio

TASK, BAND, SEED = "change-shipping-address", "medium", 3
VENDOR_NAMES = ("openai", "openai-responses", "anthropic", "gemini", "openai-compatible")


class ScriptedModel:
    """Answers model requests with the reference calls in ``vendor``'s wire format."""

    def __init__(self, vendor: str, env: Environment) -> None:
        self.vendor = vendor
        variant = env.variant(TASK, BAND, SEED)
        calls = [(c.name, dict(c.arguments)) for c in variant.reference]
        calls.append(("submit", {"answer": "address updated and the customer told"}))
        if vendor in ("openai", "openai-responses"):
            calls = [(n, self._nulls(env, n, a)) for n, a in calls]
        self.turns = [calls[i : i + 2] for i in range(0, len(calls), 2)]
        self.sent: list[list[str]] = []
        self.problems: list[str] = []

    @staticmethod
    def _nulls(env: Environment, name: str, args: dict[str, Any]) -> dict[str, Any]:
        props = env.tools[name].input_schema.get("properties", {}) if name in env.tools else {}
        return {**dict.fromkeys(props), **args}

    def handle(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.sent:
            self._check_answered(body)
        turn = len(self.sent)
        calls = self.turns[turn]
        ids = [f"id_{turn}_{i}" for i in range(len(calls))]
        self.sent.append(ids)
        return getattr(self, "_" + self.vendor.replace("-", "_"))(calls, ids)

    def _check_answered(self, body: dict[str, Any]) -> None:
        ids = self.sent[-1]
        if self.vendor in ("openai", "openai-compatible"):
            got = [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"][-len(ids) :]
        elif self.vendor == "openai-responses":
            got = [i["call_id"] for i in body["input"] if i.get("type") == "function_call_output"]
            got = got[-len(ids) :]
        elif self.vendor == "anthropic":
            last = body["messages"][-1]
            got = [b["tool_use_id"] for b in last["content"]] if last["role"] == "user" else []
        else:
            last = body["contents"][-1]
            names = [p["functionResponse"]["name"] for p in last["parts"]]
            expected = [n for n, _ in self.turns[len(self.sent) - 1]]
            got = ids if names == expected else names
        if got != ids:
            self.problems.append(f"turn {len(self.sent)}: answered {got}, expected {ids}")

    def _usage(self) -> dict[str, int]:
        return {"prompt_tokens": 500, "completion_tokens": 40, "total_tokens": 540}

    def _openai(self, calls: list[Any], ids: list[str]) -> dict[str, Any]:
        tool_calls = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for (n, a), i in zip(calls, ids, strict=True)
        ]
        message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": tool_calls}
        return {
            "id": f"chatcmpl-{ids[0]}",
            "object": "chat.completion",
            "created": 1764500000,
            "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
            "usage": self._usage(),
        }

    _openai_compatible = _openai

    def _openai_responses(self, calls: list[Any], ids: list[str]) -> dict[str, Any]:
        output = [
            {
                "id": f"fc_{i}",
                "type": "function_call",
                "status": "completed",
                "call_id": i,
                "name": n,
                "arguments": json.dumps(a),
            }
            for (n, a), i in zip(calls, ids, strict=True)
        ]
        usage = {"input_tokens": 500, "output_tokens": 40, "total_tokens": 540}
        return {
            "id": f"resp_{ids[0]}",
            "object": "response",
            "created_at": 1764500000,
            "status": "completed",
            "model": "scripted",
            "output": output,
            "usage": usage,
        }

    def _anthropic(self, calls: list[Any], ids: list[str]) -> dict[str, Any]:
        content = [
            {"type": "tool_use", "id": i, "name": n, "input": a}
            for (n, a), i in zip(calls, ids, strict=True)
        ]
        return {
            "id": f"msg_{ids[0]}",
            "type": "message",
            "role": "assistant",
            "model": "scripted",
            "content": content,
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 500, "output_tokens": 40},
        }

    def _gemini(self, calls: list[Any], ids: list[str]) -> dict[str, Any]:
        parts = [{"functionCall": {"name": n, "args": a}} for n, a in calls]
        return {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 500,
                "candidatesTokenCount": 40,
                "totalTokenCount": 540,
            },
            "modelVersion": "scripted",
        }


def _agent(vendor: str, model: ScriptedModel) -> ModelAgent:
    retry = RetryPolicy(max_retries=0)
    settings = ModelSettings("scripted", max_tokens=1024)

    def answer(content: bytes) -> tuple[int, dict[str, Any]]:
        return 200, model.handle(json.loads(content))

    if vendor == "openai-compatible":

        def handler(request: httpx.Request) -> httpx.Response:
            status, body = answer(request.read())
            return httpx.Response(status, json=body)

        client = ChatCompletionsClient(
            base_url="http://127.0.0.1:9/v1", transport=httpx.MockTransport(handler), retry=retry
        )
        return ModelAgent(ChatCompletionsAdapter(client, settings), max_turns=10)

    def handler2(request: httpx2.Request) -> httpx2.Response:
        status, body = answer(request.read())
        return httpx2.Response(status, json=body)

    adapter = build_adapter(
        VENDORS[vendor],
        settings,
        api_key="sk-test",
        base_url=None,
        transport=httpx2.MockTransport(handler2),
        retry=retry,
    )
    return ModelAgent(adapter, max_turns=10, time_limit=60.0)


@pytest.mark.parametrize("vendor", VENDOR_NAMES)
async def test_a_scripted_model_completes_a_helpdesk_task_through_each_adapter(
    vendor: str, servers: LocalServers, helpdesk: Environment
) -> None:
    model = ScriptedModel(vendor, helpdesk)
    agent = _agent(vendor, model)
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as driver:
        await driver.server_info()
        with anyio.fail_after(60):
            record = await driver.run_episode(agent, TASK, BAND, SEED)
    await agent.aclose()
    assert model.problems == []
    assert record.termination == "completed", record.error
    assert record.episode_termination == "submitted"
    assert len(model.sent) == len(model.turns) >= 4  # a multi-turn episode
    assert record.steps == sum(len(t) for t in model.turns)
    assert record.grade is not None and record.grade["score"] == 1.0, record.grade
    assert record.scored
    assert agent.settings()["vendor"] == vendor
