"""``gemini``: the Gemini API through the ``google-genai`` SDK (extra ``[gemini]``).

Wire format: ai.google.dev/api/generate-content and ai.google.dev/gemini-api/docs/
function-calling. The system prompt is ``systemInstruction``; the history is a list of
``Content`` objects. The model's content goes back exactly as returned (its parts keep
their ``thoughtSignature``, which Gemini 2.5+/3 models require), minus empty text parts.
Calls carry no id: the loop makes ids up for its transcript, and all answers of a turn go
back in ONE user ``Content`` holding one ``functionResponse`` part per call, with the
call's name, in the order of the calls (``{"output": ...}``, or ``{"error": ...}`` for a
tool error). Tool schemas are converted to Gemini's subset (`gemini_parameters`); free-form
object arguments travel as JSON text and are decoded before the tool is called. SDK
retries are off (``HttpRetryOptions(attempts=1)``) and automatic function calling is
disabled. Stop reasons: ``STOP`` -> end (tool_calls with calls), ``MAX_TOKENS``,
``SAFETY``/``PROHIBITED_CONTENT``/``BLOCKLIST``/``SPII``/``RECITATION`` (or a blocked prompt)
-> content_filter; others -> other (``MALFORMED_FUNCTION_CALL`` also tells the model, which
tries again).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from mcpgym_clients.adapters.base import (
    FunctionCall,
    ModelAdapter,
    ModelSettings,
    ModelTurn,
    StopReason,
    has_text,
    json_args,
    require,
)
from mcpgym_clients.adapters.retry import RetryPolicy, retry_after_seconds, with_retries
from mcpgym_clients.adapters.schemas import gemini_parameters, gemini_restore
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.protocol import ToolDef, ToolOutcome

if TYPE_CHECKING:
    from google.genai.errors import APIError

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"

MALFORMED_FEEDBACK = (
    "Your last function call could not be parsed (finishReason MALFORMED_FUNCTION_CALL). "
    "Call the tool again with arguments that match its declaration."
)
"""Sent to the model after a ``MALFORMED_FUNCTION_CALL`` stop."""

_FILTERED = frozenset(
    {"SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION", "IMAGE_SAFETY"}
)


MADE_UP_ID = "gemini_"
"""Prefix of the call ids the adapter makes up when the API sends none."""


def gemini_turn(data: dict[str, Any]) -> ModelTurn:
    """A `ModelTurn` from a ``GenerateContentResponse`` dumped as JSON (SDK field names).

    A prompt blocked before any candidate (``prompt_feedback.block_reason``) is a
    ``content_filter`` stop.
    """
    raw = data.get("usage_metadata") or {}
    usage: dict[str, float] = {}
    prompt = raw.get("prompt_token_count")
    if isinstance(prompt, int):
        usage["prompt_tokens"] = prompt
    if isinstance(raw.get("candidates_token_count"), int):  # absent: unknown, not 0
        usage["completion_tokens"] = raw["candidates_token_count"] + (
            raw.get("thoughts_token_count") or 0
        )
    if isinstance(raw.get("total_token_count"), int):
        usage["total_tokens"] = raw["total_token_count"]
    elif "prompt_tokens" in usage and "completion_tokens" in usage:
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    if raw.get("cached_content_token_count"):
        usage["cached_tokens"] = raw["cached_content_token_count"]
    if raw.get("thoughts_token_count"):
        usage["reasoning_tokens"] = raw["thoughts_token_count"]
    candidates = data.get("candidates") or []
    if not candidates:
        block = (data.get("prompt_feedback") or {}).get("block_reason")
        return ModelTurn(None, [], "content_filter", raw_stop=f"prompt:{block}", usage=usage)
    cand = candidates[0]
    content = cand.get("content") or {"role": "model", "parts": []}
    parts = content.get("parts") or []
    texts = [p["text"] for p in parts if p.get("text") and not p.get("thought")]
    calls = [
        FunctionCall(
            p["function_call"].get("id") or f"{MADE_UP_ID}{i}",
            p["function_call"]["name"],
            json.dumps(p["function_call"].get("args") or {}),
        )
        for i, p in enumerate(parts, start=1)
        if p.get("function_call")
    ]
    raw_stop = cand.get("finish_reason")
    stop: StopReason
    if raw_stop == "MAX_TOKENS":
        stop = "max_tokens"
    elif raw_stop in _FILTERED:
        stop = "content_filter"
    elif calls:
        stop = "tool_calls"
    else:
        stop = "end" if raw_stop in ("STOP", None) else "other"
    feedback = None
    if raw_stop == "MALFORMED_FUNCTION_CALL" and not calls:
        feedback = MALFORMED_FEEDBACK
    return ModelTurn(
        text="\n".join(texts) or None,
        calls=calls,
        stop=stop,
        raw_stop=raw_stop,
        usage=usage,
        response_id=data.get("response_id"),
        native=content,
        raw=content,
        feedback=feedback,
    )


def gemini_sdk_client(
    *, api_key: str | None, base_url: str | None, transport: Any = None, timeout: float = 120.0
) -> Any:
    """A ``google.genai.Client`` with SDK retries off and an optional injected transport.

    Raises:
        MissingExtraError: the ``google-genai`` package is not installed.
    """
    genai = require("google.genai", "gemini")
    import httpx2

    types = genai.types
    options = types.HttpOptions(
        base_url=base_url or DEFAULT_BASE_URL,
        timeout=int(timeout * 1000),
        retry_options=types.HttpRetryOptions(attempts=1),
        httpx_async_client=httpx2.AsyncClient(transport=transport, timeout=timeout),
    )
    return genai.Client(api_key=api_key or "unset", http_options=options)


def _mapped(exc: Exception, where: str) -> ModelAPIError:
    errors = require("google.genai.errors", "gemini")
    if isinstance(exc, errors.APIError):
        # `errors` is imported lazily (the `gemini` extra), so the checker cannot narrow.
        api = cast("APIError", exc)
        headers = getattr(api.response, "headers", None) or {}
        return ModelAPIError(
            f"model API at {where} answered {api.code}: {api.message}"[:600],
            status=api.code,
            body=json.dumps(api.details)[:2000] if api.details else None,
            retry_after=retry_after_seconds(headers) or _retry_info(api.details),
        )
    import httpx
    import httpx2

    if isinstance(exc, httpx2.TransportError | httpx.TransportError):
        return ModelAPIError(
            f"model API at {where} unreachable: {type(exc).__name__}: {exc}", transient=True
        )
    return ModelAPIError(f"model API at {where}: unusable reply: {type(exc).__name__}: {exc}"[:600])


def _retry_info(details: Any) -> float | None:
    """``retryDelay`` of a ``google.rpc.RetryInfo`` error detail (e.g. ``"7s"``), in seconds.

    Google APIs say how long to wait there rather than in ``Retry-After``
    (cloud.google.com/apis/design/errors#error_details).
    """
    error = details.get("error", details) if isinstance(details, dict) else {}
    for item in error.get("details") or [] if isinstance(error, dict) else []:
        if isinstance(item, dict) and item.get("@type", "").endswith("google.rpc.RetryInfo"):
            delay = str(item.get("retryDelay", "")).removesuffix("s")
            try:
                return max(float(delay), 0.0)
            except ValueError:
                return None
    return None


class GeminiAdapter(ModelAdapter):
    """``gemini``: ``models.generate_content`` with our retries.

    Args:
        sdk: a ``google.genai.Client`` (see `gemini_sdk_client`).
        settings: model and sampling (``max_tokens`` is ``maxOutputTokens``; seed is sent).
        retry: the `RetryPolicy`.
    """

    vendor = "gemini"

    def __init__(
        self,
        sdk: Any,
        settings: ModelSettings,
        *,
        retry: RetryPolicy | None = None,
        base_url: str = DEFAULT_BASE_URL,
    ):
        super().__init__(settings, retry=retry, base_url=base_url.rstrip("/"))
        self.sdk = sdk
        self.types = require("google.genai.types", "gemini")

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """One ``Tool`` with a ``FunctionDeclaration`` per MCP tool."""
        decls = []
        for t in tools:
            decl: dict[str, Any] = {"name": t.name, "description": t.description}
            params = gemini_parameters(t.input_schema)
            if params is not None:
                decl["parameters"] = params
            decls.append(decl)
        return [{"function_declarations": decls}]

    def start(self, system: str, instruction: str) -> list[Any]:
        """The system instruction and the user's content."""
        return [
            {"role": "system", "parts": [{"text": system}]},
            {"role": "user", "parts": [{"text": instruction}]},
        ]

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """``generate_content`` with the history (function calling left to us)."""
        s = self.settings
        system = [h for h in history if h["role"] == "system"]
        config: dict[str, Any] = {
            "tools": tools,
            "automatic_function_calling": {"disable": True},
        }
        if system:
            config["system_instruction"] = system[0]["parts"][0]["text"]
        if s.temperature is not None:
            config["temperature"] = s.temperature
        if s.seed is not None:
            config["seed"] = s.seed
        if s.max_tokens is not None:
            config["max_output_tokens"] = s.max_tokens
        contents = [h for h in history if h["role"] != "system"]

        async def attempt() -> dict[str, Any]:
            try:
                resp = await self.sdk.aio.models.generate_content(
                    model=s.model, contents=contents, config=config
                )
            except Exception as exc:  # vendor boundary
                raise _mapped(exc, self.base_url) from exc
            return resp.model_dump(mode="json", exclude_none=True)

        return gemini_turn(await with_retries(self.retry, attempt))

    def assistant_entries(self, turn: ModelTurn) -> list[Any]:
        """The model content as returned (signatures kept), minus whitespace-only text parts."""
        if turn.native is None:
            parts = [{"text": turn.text}] if has_text(turn.text) else []
            parts += [
                {"function_call": {"name": c.name, "args": json_args(c.arguments)}}
                for c in turn.calls
            ]
        else:
            parts = [
                p
                for p in turn.native.get("parts") or []
                if not ("text" in p and not has_text(p["text"]) and len(p) == 1)
            ]
        return [{"role": "model", "parts": parts}] if parts else []

    def result_entries(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> list[Any]:
        """ONE user content: a ``functionResponse`` per call, by name, in call order."""
        parts = []
        for call, outcome in results:
            if outcome.is_error:
                response: dict[str, Any] = {"error": outcome.text}
            else:
                response = {
                    "output": dict(outcome.structured) if outcome.structured else outcome.text
                }
            answer: dict[str, Any] = {"name": call.name, "response": response}
            if not call.id.startswith(MADE_UP_ID):  # the API sent an id: answer with it
                answer["id"] = call.id
            parts.append({"function_response": answer})
        return [{"role": "user", "parts": parts}]

    def user_entries(self, text: str) -> list[Any]:
        """A user content."""
        return [{"role": "user", "parts": [{"text": text}]}]

    def prepare_arguments(self, tool: ToolDef | None, arguments: dict[str, Any]) -> dict[str, Any]:
        """Decode free-form objects sent as JSON text and convert enum values that were not
        strings back, at any depth (`gemini_restore`)."""
        if tool is None:
            return arguments
        out = gemini_restore(tool.input_schema, arguments)
        return out if isinstance(out, dict) else arguments

    async def check(self) -> None:
        """``GET models/{model}``: fails on a wrong URL or model (404) or key (400/403)."""
        try:
            await self.sdk.aio.models.get(model=self.settings.model)
        except Exception as exc:  # vendor boundary
            err = _mapped(exc, self.base_url)
            if err.status == 404:
                err = ModelAPIError(
                    f"model {self.settings.model!r} not found at {self.base_url} "
                    "(check the model id and --base-url)",
                    status=404,
                )
            elif err.status == 400 and "API key" in str(err):
                err = ModelAPIError(str(err), status=401)
            raise err from None

    async def aclose(self) -> None:
        """Close the SDK client."""
        await self.sdk.aio.aclose()
