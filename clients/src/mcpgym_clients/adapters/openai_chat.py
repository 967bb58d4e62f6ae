"""Chat Completions adapters: ``openai-compatible:`` over plain httpx, ``openai:`` over the SDK.

Wire format: platform.openai.com/docs/api-reference/chat. The history is the Chat
Completions ``messages`` list itself. Every call of a turn is answered by its own
``role: tool`` message carrying the call's ``tool_call_id``, in order, before the next
request. An assistant message never carries whitespace-only text. A call-only message has
no ``content`` key (OpenAI's schema makes content optional with ``tool_calls``); no form is
accepted by every server, so ``openai-compatible`` sends it again as ``""``, then ``null``,
when a server refuses it, and keeps the form that was answered
(`mcpgym_clients.adapters.call_only`).

``openai-compatible`` (vLLM, SGLang, Ollama, llama.cpp server, LiteLLM) needs no SDK:
`ChatCompletionsClient` (streaming by default, so that an abandoned attempt stops on the
server), non-strict tools (compatible servers differ in what they accept), ``max_tokens``,
which defaults to `DEFAULT_MAX_OUTPUT_TOKENS` so that no response runs unbounded (a
server whose context cannot hold prompt plus cap, and says so with figures, as vLLM does,
is asked again once with the cap that fits). ``openai`` uses the official ``openai`` SDK
(extra ``[openai]``) with its retries off, strict tools where the schema allows
(`openai_parameters`) and ``max_completion_tokens`` (required by reasoning models).

Neither sends ``tool_choice`` unless ``--tool-choice`` gives one (`TOOL_CHOICES`): servers
differ on its absence (llama-cpp-python's ``chatml-function-calling`` reads it as ``none``
and leaves the tools out of the prompt) and on its presence (vLLM started without
``--enable-auto-tool-choice`` answers 400 to ``auto``: `tool_choice_refused`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from mcpgym_clients.adapters.base import (
    FunctionCall,
    ModelAdapter,
    ModelSettings,
    ModelTurn,
    StopReason,
    require,
    sdk_error,
    text_of,
)
from mcpgym_clients.adapters.call_only import (
    CALL_ONLY_FORMS,
    CallOnlyForm,
    form_may_be_refused,
    is_call_only,
    with_form,
)
from mcpgym_clients.adapters.chat_completions import (
    DEFAULT_BASE_URL,
    ChatCompletionsClient,
    function_call_json,
    parse_response,
    tool_param,
)
from mcpgym_clients.adapters.outcomes import is_context_overflow, overflow_figures
from mcpgym_clients.adapters.retry import RetryPolicy, with_retries
from mcpgym_clients.adapters.schemas import openai_parameters, strip_added_nulls
from mcpgym_clients.adapters.tokens import TOKEN_REQUEST_FIELDS, turn_tokens
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.protocol import ToolDef, ToolOutcome

logger = logging.getLogger("mcpgym_clients.openai_chat")

DEFAULT_MAX_OUTPUT_TOKENS = 2048
"""``max_tokens`` per response sent by ``openai-compatible`` when ``--max-output-tokens`` is
not given: ample for tool calls and answers, and a bound on a runaway generation (a
reasoning model may need more: raise it; a cut-off reply ends the episode ``max_tokens``)."""

_FINISH: dict[str, StopReason] = {
    "stop": "end",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "max_tokens",
    "content_filter": "content_filter",
}


FAILED_FINISH = frozenset({"abort", "error"})
"""Finish reasons that say the server failed the request (vLLM's ``abort``; ``error``
from proxies such as OpenRouter): the response is a fragment, retried and then
``infra_error``, never graded as the model's answer (adversarial round 12, S8-11)."""


TOOL_CHOICES = ("auto", "required", "none")
"""The values of ``--tool-choice`` (Chat Completions ``tool_choice``; not sent by default)."""

_NAMES_TOOL_CHOICE = re.compile(r"tool[_ ]choice", re.IGNORECASE)


