"""The 2026-era ``Mcp-Param-*`` header check, handed only the tool schemas that declare an
``x-mcp-header`` annotation (`mcpgym_server._mcp_bridge.header_checked_schemas`, issue 12
§2): leaving a schema out answers every call as checking it would."""

from __future__ import annotations

from mcp import types
from mcp.shared.inbound import validate_mcp_param_headers

from mcpgym_server import Environment
from mcpgym_server._mcp_bridge import header_checked_schemas
from mcpgym_server.runtime import tool_definitions

_ANNOTATED = {
    "type": "object",
    "properties": {
        "order_id": {"type": "string", "x-mcp-header": "Order"},
        "note": {"type": "string"},
    },
}
_OFF_CHAIN = {  # an annotation the SDK finds invalid (not on a pure `properties` chain)
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"type": "string", "x-mcp-header": "I"}}},
}
_NOT_A_TOKEN = {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": 7}}}


def test_a_schema_left_out_of_the_lookup_is_one_the_sdk_check_always_passes(
    toy_env: Environment,
) -> None:
    """Leaving a schema out (the SDK then checks nothing) answers every call as checking it
    would: for each schema left out, `validate_mcp_param_headers` passes calls with and
    without arguments and with stray, duplicated or mismatching ``Mcp-Param-*`` headers;
    an annotated schema is kept, and its check still refuses a mismatching header."""
    left_out = [t.input_schema for t in tool_definitions(toy_env)] + [_OFF_CHAIN, _NOT_A_TOKEN]
    tools = [types.Tool(name=f"t{i}", input_schema=s) for i, s in enumerate(left_out)]
    tools.append(types.Tool(name="annotated", input_schema=_ANNOTATED))
    assert header_checked_schemas(tools) == {"annotated": _ANNOTATED}
    arguments = [{}, {"order_id": "A-1"}, {"items": ["x"], "a": "y"}, {"order_id": None}]
    headers = [
        {},
        {"mcp-param-order": "B-2"},
        {"mcp-param-i": "x", "mcp-param-a": "y"},
        {"mcp-param-order": "A-1", "Mcp-Param-Order": "A-1"},
    ]
    for schema in left_out:
        for args in arguments:
            for hs in headers:
                assert validate_mcp_param_headers(schema, args, hs) is None
    refused = validate_mcp_param_headers(_ANNOTATED, {"order_id": "A-1"}, {"mcp-param-order": "B"})
    assert refused is not None
