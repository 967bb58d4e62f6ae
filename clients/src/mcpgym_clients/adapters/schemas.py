"""Tool input schemas (JSON Schema, as MCP lists them) adapted to what each vendor accepts.

- OpenAI strict function calling ("Structured Outputs", platform.openai.com/docs/guides/
  structured-outputs#supported-schemas): every object lists all its properties in
  ``required`` and sets ``additionalProperties: false``; optional properties become a
  union with ``null``; only a subset of keywords is allowed (``default`` is not). When a
  schema cannot be made strict (a free-form object, an unsupported keyword) the tool is
  sent non-strict, unchanged. `strip_added_nulls` removes the ``null`` the model then
  sends for an omitted optional argument, so the MCP server sees it omitted.
- Anthropic Messages (docs.anthropic.com/en/docs/build-with-claude/tool-use,
  ``input_schema``): a JSON Schema whose top level is ``type: object`` without ``oneOf`` /
  ``anyOf`` / ``allOf``; top-level combinators are merged into one object.
- Gemini (ai.google.dev/api/caching#Schema, an OpenAPI 3.0 subset): no ``$ref``/``$defs``
  (inlined), ``nullable: true`` instead of a union with ``null``, no ``const`` (an enum of
  one string), no ``additionalProperties``, only the listed keywords and formats, upper-case
  type names, and an ``OBJECT`` must have non-empty ``properties`` (a tool without
  arguments is declared without ``parameters``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

_COMBINATORS = ("anyOf", "oneOf", "allOf")
MAX_REF_DEPTH = 32
"""Deepest chain of ``$ref`` inlined; deeper (recursive) schemas become free-form."""


def inline_refs(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Replace local ``#/$defs/X`` (and ``#/definitions/X``) references by their targets.

    Recursive definitions are cut at `MAX_REF_DEPTH` (replaced by ``{}``). The result has
    no ``$defs``/``definitions``. Unknown or remote references are left in place.
    """
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, list):
            return [walk(x, depth) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.split("/")[-1] in defs and ref.startswith("#/"):
            if depth >= MAX_REF_DEPTH:
                return {}
            target = walk(defs[ref.split("/")[-1]], depth + 1)
            rest = {k: walk(v, depth) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: walk(v, depth) for k, v in node.items() if k not in ("$defs", "definitions")}

    return walk(dict(schema), 0)


def _as_object(schema: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(schema)) or {"type": "object"}
    out.setdefault("type", "object")
    if out["type"] == "object":
        out.setdefault("properties", {})
    return out


# -- OpenAI strict ---------------------------------------------------------------------------

_STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "anyOf", "description", "title", "$ref", "$defs", "definitions", "pattern", "format",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minItems", "maxItems",
    }
)  # fmt: skip
"""Keywords strict mode accepts (OpenAI "Supported schemas"; ``default`` is not one)."""


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    t = node.get("type")
    if isinstance(t, str) and "enum" not in node:
        return {**node, "type": [t, "null"]}
    if isinstance(t, list):
        return node if "null" in t else {**node, "type": [*t, "null"]}
    if "anyOf" in node:
        if any(b.get("type") == "null" for b in node["anyOf"] if isinstance(b, dict)):
            return node
        return {**node, "anyOf": [*node["anyOf"], {"type": "null"}]}
    desc = {"description": node["description"]} if "description" in node else {}
    inner = {k: v for k, v in node.items() if k != "description"}
    return {**desc, "anyOf": [inner, {"type": "null"}]}


