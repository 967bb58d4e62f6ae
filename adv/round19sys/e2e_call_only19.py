"""One `ModelAgent` episode against a real llama-cpp-python ``chatml-function-calling`` server,
its first request forcing a tool call (so that the 1.5B model calls), then the loop as is.

    uv run python adv/round19sys/e2e_call_only19.py http://127.0.0.1:18932/v1

Prints each request's call-only message form and status (through an httpx event hook),
the episode's termination and answer. Shows S19-R1 end to end: on main the second request
is refused (500) on every attempt; with the fix it is sent again with ``content: ""``.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

import anyio
import httpx

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent
from tests.clients.fakes import FakeEpisode


class FirstCallForced(ChatCompletionsAdapter):
    """Forces ``get`` on the first request (``tool_choice``), nothing else changed."""

    def _body(self, history: list[Any], tools: list[Any]) -> dict[str, Any]:
        body = super()._body(history, tools)
        if len(history) == 2:
            body["tool_choice"] = {"type": "function", "function": {"name": "get"}}
        return body


async def main(url: str) -> None:
    """Run the episode against ``url`` and print what went over the wire."""

    async def show(response: httpx.Response) -> None:
        await response.aread()
        body = json.loads(response.request.content or b"{}")
        forms = [
            m.get("content", "<omitted>") for m in body.get("messages", []) if m.get("tool_calls")
        ]
        print(f"{response.status_code} call-only content: {forms} {response.text[:120]!r}")

    client = ChatCompletionsClient(
        base_url=url, stream=False, retry=RetryPolicy(max_retries=1, base_delay=0.5)
    )
    client._http.event_hooks["response"] = [show]
    agent = ModelAgent(
        FirstCallForced(client, ModelSettings("qwen", 0.0, 0, 64)),
        max_turns=4,
        parse_text_tool_calls=True,
    )
    result = await agent.run(FakeEpisode().context())
    await agent.aclose()
    print("termination:", result.termination, "| error:", result.error, "| answer:", result.answer)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    anyio.run(main, sys.argv[1])
