"""A tiny OpenAI-compatible server on loopback that behaves like llama-cpp-python 0.3.x.

A real HTTP server (anyio TCP listener, HTTP/1.1, one connection per request) that
reproduces what a local model server does to a client, as measured against
llama-cpp-python's server (``docs/models.md``):

- one request at a time: a second request waits for the first to finish generating;
- an assistant message with ``"content": null`` fails its request validation: HTTP 500
  ``{"error": {"message": "7 validation errors: ...", "type": "internal_server_error"}}``
  (omitted or ``""`` is fine), streaming or not;
- a prompt over the context window: 400 ``context_length_exceeded`` with its figures, in
  llama-cpp-python's words (prompt tokens counted here as 4 characters each), and when
  streaming, HTTP 200 with an empty event stream (the error only in its log);
- streaming (``"stream": true``): events paced one token per ``interval`` seconds, and a
  closed client connection stops the generation (it is noticed between tokens, as
  llama-cpp-python's ``request.is_disconnected()`` check does); without streaming the
  generation runs to its end whether the client is still there or not.

Replies are scripted, one per chat request, in order (`Reply`); each request is logged
(`Served`) with how it ended.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import SocketStream

NULL_CONTENT_ERROR = (
    "7 validation errors:\n  {'type': 'string_type', 'loc': ('body', 'messages', 1, "
    "'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid "
    "string', 'input': None}"
)


@dataclass
class Reply:
    """One scripted generation.

    Attributes:
        text: the content generated, one "token" per 4 characters.
        interval: seconds per token (how slow the model is).
        stall: after the first event, generate nothing more until the client leaves
            (streaming) or for ``interval * 100`` seconds (not streaming).
        keepalive: while stalled (streaming), send an SSE comment (``: keepalive``) every
            ``keepalive`` seconds, as proxies and some servers do (0: none).
        hold: awaited once the request is read, before anything is sent: the model
            "thinks" until the test says (``None``: no wait).
    """

    text: str = "done"
    interval: float = 0.0
    stall: bool = False
    keepalive: float = 0.0
    hold: Callable[[], Awaitable[None]] | None = None


@dataclass
class Served:
    """One request as the server saw it.

    Attributes:
        n: 1-based request number. stream: it asked to stream. body: the request JSON.
        outcome: ``completed``, ``disconnected`` (the client left; generation stopped),
            ``abandoned`` (the client left, the generation ran on), ``500``, ``400``.
        started, ended: ``anyio.current_time()`` when generation began and ended.
        tokens: tokens generated.
    """

    n: int
    stream: bool
    body: dict[str, Any]
    outcome: str = "?"
    started: float = 0.0
    ended: float = 0.0
    tokens: int = 0


@dataclass
class FakeLlamaServer:
    """See the module docstring. Use ``async with server.running(): ...``."""

    replies: list[Reply] = field(default_factory=list)
    n_ctx: int = 4096
    served: list[Served] = field(default_factory=list)
    port: int = 0
    models: list[str] = field(default_factory=lambda: ["qwen"])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def running(self) -> Any:
        server = self

        class _Running:
            async def __aenter__(self) -> FakeLlamaServer:
                self.tg = anyio.create_task_group()
                await self.tg.__aenter__()
                listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
                server.port = listener.extra(anyio.abc.SocketAttribute.local_port)
                server._slot = anyio.Lock()
                self.tg.start_soon(listener.serve, server._handle)
                self.listener = listener
                return server

            async def __aexit__(self, *exc: object) -> None:
                self.tg.cancel_scope.cancel()
                await self.tg.__aexit__(None, None, None)
                await self.listener.aclose()

        return _Running()

    async def _handle(self, stream: SocketStream) -> None:
        async with stream:
            try:
                method, path, body = await _read_request(stream)
            except (anyio.EndOfStream, anyio.BrokenResourceError, ValueError):
                return
            if method == "GET":
                await _send_json(
                    stream, 200, {"object": "list", "data": [{"id": m} for m in self.models]}
                )
                return
            async with self._slot:  # one generation at a time
                await self._chat(stream, body)

    async def _chat(self, stream: SocketStream, body: dict[str, Any]) -> None:
        rec = Served(len(self.served) + 1, bool(body.get("stream")), body)
        self.served.append(rec)
        rec.started = anyio.current_time()
        try:
            for m in body.get("messages", []):
                if m.get("role") == "assistant" and "content" in m and m["content"] is None:
                    rec.outcome = "500"
                    await _send_json(
                        stream, 500, _error(NULL_CONTENT_ERROR, "internal_server_error")
                    )
                    return
            prompt = len(json.dumps(body.get("messages")) + json.dumps(body.get("tools"))) // 4
            if prompt >= self.n_ctx:
                rec.outcome = "400"
                cap = body.get("max_tokens")
                message = (
                    f"This model's maximum context length is {self.n_ctx} tokens. However, "
                    f"you requested {prompt + (cap or 0)} tokens ({prompt} in the messages, "
                    f"{cap} in the completion). Please reduce the length of the messages or "
                    "completion."
                )
                if rec.stream:  # the error is raised inside the event generator
                    head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    await stream.send(f"{head}connection: close\r\n\r\n".encode())
                    return
                await _send_json(
                    stream, 400, _error(message, "invalid_request_error", "context_length_exceeded")
                )
                return
            reply = self.replies.pop(0) if self.replies else Reply()
            if reply.hold is not None:
                await reply.hold()
            if rec.stream:
                await self._stream(stream, rec, reply, prompt)
            else:
                await self._whole(stream, rec, reply, prompt)
        finally:
            rec.ended = anyio.current_time()

    async def _stream(self, stream: SocketStream, rec: Served, reply: Reply, prompt: int) -> None:
        head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
        chunks = [reply.text[i : i + 4] for i in range(0, len(reply.text), 4)] or [""]
        try:
            await stream.send(head.encode())
            await _event(stream, {"role": "assistant", "content": ""}, None)
            if reply.stall:
                while True:  # generating nothing, until the client leaves
                    await _gone_after(stream, reply.keepalive or 3600)
                    if reply.keepalive:
                        await stream.send(b": keepalive\n\n")
            for piece in chunks:
                if await _gone_after(stream, reply.interval):
                    rec.outcome = "disconnected"
                    return
                await _event(stream, {"content": piece}, None)
                rec.tokens += 1
            await _event(stream, {}, "stop")
            await stream.send(b"data: [DONE]\n\n")
            rec.outcome = "completed"
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, _Gone):
            rec.outcome = "disconnected"

    async def _whole(self, stream: SocketStream, rec: Served, reply: Reply, prompt: int) -> None:
        tokens = max(1, len(reply.text) // 4)
        await anyio.sleep(reply.interval * (100 if reply.stall else tokens))  # deaf to the client
        rec.tokens = tokens
        data = {
            "id": f"chatcmpl-{rec.n}",
            "object": "chat.completion",
            "model": "qwen",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": tokens,
                "total_tokens": prompt + tokens,
            },
        }
        try:
            await _send_json(stream, 200, data)
            rec.outcome = "completed"
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            rec.outcome = "abandoned"


class _Gone(Exception):
    pass


async def _gone_after(stream: SocketStream, seconds: float) -> bool:
    """Wait ``seconds`` (one token's time); whether the client closed its side meanwhile."""
    with anyio.move_on_after(seconds):
        try:
            await stream.receive()
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            raise _Gone from None
    return False


async def _event(stream: SocketStream, delta: dict[str, Any], finish: str | None) -> None:
    chunk = {
        "id": "chatcmpl-s",
        "object": "chat.completion.chunk",
        "model": "qwen",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    await stream.send(f"data: {json.dumps(chunk)}\n\n".encode())


def _error(message: str, kind: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


async def _read_request(stream: SocketStream) -> tuple[str, str, dict[str, Any]]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += await stream.receive()
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(rest) < length:
        rest += await stream.receive()
    return method, path, json.loads(rest) if rest else {}


async def _send_json(stream: SocketStream, status: int, data: Any) -> None:
    body = json.dumps(data).encode()
    reason = {200: "OK", 400: "Bad Request", 500: "Internal Server Error"}[status]
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    await stream.send(head.encode() + body)
