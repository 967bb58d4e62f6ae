"""What each vendor accepts as a tool declaration, encoded from its documentation.

Each ``*_problems`` function returns the list of rule violations (empty: accepted). The
rules are written here from the vendors' pages, independently of the adapters' code, so
a converter bug is not mirrored by its own test.
"""

from __future__ import annotations

from typing import Any

import jsonschema

OPENAI_STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const",
    "anyOf", "description", "title", "$ref", "$defs", "definitions", "pattern", "format",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems",
    "maxItems",
}  # fmt: skip
"""platform.openai.com/docs/guides/structured-outputs#supported-schemas (strict mode)."""

OPENAI_MAX_DEPTH = 10
OPENAI_MAX_PROPERTIES = 5000

GEMINI_FIELDS = {
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
    "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
    "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum",
}  # fmt: skip
"""ai.google.dev/api/caching#Schema: the fields of a Gemini ``Schema`` object."""

GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}
GEMINI_FORMATS = {
    "STRING": {"enum", "date-time"},
    "NUMBER": {"float", "double"},
    "INTEGER": {"int32", "int64"},
}
"""ai.google.dev/api/caching#Schema ``format``: the formats supported per type."""


def json_schema_problems(schema: Any) -> list[str]:
    """Problems of ``schema`` as a JSON Schema (Draft 2020-12 metaschema)."""
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"not a valid JSON Schema: {exc.message}"]
    return []


def _walk(node: Any, path: str = "$", depth: int = 0) -> list[tuple[str, dict[str, Any], int]]:
    out: list[tuple[str, dict[str, Any], int]] = []
    if isinstance(node, dict):
        out.append((path, node, depth))
        for key in ("properties", "$defs", "definitions"):
            for name, sub in (node.get(key) or {}).items():
                out += _walk(sub, f"{path}.{key}.{name}", depth + (key == "properties"))
        if isinstance(node.get("items"), dict):
            out += _walk(node["items"], f"{path}.items", depth)
        for i, sub in enumerate(node.get("anyOf") or []):
            out += _walk(sub, f"{path}.anyOf[{i}]", depth)
    return out


def openai_problems(function: dict[str, Any]) -> list[str]:
    """Problems of a Chat Completions ``function`` (or a flat Responses tool) for OpenAI."""
    params = function["parameters"]
    problems = json_schema_problems(params)
    if params.get("type") != "object":
        problems.append("parameters must be an object schema")
    if not function.get("strict"):
        return problems
    if "anyOf" in params:
        problems.append("strict: the root must not be anyOf")
    nodes = _walk(params)
    if sum(len(n.get("properties") or {}) for _, n, _ in nodes) > OPENAI_MAX_PROPERTIES:
        problems.append("strict: too many properties")
    for path, node, depth in nodes:
        if depth > OPENAI_MAX_DEPTH:
            problems.append(f"strict: {path} nested deeper than {OPENAI_MAX_DEPTH}")
        extra = set(node) - OPENAI_STRICT_KEYWORDS
        if extra:
            problems.append(f"strict: {path} uses {sorted(extra)}")
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") is not False:
                problems.append(f"strict: {path} needs additionalProperties: false")
            if sorted(node.get("required", [])) != sorted(node.get("properties") or {}):
                problems.append(f"strict: {path} must require every property")
    return problems


def anthropic_problems(tool: dict[str, Any]) -> list[str]:
    """Problems of a Messages API tool (docs.anthropic.com/en/docs/agents-and-tools/tool-use)."""
    schema = tool["input_schema"]
    problems = json_schema_problems(schema)
    if schema.get("type") != "object":
        problems.append("input_schema.type must be object")
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            problems.append(f"input_schema does not support {key} at the top level")
    if not tool.get("name") or len(tool["name"]) > 64:
        problems.append("name must be 1-64 characters")
    return problems


def gemini_problems(declaration: dict[str, Any]) -> list[str]:
    """Problems of a Gemini ``FunctionDeclaration`` (ai.google.dev/api/caching)."""
    problems: list[str] = []
    params = declaration.get("parameters")
    if params is None:
        return problems
    if params.get("type") != "OBJECT":
        problems.append("parameters must be an OBJECT")
    stack = [("$", params)]
    while stack:
        path, node = stack.pop()
        extra = set(node) - GEMINI_FIELDS
        if extra:
            problems.append(f"{path} uses fields Gemini lacks: {sorted(extra)}")
        t = node.get("type")
        if t is None and "anyOf" not in node:
            problems.append(f"{path} has no type")
        if t is not None and t not in GEMINI_TYPES:
            problems.append(f"{path} type {t!r} is not one of {sorted(GEMINI_TYPES)}")
        if "format" in node and node["format"] not in GEMINI_FORMATS.get(t, set()):
            problems.append(f"{path} format {node['format']!r} unsupported for {t}")
        if "enum" in node and (t != "STRING" or not all(isinstance(v, str) for v in node["enum"])):
            problems.append(f"{path} enum must be strings on a STRING")
        if t == "OBJECT":
            props = node.get("properties") or {}
            if not props:
                problems.append(f"{path} properties: should be non-empty for OBJECT type")
            missing = set(node.get("required", [])) - set(props)
            if missing:
                problems.append(f"{path} requires undeclared {sorted(missing)}")
            stack += [(f"{path}.{k}", v) for k, v in props.items()]
        if t == "ARRAY":
            if not isinstance(node.get("items"), dict):
                problems.append(f"{path} ARRAY needs items")
            else:
                stack.append((f"{path}[]", node["items"]))
        stack += [(f"{path}|{i}", b) for i, b in enumerate(node.get("anyOf") or [])]
        if "nullable" in node and not isinstance(node["nullable"], bool):
            problems.append(f"{path} nullable must be a boolean")
    return problems
