"""Opt-in parser for tool calls written as text by local models.

Some local models (or servers run without a tool-call parser) write their calls
into the message text instead of the structured ``tool_calls`` field. Two forms
are recognised:

- Hermes blocks: ``<tool_call>{"name": "get_order", "arguments": {"order_id": 7}}</tool_call>``
  (the closing tag may be missing at the very end, where a stop token cut it off).
- Fenced JSON: a ```` ```json ```` (or bare ```` ``` ````) block holding exactly
  ``{"name": ..., "arguments": {...}}`` (or a list of such objects).

To avoid misfiring on ordinary JSON in an answer, a fenced block only counts when
its ``name`` is one of the episode's tools and it has no keys besides ``name`` and
``arguments``/``parameters``. A Hermes block is an explicit call, so its name is
not checked (an unknown name reaches the server and gets its "unknown tool" error),
and a Hermes block whose body starts with ``{`` but does not parse is reported
in `TextParse.errors` so the model can be told.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

_HERMES = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.DOTALL)
_FENCED = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)

TextCallSource = Literal["hermes", "fenced_json"]
"""Which written form a parsed call came from."""


@dataclass(frozen=True)
class ParsedToolCall:
    """A tool call recovered from message text.

    Attributes:
        name: the tool name. arguments: the arguments object.
        source: the written form (see `TextCallSource`). raw: the matched text.
    """

    name: str
    arguments: dict[str, Any]
    source: TextCallSource
    raw: str


class TextParse(NamedTuple):
    """Result of `parse_text_tool_calls`.

    Attributes:
        calls: the calls found, in text order.
        text: the message text with the parsed blocks removed (stripped).
        errors: one message per Hermes block that looked like a call but did not parse.
    """

    calls: list[ParsedToolCall]
    text: str
    errors: list[str]


def _call_from_obj(obj: Any, *, strict_keys: bool) -> tuple[str, dict[str, Any]] | None:
    if not isinstance(obj, dict):
        return None
    name = obj.get("name")
    args_key = "arguments" if "arguments" in obj else "parameters"
    args: Any = obj.get(args_key, {})
    if strict_keys and (set(obj) - {"name", args_key} or args_key not in obj):
        return None
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            return None
    if not isinstance(name, str) or not name or not isinstance(args, dict):
        return None
    return name, args


def _parse_hermes(body: str) -> tuple[str, dict[str, Any]] | str:
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        return f"the <tool_call> block is not valid JSON ({exc.msg} at column {exc.colno})"
    call = _call_from_obj(obj, strict_keys=False)
    if call is None:
        return 'a <tool_call> block must hold {"name": "<tool>", "arguments": {...}}'
    return call


def _parse_fenced(body: str, tool_names: Collection[str]) -> list[tuple[str, dict[str, Any]]]:
    try:
        obj = json.loads(body)
    except json.JSONDecodeError:
        return []
    items = obj if isinstance(obj, list) else [obj]
    calls: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        call = _call_from_obj(item, strict_keys=True)
        if call is None or call[0] not in tool_names:
            return []  # all or nothing: a list with a non-call is ordinary JSON
        calls.append(call)
    return calls


def parse_text_tool_calls(text: str | None, tool_names: Collection[str]) -> TextParse:
    """Find tool calls written in message text.

    Hermes blocks are looked for first; fenced JSON blocks only when there is none.

    Args:
        text: the assistant message content (``None`` is treated as empty).
        tool_names: the names of the episode's tools (gates fenced blocks).

    Returns:
        A `TextParse`; ``calls`` is empty when nothing in the text is a call.
    """
    if not text:
        return TextParse([], "", [])
    calls: list[ParsedToolCall] = []
    errors: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _HERMES.finditer(text):
        body = m.group(1).strip()
        if not body.startswith("{"):
            continue  # "<tool_call>" mentioned in prose
        parsed = _parse_hermes(body)
        if isinstance(parsed, str):
            errors.append(parsed)
            continue
        calls.append(ParsedToolCall(parsed[0], parsed[1], "hermes", m.group(0)))
        spans.append(m.span())
    if not calls and not errors:
        for m in _FENCED.finditer(text):
            found = _parse_fenced(m.group(1).strip(), tool_names)
            calls.extend(ParsedToolCall(n, a, "fenced_json", m.group(0)) for n, a in found)
            if found:
                spans.append(m.span())
    rest, last = [], 0
    for start, end in spans:
        rest.append(text[last:start])
        last = end
    rest.append(text[last:])
    return TextParse(calls, "".join(rest).strip(), errors)
