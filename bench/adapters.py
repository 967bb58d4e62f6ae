"""Harness overhead per model turn, per vendor adapter (no network, no model time).

Each adapter runs episodes against a scripted model behind an injected transport: every
turn asks for two tool calls, answered by an in-memory tool; the last turn gives the
answer. What is timed is everything the harness adds to a turn: building the request from
the history, the SDK (or httpx) request and response handling, parsing, pairing the
results. Run ``uv run python bench/adapters.py [TURNS]``; prints ms per turn per adapter and
its ratio to a baseline measured in the same run: a bare httpx client posting the same growing
conversation as JSON through the same kind of mock transport and decoding the reply, with no
adapter, SDK or pairing (the floor any harness pays for one request).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import anyio
import httpx
import httpx2

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import VENDORS, build_adapter
from mcpgym_clients.protocol import EpisodeContext, ToolDef, ToolOutcome

TOOL = ToolDef(
    "get",
    "Read a key.",
    {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]},
)


def reply(vendor: str, turn: int, last: bool) -> dict[str, Any]:
    """One scripted response in ``vendor``'s wire format."""
    ids = [f"c{turn}_{i}" for i in range(2)]
    if vendor in ("openai", "openai-compatible"):
        msg: dict[str, Any] = {"role": "assistant", "content": "done" if last else None}
        if not last:
            msg["tool_calls"] = [
                {
                    "id": i,
                    "type": "function",
                    "function": {"name": "get", "arguments": '{"key":"a"}'},
                }
                for i in ids
            ]
        return {
            "id": "x",
            "choices": [
                {"index": 0, "message": msg, "finish_reason": "stop" if last else "tool_calls"}
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
    if vendor == "openai-responses":
        out: list[dict[str, Any]] = (
            [
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "done"}],
                }
            ]
            if last
            else [
                {"type": "function_call", "call_id": i, "name": "get", "arguments": '{"key":"a"}'}
                for i in ids
            ]
        )
        return {"id": "r", "object": "response", "status": "completed", "output": out,
                "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}  # fmt: skip
    if vendor == "anthropic":
        content = (
            [{"type": "text", "text": "done"}]
            if last
            else [{"type": "tool_use", "id": i, "name": "get", "input": {"key": "a"}} for i in ids]
        )
        return {"id": "m", "type": "message", "role": "assistant", "model": "m", "content": content,
                "stop_reason": "end_turn" if last else "tool_use",
                "usage": {"input_tokens": 10, "output_tokens": 5}}  # fmt: skip
    parts = (
        [{"text": "done"}]
        if last
        else [{"functionCall": {"name": "get", "args": {"key": "a"}}} for _ in ids]
    )
    usage = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}
    return {"candidates": [candidate], "usageMetadata": usage}


def agent(vendor: str, turns: int) -> ModelAgent:
    """A model agent whose scripted model ends each episode after ``turns`` turns."""
    count = 0

    def body() -> dict[str, Any]:
        nonlocal count
        count += 1
        last = count % turns == 0
        return reply(vendor, count, last)

    settings = ModelSettings("m")
    retry = RetryPolicy(max_retries=0)
    if vendor == "openai-compatible":
        transport = httpx.MockTransport(lambda r: httpx.Response(200, json=body()))
        client = ChatCompletionsClient(base_url="http://x/v1", transport=transport, retry=retry)
        return ModelAgent(ChatCompletionsAdapter(client, settings), max_turns=turns + 1)
    transport2 = httpx2.MockTransport(lambda r: httpx2.Response(200, json=body()))
    adapter = build_adapter(
        VENDORS[vendor], settings, api_key="k", base_url=None, transport=transport2, retry=retry
    )
    return ModelAgent(adapter, max_turns=turns + 1)


async def call_tool(name: str, args: Any) -> ToolOutcome:
    """The in-memory tool."""
    return ToolOutcome(False, json.dumps({"key": "a", "value": "1"}), {"key": "a", "value": "1"})


async def baseline_ms(turns: int, episodes: int = 5) -> float:
    """ms per turn of a bare httpx POST of the conversation (the baseline; see module doc)."""
    count = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal count
        count += 1
        return httpx.Response(200, json=reply("openai", count, count % turns == 0))

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        t0 = time.perf_counter()
        for _ in range(episodes):
            history: list[dict[str, Any]] = [{"role": "user", "content": "Read a."}]
            for _turn in range(turns):
                response = await client.post("http://x/v1/chat/completions", json={
                    "model": "m", "messages": history, "tools": [TOOL.input_schema]})  # fmt: skip
                message = response.json()["choices"][0]["message"]
                history.append(message)
                for call in message.get("tool_calls") or []:
                    outcome = await call_tool("get", {})
                    history.append(
                        {"role": "tool", "tool_call_id": call["id"], "content": outcome.text}
                    )
        return (time.perf_counter() - t0) * 1000 / (episodes * turns)


async def main(turns: int) -> None:
    """Time ``turns``-turn episodes for every adapter and the bare-httpx baseline."""
    ctx = EpisodeContext("ep", "v", "Read a.", [TOOL], call_tool)
    await baseline_ms(turns, episodes=1)  # warm-up
    base = await baseline_ms(turns)
    print(f"{'baseline (httpx)':18} {base:6.2f} ms/turn  ({turns}-turn episodes, 2 calls a turn)")
    for vendor in VENDORS:
        a = agent(vendor, turns)
        await a.run(ctx)  # warm-up (imports, clients)
        episodes = 5
        t0 = time.perf_counter()
        for _ in range(episodes):
            result = await a.run(ctx)
            assert result.termination == "completed", result.error
        ms = (time.perf_counter() - t0) * 1000 / (episodes * turns)
        await a.aclose()
        print(f"{vendor:18} {ms:6.2f} ms/turn  {ms / base:5.1f}x baseline")


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 20)
