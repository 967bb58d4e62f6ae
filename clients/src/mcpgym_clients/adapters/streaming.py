"""Chat Completions streaming (server-sent events) assembled into one response object.

`ChatCompletionsClient` streams by default (``"stream": true`` with
``stream_options.include_usage``) for one reason: an attempt it abandons (no data for
``--request-timeout`` seconds, or the episode cancelled) closes its HTTP connection, and
a streaming request whose connection is closed is one that llama.cpp, llama-cpp-python,
vLLM and SGLang stop generating. A non-streaming request runs to its end on the server
while the retry queues behind it on a one-request-at-a-time server.

A stream that ends without a single event (`EmptyStream`: llama-cpp-python's answer to a
prompt over its context window when streaming) is sent again once without streaming,
which gets the server's real answer (its 400 with the figures).

`assemble` turns the chunks back into exactly what the non-streaming endpoint returns
(``id``, ``model``, ``choices[0].message`` with ``content``, ``tool_calls`` merged by
``index``, ``refusal``, ``finish_reason``, ``usage`` when the server reports it), so the
wire mapping (`mcpgym_clients.adapters.chat_completions.parse_response`) sees one shape.
Fields it does not know are kept for adapters that ask for more (token ids, logprobs):
on a choice, list values are concatenated across chunks (``token_ids``), a ``logprobs``
object's ``content`` list likewise, anything else keeps its last value; top-level keys
keep their first (``prompt_token_ids``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from mcpgym_clients.errors import ModelAPIError

_CHOICE_KNOWN = {"index", "delta", "finish_reason", "message", "logprobs"}


class _Assembly:
    def __init__(self) -> None:
        self.top: dict[str, Any] = {}
        self.role = "assistant"
        self.content: list[str] = []
        self.refusal: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.extra: dict[str, Any] = {}
        self.logprobs: list[Any] | None = None
        self.chunks = 0

    def add(self, chunk: dict[str, Any]) -> None:
        self.chunks += 1
        for key, value in chunk.items():
            if key not in ("choices", "usage", "object"):
                self.top.setdefault(key, value)
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            self._add_choice(choice)

    def _add_choice(self, choice: dict[str, Any]) -> None:
        delta = choice.get("delta") or choice.get("message") or {}
        if isinstance(delta.get("role"), str):
            self.role = delta["role"]
        for key, parts in (
            ("content", self.content),
            ("refusal", self.refusal),
            ("reasoning_content", self.reasoning),
        ):
            if isinstance(delta.get(key), str):
                parts.append(delta[key])
        for i, raw in enumerate(delta.get("tool_calls") or []):
            if not isinstance(raw, dict):
                continue
            slot = self.calls.setdefault(
                raw.get("index", i), {"id": None, "type": "function", "name": "", "args": []}
            )
            if raw.get("id"):
                slot["id"] = raw["id"]
            fn = raw.get("function") or {}
            if isinstance(fn.get("name"), str):
                slot["name"] += fn["name"]
            args = fn.get("arguments")
            if isinstance(args, str):
                slot["args"].append(args)
            elif isinstance(args, dict):
                slot["args"].append(json.dumps(args))
        if choice.get("finish_reason"):
            self.finish_reason = choice["finish_reason"]
        logprobs = choice.get("logprobs")
        if isinstance(logprobs, dict) and isinstance(logprobs.get("content"), list):
            self.logprobs = (self.logprobs or []) + logprobs["content"]
        for key, value in choice.items():
            if key in _CHOICE_KNOWN:
                continue
            if isinstance(value, list) and isinstance(self.extra.get(key), list):
                self.extra[key] = self.extra[key] + value
            else:
                self.extra[key] = value

    def response(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": self.role, "content": "".join(self.content) or None}
        if self.refusal:
            message["refusal"] = "".join(self.refusal)
        if self.reasoning:
            message["reasoning_content"] = "".join(self.reasoning)
        if self.calls:
            message["tool_calls"] = [
                {
                    "id": slot["id"],
                    "type": slot["type"],
                    "function": {"name": slot["name"], "arguments": "".join(slot["args"])},
                }
                for _, slot in sorted(self.calls.items())
            ]
        choice: dict[str, Any] = {
            "index": 0,
            "message": message,
            "finish_reason": self.finish_reason,
            **self.extra,
        }
        if self.logprobs is not None:
            choice["logprobs"] = {"content": self.logprobs}
        out: dict[str, Any] = {**self.top, "object": "chat.completion", "choices": [choice]}
        if self.usage is not None:
            out["usage"] = self.usage
        return out


async def assemble(lines: AsyncIterator[str], *, where: str) -> dict[str, Any]:
    """Read a Chat Completions event stream to its end and return the response object.

    Args:
        lines: the response body's lines (``httpx.Response.aiter_lines()``).
        where: the endpoint, for error messages.

    Raises:
        ModelAPIError: an ``error`` event (its ``code`` as the status when it is an HTTP
            status), a ``data`` line that is not JSON, or a stream that ended without a
            single chunk.
    """
    acc = _Assembly()
    event = "message"
    async for line in lines:
        if not line.strip():
            event = "message"
            continue
        field, _, value = line.partition(":")
        value = value.strip()
        if field == "event":
            event = value
            continue
        if field != "data" and field != "error":
            continue  # comments (": keep-alive"), ids, retry hints
        if value == "[DONE]":
            break
        try:
            chunk = json.loads(value)
        except ValueError:
            raise ModelAPIError(
                f"model API at {where} streamed a line that is not JSON: {value[:200]}",
                body=value[:2000],
            ) from None
        if field == "error" or event == "error" or (isinstance(chunk, dict) and "error" in chunk):
            raise _stream_error(chunk, where)
        if isinstance(chunk, dict):
            acc.add(chunk)
    if not acc.chunks:
        raise EmptyStream(f"model API at {where} ended its stream without a response")
    return acc.response()


class EmptyStream(ModelAPIError):
    """A stream that ended without a single event: how llama-cpp-python reports an error
    raised once streaming has begun (a prompt over the context window among them: HTTP
    200, an empty body, the reason only in its log). `ChatCompletionsClient` sends the
    request once more without streaming to get the server's own answer."""


def _stream_error(chunk: Any, where: str) -> ModelAPIError:
    err = chunk.get("error", chunk) if isinstance(chunk, dict) else chunk
    message = err.get("message", err) if isinstance(err, dict) else err
    code = err.get("code") if isinstance(err, dict) else None
    status = code if isinstance(code, int) and 400 <= code < 600 else None
    return ModelAPIError(
        f"model API at {where} failed mid-stream: {message}"[:600],
        status=status,
        body=json.dumps(chunk)[:2000],
        transient=True if status is None else None,
    )
