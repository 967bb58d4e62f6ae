"""OpenAI-compatible Chat Completions over plain httpx: the provider and the wire mapping.

The provider (`ChatCompletionsClient`) owns the base URL, the API key, retries
and the HTTP client; it POSTs ``{base_url}/chat/completions`` and returns the
decoded JSON. It works against OpenAI and the servers that copy its API (vLLM,
Ollama, llama.cpp, LiteLLM). No vendor SDK is needed, and tests inject an
``httpx`` transport that serves recorded responses.

The mapping helpers turn MCP tool definitions into Chat Completions ``tools``
and a response into an `AssistantTurn`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import httpx

from mcpgym_clients.adapters.base import FunctionCall
from mcpgym_clients.adapters.message_parts import content_parts, legacy_call
from mcpgym_clients.adapters.retry import RetryPolicy, retry_after_seconds, with_retries
from mcpgym_clients.adapters.streaming import (
    DEFAULT_MAX_RESPONSE_BYTES,
    RESPONSE_TIMEOUT_FACTOR,
    EmptyStream,
    StreamWatch,
    assemble,
    capped_lines,
    read_capped,
)
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.protocol import ToolDef

DEFAULT_BASE_URL = "https://api.openai.com/v1"
CHECK_TIMEOUT = 15.0
"""Seconds `ChatCompletionsClient.check` waits for the endpoint."""


class ChatCompletionsClient:
    """A minimal async client for ``POST {base_url}/chat/completions``.

    Args:
        base_url: API root, e.g. ``https://api.openai.com/v1`` or ``http://127.0.0.1:8001/v1``.
        api_key: sent as ``Authorization: Bearer``; ``None`` for local servers without auth.
        transport: an ``httpx`` transport to use instead of the network (tests).
        timeout: seconds per request (``--request-timeout``): the HTTP timeouts
            (connect, read, write). A streamed attempt is abandoned (its connection
            closed, which stops the server's generation) when no *event* comes for that
            long (comment lines such as ``: keep-alive`` are not events), and is not cut
            off while events come; an unstreamed attempt is limited to that long as a
            whole.
        response_timeout: seconds one response may take as a whole, events or not
            (``--response-timeout``); default `RESPONSE_TIMEOUT_FACTOR` times
            ``timeout``. An attempt past either bound is transient: retried, then
            ``infra_error``.
        max_response_bytes: bytes of one response body (`DEFAULT_MAX_RESPONSE_BYTES`;
            ``None``: no cap); past it the attempt is abandoned and fails with
            `ResponseTooLarge` (``model_error``, not retried).
        max_retries: extra attempts after a transport error or a 408/409/429/5xx status.
        retry_backoff: seconds before the first retry; doubles each time, with jitter
            (a ``Retry-After`` header wins, capped at 60 s). See `RetryPolicy`.
        retry: a full `RetryPolicy` instead of the two arguments above.
        headers: extra headers sent with every request.
        trust_env: let httpx read proxy and certificate settings from the environment
            (``HTTPS_PROXY``, ``SSL_CERT_FILE``...), as it does by default.
        stream: send ``"stream": true`` (with ``stream_options.include_usage``) and
            assemble the events into one response (`mcpgym_clients.adapters.streaming`);
            a server that answers with plain JSON anyway is read as such. ``False``: plain
            requests (for request kinds a server cannot stream).
    """

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 120.0,
        max_retries: int = 5,
        retry_backoff: float = 1.0,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        trust_env: bool = True,
        stream: bool = True,
        response_timeout: float | None = None,
        max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.stream = stream
        self.timeout = timeout
        self.response_timeout = (
            response_timeout if response_timeout is not None else RESPONSE_TIMEOUT_FACTOR * timeout
        )
        self.max_response_bytes = max_response_bytes
        self.retry = retry or RetryPolicy(
            max_retries=max_retries,
            base_delay=retry_backoff,
            request_timeout=None if stream else timeout,
        )
        all_headers = {"content-type": "application/json", **(headers or {})}
        if api_key:
            all_headers["authorization"] = f"Bearer {api_key}"
        self._http = httpx.AsyncClient(
            transport=transport, timeout=timeout, headers=all_headers, trust_env=trust_env
        )
        self.listed_models: list[str] = []
        """The model ids ``GET /models`` listed at `check` (empty: not asked, or none)."""

    @property
    def url(self) -> str:
        """The full endpoint URL."""
        return f"{self.base_url}/chat/completions"

    async def create(
        self, body: Mapping[str, Any], *, retry: RetryPolicy | None = None
    ) -> dict[str, Any]:
        """Send one request body (retrying per ``retry``, default `retry`) and return the
        response object.

        Raises:
            ModelAPIError: transport failure or non-2xx status after the retries, or a
                body that is not a JSON object.
        """
        return await with_retries(retry or self.retry, lambda: self.attempt(body))

    async def attempt(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """One attempt at ``body``, without retries (for callers that run their own
        `with_retries` loop): streamed, and sent again once unstreamed after an
        `EmptyStream`.

        Raises:
            ModelAPIError: as `create`, for this one attempt.
        """
        if self.stream:
            payload = {**body, "stream": True}
            payload.setdefault("stream_options", {"include_usage": True})
            try:
                return await self._send(payload, stream=True)
            except EmptyStream:
                pass  # the server's reason is only in its log: ask again, unstreamed
        return await self._send(dict(body), stream=False)

    async def _send(self, payload: dict[str, Any], *, stream: bool) -> dict[str, Any]:
        start = anyio.current_time()
        total = self.response_timeout
        deadline = start + total if total is not None else math.inf
        # until the headers (and, unstreamed, the whole body): --request-timeout
        scope = anyio.CancelScope(deadline=min(start + self.timeout, deadline))
        watch = StreamWatch(scope, self.timeout, deadline, self.max_response_bytes)
        with scope:
            data = await self._exchange(payload, stream=stream, watch=watch)
        if scope.cancelled_caught:
            spent = anyio.current_time() - start
            what = (
                f"its whole response took over {total} s (--response-timeout)"
                if total is not None and spent >= total
                else f"it sent no event for {self.timeout} s (--request-timeout; comments "
                "and keep-alives do not count)"
            )
            raise ModelAPIError(
                f"the model API at {self.url} was abandoned: {what}; its connection was "
                "closed, which stops the generation",
                transient=True,
            )
        return data

    async def _exchange(
        self, payload: dict[str, Any], *, stream: bool, watch: StreamWatch
    ) -> dict[str, Any]:
        cap, asked = self.max_response_bytes, payload.get("max_tokens")
        try:
            # Leaving this block any way but at the end of the body (a timeout, a
            # cancelled episode, a body over the cap) closes the connection: the
            # server stops generating.
            async with self._http.stream("POST", self.url, json=payload) as resp:
                bounds = {"max_bytes": cap, "where": self.url, "max_tokens": asked}
                if not resp.is_success:
                    text = await read_capped(resp.aiter_bytes(), **bounds)
                    listed = ""
                    if resp.status_code == 404 and self.listed_models:
                        if payload.get("model") not in self.listed_models:
                            names = ", ".join(self.listed_models[:20])
                            listed = f" (the server lists: {names})"
                    raise ModelAPIError(
                        f"model API answered {resp.status_code}: {api_error_text(text)}{listed}",
                        status=resp.status_code,
                        body=text[:2000],
                        retry_after=retry_after_seconds(resp.headers),
                    )
                if stream and "text/event-stream" in resp.headers.get("content-type", ""):
                    lines = capped_lines(resp.aiter_bytes(), **bounds)
                    return await assemble(lines, where=self.url, watch=watch)
                text = await read_capped(resp.aiter_bytes(), **bounds)
        except httpx.TimeoutException as exc:
            raise ModelAPIError(
                f"the model API at {self.url} sent nothing for {self.timeout} s "
                f"(--request-timeout; {type(exc).__name__}); the attempt was abandoned and "
                "its connection closed",
                transient=True,
            ) from exc
        except httpx.TransportError as exc:
            raise ModelAPIError(
                f"model API at {self.url} unreachable: {type(exc).__name__}: {exc}",
                transient=True,
            ) from exc
        except httpx.DecodingError as exc:
            # a body its Content-Encoding cannot undo (a proxy's cut gzip): the transport's
            # failure, retried like a cut stream, never the agent's crash (adversarial round
            # 14, S8-18: `agent raised DecodingError`, model_error, not retried)
            raise ModelAPIError(
                f"model API at {self.url} sent a response body that could not be decoded "
                f"({resp.headers.get('content-encoding', 'no')} content encoding): {exc}",
                transient=True,
            ) from exc
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ModelAPIError(
                "model API returned a body that is not JSON", body=text[:2000]
            ) from exc
        if not isinstance(data, dict):
            raise ModelAPIError("model API returned JSON that is not an object")
        return data

    async def check(self) -> int:
        """Preflight: one ``GET {base_url}/models``, without retries; return its status.

        The request gets `CHECK_TIMEOUT` seconds.

        Any answer but 401/403 counts as reachable: not every compatible server lists
        models. A 404 there is checked with ``POST {base_url}/chat/completions`` and an
        empty body, which a real endpoint refuses with 400/422 without generating
        anything, and a wrong path answers 404 again.

        Raises:
            ModelAPIError: the endpoint cannot be reached (refused, DNS failure, timeout,
                bad URL; ``status`` None), it rejected the API key (``status`` 401/403), or
                there is no Chat Completions endpoint at ``base_url`` (``status`` 404).
        """
        url = f"{self.base_url}/models"
        try:
            resp = await self._http.get(url, timeout=CHECK_TIMEOUT)
        except (httpx.TransportError, httpx.InvalidURL) as exc:
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise ModelAPIError(
                f"cannot reach the model API at {self.base_url} ({detail})"
            ) from exc
        if resp.status_code in (401, 403):
            raise ModelAPIError(
                f"the model API at {self.base_url} rejected the API key "
                f"({resp.status_code}: {api_error_text(resp.text)})",
                status=resp.status_code,
                body=resp.text[:2000],
            )
        if resp.is_success:
            self.listed_models = listed_model_ids(resp.text)
        if resp.status_code == 404:
            try:
                probe = await self._http.post(self.url, json={}, timeout=CHECK_TIMEOUT)
            except (httpx.TransportError, httpx.InvalidURL) as exc:
                raise ModelAPIError(
                    f"cannot reach the model API at {self.url} ({type(exc).__name__})"
                ) from exc
            if probe.status_code == 404:
                raise ModelAPIError(
                    f"no Chat Completions endpoint at {self.base_url}: GET /models and "
                    "POST /chat/completions both answered 404 (does --base-url end in /v1?)",
                    status=404,
                    body=probe.text[:2000],
                )
        return resp.status_code

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._http.aclose()


def listed_model_ids(text: str) -> list[str]:
    """The model ids of a ``GET /models`` answer (``text``: its body, the OpenAI shape
    ``{"data": [{"id": ...}, ...]}``); ``[]`` for any other body."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [str(m["id"]) for m in items if isinstance(m, dict) and "id" in m]


def api_error_text(text: str) -> str:
    """What an API's error answer (``text``: its body) says: its ``error.message`` (the
    OpenAI error shape), else the body's JSON or text, cut to 500 characters."""
    try:
        data = json.loads(text)
    except ValueError:
        return text[:500]
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        return str(data["error"].get("message", data["error"]))
    return json.dumps(data)[:500]


def tool_param(tool: ToolDef) -> dict[str, Any]:
    """Chat Completions ``tools`` entry for an MCP tool (``parameters`` = its input schema)."""
    params = dict(tool.input_schema) or {"type": "object"}
    params.setdefault("type", "object")
    if params["type"] == "object":
        params.setdefault("properties", {})
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": params},
    }


