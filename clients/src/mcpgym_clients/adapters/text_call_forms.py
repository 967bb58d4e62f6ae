r"""Marker and pythonic forms of text tool calls (used by `text_tool_calls`).

Forms read here, each gated on the episode's tool names (a call naming no tool of the
episode is reported as an error, never run):

- ``python_tag``: Llama 3.1 ``<|python_tag|>{"name": ..., "parameters": {...}}`` (several
  objects may follow, separated by ``;``), or pythonic calls after the tag.
- ``mistral``: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}]`` and the v11 form
  ``[TOOL_CALLS]get_order[ARGS]{"order_id": 7}``.
- ``granite``: ``<|tool_call|>[{...}]``. ``phi``: ``functools[{...}]``.
- ``functionary``: ``>>>get_order\n{"order_id": 7}`` at the start of a line, for a tool
  of the episode only (``>>>all`` is the model's prose channel, and ``>>> x`` a REPL line
  quoted in an answer: both are left as text, with no error).
- ``deepseek``: ``<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_order\n```json\n{...}\n```
  <｜tool▁call▁end｜>`` (V3/R1) and ``<｜tool▁call▁begin｜>get_order<｜tool▁sep｜>{...}
  <｜tool▁call▁end｜>`` (V3.1), inside ``<｜tool▁calls▁begin｜>...<｜tool▁calls▁end｜>``.
- ``pythonic``: ``[get_order(order_id=7), lookup_customer(email="a@b.c")]`` (Llama 3.2/4)
  or a single ``get_order(order_id=7)``, read with `ast` (never evaluated): keyword
  arguments only, each a literal (string, number, bool, ``None``, list, dict). To keep
  prose that merely mentions a function from being run, the pythonic form counts only
  when the call list is *the whole message* (surrounding whitespace aside) or the body
  of a ```` ```tool_code ```` fence (Gemma), which is an explicit call wherever it
  stands. A ```` ```python ```` (or ```` ```py ````) fence holding only such calls counts
  when the fence is the whole message, as small models write their calls without a
  tool-call parser; a python fence beside prose is code shown to the user, never run.

`call_from_obj` reads one JSON call object, including the OpenAI nested form
``{"type": "function", "function": {"name": ..., "arguments": ...}}``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection
from typing import Any, Literal, NamedTuple

from mcpgym_clients.adapters.lenient_json import loads_lenient, raw_decode_lenient

Call = tuple[str, dict[str, Any]]

TextCallSource = Literal[
    "hermes",
    "xml_function",
    "fenced_json",
    "bare_json",
    "python_tag",
    "mistral",
    "granite",
    "phi",
    "functionary",
    "deepseek",
    "pythonic",
    "harmony",
    "kimi",
    "glm",
    "react",
    "invoke",
]
"""Which written form a parsed call came from (re-exported by `text_tool_calls`)."""


class FormMatch(NamedTuple):
    """Calls read from one span of the text (``error`` set instead when unreadable)."""

    start: int
    end: int
    source: TextCallSource
    calls: list[Call]
    error: str | None = None


NAME_KEYS = ("name", "tool", "tool_name", "function", "action")
"""Keys that name the tool in a JSON call object, as templates and models write them
(``action`` is LangChain's structured-chat form)."""
ARGS_KEYS = ("arguments", "args", "parameters", "input", "tool_input", "action_input")
"""Keys that hold its arguments."""


def call_from_obj(obj: Any, *, strict_keys: bool) -> Call | None:
    """``(name, arguments)`` from a JSON call object: ``{"name": ..., "arguments": {...}}``
    with the name under any of `NAME_KEYS` and the arguments under any of `ARGS_KEYS`
    (``{"tool": ..., "tool_input": ...}``, ``{"function": ..., "args": ...}``), or the
    OpenAI nested ``{"type": "function", "function": {...}}``; arguments may be a JSON
    string. With ``strict_keys`` (untagged JSON) the object must have exactly one name key
    and one arguments key and nothing else but ``type: function``/``tool_use``. ``None``
    when ``obj`` is no call."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict) and not any(k in obj for k in NAME_KEYS[:3]):
        if strict_keys and (
            set(obj) - {"type", "function", "id"} or obj.get("type", "function") != "function"
        ):
            return None
        obj = obj["function"]
    name_keys = [k for k in NAME_KEYS if isinstance(obj.get(k), str)]
    args_keys = [k for k in ARGS_KEYS if k in obj]
    if not name_keys:
        return None
    name = obj[name_keys[0]]
    args: Any = obj[args_keys[0]] if args_keys else {}
    if strict_keys:
        extra = set(obj) - {name_keys[0], *args_keys}
        if obj.get("type") in ("function", "tool_use"):
            extra.discard("type")
        if extra or len(name_keys) != 1 or len(args_keys) != 1:
            return None
    if isinstance(args, str):
        try:
            args = loads_lenient(args) if args.strip() else {}
        except ValueError:
            return None
    if not name or not isinstance(args, dict):
        return None
    return name, args


def _gate(calls: list[Call], tool_names: Collection[str], what: str) -> str | None:
    unknown = [n for n, _ in calls if n not in tool_names]
    if unknown:
        return f"{what} names {unknown[0]!r}, which is no tool of this episode"
    return None


def _json_values(text: str, pos: int) -> tuple[list[Any], int]:
    """JSON values from ``pos`` on, separated by whitespace, ``;`` or ``,`` (read
    leniently: `mcpgym_clients.adapters.lenient_json`)."""
    values: list[Any] = []
    while True:
        nxt = len(text) - len(text[pos:].lstrip(" \t\r\n;,"))
        if nxt >= len(text) or text[nxt] not in "{[":
            return values, pos
        try:
            value, pos = raw_decode_lenient(text, nxt)
        except ValueError:
            return values, pos
        values.append(value)


def _one_object(text: str, pos: int) -> tuple[dict[str, Any] | None, int]:
    """The JSON object starting at ``pos`` (whitespace skipped) and its end."""
    start = len(text) - len(text[pos:].lstrip())
    try:
        value, end = raw_decode_lenient(text, start)
    except ValueError:
        return None, pos
    return (value, end) if isinstance(value, dict) else (None, pos)


def _json_form(
    text: str, marker: re.Match[str], source: TextCallSource, names: Collection[str]
) -> FormMatch:
    what = f"the {marker.group(0).strip()} call"
    values, end = _json_values(text, marker.end())
    items = [i for v in values for i in (v if isinstance(v, list) else [v])]
    calls = [call_from_obj(i, strict_keys=False) for i in items]
    if not items or None in calls:
        error = f'{what} must be followed by {{"name": "<tool>", "arguments": {{...}}}} (or a list)'
        return FormMatch(marker.start(), end, source, [], error)
    good = [c for c in calls if c is not None]
    return FormMatch(marker.start(), end, source, good, _gate(good, names, what))


def _pythonic(body: str, names: Collection[str]) -> list[Call] | None:
    """The calls of ``body`` if it is exactly ``[f(k=v, ...), ...]`` or ``f(k=v, ...)`` with
    every ``f`` a tool and every ``v`` a literal; ``None`` otherwise."""
    try:
        tree = ast.parse(body.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    nodes = tree.elts if isinstance(tree, ast.List | ast.Tuple) else [tree]
    calls: list[Call] = []
    for node in nodes:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        if node.func.id not in names or node.args or any(k.arg is None for k in node.keywords):
            return None
        try:
            calls.append(
                (node.func.id, {str(k.arg): ast.literal_eval(k.value) for k in node.keywords})
            )
        except (ValueError, TypeError, SyntaxError):
            return None
    return calls or None


_MARKERS: tuple[tuple[re.Pattern[str], TextCallSource], ...] = (
    (re.compile(r"<\|python_tag\|>"), "python_tag"),
    (re.compile(r"\[TOOL_CALLS\](?=\s*\[)"), "mistral"),
    (re.compile(r"<\|tool_call\|>"), "granite"),
    (re.compile(r"\bfunctools(?=\[)"), "phi"),
)
_MISTRAL_V11 = re.compile(r"\[TOOL_CALLS\]\s*([\w.\-]+)\s*\[ARGS\]")
_FUNCTIONARY = re.compile(r"^>>>[ \t]*([\w.\-]+)[ \t]*\n", re.MULTILINE)
_DEEPSEEK = re.compile(
    r"<｜tool▁call▁begin｜>\s*(?:function\s*<｜tool▁sep｜>\s*([\w.\-]+)\s*"
    r"(?:```(?:json)?\s*(.*?)\s*```)|([\w.\-]+)\s*<｜tool▁sep｜>\s*(.*?))\s*<｜tool▁call▁end｜>",
    re.DOTALL,
)
_DEEPSEEK_WRAP = re.compile(r"<｜tool▁calls▁(?:begin|end)｜>")
_TOOL_CODE = re.compile(r"```tool_code[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)
_PYTHON_FENCE_ALONE = re.compile(r"\A\s*```(?:python|py)[ \t]*\n(.*?)\n?[ \t]*```\s*\Z", re.DOTALL)


def marker_forms(text: str, names: Collection[str]) -> list[FormMatch]:
    """The marker forms in ``text`` (see the module docstring), in no particular order."""
    found: list[FormMatch] = []
    for pattern, source in _MARKERS:
        for m in pattern.finditer(text):
            rest = text[m.end() :].strip()
            calls = (
                _pythonic(rest, names) if source == "python_tag" and rest[:1] not in "{[" else None
            )
            if calls:
                found.append(FormMatch(m.start(), len(text), "python_tag", calls))
            else:
                found.append(_json_form(text, m, source, names))
    named: list[tuple[re.Match[str], TextCallSource, str]] = []
    for m in _MISTRAL_V11.finditer(text):
        named.append((m, "mistral", f"the [TOOL_CALLS]{m.group(1)}[ARGS] call"))
    for m in _FUNCTIONARY.finditer(text):
        if m.group(1) in names:  # ">>>" also opens REPL lines and ">>>all" prose: no error
            named.append((m, "functionary", f"the >>>{m.group(1)} call"))
    for m, source, what in named:
        args, end = _one_object(text, m.end())
        if args is None:
            found.append(FormMatch(m.start(), m.end(), source, [], f"{what} needs a JSON object"))
            continue
        calls = [(m.group(1), args)]
        found.append(FormMatch(m.start(), end, source, calls, _gate(calls, names, what)))
    for m in _DEEPSEEK.finditer(text):
        name, body = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        try:
            args = json.loads(body) if body.strip() else {}
        except json.JSONDecodeError as exc:
            found.append(
                FormMatch(
                    m.start(),
                    m.end(),
                    "deepseek",
                    [],
                    f"the arguments of {name} are not valid JSON ({exc.msg})",
                )
            )
            continue
        if not isinstance(args, dict):
            found.append(
                FormMatch(
                    m.start(),
                    m.end(),
                    "deepseek",
                    [],
                    f"the arguments of {name} must be a JSON object",
                )
            )
            continue
        found.append(
            FormMatch(
                m.start(), m.end(), "deepseek", [(name, args)], _gate([(name, args)], names, name)
            )
        )
    if any(f.source == "deepseek" for f in found):
        found += [
            FormMatch(m.start(), m.end(), "deepseek", []) for m in _DEEPSEEK_WRAP.finditer(text)
        ]
    return found


def pythonic_forms(text: str, names: Collection[str]) -> list[FormMatch]:
    """Pythonic call lists: ```` ```tool_code ```` fences anywhere, else the whole message
    or a ```` ```python ```` fence that is the whole message (one beside prose is code
    shown to the user, never a call)."""
    found = []
    for m in _TOOL_CODE.finditer(text):
        calls = _pythonic(m.group(1), names)
        if calls:
            found.append(FormMatch(m.start(), m.end(), "pythonic", calls))
    if found:
        return found
    fence = _PYTHON_FENCE_ALONE.match(text)
    calls = _pythonic(fence.group(1) if fence else text, names)
    return [FormMatch(0, len(text), "pythonic", calls)] if calls else []


_LOOKS = re.compile(
    r"\[TOOL_CALLS\]|<\|tool_call\|>|\bfunctools\[|<｜tool▁calls?▁begin｜>|```tool_code"
)
_FUNCTIONARY_LINE = re.compile(r"^>>>[ \t]*([\w.\-]+)[ \t]*$", re.MULTILINE)


def looks_like_marker_or_pythonic(text: str, names: Collection[str]) -> bool:
    """Whether ``text`` holds a call marker of these forms, or *starts* with what looks like
    a pythonic call of a tool (``[get_order(`` or ``get_order(k=``; in a python fence that
    is the whole message, any ``get_order(``); a sentence that mentions
    ``get_order(order_id=7)`` further in is no call."""
    if _LOOKS.search(text):
        return True
    if any(m.group(1) in names for m in _FUNCTIONARY_LINE.finditer(text)):
        return True
    fence = _PYTHON_FENCE_ALONE.match(text)
    if fence:  # a fence that is the whole message: any call of a tool opening it
        m = re.match(r"\s*\[?\s*([\w.\-]+)\s*\(", fence.group(1))
        return bool(m and m.group(1) in names)
    m = re.match(r"\s*\[\s*([\w.\-]+)\s*\(|\s*([\w.\-]+)\s*\(\s*(?:\)|\w+\s*=)", text)
    if m and (m.group(1) or m.group(2)) in names:
        return True
    return _calls_only(text, names)


def _calls_only(body: str, names: Collection[str]) -> bool:
    """Whether ``body`` is, as a whole, a Python call of a tool or a list of such calls,
    whatever the arguments (``get_order(1)``, ``get_order(order_id=oid)``): parsed with
    `ast`, never evaluated; a long text is prose, not read."""
    if len(body) > 4_000:
        return False
    try:
        tree = ast.parse(body.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    nodes = tree.elts if isinstance(tree, ast.List | ast.Tuple) else [tree]
    return bool(nodes) and all(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names
        for n in nodes
    )
