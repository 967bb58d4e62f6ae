"""The MCP face of an `EpisodeManager`: one low-level MCP `Server` for every episode.

Each request is routed to its episode by a resolver (the episode URL on HTTP,
the MCP session on the connect-to-start endpoint, the process on stdio), then
handed to `EpisodeManager.call`. The bridge owns the two error channels:

- ``ok`` steps become a text result holding the JSON (plus ``structuredContent``);
- tool errors, invalid arguments, unknown tools and internal errors become
  ``isError`` results whose text is the message recorded in the log (internal
  errors only show the generic text).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.connection import Connection
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import x_mcp_header_map
from opentelemetry import trace

from mcpgym_server._bundle import LogEntry
from mcpgym_server._environment import Environment
from mcpgym_server._episode import EpisodeManager
from mcpgym_server._errors import EpisodeSealedError, UnknownEpisodeError
from mcpgym_server._mcp_tools import tool_definitions
from mcpgym_server._tasks import TaskVariant

logger = logging.getLogger("mcpgym.mcp")

EPISODE_RESOURCE_URI = "mcpgym://episode"
"""Resource describing the current episode (id and instruction; never the seed or variant id,
from which the public generator would give away the reference solution)."""

INSTRUCTION_METHODS = ("initialize", "server/discover")
"""The requests whose result carries the server instructions, one per protocol era."""

EpisodeResolver = Callable[[ServerRequestContext[Any, Any]], str | None]
"""Maps a request context to the id of its episode, or ``None`` when it has none."""

NO_EPISODE_MESSAGE = (
    "this MCP connection has no episode. Episodes are bound to an MCP session on the "
    "connect-to-start endpoint, and 2026-07-28 clients have no sessions: create an episode "
    "with `POST /episodes` and connect to the `mcp_url` it returns."
)
"""The tool error of a request that reaches no episode (the HTTP app refuses sessionless
requests on connect-to-start before they get this far; kept for other hosts)."""


def tracing_configured() -> bool:
    """Whether a tracer provider is set (in code, or by ``OTEL_PYTHON_TRACER_PROVIDER``):
    OpenTelemetry's global provider is anything but its proxy, whose tracers make no span."""
    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