def _strict(node: Any) -> Any:
    """The strict form of ``node``, or raise ValueError if it cannot have one."""
    if isinstance(node, list):
        return [_strict(x) for x in node]
    if not isinstance(node, dict):
        return node
    extra = set(node) - _STRICT_KEYWORDS - {"default"}
    if extra:
        raise ValueError(f"keywords strict mode does not accept: {sorted(extra)}")
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "default":
            continue
        if key in ("properties", "$defs", "definitions"):
            out[key] = {k: _strict(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = _strict(value)
        else:
            out[key] = value
    is_object = out.get("type") == "object" or "properties" in out
    if is_object:
        if out.get("additionalProperties") not in (None, False):
            raise ValueError("a free-form object (additionalProperties) cannot be strict")
        if not out.get("properties") and out.get("additionalProperties") is None:
            raise ValueError("an object without properties cannot be strict")
        props = out.setdefault("properties", {})
        required = set(out.get("required", []))
        for name in props:
            if name not in required:
                props[name] = _nullable(props[name])
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


def openai_parameters(schema: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """OpenAI function ``parameters`` for an MCP input schema, and whether it is strict.

    A tool without arguments is strict with ``{"type": "object", "properties": {},
    "required": [], "additionalProperties": false}``.
    """
    base = _as_object(schema)
    if base.get("type") != "object" or any(k in base for k in _COMBINATORS):
        return base, False
    if not base["properties"]:
        return {
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": False,
        }, True
    try:
        return _strict(base), True
    except ValueError:
        return base, False


def strip_added_nulls(schema: Mapping[str, Any], arguments: Any) -> Any:
    """Drop ``null`` arguments that strict mode made the model send for omitted ones.

    A key is dropped when its value is ``None``, it is not required in the original
    ``schema``, and null is not a distinct choice there: the property does not accept
    ``null``, or its default is ``null`` (or absent), so leaving it out means the same
    (recursing into nested objects). Everything else is returned unchanged.
    """
    schema = inline_refs(schema)

    def accepts_null(s: Mapping[str, Any]) -> bool:
        t = s.get("type")
        if t == "null" or (isinstance(t, list) and "null" in t):
            return True
        return any(accepts_null(b) for b in s.get("anyOf", []) if isinstance(b, dict))

    def walk(s: Mapping[str, Any], value: Any) -> Any:
        if not isinstance(s.get("properties"), dict):  # e.g. an optional object: anyOf [obj, null]
            objects = [b for b in s.get("anyOf", []) if isinstance(b, dict) and "properties" in b]
            s = objects[0] if len(objects) == 1 else s
        if not isinstance(value, dict) or not isinstance(s.get("properties"), dict):
            return value
        required = set(s.get("required", []))
        out = {}
        for key, v in value.items():
            sub = s["properties"].get(key)
            distinct = accepts_null(sub or {}) and (sub or {}).get("default") is not None
            if v is None and sub is not None and key not in required and not distinct:
                continue
            out[key] = walk(sub, v) if isinstance(sub, dict) else v
        return out

    return walk(schema, arguments)


# -- Anthropic -------------------------------------------------------------------------------


def anthropic_input_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Anthropic ``input_schema``: a top-level ``type: object`` without combinators.

    Top-level ``allOf`` branches are merged; ``anyOf``/``oneOf`` branches are merged too,
    with only the properties every branch requires kept as required, and a note in the
    description saying the arguments must match one of the alternatives.
    """
    out = _as_object(schema)
    for key in _COMBINATORS:
        branches = out.pop(key, None)
        if not branches:
            continue
        defs = {k: out[k] for k in ("$defs", "definitions") if k in out}
        resolved = [inline_refs({**b, **defs}) for b in branches if isinstance(b, dict)]
        props = dict(out.get("properties", {}))
        required_sets = []
        for branch in resolved:
            props.update(branch.get("properties", {}))
            required_sets.append(set(branch.get("required", [])))
        out["properties"] = props
        required = set(out.get("required", []))
        if key == "allOf":
            required |= set().union(*required_sets)
        elif required_sets:
            required |= set.intersection(*required_sets)
            note = f"Arguments must match one of these alternatives: {json.dumps(branches)}"
            out["description"] = f"{out.get('description', '')}\n{note}".strip()
        if required:
            out["required"] = sorted(required)
    out["type"] = "object"
    return out


# -- Gemini ----------------------------------------------------------------------------------

GEMINI_KEYWORDS = frozenset(
    {
        "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
        "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
        "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum",
        "maximum",
    }
)  # fmt: skip
"""Fields of the Gemini ``Schema`` object (ai.google.dev/api/caching#Schema)."""

GEMINI_FORMATS: Mapping[str, frozenset[str]] = {
    "STRING": frozenset({"enum", "date-time"}),
    "NUMBER": frozenset({"float", "double"}),
    "INTEGER": frozenset({"int32", "int64"}),
}
"""Formats Gemini accepts per type; others are dropped."""


def _gemini(node: Any) -> dict[str, Any]:
    if not isinstance(node, dict):
        return {"type": "STRING"}
    node = dict(node)
    nullable = False
    if "const" in node:
        node["enum"] = [node.pop("const")]
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    for branch in node.pop("allOf", []):
        if isinstance(branch, dict):
            node = {**branch, **node}
    t = node.get("type")
    if isinstance(t, list):
        nullable = "null" in t
        rest = [x for x in t if x != "null"]
        if len(rest) == 1:
            node["type"] = rest[0]
        else:
            node.pop("type")
            node["anyOf"] = [{"type": x} for x in rest]
    if "anyOf" in node:
        branches = [b for b in node["anyOf"] if isinstance(b, dict)]
        non_null = [b for b in branches if b.get("type") != "null"]
        nullable = nullable or len(non_null) < len(branches)
        del node["anyOf"]
        if len(non_null) == 1:
            node = {**non_null[0], **node}
        elif non_null:
            node["anyOf"] = [_gemini(b) for b in non_null]
    out: dict[str, Any] = {}
    if "enum" in node:
        values = node["enum"]
        out["type"] = "STRING"
        out["enum"] = [str(v) for v in values if v is not None]
        out["format"] = "enum"
        nullable = nullable or None in values
        if not all(isinstance(v, str) for v in values if v is not None):
            note = f"one of {json.dumps([v for v in values if v is not None])} (as JSON)"
            out["description"] = f"{node.get('description', '')} {note}".strip()
    elif "type" in node:
        out["type"] = str(node["type"]).upper()
    elif "anyOf" not in node:
        out["type"] = "OBJECT" if "properties" in node else "STRING"
    for key, value in node.items():
        if key in out or key not in GEMINI_KEYWORDS or key in ("type", "enum"):
            continue
        if key == "properties":
            out["properties"] = {k: _gemini(v) for k, v in value.items()}
        elif key == "items":
            out["items"] = _gemini(value)
        elif key == "anyOf":
            out["anyOf"] = value
        elif key == "format":
            if value in GEMINI_FORMATS.get(out.get("type", ""), ()):
                out["format"] = value
        elif key == "default":
            continue  # informational only, and must match the converted type: left out
        else:
            out[key] = value
    if out.get("type") == "OBJECT" and not out.get("properties"):
        # Gemini rejects an OBJECT without properties: a free-form object travels as JSON text.
        desc = node.get("description", "")
        out = {"type": "STRING", "description": f"{desc} (a JSON object, as text)".strip()}
    if out.get("type") == "OBJECT" and "required" in out:
        out["required"] = [r for r in out["required"] if r in out["properties"]]
    if nullable:
        out["nullable"] = True
    return out


def gemini_parameters(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """Gemini ``FunctionDeclaration.parameters`` for an MCP input schema.

    Returns ``None`` for a tool without arguments (declare it without ``parameters``).
    """
    base = _as_object(inline_refs(schema))
    if (
        base.get("type") == "object"
        and not base.get("properties")
        and not any(k in base for k in _COMBINATORS)
    ):
        return None
    out = _gemini(base)
    return out if out.get("type") == "OBJECT" else None


def _types(node: Mapping[str, Any]) -> set[str]:
    t = node.get("type")
    return set(t) if isinstance(t, list) else {t} if isinstance(t, str) else set()


def gemini_restore(schema: Mapping[str, Any], value: Any) -> Any:
    """Undo what `gemini_parameters` made the model write, at any depth: free-form objects
    sent as JSON text are decoded, and enum values that were not strings (``1``, ``true``)
    sent as their ``str`` are converted back. Anything else is left as it is (the server's
    validation then answers the model).

    Args:
        schema: the tool's MCP input schema (as listed). value: the arguments the model sent.
    """
    return _restore(inline_refs(schema), value)


def _restore(node: Any, value: Any) -> Any:
    if not isinstance(node, Mapping):
        return value
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key) or []:
            out = _restore(branch, value)
            if out is not value:
                return out
    for branch in node.get("allOf") or []:
        value = _restore(branch, value)
    types = _types(node)
    if "enum" in node or "const" in node:
        values = node.get("enum") or [node.get("const")]
        if isinstance(value, str) and value not in values:
            for v in values:
                if v is not None and not isinstance(v, str) and str(v) == value:
                    return v
        return value
    if "object" in types or "properties" in node:
        props = node.get("properties")
        if isinstance(value, str) and not props:
            try:
                decoded = json.loads(value)
            except json.JSONDecodeError:
                return value
            return decoded if isinstance(decoded, dict) else value
        if isinstance(value, dict) and isinstance(props, Mapping):
            return {k: _restore(props.get(k), v) for k, v in value.items()}
    if "array" in types and isinstance(value, list):
        return [_restore(node.get("items"), v) for v in value]
    return value
