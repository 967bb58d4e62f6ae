"""Python methods generated from an environment's MCP tool schemas (for TRL).

TRL's ``environment_factory`` exposes an environment's public methods as the model's
tools and builds each tool's schema from the method's type hints and its Google-style
docstring (``Args:`` entries), as ``transformers.utils.get_json_schema`` reads them. So
each MCP tool becomes a method whose signature and docstring are written from the tool's
JSON schema: a tool added to an environment appears here without code.

JSON schema -> type hint: ``string`` str, ``integer`` int, ``number`` float, ``boolean``
bool, ``array`` ``list[item]``, ``object`` dict, ``enum`` ``Literal[...]``, a ``null``
alternative (``["string", "null"]`` or ``anyOf``) ``X | None``; anything else ``Any``.
Optional arguments default to ``None`` and are left out of the call when ``None``.
"""

from __future__ import annotations

import inspect
import keyword
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.protocol import ToolDef

RESERVED = frozenset({"reset", "get_reward"})
"""Method names TRL gives a meaning of its own; a tool may not be called so."""

_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
    "null": type(None),
}


def type_hint(schema: Mapping[str, Any]) -> Any:
    """The Python type hint for a JSON schema (see the module docstring)."""
    if "enum" in schema and schema["enum"]:
        values = [v for v in schema["enum"] if isinstance(v, str | int | float | bool)]
        if values:
            return Literal[tuple(values)]  # type: ignore[valid-type]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [type_hint(s) for s in schema[key] if isinstance(s, Mapping)]
            return _union(options)
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([type_hint({**schema, "type": k}) for k in kind])
    if kind == "array":
        items = schema.get("items")
        return list[type_hint(items)] if isinstance(items, Mapping) and items else list
    return _SCALARS.get(kind, Any) if isinstance(kind, str) else Any


def _union(options: list[Any]) -> Any:
    if not options:
        return Any
    if Any in options:
        return Any
    out = options[0]
    for o in options[1:]:
        out = out | o
    return out


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _description(tool: ToolDef) -> str:
    """The tool's description without an ``Args:`` section of its own."""
    text = tool.description or f"Call the `{tool.name}` tool."
    return re.split(r"\n\s*Args:\s*\n", text, maxsplit=1)[0].strip()


def docstring(tool: ToolDef) -> str:
    """The Google-style docstring TRL reads for ``tool``: description, then ``Args:``."""
    props: Mapping[str, Any] = tool.input_schema.get("properties") or {}
    lines = [_description(tool)]
    if props:
        lines += ["", "Args:"]
        for name, schema in props.items():
            desc = schema.get("description") or schema.get("title") or f"the {name}"
            lines.append(f"    {name}: {_one_line(str(desc))}")
    lines += ["", "Returns:", "    The tool's result (JSON text), or the error text."]
    return "\n".join(lines)


def check_name(name: str, what: str) -> None:
    """Check that ``name`` can be a Python method or parameter name.

    Raises:
        ConfigurationError: it is not an identifier, is a keyword, starts with ``_``
            (TRL ignores those methods) or is reserved.
    """
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ConfigurationError(
            f"{what} {name!r} is not a Python identifier: TRL needs tools as methods; "
            "rename it in the environment"
        )
    if what == "tool" and (name.startswith("_") or name in RESERVED):
        raise ConfigurationError(
            f"tool {name!r} cannot be a TRL tool method (names starting with `_` and "
            f"{sorted(RESERVED)} are TRL's own); rename it in the environment"
        )


def tool_method(tool: ToolDef, call: Callable[[Any, str, dict[str, Any]], str]) -> Any:
    """A method ``(self, **arguments) -> str`` calling ``tool`` through ``call``.

    Args:
        tool: the MCP tool definition (name, description, input schema).
        call: ``call(self, name, arguments) -> str``, the text the model sees.

    Returns:
        A function to set on a class; its ``__signature__``, ``__annotations__`` and
        ``__doc__`` describe the tool's arguments (see the module docstring).

    Raises:
        ConfigurationError: the tool or one of its arguments has a name that cannot be
            a Python method or parameter (see `check_name`).
    """
    check_name(tool.name, "tool")
    props: Mapping[str, Any] = tool.input_schema.get("properties") or {}
    required = set(tool.input_schema.get("required") or [])
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    ordered = [n for n in props if n in required] + [n for n in props if n not in required]
    for name in ordered:
        check_name(name, f"argument of tool {tool.name!r}:")
        hint = type_hint(props[name])
        if name in required:
            params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint))
        else:
            hint = hint if hint is Any else hint | None
            params.append(
                inspect.Parameter(
                    name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=None
                )
            )
        annotations[name] = hint
    annotations["return"] = str
    tool_name = tool.name

    def method(self: Any, **arguments: Any) -> str:
        sent = {k: v for k, v in arguments.items() if v is not None or k in required}
        return call(self, tool_name, sent)

    method.__name__ = method.__qualname__ = tool_name
    method.__doc__ = docstring(tool)
    method.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    return method
