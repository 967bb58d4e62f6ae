"""A lenient reading of the JSON that models write by hand in text tool calls.

Models copying a call from a template get JSON slightly wrong in three ways seen in practice:
Python-style single quotes (``{'name': 'get_order', 'arguments': {'order_id': 7}}``), a
trailing comma (``{"order_id": 7,}``), and a line break written as itself inside a string
(a multi-line message body; Qwen2.5-Coder-1.5B wrote one in 2 of 3 real order-status
episodes, inside arguments given as a JSON string: ``adv/round20sys/REAL_MODEL.md``).
`loads_lenient` reads such text as what it plainly means, and nothing more: raw control
characters inside strings are read as JSON's non-strict mode reads them, and the rest is
parsed with `ast` (never evaluated), which accepts only dicts
with string keys, lists/tuples, strings, numbers, ``True``/``False``/``None`` and their
JSON spellings ``true``/``false``/``null``. Whether the value is a *call* is decided by the
callers (`mcpgym_clients.adapters.text_tool_calls`), with the same gates as strict JSON: a
call outside a tag must name one of the episode's tools and have only call keys.
"""

from __future__ import annotations

import ast
import json
from typing import Any

MAX_CHARS = 100_000
"""Longer text is not read leniently (strict JSON only)."""

_NAMES = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return node.value
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub | ast.UAdd)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int | float)
        and not isinstance(node.operand.value, bool)
    ):
        return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values, strict=True):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                raise ValueError("a key that is not a string")
            out[k.value] = _value(v)
        return out
    raise ValueError(f"not a literal: {type(node).__name__}")


def loads_lenient(text: str) -> Any:
    """``text`` as JSON, else as a JSON-like literal with single quotes and trailing
    commas allowed (see the module docstring).

    Raises:
        ValueError: neither reading works (`json.JSONDecodeError`, a subclass, when the
            text is too long to try the lenient one).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        if len(text) > MAX_CHARS:
            raise
    try:  # a raw line break (or tab) inside a string: JSON's non-strict reading
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        pass
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"neither JSON nor a JSON-like literal: {exc}") from None
    try:
        return _value(tree.body)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def balanced_end(text: str, start: int) -> int | None:
    """The end of the balanced ``{...}`` or ``[...]`` starting at ``start``, strings in
    either quote respected, or ``None`` when it does not close (or none starts there)."""
    if start >= len(text) or text[start] not in "{[":
        return None
    depth, quote, escape = 0, "", False
    for j in range(start, min(len(text), start + MAX_CHARS)):
        c = text[j]
        if quote:
            if escape:
                escape = False
            elif c == "\\":
                escape = True
            elif c == quote:
                quote = ""
            continue
        if c in "\"'":
            quote = c
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return j + 1
    return None


def raw_decode_lenient(text: str, pos: int) -> tuple[Any, int]:
    """Like `json.JSONDecoder.raw_decode` from ``pos``, falling back to `loads_lenient` on
    the balanced span that starts there.

    Raises:
        ValueError: no value starts at ``pos``.
    """
    try:
        return json.JSONDecoder().raw_decode(text, pos)
    except json.JSONDecodeError:
        end = balanced_end(text, pos)
        if end is None:
            raise
    return loads_lenient(text[pos:end]), end