def tool_choice_refused(exc: ModelAPIError, body: dict[str, Any]) -> ModelAPIError | None:
    """``exc`` told as the server refusing ``--tool-choice``, when ``body`` sent a
    ``tool_choice`` and the answer is a 4xx naming it (vLLM started without
    ``--enable-auto-tool-choice``: 400 ``"auto" tool choice requires
    --enable-auto-tool-choice and --tool-call-parser to be set``); else ``None``. The new
    error keeps ``exc``'s status, body and classification (not transient: ``model_error``,
    and the 4xx breaker stops a campaign whose first episodes all get it: `ModelAgent`)."""
    choice = body.get("tool_choice")
    if choice is None or exc.status is None or not 400 <= exc.status < 500:
        return None
    if not _NAMES_TOOL_CHOICE.search(f"{exc.reason} {exc.body or ''}"):
        return None
    out = ModelAPIError(
        f"the model server refused --tool-choice {choice} ({exc}): start the server with "
        "tool choice enabled (vLLM: --enable-auto-tool-choice --tool-call-parser NAME), "
        "or run without --tool-choice (no tool_choice is then sent)",
        status=exc.status,
        body=exc.body,
        retry_after=exc.retry_after,
        transient=exc.transient,
    )
    out.attempts, out.identical = exc.attempts, exc.identical
    return out


