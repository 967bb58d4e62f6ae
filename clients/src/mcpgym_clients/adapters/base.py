"""What every vendor adapter provides to the model loop (`mcpgym_clients.agents.model`).

An adapter owns one vendor's wire format and its HTTP client: it turns MCP tools into
the vendor's tool declarations, keeps the conversation in the vendor's own message
shape ("history"), sends a request (with `with_retries`) and parses the reply into a
`ModelTurn`, whose stop reason is one of `StopReason`. The loop never sees vendor JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.adapters.streaming import DEFAULT_MAX_RESPONSE_BYTES
from mcpgym_clients.errors import MissingExtraError, ModelAPIError
from mcpgym_clients.protocol import ToolDef, ToolOutcome

StopReason = Literal["end", "tool_calls", "max_tokens", "refusal", "content_filter", "other"]
"""Why the model stopped, across vendors.

``end``: a final answer (OpenAI ``stop``, Anthropic ``end_turn``/``stop_sequence``, Gemini
``STOP`` without calls); ``tool_calls``: it asked for tools; ``max_tokens``: cut off by the
response token limit (OpenAI ``length``/``incomplete: max_output_tokens``, Anthropic
``max_tokens``, Gemini ``MAX_TOKENS``): its calls are never executed; ``refusal``: it
declined (OpenAI ``refusal`` content, Anthropic ``refusal``); ``content_filter``: the
vendor's filter blocked the output (OpenAI ``content_filter``, Gemini ``SAFETY``...);
``other``: anything else (recorded, treated like ``end``).
"""


@dataclass(frozen=True)
class FunctionCall:
    """One tool call requested by the model.

    Attributes:
        id: the id to answer with (made up for vendors that send none, e.g. Gemini).
        name: the tool name. arguments: the arguments as JSON text, as the model wrote them.
    """

    id: str
    name: str
    arguments: str


@dataclass
class ModelTurn:
    """One parsed model response, vendor-neutral.

    Attributes:
        text: the visible text (``None`` if none). calls: tool calls in order.
        stop: the normalized `StopReason`. raw_stop: the vendor's own stop value.
        usage: ``prompt_tokens``, ``completion_tokens``, ``total_tokens`` and, when the
            vendor reports them, ``cached_tokens`` / ``reasoning_tokens`` (ints), and
            ``cost_usd`` (float; only vendors or proxies that report it, e.g. OpenRouter).
        response_id: the vendor's response id, if any.
        native: what to put back into the history for this turn (vendor shape).
        raw: the vendor's message as JSON (recorded in transcripts under ``mcpgym_raw``).
        refusal: the refusal text, if the model declined.
        feedback: for a turn the vendor flagged as unusable but retryable (Gemini
            ``MALFORMED_FUNCTION_CALL``): a message telling the model, sent as a user turn.
        tokens: token ids and log-probs of the turn when asked for and returned
            (`mcpgym_clients.adapters.tokens.turn_tokens`), else ``None``.
    """

    text: str | None
    calls: list[FunctionCall]
    stop: StopReason
    raw_stop: str | None = None
    usage: dict[str, float] = field(default_factory=dict)
    response_id: str | None = None
    native: Any = None
    raw: Any = None
    refusal: str | None = None
    feedback: str | None = None
    tokens: dict[str, Any] | None = None


@dataclass(frozen=True)
class ModelSettings:
    """Sampling settings sent with every request (``None``: the vendor's default).

    Attributes:
        model: the vendor's model id. temperature: sampling temperature.
        seed: sampling seed (not every vendor takes one: see each adapter).
        max_tokens: tokens per response.
        tool_choice: Chat Completions ``tool_choice`` (``auto``, ``required``, ``none``;
            ``--tool-choice``), sent by the Chat Completions adapters only; ``None``: not
            sent (the server's default).
    """

    model: str
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    tool_choice: str | None = None


class ModelAdapter:
    """Base class of vendor adapters (one per vendor API; shared by concurrent episodes).

    Attributes:
        vendor: the ``VENDOR`` of ``--model VENDOR:MODEL``.
        settings: the `ModelSettings`. retry: the `RetryPolicy`.
        base_url: the API root (recorded without secrets).
        max_response_bytes: the most one parsed response may hold (`check_size`;
            ``--max-response-bytes``); ``None``: no cap.
    """

    vendor: str = "?"
    max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES

    def __init__(self, settings: ModelSettings, *, retry: RetryPolicy | None, base_url: str):
        self.settings = settings
        self.retry = retry or RetryPolicy()
        self.base_url = base_url

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """The vendor's tool declarations for an episode's MCP tools."""
        raise NotImplementedError

    def start(self, system: str, instruction: str) -> list[Any]:
        """The opening history: the system prompt (where the vendor keeps it) and the task."""
        raise NotImplementedError

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """Send one request with ``history`` and return the parsed reply.

        Raises:
            ModelAPIError: after retries (``transient``: infrastructure, else the request).
        """
        raise NotImplementedError

    def check_size(self, turn: ModelTurn) -> None:
        """Refuse a response larger than `max_response_bytes` before anything of it is
        stored: its text, refusal and calls, or its vendor message as JSON, whichever is
        larger. Every vendor goes through it (the SDK adapters read a body whole; the
        ``openai-compatible`` client already stops reading one at the cap).

        Raises:
            ModelAPIError: not transient (``model_error``): the server ignored the
                response limit it was sent.
        """
        cap = self.max_response_bytes
        if cap is None:
            return
        size = sum(len(t.encode()) for t in (turn.text, turn.refusal) if isinstance(t, str))
        size += sum(len(c.arguments.encode()) + len(c.name) for c in turn.calls)
        if size <= cap and turn.raw is not None:
            size = max(size, len(json.dumps(turn.raw, default=str)))
        if size > cap:
            sent = self.settings.max_tokens
            asked = f" (max_tokens {sent} was sent)" if sent is not None else ""
            raise ModelAPIError(
                f"the model API at {public_url(self.base_url)} returned a response of "
                f"{size:,} bytes, over the cap of {cap:,}{asked}: it ignored its response "
                "limit; the response was refused and not stored (--max-response-bytes "
                "raises the cap)",
                transient=False,
            )

    def assistant_entries(self, turn: ModelTurn) -> list[Any]:
        """History entries for the model's own turn (its calls carry the final ids)."""
        raise NotImplementedError

    def result_entries(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> list[Any]:
        """History entries answering every call of one turn, paired with its id, in order."""
        raise NotImplementedError

    def user_entries(self, text: str) -> list[Any]:
        """History entries for a harness message to the model (e.g. parse feedback)."""
        raise NotImplementedError

    def prepare_arguments(self, tool: ToolDef | None, arguments: dict[str, Any]) -> dict[str, Any]:
        """Undo what schema adaptation made the model write (strict-mode nulls...)."""
        return arguments

    def recorded_settings(self) -> dict[str, Any]:
        """Settings for the run store: vendor, model, sampling, base URL (never keys);
        ``tool_choice`` only when one is sent (absent: not sent, as before the option)."""
        s = self.settings
        return {
            "vendor": self.vendor,
            "model": s.model,
            "temperature": s.temperature,
            "seed": s.seed,
            "max_tokens": s.max_tokens,
            "base_url": public_url(self.base_url),
            # only when set: a run recorded before the option (or without it) resumes
            **({"tool_choice": s.tool_choice} if s.tool_choice is not None else {}),
        }

    async def check(self) -> None:
        """Preflight: one cheap request that fails fast on a wrong URL, path or key.

        Raises:
            ModelAPIError: unreachable (``status`` None), key refused (401/403), or the
                API path not found (404).
        """

    async def aclose(self) -> None:
        """Close the HTTP client."""


def public_url(url: str) -> str:
    """``url`` without user, password, query or fragment (where keys may hide)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return "<unparseable URL>"
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


EXTRA_PACKAGES = {"openai": "openai", "anthropic": "anthropic", "gemini": "google-genai"}
"""The PyPI distribution each ``mcpgym-clients`` extra installs for its adapter."""


def require(module: str, extra: str) -> Any:
    """Import a vendor SDK lazily.

    Raises:
        MissingExtraError: it is not installed (the message names the extra).
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(extra, EXTRA_PACKAGES.get(extra, module.split(".")[0])) from None


def has_text(text: object) -> bool:
    """Whether ``text`` is a string with something besides whitespace (vendors reject
    whitespace-only text blocks sent back in the history)."""
    return isinstance(text, str) and bool(text.strip())


def text_of(outcome: ToolOutcome) -> str:
    """A tool outcome's text as sent back to a model; errors start with ``Error``."""
    content = outcome.text
    if outcome.is_error and not content.lower().startswith("error"):
        content = f"Error: {content}"
    return content


def json_args(arguments: str) -> Any:
    """Decode arguments JSON text for history entries that need an object (``{}`` if bad)."""
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def sdk_error(exc: Exception, *, where: str) -> ModelAPIError:
    """Map an OpenAI/Anthropic SDK exception (same shapes) to `ModelAPIError`.

    ``APIStatusError`` keeps its status, body and ``Retry-After``; connection errors and
    timeouts (``APIConnectionError``, ``APITimeoutError``) become transient errors with no
    status; anything else (a reply the SDK cannot parse) is not transient.
    """
    from mcpgym_clients.adapters.retry import retry_after_seconds

    response = getattr(exc, "response", None)
    status = getattr(exc, "status_code", None)
    if status is not None and response is not None:
        body = getattr(response, "text", "")
        return ModelAPIError(
            f"{where} answered {status}: {_message(exc)}",
            status=status,
            body=body[:2000] if isinstance(body, str) else None,
            retry_after=retry_after_seconds(response.headers),
        )
    if type(exc).__name__ in ("APIConnectionError", "APITimeoutError"):
        return ModelAPIError(
            f"{where} unreachable: {type(exc).__name__}: {exc}{root_cause(exc)}", transient=True
        )
    return ModelAPIError(f"{where}: unusable reply: {type(exc).__name__}: {exc}"[:600])


def root_cause(exc: BaseException) -> str:
    """`` (cause: Type: text)`` of the innermost exception ``exc`` was raised from (the real
    reason an SDK's "Connection error." failed: DNS, refused, TLS...), or ``""``."""
    seen = {id(exc)}
    cur: BaseException | None = exc
    last = exc
    while cur is not None:
        last = cur
        nxt = cur.__cause__ or cur.__context__
        if nxt is None or id(nxt) in seen:
            break
        seen.add(id(nxt))
        cur = nxt
    if last is exc:
        return ""
    text = str(last)[:300]
    return f" (cause: {type(last).__name__}{': ' + text if text else ''})"


def _message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping) and "message" in err:
            return str(err["message"])[:500]
    return str(exc)[:500]
