"""Policies a rollout can run: an OpenAI-compatible endpoint, a chat callable, any agent.

- `OpenAIPolicy`: a base URL (vLLM, SGLang, llama.cpp, any Chat Completions server) and a
  model name; it runs mcpgym's own model loop (`ModelAgent`, the loop of ``mcpgym eval
  --model openai-compatible:...``) and asks the server for token ids and log-probs.
- `ChatPolicy`: an async function ``(messages, tools) -> assistant message`` (your own
  generation, e.g. a trainer's model), driven by the same loop.
- an `Agent` (``ReferenceAgent()``, ``NullAgent()``, your class) or an async function of a
  `HarnessContext` (the function form of ``mcpgym eval --agent``), used as it is.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcpgym_clients.adapters.base import ModelAdapter, ModelSettings, ModelTurn
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter, chat_turn
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.harness import FunctionAgent, is_async_callable
from mcpgym_clients.protocol import Agent

TOKEN_KEYS = ("prompt_token_ids", "generation_token_ids", "generation_log_probs")
"""Keys of a turn's token record (see `mcpgym_clients.adapters.tokens`)."""


@dataclass(frozen=True)
class OpenAIPolicy:
    """A model behind an OpenAI-compatible Chat Completions endpoint.

    Attributes:
        base_url: the API root, e.g. ``http://127.0.0.1:8000/v1``. model: the model id.
        api_key: sent as a bearer token (``None``: none).
        temperature, max_tokens, seed: sampling (``None``: the server's default).
        return_tokens: ask for token ids and log-probs (vLLM ``return_token_ids``).
        parse_text_tool_calls: also run tool calls written as text (local servers that
            leave ``tool_calls`` empty, such as llama.cpp).
        max_turns: model requests per episode.
        system_prompt: replaces the default system prompt of `ModelAgent`.
        timeout: seconds per request.
        transport: an ``httpx`` transport instead of the network (tests).
    """

    base_url: str
    model: str
    api_key: str | None = None
    temperature: float | None = 1.0
    max_tokens: int | None = None
    seed: int | None = None
    return_tokens: bool = True
    parse_text_tool_calls: bool = True
    max_turns: int = 30
    system_prompt: str | None = None
    timeout: float = 300.0
    transport: Any = None

    def agent(self) -> ModelAgent:
        """The `ModelAgent` running this policy (its HTTP client is closed by ``aclose``)."""
        client = ChatCompletionsClient(
            base_url=self.base_url,
            api_key=self.api_key,
            timeout=self.timeout,
            transport=self.transport,
            # token ids and log-probs come whole in an unstreamed answer
            stream=not self.return_tokens,
        )
        settings = ModelSettings(
            self.model, temperature=self.temperature, seed=self.seed, max_tokens=self.max_tokens
        )
        adapter = ChatCompletionsAdapter(client, settings, return_tokens=self.return_tokens)
        return ModelAgent(
            adapter,
            max_turns=self.max_turns,
            parse_text_tool_calls=self.parse_text_tool_calls,
            system_prompt=self.system_prompt,
            name="openai-compatible",
        )


ChatFunction = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Awaitable[Mapping[str, Any]]]
"""``async def policy(messages, tools) -> assistant message`` (Chat Completions shapes)."""


class _CallableAdapter(ChatCompletionsAdapter):
    """A `ModelAdapter` whose "API" is an async function (see `ChatPolicy`)."""

    vendor = "callable"

    def __init__(self, fn: ChatFunction, model: str) -> None:
        ModelAdapter.__init__(self, ModelSettings(model), retry=None, base_url="callable")
        self.fn = fn
        self.return_tokens = False

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        message = dict(await self.fn(list(history), list(tools)))
        tokens = {k: message.pop(k) for k in TOKEN_KEYS if k in message}
        finish = message.pop("finish_reason", None)
        calls = message.get("tool_calls") or []
        for call in calls:
            fn = call.get("function") or {}
            if not isinstance(fn.get("arguments"), str):
                fn["arguments"] = json.dumps(fn.get("arguments") or {})
        message.setdefault("role", "assistant")
        turn = chat_turn({"choices": [{"message": message, "finish_reason": finish or "stop"}]})
        turn.tokens = tokens or None
        return turn

    async def check(self) -> None:
        """Nothing to check."""

    async def aclose(self) -> None:
        """Nothing to close."""


@dataclass(frozen=True)
class ChatPolicy:
    """Your own generation as a policy: ``async def fn(messages, tools) -> message``.

    ``messages`` is the Chat Completions conversation so far (system prompt, task, earlier
    turns, ``role: tool`` results); ``tools`` the Chat Completions tool declarations of the
    episode. Return an assistant message: ``{"content": ..., "tool_calls": [{"id",
    "type": "function", "function": {"name", "arguments"}}]}`` (``arguments`` a JSON
    string or an object); add ``prompt_token_ids``, ``generation_token_ids`` and
    ``generation_log_probs`` to have them recorded for the turn, and ``finish_reason``
    (``length`` ends the episode as ``max_tokens``). No tool call ends the episode.

    Attributes:
        fn: the function. model: the name recorded with the rollout.
        max_turns: model turns per episode. system_prompt: replaces the default.
    """

    fn: ChatFunction
    model: str = "callable"
    max_turns: int = 30
    system_prompt: str | None = None

    def agent(self) -> ModelAgent:
        """The `ModelAgent` driving ``fn``."""
        return ModelAgent(
            _CallableAdapter(self.fn, self.model),
            max_turns=self.max_turns,
            system_prompt=self.system_prompt,
            name="chat-policy",
        )


Policy = Agent | OpenAIPolicy | ChatPolicy | Callable[..., Awaitable[Any]]
"""What `rollout` accepts as the policy (see the module docstring)."""


def as_agent(policy: Policy) -> Agent:
    """The `Agent` that runs ``policy``.

    Raises:
        ConfigurationError: ``policy`` is none of the accepted forms (a bare URL string
            needs a model: use `OpenAIPolicy`).
    """
    if isinstance(policy, Agent):
        return policy
    if isinstance(policy, OpenAIPolicy | ChatPolicy):
        return policy.agent()
    if isinstance(policy, str):
        raise ConfigurationError(
            f"policy {policy!r}: a base URL needs a model name; pass "
            f"OpenAIPolicy(base_url={policy!r}, model=...)"
        )
    if is_async_callable(policy):
        params = [
            p
            for p in inspect.signature(policy).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if len(params) >= 2:
            return ChatPolicy(policy).agent()
        return FunctionAgent(policy)
    raise ConfigurationError(
        f"cannot use {policy!r} as a policy: give an OpenAIPolicy, a ChatPolicy, an Agent or "
        "an async function"
    )
