"""Tool declaration: typed Python functions that receive the episode's `Sandbox`.

A tool is a plain function ``def name(sb: Sandbox, arg: T, ...) -> JSON`` declared
with `Environment.tool`. Its signature (after the sandbox parameter) becomes the
MCP input schema through pydantic; its docstring's first paragraph becomes the
model-facing description and its ``Args:`` section the parameter descriptions.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from mcpgym_server._errors import (
    MAX_LISTED_ERRORS,
    EnvironmentDefinitionError,
    InvalidArgumentsError,
)

ToolKind = Literal["read", "write"]
"""Side-effect class of a tool: ``read`` never changes the sandbox, ``write`` may."""

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
"""Integers outside SQLite's 64-bit range are refused before any tool runs."""

MAX_STRING_LENGTH = 20_000
"""Longest string argument accepted (characters); longer ones are refused."""

MAX_ITEMS = 1_000
"""Most items accepted in one list or object argument."""

_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s{2,}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {arg: description}).

    The description is everything before the ``Args:`` section (other sections
    such as ``Returns:`` are kept in the description, since models read them).
    """
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    desc: list[str] = []
    args: dict[str, str] = {}
    i = 0
    while i < len(lines) and not _ARGS_HEADER.match(lines[i]):
        desc.append(lines[i])
        i += 1
    current: str | None = None
    i += 1
    while i < len(lines):
        line = lines[i]
        if line.strip() and not line.startswith(" "):
            desc.extend(lines[i:])  # a following section such as Returns:
            break
        m = _ARG_LINE.match(line)
        if m:
            current = str(m.group(1))
            args[current] = m.group(2).strip()
        elif current and line.strip():
            args[current] = (args[current] + " " + line.strip()).strip()
        i += 1
    return "\n".join(desc).strip(), args


@dataclass(frozen=True)
class ToolSpec:
    """One declared tool.

    Attributes:
        name: the tool name agents call.
        kind: ``"read"`` or ``"write"``; served as MCP ``readOnlyHint``.
        description: model-facing description (from the docstring).
        fn: the Python function; first parameter is the `Sandbox`.
        args_model: pydantic model validating the arguments.
        input_schema: JSON schema of the arguments (as served over MCP).
        title: optional human title.
    """

    name: str
    kind: ToolKind
    description: str
    fn: Callable[..., Any]
    args_model: type[BaseModel]
    input_schema: dict[str, Any]
    title: str | None = None
    framework: bool = field(default=False)

    def validate(self, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Validate raw arguments; return the keyword arguments for `fn`.

        Raises:
            InvalidArgumentsError: with one entry per offending field (the first
                `MAX_LISTED_ERRORS`; the rest counted): missing or invalid fields, then
                unknown keys (found without pydantic, whose one error per key made a call
                with 200,000 of them take seconds).
        """
        if arguments is not None and not isinstance(arguments, dict):
            raise InvalidArgumentsError(
                self.name, [{"field": "(arguments)", "message": "must be a JSON object"}]
            )
        arguments = arguments or {}
        fields = self.args_model.model_fields
        unknown = [key for key in arguments if key not in fields]
        if unknown:
            arguments = {key: value for key, value in arguments.items() if key in fields}
        errors: list[dict[str, Any]] = []
        more = 0
        model: BaseModel | None = None
        try:
            model = self.args_model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            found = exc.errors(include_url=False, include_context=True, include_input=True)
            errors = [
                {
                    "field": ".".join(str(p) for p in e["loc"]) or "(arguments)",
                    "message": _message(e),
                }
                for e in found[:MAX_LISTED_ERRORS]
            ]
            more = len(found) - len(errors)
        if unknown:
            listed = max(0, MAX_LISTED_ERRORS - len(errors))
            errors += [
                {"field": str(key), "message": "Extra inputs are not permitted"}
                for key in unknown[:listed]
            ]
            more += len(unknown) - min(listed, len(unknown))
        if errors or model is None:
            raise InvalidArgumentsError(self.name, errors, more)
        kwargs = {name: getattr(model, name) for name in type(model).model_fields}
        for name, value in kwargs.items():
            _check_bounds(value, name, errors)
        if errors:
            raise InvalidArgumentsError(self.name, errors)
        return kwargs


def _message(error: Any) -> str:
    """The message of one pydantic error, never quoting the input. A text over its field's
    ``maxLength`` is said with its length and the limit (refused, never cut)."""
    if error["type"] == "string_too_long" and isinstance(error.get("input"), str):
        limit = error.get("ctx", {}).get("max_length")
        return (
            f"text of {len(error['input'])} characters; this field holds at most {limit} "
            "(nothing was written: shorten it)"
        )
    return error["msg"]


def _check_bounds(value: Any, path: str, errors: list[dict[str, Any]]) -> None:
    """Refuse values the sandbox cannot store safely (see the module constants)."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            errors.append({"field": path, "message": "integer out of the 64-bit range"})
    elif isinstance(value, str):
        if len(value) > MAX_STRING_LENGTH:
            errors.append(
                {"field": path, "message": f"text longer than {MAX_STRING_LENGTH} characters"}
            )
        else:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                errors.append({"field": path, "message": "text is not valid Unicode"})
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            _check_bounds(getattr(value, name), f"{path}.{name}", errors)
    elif isinstance(value, dict | list | tuple | set | frozenset):
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        if len(items) > MAX_ITEMS:
            errors.append({"field": path, "message": f"more than {MAX_ITEMS} items"})
            return
        for key, item in items:
            _check_bounds(item, f"{path}.{key}", errors)


def build_tool_spec(
    fn: Callable[..., Any],
    *,
    kind: ToolKind,
    name: str | None = None,
    title: str | None = None,
    framework: bool = False,
) -> ToolSpec:
    """Build a `ToolSpec` from a function ``fn(sb, **args)``.

    Raises:
        EnvironmentDefinitionError: if the function has no sandbox parameter,
            uses ``*args``/``**kwargs``, lacks a type annotation or a docstring.
    """
    tool_name = name or fn.__name__
    if kind not in ("read", "write"):
        raise EnvironmentDefinitionError(f"tool `{tool_name}`: kind must be 'read' or 'write'")
    sig = inspect.signature(fn, eval_str=True)
    params = list(sig.parameters.values())
    if not params:
        raise EnvironmentDefinitionError(
            f"tool `{tool_name}` must take the Sandbox as its first parameter"
        )
    description, arg_docs = parse_docstring(fn.__doc__)
    if not description:
        raise EnvironmentDefinitionError(
            f"tool `{tool_name}` needs a docstring: it is the description the model reads"
        )
    fields: dict[str, Any] = {}
    for p in params[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise EnvironmentDefinitionError(f"tool `{tool_name}`: *args/**kwargs are not allowed")
        if p.annotation is inspect.Parameter.empty:
            raise EnvironmentDefinitionError(
                f"tool `{tool_name}`: parameter `{p.name}` needs a type annotation"
            )
        default = ... if p.default is inspect.Parameter.empty else p.default
        fields[p.name] = (p.annotation, Field(default, description=arg_docs.get(p.name)))
    model = pydantic.create_model(  # type: ignore[call-overload]
        f"{tool_name}_arguments",
        __config__=ConfigDict(extra="forbid"),
        **fields,
    )
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return ToolSpec(
        name=tool_name,
        kind=kind,
        description=description,
        fn=fn,
        args_model=model,
        input_schema=schema,
        title=title,
        framework=framework,
    )
