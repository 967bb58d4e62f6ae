"""Tool methods generated from MCP tool schemas: typed signatures, ``Args:`` docstrings."""

from __future__ import annotations

import inspect
from typing import Any, Literal

import pytest

from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.protocol import ToolDef
from mcpgym_clients.train.tool_methods import docstring, tool_method, type_hint

SCHEMA = {
    "type": "object",
    "properties": {
        "order_id": {"type": "integer", "description": "the order\n  number."},
        "reason": {"enum": ["damaged", "late"], "type": "string"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "items": {"type": "array", "items": {"type": "integer"}, "description": "line ids"},
    },
    "required": ["order_id", "reason"],
}
TOOL = ToolDef("issue_refund", "Refund an order.\n\nArgs:\n    order_id: the order.", SCHEMA)


class Env:
    pass


def test_a_tool_becomes_a_typed_method_with_an_args_docstring() -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    Env.issue_refund = tool_method(TOOL, lambda self, n, a: calls.append((n, a)) or "ok")  # type: ignore[attr-defined]
    method = Env().issue_refund  # type: ignore[attr-defined]
    sig = inspect.signature(method)
    assert list(sig.parameters) == ["order_id", "reason", "note", "items"]
    assert sig.parameters["order_id"].annotation is int
    assert sig.parameters["reason"].annotation == Literal["damaged", "late"]
    note = sig.parameters["note"]
    assert note.annotation == str | None and note.default is None
    assert sig.parameters["items"].annotation == list[int] | None
    assert method.__doc__ == docstring(TOOL)
    assert "    order_id: the order number." in method.__doc__
    assert method.__doc__.count("Args:") == 1  # the description's own Args: section is dropped
    assert method(order_id=7, reason="late") == "ok"
    assert method(order_id="x", bogus=1) == "ok"  # the server, not Python, judges arguments
    assert calls == [
        ("issue_refund", {"order_id": 7, "reason": "late"}),
        ("issue_refund", {"order_id": "x", "bogus": 1}),
    ]


def test_transformers_reads_the_schema_back() -> None:
    utils = pytest.importorskip("transformers.utils")
    Env.issue_refund = tool_method(TOOL, lambda self, n, a: "")  # type: ignore[attr-defined]
    fn = utils.get_json_schema(Env().issue_refund)["function"]  # type: ignore[attr-defined]
    assert fn["name"] == "issue_refund" and fn["description"] == "Refund an order."
    params = fn["parameters"]
    assert params["required"] == ["order_id", "reason"]
    order_id = params["properties"]["order_id"]
    assert order_id == {"type": "integer", "description": "the order number."}
    assert params["properties"]["reason"]["enum"] == ["damaged", "late"]
    assert params["properties"]["items"]["items"] == {"type": "integer"}


@pytest.mark.parametrize(
    ("name", "props"),
    [("reset", {}), ("_hidden", {}), ("bad-name", {}), ("ok", {"class": {"type": "string"}})],
)
def test_names_that_cannot_be_methods_are_refused(name: str, props: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError, match="rename it in the environment"):
        tool_method(ToolDef(name, "x", {"type": "object", "properties": props}), lambda *a: "")


def test_type_hints_cover_the_json_schema_types() -> None:
    assert type_hint({"type": "number"}) is float
    assert type_hint({"type": "boolean"}) is bool
    assert type_hint({"type": ["integer", "null"]}) == int | None
    assert type_hint({"type": "object"}) is dict
    assert type_hint({}) is Any