def chat_turn(data: dict[str, Any]) -> ModelTurn:
    """A `ModelTurn` from a Chat Completions response object.

    Raises:
        ModelAPIError: no choices, or a malformed message or tool call; a
            `FAILED_FINISH` finish reason (transient).
    """
    reply = parse_response(data, turn=0)  # the one parse of a Chat Completions reply
    if reply.finish_reason in FAILED_FINISH:
        raise ModelAPIError(
            f"the model server ended the response with finish_reason "
            f"{reply.finish_reason!r}: it failed or was aborted server-side, so what came "
            f"({len(reply.content or '')} characters, {len(reply.tool_calls)} call(s)) is "
            "a fragment, not an answer",
            body=json.dumps(data)[:2000],
            transient=True,
        )
    refusal = reply.refusal
    stop = _FINISH.get(reply.finish_reason or "", "other")
    if refusal:
        stop = "refusal"
    elif reply.tool_calls and stop in ("end", "other"):
        stop = "tool_calls"  # some servers say "stop" for a turn with calls
    raw_usage = reply.usage
    usage: dict[str, float] = {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        if isinstance(raw_usage.get(key), int):
            usage[key] = raw_usage[key]
    cached = (raw_usage.get("prompt_tokens_details") or {}).get("cached_tokens")
    if isinstance(cached, int):
        usage["cached_tokens"] = cached
    reasoning = (raw_usage.get("completion_tokens_details") or {}).get("reasoning_tokens")
    if isinstance(reasoning, int):
        usage["reasoning_tokens"] = reasoning
    if isinstance(raw_usage.get("cost"), int | float):  # OpenRouter, LiteLLM proxies
        usage["cost_usd"] = float(raw_usage["cost"])
    calls = [FunctionCall(c.id if c.id else "", c.name, c.arguments) for c in reply.tool_calls]
    return ModelTurn(
        text=reply.content or None,
        calls=calls,
        stop=stop,
        raw_stop=reply.finish_reason,
        usage=usage,
        response_id=reply.response_id,
        raw=reply.raw,
        refusal=refusal,
    )


class ChatCompletionsAdapter(ModelAdapter):
    """``openai-compatible``: any Chat Completions endpoint over plain httpx.

    Args:
        client: the `ChatCompletionsClient` (base URL, key, transport, retries).
        settings: model and sampling (``max_tokens`` is sent as ``max_tokens``).
        return_tokens: also ask for token ids and log-probs (vLLM's ``return_token_ids``,
            ``logprobs``) and keep them on each turn (`ModelTurn.tokens`), for training.
    """

    vendor = "openai-compatible"
    default_max_tokens: int | None = DEFAULT_MAX_OUTPUT_TOKENS
    """``max_tokens`` sent when the settings give none (``None``: send none)."""

    call_only_form: CallOnlyForm = "omitted"
    """How call-only assistant messages are sent (`mcpgym_clients.adapters.call_only`);
    changed for the rest of the campaign when the server refuses this form."""

    call_only_form_answered: bool = False
    """Whether a request holding a call-only message was answered in `call_only_form`:
    until then a refusal that form may cause is sent in the other forms at once, before
    any retry; after, only once the retries are spent (a 500 is then more likely an
    outage)."""

    def __init__(
        self, client: ChatCompletionsClient, settings: ModelSettings, *, return_tokens: bool = False
    ) -> None:
        super().__init__(settings, retry=client.retry, base_url=client.base_url)
        self.client = client
        self.max_response_bytes = client.max_response_bytes
        self.return_tokens = return_tokens

    def recorded_settings(self) -> dict[str, Any]:
        """The base settings, with the ``max_tokens`` actually sent and whether it streams."""
        out = super().recorded_settings()
        if out["max_tokens"] is None:
            out["max_tokens"] = self.default_max_tokens
        if hasattr(self, "client"):
            out["stream"] = self.client.stream
        return out

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """Non-strict function tools (``parameters`` = the MCP input schema)."""
        return [tool_param(t) for t in tools]

    def start(self, system: str, instruction: str) -> list[Any]:
        """System and user messages."""
        return [{"role": "system", "content": system}, {"role": "user", "content": instruction}]

    def _body(self, history: list[Any], tools: list[Any]) -> dict[str, Any]:
        s = self.settings
        messages = history
        if self.call_only_form != "omitted":
            messages = with_form(history, self.call_only_form)
        body: dict[str, Any] = {"model": s.model, "messages": messages, "tools": tools}
        if s.temperature is not None:
            body["temperature"] = s.temperature
        if s.seed is not None:
            body["seed"] = s.seed
        max_tokens = s.max_tokens if s.max_tokens is not None else self.default_max_tokens
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if s.tool_choice is not None and tools:
            body["tool_choice"] = s.tool_choice
        if getattr(self, "return_tokens", False):
            body.update(TOKEN_REQUEST_FIELDS)
        return body

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """POST the conversation; parse ``choices[0]``. The request body is `_body`
        (the place to add request fields); the reply's full message stays in
        `ModelTurn.raw`. A refusal that the call-only messages' form may have caused is
        answered by `_other_forms`: at once while no request holding a call-only message
        has been answered in the current form, else once the retries are spent. A 4xx
        naming the ``tool_choice`` sent is told as such (`tool_choice_refused`)."""
        body = self._body(history, tools)
        try:
            return await self._complete(body)
        except ModelAPIError as exc:
            refused = tool_choice_refused(exc, body)
            if refused is None:
                raise
            raise refused from exc

    async def _complete(self, body: dict[str, Any]) -> ModelTurn:
        form = self.call_only_form
        holds_call_only = any(is_call_only(m) for m in body["messages"])
        early = holds_call_only and not self.call_only_form_answered
        tried = [False]  # the other forms were sent for this request

        async def attempt(request: dict[str, Any]) -> dict[str, Any]:
            try:
                return await self.client.attempt(request)
            except ModelAPIError as exc:
                if not early or tried[0] or not form_may_be_refused(exc, request["messages"]):
                    raise
                # each other form once before any retry: a form the server refuses gets
                # the same answer on every retry (S20-R7: 12 requests, ~27 s, streamed)
                try:
                    return await self._other_forms(exc, request, form, self.client.attempt)
                except ModelAPIError:
                    tried[0] = True  # every form refused (a timeout leaves it unset)
                    raise

        try:
            data = await self._create(body, attempt=attempt)
        except ModelAPIError as exc:
            if tried[0] or not form_may_be_refused(exc, body["messages"]):
                raise
            data = await self._other_forms(
                exc, body, form, lambda b: self._create(b, retries=False)
            )
        if holds_call_only and self.call_only_form == form:
            self.call_only_form_answered = True
        turn = chat_turn(data)
        if getattr(self, "return_tokens", False):
            turn.tokens = turn_tokens(data)
        return turn

    async def _create(
        self,
        body: dict[str, Any],
        *,
        retries: bool = True,
        attempt: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None,
    ) -> dict[str, Any]:
        """One request (with the client's retries unless ``retries`` is false; each try
        is ``attempt``, default the client's), asked again once with the cap that fits
        when the server refused prompt + default cap."""
        policy = self.client.retry
        if not retries:
            policy = dataclasses.replace(policy, max_retries=0)
        once = attempt or self.client.attempt
        try:
            return await with_retries(policy, lambda: once(body))
        except ModelAPIError as exc:
            fitting = self._fitting_cap(exc, body)
            if fitting is None:
                raise
            body["max_tokens"] = fitting
            return await with_retries(policy, lambda: once(body))

    async def _other_forms(
        self,
        exc: ModelAPIError,
        body: dict[str, Any],
        sent: CallOnlyForm,
        send: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]],
    ) -> dict[str, Any]:
        """Send ``body`` (its call-only messages in form ``sent``) once in each other
        call-only form through ``send``; keep the first form the server answers (logged
        once per change).

        Raises:
            ModelAPIError: ``exc``, when no other form is answered either.
        """
        for form in CALL_ONLY_FORMS:
            if form == sent:
                continue
            attempt = {**body, "messages": with_form(body["messages"], form)}
            try:
                data = await send(attempt)
            except ModelAPIError:
                continue
            self.call_only_form_answered = True
            if self.call_only_form == sent:
                self.call_only_form = form
                logger.warning(
                    "the model server at %s refused a call-only assistant message with "
                    "content %s (HTTP %s: %s) and answered it with content %s: sending "
                    "that form from now on",
                    self.base_url,
                    sent,
                    exc.status,
                    exc.reason[:200],
                    form,
                )
            return data
        raise exc

    def _fitting_cap(self, exc: ModelAPIError, body: dict[str, Any]) -> int | None:
        """The default cap that fits when the server refused prompt + default cap (it
        stated both figures and the prompt alone fits), else ``None``."""
        if self.settings.max_tokens is not None or "max_tokens" not in body:
            return None
        if not is_context_overflow(exc):
            return None
        fig = overflow_figures(exc)
        if not fig.cap_too_large:
            return None
        assert fig.context is not None and fig.prompt_tokens is not None
        room = fig.context - fig.prompt_tokens
        return room if 0 < room < body["max_tokens"] else None

    def assistant_entries(self, turn: ModelTurn) -> list[Any]:
        """The assistant message; a call-only one has no ``content`` key (never ``null``,
        never whitespace-only text: see the module docstring)."""
        text = turn.text if turn.text and turn.text.strip() else None
        message: dict[str, Any] = {"role": "assistant"}
        if text is not None or not turn.calls:
            message["content"] = text or ""
        if turn.calls:
            message["tool_calls"] = [function_call_json(c) for c in turn.calls]
        return [message]

    def result_entries(self, results: list[tuple[FunctionCall, ToolOutcome]]) -> list[Any]:
        """One ``role: tool`` message per call, in order (errors start with ``Error``)."""
        return [
            {"role": "tool", "tool_call_id": call.id, "content": text_of(outcome)}
            for call, outcome in results
        ]

    def user_entries(self, text: str) -> list[Any]:
        """A user message."""
        return [{"role": "user", "content": text}]

    async def check(self) -> None:
        """``GET /models`` (and a probe of the endpoint when that answers 404)."""
        await self.client.check()

    async def aclose(self) -> None:
        """Close the httpx client."""
        await self.client.aclose()


