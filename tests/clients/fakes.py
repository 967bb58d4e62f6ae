"""An in-memory stand-in for an episode's MCP tools (offline agent tests only)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcpgym_clients import EpisodeContext, InfraError, ToolDef, ToolOutcome

KEY = {"type": "string", "description": "the key"}

TOOLS = [
    ToolDef(
        "get",
        "Read a key.",
        {
            "type": "object",
            "properties": {"key": KEY},
            "required": ["key"],
            "title": "getArguments",
        },
    ),
    ToolDef(
        "put",
        "Set a key.",
        {
            "type": "object",
            "properties": {"key": KEY, "value": {"type": "string"}},
            "required": ["key", "value"],
        },
    ),
    ToolDef(
        "submit",
        "End the episode when the task is done.",
        {"type": "object", "properties": {"answer": {"type": "string"}}},
    ),
]


class FakeEpisode:
    """A key-value store with ``get``/``put``/``submit`` that records every call.

    Args:
        fail_after: raise `InfraError` on the call with this 1-based index.
    """

    def __init__(self, *, fail_after: int | None = None) -> None:
        self.kv = {"a": "1"}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.submitted: str | None = None
        self.fail_after = fail_after

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        self.calls.append((name, dict(arguments)))
        if self.fail_after is not None and len(self.calls) >= self.fail_after:
            raise InfraError("mcp", "connection reset")
        if self.submitted is not None:
            return ToolOutcome(True, "episode ep_fake has ended (termination reason: submitted)")
        if name == "get":
            key = arguments["key"]
            if key not in self.kv:
                return ToolOutcome(True, f"Error executing tool get: no key {key!r}")
            body = {"key": key, "value": self.kv[key]}
            return ToolOutcome(False, json.dumps(body), body)
        if name == "put":
            self.kv[arguments["key"]] = arguments["value"]
            body = {"key": arguments["key"], "value": arguments["value"]}
            return ToolOutcome(False, json.dumps(body), body)
        if name == "submit":
            self.submitted = arguments.get("answer") or ""
            body = {"status": "ended", "episode_id": "ep_fake"}
            return ToolOutcome(False, json.dumps(body), body)
        return ToolOutcome(True, f"unknown tool `{name}`; available tools: get, put, submit")

    def context(self, **overrides: Any) -> EpisodeContext:
        fields: dict[str, Any] = {
            "episode_id": "ep_fake",
            "variant_id": "toy/set-target@easy#3",
            "instruction": "Set key `target` to 103.",
            "tools": TOOLS,
            "call_tool": self.call_tool,
            "server_instructions": "A key-value store.",
        }
        fields.update(overrides)
        return EpisodeContext(**fields)
