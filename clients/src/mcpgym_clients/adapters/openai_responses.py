"""``openai-responses``: the OpenAI Responses API through the ``openai`` SDK (extra ``[openai]``).

Wire format: platform.openai.com/docs/api-reference/responses. The history is the
``input`` item list: the user message, then each response's ``output`` items as returned
(reasoning items included, empty text dropped, ``call_id`` rewritten only when the loop
gave a repeated id a fresh one), then one ``function_call_output`` item per call carrying
its ``call_id``. The system prompt travels as ``instructions``. Stop reasons come from
``status`` and ``incomplete_details.reason`` (``max_output_tokens``, ``content_filter``);
refusals are ``refusal`` content parts. The API takes no seed (not sent).
"""

from __future__ import annotations

import copy
from typing import Any

from mcpgym_clients.adapters.base import (
    FunctionCall,
    ModelAdapter,
    ModelSettings,
    ModelTurn,
    StopReason,
    has_text,
    text_of,
)
from mcpgym_clients.adapters.openai_chat import openai_error, sdk_check
from mcpgym_clients.adapters.retry import RetryPolicy, with_retries
from mcpgym_clients.adapters.schemas import openai_parameters, strip_added_nulls
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.protocol import ToolDef, ToolOutcome


def responses_turn(data: dict[str, Any]) -> ModelTurn:
    """A `ModelTurn` from a Responses API response object.

    Raises:
        ModelAPIError: the response failed (``status: failed``) or has no ``output`` list.
    """
    output = data.get("output")
    if data.get("status") == "failed" or not isinstance(output, list):
        err = data.get("error") or {}
        raise ModelAPIError(f"model response failed: {err.get('message', err)}"[:500])
    texts: list[str] = []
    refusal: str | None = None
    calls: list[FunctionCall] = []
    for item in output:
        if item.get("type") == "message":
            for part in item.get("content") or []:
                if part.get("type") == "output_text" and part.get("text"):
                    texts.append(part["text"])
                elif part.get("type") == "refusal":
                    refusal = part.get("refusal") or ""
        elif item.get("type") == "function_call":
            calls.append(FunctionCall(item.get("call_id", ""), item["name"], item["arguments"]))
    reason = (data.get("incomplete_details") or {}).get("reason")
    stop: StopReason
    if data.get("status") == "incomplete":
        stop = "content_filter" if reason == "content_filter" else "max_tokens"
    elif refusal is not None:
        stop = "refusal"
    else:
        stop = "tool_calls" if calls else "end"
    raw = data.get("usage") or {}
    usage: dict[str, float] = {}
    for ours, theirs in (
        ("prompt_tokens", "input_tokens"),
        ("completion_tokens", "output_tokens"),
        ("total_tokens", "total_tokens"),
    ):
        if isinstance(raw.get(theirs), int):
            usage[ours] = raw[theirs]
    cached = (raw.get("input_tokens_details") or {}).get("cached_tokens")
    if isinstance(cached, int):
        usage["cached_tokens"] = cached
    reasoning = (raw.get("output_tokens_details") or {}).get("reasoning_tokens")
    if isinstance(reasoning, int):
        usage["reasoning_tokens"] = reasoning
    return ModelTurn(
        text="\n".join(texts) or None,
        calls=calls,
        stop=stop,
        raw_stop=f"{data.get('status')}" + (f":{reason}" if reason else ""),
        usage=usage,
        response_id=data.get("id"),
        native=output,
        raw=output,
        refusal=refusal,
    )


class OpenAIResponsesAdapter(ModelAdapter):
    """``openai-responses``: ``responses.create`` with our retries and strict tools.

    Args:
        sdk: an ``openai.AsyncOpenAI`` (see `openai_sdk_client`).
        settings: model and sampling (``max_tokens`` is sent as ``max_output_tokens``).
        retry: the `RetryPolicy`.
    """

    vendor = "openai-responses"

    def __init__(self, sdk: Any, settings: ModelSettings, *, retry: RetryPolicy | None = None):
        super().__init__(settings, retry=retry, base_url=str(sdk.base_url).rstrip("/"))
        self.sdk = sdk

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """Function tools (flat Responses shape), strict when the schema allows it."""
        out = []
        for t in tools:
            params, strict = openai_parameters(t.input_schema)
            out.append(
                {
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": params,
                    "strict": strict,
                }
            )
        return out

    def start(self, system: str, instruction: str) -> list[Any]:
        """The system prompt (sent as ``instructions``) and the user message."""
        return [
            {"role": "system", "content": system, "mcpgym_instructions": True},
            {"role": "user", "content": instruction},
        ]

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """``responses.create`` with the item history."""
        s = self.settings
        system = [h for h in history if h.get("mcpgym_instructions")]
        body: dict[str, Any] = {
            "model": s.model,
            "input": [h for h in history if not h.get("mcpgym_instructions")],
            "tools": tools,
        }
        if system:
            body["instructions"] = system[0]["content"]
        if s.temperature is not None:
            body["temperature"] = s.temperature
        if s.max_tokens is not None:
            body["max_output_tokens"] = s.max_tokens

        async def attempt() -> dict[str, Any]:
            try:
                resp = await self.sdk.responses.create(**body)
            except Exception as exc:  # vendor boundary
                raise openai_error(exc, self.base_url) from exc
            return resp.to_dict()

        return responses_turn(await with_retries(self.retry, attempt))

    def recorded_settings(self) -> dict[str, Any]:
        """As the base class, without the seed: the Responses API takes none (not sent)."""
        return {**super().recorded_settings(), "seed": None}

    def assistant_entries(self, turn: ModelTurn) -> list[Any]:
        """The output items, whitespace-only text dropped, call ids as the loop settled them."""
        if turn.native is None:  # calls parsed from text: rebuild as items
            return [
                {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}
                for c in turn.calls
            ]
        ids = iter(c.id for c in turn.calls)
        items = []
        for item in copy.deepcopy(turn.native):
            if item.get("type") == "function_call":
                item["call_id"] = next(ids)
            elif item.get("type") == "message":
                item["content"] = [
                    p
                    for p in item.get("content") or []
                    if not (p.get("type") == "output_text" and not has_text(p.get("text")))
                ]
                if not item["content"]:
                    continue
            items.append(item)
        return items

    def result_entries(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> list[Any]:
        """One ``function_call_output`` per call, paired by ``call_id``."""
        return [
            {"type": "function_call_output", "call_id": call.id, "output": text_of(outcome)}
            for call, outcome in results
        ]

    def user_entries(self, text: str) -> list[Any]:
        """A user message item."""
        return [{"role": "user", "content": text}]

    def prepare_arguments(self, tool: ToolDef | None, arguments: dict[str, Any]) -> dict[str, Any]:
        """Drop the ``null`` strict mode makes the model send for omitted arguments."""
        return arguments if tool is None else strip_added_nulls(tool.input_schema, arguments)

    async def check(self) -> None:
        """``GET /models``; a 404 there is checked with an empty ``POST /responses``."""
        await sdk_check(self.sdk, self.base_url, "/responses")

    async def aclose(self) -> None:
        """Close the SDK client."""
        await self.sdk.close()