@dataclass(frozen=True)
class AssistantTurn:
    """One parsed model response.

    Attributes:
        message: the assistant message to append to the conversation (only ``role``,
            ``content`` and, when present, ``tool_calls``; ids filled in if missing).
        content: the text content or ``None``. tool_calls: the calls, in order.
        finish_reason: e.g. ``stop``, ``tool_calls``, ``length``; ``None`` if absent.
        usage: the response's ``usage`` object (may be empty).
        response_id: the response ``id`` (``chatcmpl-...``), if any.
        refusal: the message's ``refusal`` text, if any.
        raw: the message object exactly as received.
    """

    message: dict[str, Any]
    content: str | None
    tool_calls: list[FunctionCall]
    finish_reason: str | None
    usage: dict[str, Any]
    response_id: str | None
    refusal: str | None = None
    raw: dict[str, Any] | None = None


def parse_response(data: Mapping[str, Any], *, turn: int) -> AssistantTurn:
    """Parse a Chat Completions response object (``choices[0]``).

    Args:
        data: the decoded response. turn: 1-based turn number, used to make ids for
            tool calls that arrive without one (some local servers omit them).

    ``content`` may be a string or typed parts (text parts are the content; see
    `mcpgym_clients.adapters.message_parts`); a legacy ``function_call`` is read as the
    one tool call.

    Raises:
        ModelAPIError: no choices, or a malformed message or tool call (content neither
            text nor readable parts among them).
    """
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelAPIError(f"model response has no choices: {json.dumps(data)[:500]}")
    choice: dict[str, Any] = choices[0]
    msg = choice.get("message")
    if not isinstance(msg, dict):
        raise ModelAPIError("model response choice has no message object")
    content, _ = content_parts(msg.get("content"))  # typed parts: text, thinking aside
    calls: list[FunctionCall] = []
    legacy = legacy_call(msg)  # the older `functions` shape: one call, no id
    for i, raw in enumerate([legacy] if legacy else msg.get("tool_calls") or []):
        fn = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            raise ModelAPIError(f"malformed tool call in model response: {raw!r}"[:500])
        args = fn.get("arguments")
        if args is None:
            args = ""  # no arguments: an empty object
        elif not isinstance(args, str):
            # an object (some servers send one instead of JSON text) is used as it is;
            # anything else (a list, a number) the model is told is not an object
            args = json.dumps(args)
        call_id = raw.get("id") or f"call_{turn}_{i + 1}"
        calls.append(FunctionCall(str(call_id), fn["name"], args))
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [function_call_json(c) for c in calls]
    usage = data.get("usage")
    return AssistantTurn(
        message=message,
        content=content,
        tool_calls=calls,
        finish_reason=choice.get("finish_reason"),
        usage=usage if isinstance(usage, dict) else {},
        response_id=data.get("id") if isinstance(data.get("id"), str) else None,
        refusal=msg.get("refusal") if isinstance(msg.get("refusal"), str) else None,
        raw=msg,
    )


def function_call_json(call: FunctionCall) -> dict[str, Any]:
    """The wire form of a tool call inside an assistant message."""
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }
