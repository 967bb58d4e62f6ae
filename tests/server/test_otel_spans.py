"""The SDK's OpenTelemetry middleware runs only while a tracer provider is set
(`mcpgym_server._mcp_bridge.SpansWhenTraced`, issue 12 §2): with none, its spans record
nothing, and skipping it saves ~0.1 ms of server CPU a request; with one, even one set
after the server was built, every request gets its span as before."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.shared import _otel as sdk_otel
from opentelemetry import trace

from mcpgym_server import Environment, MemoryEpisodeStore
from mcpgym_server._mcp_bridge import SpansWhenTraced, build_mcp_server, tracing_configured
from mcpgym_server.runtime import EpisodeManager


class _Tracer(trace.NoOpTracer):
    def __init__(self, names: list[str]) -> None:
        self.names = names

    @contextlib.contextmanager
    def start_as_current_span(self, name: str, *args: Any, **kwargs: Any) -> Iterator[Any]:  # type: ignore[override]
        self.names.append(name)
        yield trace.INVALID_SPAN


class _Provider(trace.NoOpTracerProvider):
    def __init__(self) -> None:
        self.names: list[str] = []

    def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
        return _Tracer(self.names)


def _ctx() -> Any:
    return SimpleNamespace(
        method="tools/call",
        params={"name": "get_order"},
        protocol_version="2026-07-28",
        request_id=7,
        meta=None,
    )


def _run(middleware: Any) -> tuple[Any, list[str]]:
    seen: list[str] = []

    async def call_next(ctx: Any) -> Any:
        seen.append(ctx.method)
        return {"content": [], "isError": False}

    async def go() -> Any:
        with anyio.fail_after(5):
            return await middleware(_ctx(), call_next)

    return anyio.run(go), seen


def test_the_servers_otel_middleware_is_wrapped(toy_env: Environment) -> None:
    manager = EpisodeManager(toy_env, MemoryEpisodeStore())
    server = build_mcp_server(manager, lambda ctx: None)
    kinds = [type(m) for m in server.middleware]
    assert OpenTelemetryMiddleware not in kinds and SpansWhenTraced in kinds


def test_without_a_provider_the_request_passes_by_the_span() -> None:
    assert not tracing_configured()

    class Inner:
        calls = 0

        async def __call__(self, ctx: Any, call_next: Any) -> Any:
            Inner.calls += 1
            return await call_next(ctx)

    result, seen = _run(SpansWhenTraced(Inner()))
    assert result == {"content": [], "isError": False} and seen == ["tools/call"]
    assert Inner.calls == 0


def test_a_provider_set_later_gets_every_requests_span(monkeypatch: pytest.MonkeyPatch) -> None:
    wrapped = SpansWhenTraced(OpenTelemetryMiddleware())  # built before the provider is set
    provider = _Provider()
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", provider)
    monkeypatch.setattr(sdk_otel._tracer, "_real_tracer", None)  # the SDK's proxy resolves anew
    assert tracing_configured()
    result, seen = _run(wrapped)
    assert result == {"content": [], "isError": False} and seen == ["tools/call"]
    assert provider.names == ["tools/call get_order"]
