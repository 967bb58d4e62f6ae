"""``anthropic``: the Messages API through the ``anthropic`` SDK (extra ``[anthropic]``).

Wire format: docs.anthropic.com/en/api/messages and .../build-with-claude/tool-use. The
system prompt is the ``system`` field; the history alternates user and assistant
messages. The assistant's content blocks go back as returned (thinking blocks keep their
signatures) except empty text blocks, which the API rejects; all ``tool_result`` blocks of
a turn go back in ONE user message, each with its ``tool_use_id`` and ``is_error`` set for
tool errors. ``max_tokens`` is required by the API (default `DEFAULT_MAX_TOKENS`); there
is no seed (not sent). Stop reasons: ``end_turn``/``stop_sequence`` -> end, ``tool_use``,
``max_tokens``/``model_context_window_exceeded`` -> max_tokens, ``refusal``.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

from mcpgym_clients.adapters.base import (
    FunctionCall,
    ModelAdapter,
    ModelSettings,
    ModelTurn,
    StopReason,
    has_text,
    json_args,
    require,
    sdk_error,
)
from mcpgym_clients.adapters.retry import RetryPolicy, with_retries
from mcpgym_clients.adapters.schemas import anthropic_input_schema
from mcpgym_clients.errors import ConfigurationError, ModelAPIError
from mcpgym_clients.protocol import ToolDef, ToolOutcome

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MAX_TOKENS = 4096
"""``max_tokens`` sent when none is set (the Messages API requires one)."""

_STOP: dict[str, StopReason] = {
    "end_turn": "end",
    "stop_sequence": "end",
    "tool_use": "tool_calls",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "refusal": "refusal",
}


def anthropic_turn(data: dict[str, Any]) -> ModelTurn:
    """A `ModelTurn` from a Messages API response object.

    Raises:
        ModelAPIError: the body has no ``content`` list.
    """
    content = data.get("content")
    if not isinstance(content, list):
        raise ModelAPIError(f"model response has no content: {json.dumps(data)[:500]}")
    texts = [b["text"] for b in content if b.get("type") == "text" and b.get("text")]
    calls = [
        FunctionCall(b["id"], b["name"], json.dumps(b.get("input") or {}))
        for b in content
        if b.get("type") == "tool_use"
    ]
    raw_stop = data.get("stop_reason")
    stop = _STOP.get(raw_stop or "", "other")
    if stop in ("end", "other") and calls:
        stop = "tool_calls"
    raw = data.get("usage") or {}
    usage: dict[str, float] = {}
    cache_read = raw.get("cache_read_input_tokens") or 0
    cache_write = raw.get("cache_creation_input_tokens") or 0
    if isinstance(raw.get("input_tokens"), int):
        usage["prompt_tokens"] = raw["input_tokens"] + cache_read + cache_write
    if isinstance(raw.get("output_tokens"), int):
        usage["completion_tokens"] = raw["output_tokens"]
    if "prompt_tokens" in usage and "completion_tokens" in usage:  # absent: unknown, not 0
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    if cache_read:
        usage["cached_tokens"] = cache_read
    text = "\n".join(texts) or None
    return ModelTurn(
        text=text,
        calls=calls,
        stop=stop,
        raw_stop=raw_stop,
        usage=usage,
        response_id=data.get("id"),
        native=content,
        raw=content,
        refusal=(text or "") if stop == "refusal" else None,
    )


def anthropic_sdk_client(
    *, api_key: str | None, base_url: str | None, transport: Any = None, timeout: float = 120.0
) -> Any:
    """An ``anthropic.AsyncAnthropic`` with SDK retries off and an optional transport.

    Raises:
        MissingExtraError: the ``anthropic`` package is not installed.
    """
    anthropic = require("anthropic", "anthropic")
    import httpx2

    return anthropic.AsyncAnthropic(
        api_key=api_key or "unset",
        base_url=base_url or DEFAULT_BASE_URL,
        max_retries=0,
        http_client=httpx2.AsyncClient(transport=transport, timeout=timeout),
    )


class AnthropicAdapter(ModelAdapter):
    """``anthropic``: ``messages.create`` with our retries.

    Args:
        sdk: an ``anthropic.AsyncAnthropic`` (see `anthropic_sdk_client`).
        settings: model and sampling. retry: the `RetryPolicy`.

    Raises:
        ConfigurationError: a temperature is set but the installed SDK's
            ``messages.create`` has no such parameter (recent API versions dropped it).
    """

    vendor = "anthropic"

    def __init__(self, sdk: Any, settings: ModelSettings, *, retry: RetryPolicy | None = None):
        super().__init__(settings, retry=retry, base_url=str(sdk.base_url).rstrip("/"))
        self.sdk = sdk
        self._takes_temperature = "temperature" in inspect.signature(sdk.messages.create).parameters
        if settings.temperature is not None and not self._takes_temperature:
            raise ConfigurationError(
                "the installed anthropic SDK's Messages API takes no temperature: "
                "drop --temperature for anthropic: models"
            )

    def recorded_settings(self) -> dict[str, Any]:
        """As the base class, with the ``max_tokens`` actually sent and no seed."""
        out = super().recorded_settings()
        out["max_tokens"] = self.settings.max_tokens or DEFAULT_MAX_TOKENS
        out["seed"] = None
        return out

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """``{name, description, input_schema}`` with `anthropic_input_schema`."""
        return [
            {
                "name": t.name,
                "description": t.description,
                "input_schema": anthropic_input_schema(t.input_schema),
            }
            for t in tools
        ]

    def start(self, system: str, instruction: str) -> list[Any]:
        """The system prompt (sent as ``system``) and the user message."""
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": instruction},
        ]

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """``messages.create`` with the history."""
        s = self.settings
        system = [h["content"] for h in history if h["role"] == "system"]
        body: dict[str, Any] = {
            "model": s.model,
            "max_tokens": s.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": [h for h in history if h["role"] != "system"],
            "tools": tools,
        }
        if system:
            body["system"] = system[0]
        if s.temperature is not None:
            body["temperature"] = s.temperature

        async def attempt() -> dict[str, Any]:
            try:
                resp = await self.sdk.messages.create(**body)
            except Exception as exc:  # vendor boundary
                if isinstance(exc, ModelAPIError):
                    raise
                raise sdk_error(exc, where=f"model API at {self.base_url}") from exc
            return resp.to_dict()

        return anthropic_turn(await with_retries(self.retry, attempt))

    def assistant_entries(self, turn: ModelTurn) -> list[Any]:
        """The content blocks minus whitespace-only text (the API rejects it), tool_use ids
        as the loop settled them."""
        ids = iter(c.id for c in turn.calls)
        blocks = []
        if turn.native is None:
            blocks = [{"type": "text", "text": turn.text}] if has_text(turn.text) else []
            blocks += [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": json_args(c.arguments)}
                for c in turn.calls
            ]
        else:
            for block in turn.native:
                if block.get("type") == "text" and not has_text(block.get("text")):
                    continue
                if block.get("type") == "tool_use":
                    block = {**block, "id": next(ids)}
                blocks.append(block)
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def result_entries(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> list[Any]:
        """ONE user message holding every ``tool_result`` of the turn, in order."""
        blocks = []
        for call, outcome in results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.id}
            if outcome.text:
                block["content"] = outcome.text
            if outcome.is_error:
                block["is_error"] = True
            blocks.append(block)
        return [{"role": "user", "content": blocks}]

    def user_entries(self, text: str) -> list[Any]:
        """A user message."""
        return [{"role": "user", "content": text}]

    async def check(self) -> None:
        """``GET /v1/models?limit=1``: fails on a wrong URL or path (404) or key (401)."""
        try:
            await self.sdk.models.list(limit=1)
        except Exception as exc:  # vendor boundary
            err = sdk_error(exc, where=f"model API at {self.base_url}")
            if err.status == 404:
                err = ModelAPIError(
                    f"no Anthropic API at {self.base_url}: GET /v1/models answered 404 "
                    "(check --base-url; it must not end in /v1)",
                    status=404,
                )
            raise err from None

    async def aclose(self) -> None:
        """Close the SDK client."""
        await self.sdk.close()