def openai_sdk_client(
    *,
    api_key: str | None,
    base_url: str | None,
    transport: Any = None,
    timeout: float = 120.0,
) -> Any:
    """An ``openai.AsyncOpenAI`` with SDK retries off and an optional injected transport.

    Raises:
        MissingExtraError: the ``openai`` package is not installed.
    """
    openai = require("openai", "openai")
    import httpx2

    http = httpx2.AsyncClient(transport=transport, timeout=timeout)
    return openai.AsyncOpenAI(
        api_key=api_key or "unset",
        base_url=base_url or DEFAULT_BASE_URL,
        max_retries=0,
        http_client=http,
    )


class OpenAIChatAdapter(ChatCompletionsAdapter):
    """``openai``: Chat Completions through the ``openai`` SDK, strict tools where possible.

    Args:
        sdk: an ``openai.AsyncOpenAI`` (see `openai_sdk_client`).
        settings: model and sampling. retry: the `RetryPolicy`.
    """

    vendor = "openai"
    default_max_tokens = None  # OpenAI's own limits apply (reasoning models need room)

    def __init__(self, sdk: Any, settings: ModelSettings, *, retry: RetryPolicy | None = None):
        ModelAdapter.__init__(self, settings, retry=retry, base_url=str(sdk.base_url).rstrip("/"))
        self.sdk = sdk

    def declare_tools(self, tools: list[ToolDef]) -> list[Any]:
        """Function tools, ``strict: true`` when `openai_parameters` could make them strict."""
        out = []
        for t in tools:
            params, strict = openai_parameters(t.input_schema)
            fn: dict[str, Any] = {"name": t.name, "description": t.description}
            fn["parameters"] = params
            if strict:
                fn["strict"] = True
            out.append({"type": "function", "function": fn})
        return out

    def prepare_arguments(self, tool: ToolDef | None, arguments: dict[str, Any]) -> dict[str, Any]:
        """Drop the ``null`` strict mode makes the model send for omitted arguments."""
        return arguments if tool is None else strip_added_nulls(tool.input_schema, arguments)

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        """``chat.completions.create`` with our retries."""
        body = self._body(history, tools)
        if "max_tokens" in body:
            body["max_completion_tokens"] = body.pop("max_tokens")

        async def attempt() -> dict[str, Any]:
            try:
                resp = await self.sdk.chat.completions.create(**body)
            except Exception as exc:  # vendor boundary: every SDK error is mapped
                raise openai_error(exc, self.base_url) from exc
            return resp.to_dict()

        try:
            data = await with_retries(self.retry, attempt)
        except ModelAPIError as exc:
            refused = tool_choice_refused(exc, body)
            if refused is None:
                raise
            raise refused from exc
        return chat_turn(data)

    async def check(self) -> None:
        """``GET /models``; a 404 there is checked with an empty ``POST /chat/completions``."""
        await sdk_check(self.sdk, self.base_url, "/chat/completions")

    async def aclose(self) -> None:
        """Close the SDK client."""
        await self.sdk.close()


def openai_error(exc: Exception, where: str) -> ModelAPIError:
    """An ``openai`` SDK exception as `ModelAPIError` (see `sdk_error`)."""
    if isinstance(exc, ModelAPIError):
        return exc
    return sdk_error(exc, where=f"model API at {where}")


async def sdk_check(sdk: Any, base_url: str, endpoint: str) -> None:
    """Preflight through an OpenAI-shaped SDK: list models; on 404 probe ``endpoint``.

    Raises:
        ModelAPIError: unreachable, key refused (401/403), or no API at ``base_url`` (404).
    """
    try:
        await sdk.models.list()
        return
    except Exception as exc:  # vendor boundary
        err = openai_error(exc, base_url)
    if err.status != 404:
        if err.status in (401, 403) or err.status is None:
            raise err
        return
    try:
        await sdk.post(endpoint, body={}, cast_to=object)
    except Exception as exc:  # vendor boundary
        probe = openai_error(exc, base_url)
        if probe.status == 404:
            raise ModelAPIError(
                f"no API at {base_url}: GET /models and POST {endpoint} both answered 404 "
                "(check --base-url)",
                status=404,
            ) from None
