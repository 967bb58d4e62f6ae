"""Recorded vendor responses served through injected transports, and agents built on them.

A cassette file is ``{"interactions": [{"status": 200, "headers": {...}, "response":
{...}}, ...]}``: the JSON body and headers exactly as the vendor API answers. `Tape`
serves them in order to an ``httpx`` or ``httpx2`` transport (the vendor SDKs use
``httpx2``; the plain Chat Completions client uses ``httpx``) and keeps every request.
No request leaves the process, and no key is recorded (tests use ``sk-test``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest

from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.agents.vendors import VENDORS, build_adapter

CASSETTES = Path(__file__).parent / "cassettes"

ADAPTERS = ("openai", "openai-responses", "anthropic", "gemini", "openai-compatible")
"""Every vendor of ``--model VENDOR:MODEL``."""

PREFIX = {
    "openai": "openai",
    "openai-responses": "responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai-compatible": "openai",  # the same wire format as OpenAI's Chat Completions
}
"""Cassette file prefix per vendor."""

MODEL = {
    "openai": "gpt-4.1",
    "openai-responses": "gpt-4.1",
    "anthropic": "claude-sonnet-5-5",
    "gemini": "gemini-2.5-flash",
    "openai-compatible": "qwen2.5-7b-instruct",
}


class Tape:
    """Serves a cassette's interactions in order; records the requests (method, URL, body)."""

    def __init__(self, name: str) -> None:
        data = json.loads((CASSETTES / name).read_text())
        self.interactions: list[dict[str, Any]] = list(data["interactions"])
        self.requests: list[tuple[str, str, dict[str, str], Any]] = []

    @classmethod
    def of(cls, interactions: list[dict[str, Any]]) -> Tape:
        """A tape serving ``interactions`` (same shape as a cassette's) instead of a file."""
        tape = cls.__new__(cls)
        tape.interactions, tape.requests = list(interactions), []
        return tape

    def _answer(self, method: str, url: str, headers: Any, content: bytes) -> tuple[int, Any, Any]:
        body = json.loads(content) if content else None
        self.requests.append((method, url, dict(headers), body))
        if not self.interactions:
            return 599, {"error": {"message": "cassette exhausted"}}, {}
        item = self.interactions.pop(0)
        return item.get("status", 200), item["response"], item.get("headers", {})

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies sent so far."""
        return [r[3] for r in self.requests]

    def httpx2_transport(self) -> httpx2.MockTransport:
        def handler(request: httpx2.Request) -> httpx2.Response:
            status, body, headers = self._answer(
                request.method, str(request.url), request.headers, request.read()
            )
            return httpx2.Response(status, json=body, headers=headers)

        return httpx2.MockTransport(handler)

    def httpx_transport(self) -> httpx.MockTransport:
        def handler(request: httpx.Request) -> httpx.Response:
            status, body, headers = self._answer(
                request.method, str(request.url), request.headers, request.read()
            )
            return httpx.Response(status, json=body, headers=headers)

        return httpx.MockTransport(handler)


class Waits:
    """A `RetryPolicy.sleep` that records the waits asked for and returns at once."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


def make_agent(
    vendor: str,
    tape: Tape,
    *,
    waits: Waits | None = None,
    max_retries: int = 3,
    max_tokens: int | None = None,
    seed: int | None = None,
    temperature: float | None = None,
    **loop: Any,
) -> ModelAgent:
    """A `ModelAgent` for ``vendor`` whose HTTP goes to ``tape`` and whose retries never sleep."""
    retry = RetryPolicy(max_retries=max_retries, base_delay=1.0, sleep=waits or Waits())
    settings = ModelSettings(MODEL[vendor], temperature, seed, max_tokens)
    if vendor == "openai-compatible":
        client = ChatCompletionsClient(
            base_url="http://127.0.0.1:8001/v1", transport=tape.httpx_transport(), retry=retry
        )
        return ModelAgent(ChatCompletionsAdapter(client, settings), **loop)
    adapter = build_adapter(
        VENDORS[vendor],
        settings,
        api_key="sk-test",
        base_url=None,
        transport=tape.httpx2_transport(),
        retry=retry,
    )
    return ModelAgent(adapter, **loop)


@pytest.fixture
def tape_for() -> Any:
    """``tape_for(vendor, scenario)`` -> the `Tape` of ``{prefix}_{scenario}.json``."""
    return lambda vendor, scenario: Tape(f"{PREFIX[vendor]}_{scenario}.json")