class SpansWhenTraced:
    """The SDK's `OpenTelemetryMiddleware`, run for the requests that arrive while a tracer
    provider is set (`tracing_configured`), passed by otherwise.

    The SDK puts that middleware on every `Server`; with no provider it opens a span that
    records nothing, ~0.1 ms of the server's CPU a tool call (x0.92, docs/benchmarks.md).
    Deciding per request, not once at start-up, keeps the spans of a provider set later.
    What a request without one no longer gets: the non-recording span its handler would
    have found current (the incoming ``traceparent``'s, or none); mcpgym's handlers never
    read it.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        """Run ``ctx`` through the inner middleware when tracing, else straight on."""
        if tracing_configured():
            return await self.inner(ctx, call_next)
        return await call_next(ctx)


def connection_of(ctx: ServerRequestContext[Any, Any]) -> Connection:
    """The `Connection` behind a request (per session in the handshake era).

    mcp 2.3 has no public accessor; this is the one place that uses the private
    attribute (pinned ``mcp==2.3.*``; covered by the connect-to-start tests).
    """
    return ctx.session._connection  # noqa: SLF001


def episode_instructions(env: Environment, variant: TaskVariant) -> str:
    """Server instructions for one episode: environment instructions plus the task."""
    parts = [env.instructions.strip()] if env.instructions.strip() else []
    parts.append(f"Your task:\n{variant.instruction.strip()}")
    parts.append("When you are done, call the `submit` tool (optionally with a final answer).")
    return "\n\n".join(parts)


def header_checked_schemas(tools: list[types.Tool]) -> dict[str, Any]:
    """The input schemas the 2026-era ``Mcp-Param-*`` header check of a ``tools/call`` needs:
    those of ``tools`` that carry an ``x-mcp-header`` annotation, by tool name.

    Every caller is advertised the same tools, so the SDK's check can look a schema up here
    (`mcp.server.Server`'s ``get_tool_input_schema``); without a lookup it runs (and
    serializes) a whole ``tools/list`` per call to find it. A schema with no annotation is
    left out: the SDK's `validate_mcp_param_headers` walks it twice per call (its
    annotations checked, then read) and, finding none, passes every call, which is what a
    schema the lookup does not know gets without the walks. Tools are fixed per server, so
    this is decided once.
    """
    return {t.name: t.input_schema for t in tools if x_mcp_header_map(t.input_schema)}


def step_to_wire(entry: LogEntry) -> dict[str, Any]:
    """The `CallToolResult` the agent receives for a logged step, as the SDK dumps it
    (``model_dump(by_alias=True, mode="json", exclude_none=True)``), without building the
    model and dumping it: an ``ok`` step's result as JSON text and structured content (a
    non-object result wrapped as ``{"result": ...}``), any other step's error message (or
    its status) with ``isError``.

    The tool-call handler returns this dict; the SDK's outbound pipeline then validates and
    dumps it against the protocol version's result surface, as it does a model's dump, so
    the bytes sent are the same. ``structuredContent`` is the log's own result (the SDK
    copies it in that pass and never writes into it).
    """
    if entry.status == "ok":
        result = entry.result
        return {
            "content": [{"type": "text", "text": json.dumps(result, ensure_ascii=False)}],
            "structuredContent": result if isinstance(result, dict) else {"result": result},
            "isError": False,
            "resultType": "complete",
        }
    return {
        "content": [{"type": "text", "text": entry.error or entry.status}],
        "isError": True,
        "resultType": "complete",
    }


def _error_result(message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], is_error=True
    )


def build_mcp_server(
    manager: EpisodeManager,
    resolve: EpisodeResolver,
    *,
    middleware: list[Any] | None = None,
) -> Server[Any]:
    """Build the low-level MCP server that serves ``manager``'s episodes.

    Args:
        manager: the episode runtime.
        resolve: finds the episode of a request (see `EpisodeResolver`).
        middleware: extra server middleware, outermost first (connect-to-start uses
            one to open an episode per MCP session).

    Returns:
        An `mcp.server.Server`; serve it with the streamable-HTTP session manager
        or `Server.run` on stdio.
    """
    env = manager.env
    tools = tool_definitions(env)
    schemas = header_checked_schemas(tools)

    def episode_variant(ctx: ServerRequestContext[Any, Any]) -> TaskVariant | None:
        eid = resolve(ctx)
        if eid is None:
            return None
        try:
            return manager.get(eid).variant
        except (EpisodeSealedError, UnknownEpisodeError):
            return None

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | dict[str, Any]:
        eid = resolve(ctx)
        if eid is None:
            return _error_result(NO_EPISODE_MESSAGE)
        try:
            entry = manager.call(eid, params.name, params.arguments)
        except (EpisodeSealedError, UnknownEpisodeError) as exc:
            return _error_result(str(exc))
        return step_to_wire(entry)

    async def list_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        listed = [
            types.Resource(
                uri=EPISODE_RESOURCE_URI,
                name="episode",
                description="This episode: its id and instruction.",
                mime_type="application/json",
            )
        ]
        listed += [
            types.Resource(uri=r.uri, name=r.name, description=r.description, mime_type=r.mime_type)
            for r in env.resources.values()
        ]
        return types.ListResourcesResult(resources=listed)

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == EPISODE_RESOURCE_URI:
            eid = resolve(ctx)
            variant = episode_variant(ctx)
            if eid is None or variant is None:
                raise MCPError(code=types.INVALID_PARAMS, message=NO_EPISODE_MESSAGE)
            body = {"episode_id": eid, "instruction": variant.instruction}
            text = json.dumps(body)
            mime = "application/json"
        elif uri in env.resources:
            text, mime = env.resources[uri].text, env.resources[uri].mime_type
        else:
            known = [EPISODE_RESOURCE_URI, *env.resources]
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"unknown resource {uri!r}; available: {', '.join(known)}",
            )
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
        )

    async def instructions_middleware(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        # Both eras get the episode's instructions: `initialize` (2025) and `server/discover`
        # (2026-07-28) are where each era's client reads them.
        result = await call_next(ctx)
        if ctx.method in INSTRUCTION_METHODS and isinstance(result, dict):
            variant = episode_variant(ctx)
            if variant is not None:
                result["instructions"] = episode_instructions(env, variant)
        return result

    server: Server[Any] = Server(
        f"mcpgym-{env.name}",
        version=env.version,
        instructions=env.instructions or None,
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    # Registered as `on_call_tool=` would be (the same entry), typed as the SDK's handlers
    # are (`HandlerResult`: a model or its wire dict), which `on_call_tool=` is not.
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
    server.middleware = [
        SpansWhenTraced(m) if isinstance(m, OpenTelemetryMiddleware) else m
        for m in server.middleware
    ]
    # Outermost first: caller middleware (opens episodes) wraps the instructions rewrite.
    server.middleware.extend([*(middleware or []), instructions_middleware])
    return server
