"""The tool-call handler's wire dict (`step_to_wire`) is what the SDK made of the model.

The MCP bridge answers ``tools/call`` with the wire form of the `CallToolResult` it built
before (`step_to_result` below) instead of the model (the SDK's pipeline validates and
dumps either the same way; building and dumping the model cost ~50 us a call): the dicts
are equal for every step of both environments' reference solutions and for made-up steps
of every shape, and the SDK's outbound serialization of both is the same in both protocol
eras.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import types
from mcp_types.methods import serialize_server_result

from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment
from mcpgym_server._bundle_meta import LogEntry, StepStatus
from mcpgym_server._mcp_bridge import step_to_wire

ERAS = ("2025-11-25", "2026-07-28")


def step_to_result(entry: LogEntry) -> types.CallToolResult:
    """The `CallToolResult` model the bridge built per call before `step_to_wire`."""
    if entry.status == "ok":
        result = entry.result
        structured = result if isinstance(result, dict) else {"result": result}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(result, ensure_ascii=False))],
            structured_content=structured,
        )
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=entry.error or entry.status)],
        is_error=True,
    )


def _same(entry: LogEntry) -> None:
    model = step_to_result(entry)
    wire = step_to_wire(entry)
    assert wire == model.model_dump(by_alias=True, mode="json", exclude_none=True)
    for era in ERAS:
        assert serialize_server_result("tools/call", era, dict(wire)) == serialize_server_result(
            "tools/call", era, model.model_dump(by_alias=True, mode="json", exclude_none=True)
        )


@pytest.mark.parametrize("env_name", ["helpdesk", "ledger"])
def test_every_reference_step_has_the_models_wire_form(env_name: str) -> None:
    env = load_environment(env_name)
    manager = EpisodeManager(env, MemoryEpisodeStore(), max_open=4)
    seen = 0
    for family in env.families:
        for band in env.family(family).bands:
            for seed in range(2):
                variant = env.variant(family, band, seed)
                ep = manager.open(family, band, seed)
                calls = [(c.name, dict(c.arguments)) for c in variant.reference]
                calls.append(("no_such_tool", {}))  # an unknown tool: an error step
                calls.append(
                    ("submit", {} if variant.answer is None else {"answer": variant.answer})
                )
                for name, arguments in calls:
                    _same(manager.call(ep.id, name, arguments))
                    seen += 1
    assert seen > 100


@pytest.mark.parametrize(
    ("status", "result", "error"),
    [
        ("ok", {"a": [1, 2.5, None, True], "ü": {"ß": "日本"}}, None),
        ("ok", [1, "two", {"three": 3}], None),
        ("ok", 'a capped result\'s head: {"x": ', None),
        ("ok", 7, None),
        ("ok", None, None),
        ("ok", {}, None),
        ("tool_error", None, "Error: no such order"),
        ("invalid_arguments", None, None),
        ("internal_error", None, "Internal error"),
    ],
)
def test_made_up_steps_have_the_models_wire_form(
    status: StepStatus, result: Any, error: str | None
) -> None:
    entry = LogEntry(
        step=1, tool="t", arguments={}, status=status, result=result, error=error, clock="c"
    )
    _same(entry)
