"""An environment's tools as MCP tool definitions (what ``tools/list`` serves).

Depends on the environment only, not on the runtime, so that the lock (which hashes the
served definitions) and the MCP bridge share it without an import circle.
"""

from __future__ import annotations

from mcp import types

from mcpgym_server._environment import Environment


def tool_definitions(env: Environment) -> list[types.Tool]:
    """MCP tool definitions for an environment, `submit` last."""
    tools = sorted(env.tools.values(), key=lambda t: (t.framework, t.name))
    return [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            input_schema=t.input_schema,
            annotations=types.ToolAnnotations(
                read_only_hint=t.kind == "read",
                destructive_hint=False if t.kind == "read" else None,
                open_world_hint=False,
            ),
        )
        for t in tools
    ]
