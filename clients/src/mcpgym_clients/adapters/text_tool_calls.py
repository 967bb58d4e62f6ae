"""Opt-in parser for tool calls written as text by local models.

Some local models (or servers run without a tool-call parser) write their calls
into the message text instead of the structured ``tool_calls`` field. The forms
that real chat templates produce are recognised:

- Tagged JSON (``hermes``): ``<tool_call>{"name": "get_order", "arguments": {"order_id": 7}}
  </tool_call>`` (Qwen, Hermes), and the same inside ``<tools>``, ``<function_call>``
  or ``<toolcall>`` tags; a list of such objects; the closing tag may be missing at
  the very end, where a stop token cut it off.
- XML-style functions (``xml_function``): ``<function=get_order>{"order_id": 7}</function>``
  (Llama 3.1), ``<function name="get_order">...</function>``, and their parameters as
  ``<parameter=order_id>7</parameter>`` or ``<parameter name="order_id">7</parameter>``
  (Qwen3-Coder) instead of a JSON body.
- Fenced JSON (``fenced_json``): a ```` ```json ```` (or bare ```` ``` ````) block holding
  ``{"name": ..., "arguments": {...}}`` (or a list of such objects).
- Bare JSON (``bare_json``): such an object on lines of its own, without a fence (not
  one quoted inline in a sentence), or after a fence opener whose closing fence a stop
  string or the end of the response cut off (the opener is part of the call, not text).
- The marker forms of Llama 3.1 (``<|python_tag|>``), Mistral (``[TOOL_CALLS]``, also
  ``name[ARGS]{...}``), Granite (``<|tool_call|>``), Phi (``functools[...]``),
  Functionary (``>>>name``) and DeepSeek (``<｜tool▁call▁begin｜>...``), and the pythonic
  calls of Llama 3.2/4 and Gemma (``[get_order(order_id=7)]``, ```` ```tool_code ````),
  read in `mcpgym_clients.adapters.text_call_forms` (which says when pythonic text counts
  as a call and when it is prose).
- The forms of gpt-oss (harmony ``<|channel|>commentary to=functions.NAME ... <|message|>``),
  Kimi K2 (``<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>``), GLM-4/4.5
  (``<tool_call>NAME`` then ``<arg_key>``/``<arg_value>`` pairs or JSON, ``<name>``/
  ``<arguments>`` tags, an untagged ``NAME`` line then a JSON object) and ReAct
  (``Action: NAME`` / ``Action Input: {...}``), read in
  `mcpgym_clients.adapters.text_call_templates`.

Any JSON call object may be OpenAI's nested
``{"type": "function", "function": {"name": ..., "arguments": ...}}``.

Every JSON body may have its braces doubled, as the model copied them from a template
that escapes them (``{{"name": ..., "arguments": {...}}}``).

To avoid misfiring on ordinary JSON in an answer, an untagged (fenced or bare) object
only counts when its ``name`` is one of the episode's tools and it has no keys besides
``name``, ``arguments``/``parameters`` (and ``type: function``). A tagged block is an
explicit call, so its name is not checked (an unknown name reaches the server and gets
its "unknown tool" error), and a tagged block whose body starts with ``{`` but does not
parse is reported in `TextParse.errors` so the model can be told.

`looks_like_tool_call` says whether a message that yielded no call still looks like
one (the model loop tells the model once, and flags an episode that ends that way).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, NamedTuple

from mcpgym_clients.adapters.lenient_json import balanced_end, loads_lenient
from mcpgym_clients.adapters.text_call_forms import (
    NAME_KEYS,
    TextCallSource,
    call_from_obj,
    looks_like_marker_or_pythonic,
    marker_forms,
    pythonic_forms,
)
from mcpgym_clients.adapters.text_call_templates import (
    looks_like_template_call,
    tagged_named,
    template_forms,
)

_TAGS = "tool_call|tools|function_call|toolcall|tool_calls"
_TAGGED = re.compile(
    rf"<\s*({_TAGS})\s*>\s*(.*?)\s*(?:<\s*/\s*\1\s*>|\Z)", re.DOTALL | re.IGNORECASE
)
_FENCED = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)
_OPEN_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n[ \t]*\Z")
"""A fence opened right before a bare call and never closed (a stop string or the end of
the response cut the closing fence): part of the call, not text left around it."""
_FUNCTION = re.compile(
    r"<function(?:=\s*([\w.\-]+)|\s+name\s*=\s*[\"']?([\w.\-]+)[\"']?)\s*>(.*?)(?:</function>|\Z)",
    re.DOTALL,
)
_PARAMETER = re.compile(
    r"<parameter(?:=\s*([\w.\-]+)|\s+name\s*=\s*[\"']?([\w.\-]+)[\"']?)\s*>(.*?)"
    r"(?:</parameter>|(?=<parameter)|\Z)",
    re.DOTALL,
)
_INNER_FENCE = re.compile(r"^```(?:json|JSON)?\s*(.*?)\s*```$", re.DOTALL)
_NAMED = re.compile(rf"[\"'](?:{'|'.join(NAME_KEYS)})[\"']\s*:\s*[\"']([\w.\-]+)[\"']")
_CALL_TAG = re.compile(rf"<\s*(?:{_TAGS})\s*>|<function[=\s>]|<\|python_tag\|>", re.IGNORECASE)


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
        errors: one message per tagged block that looked like a call but did not parse.
    """

    calls: list[ParsedToolCall]
    text: str
    errors: list[str]


def _undoubled(body: str) -> list[str]:
    """``body`` and, if its braces look doubled, the forms with one layer removed."""
    forms = [body]
    if body.startswith("{{") and body.endswith("}}"):
        forms.append(body[1:-1])
        forms.append(body.replace("{{", "{").replace("}}", "}"))
    return forms


def _load_json(body: str) -> Any:
    """Decode ``body`` (braces possibly doubled), as JSON or else leniently (single
    quotes, trailing commas: `mcpgym_clients.adapters.lenient_json`).

    Raises:
        json.JSONDecodeError: no form of it reads (the JSON error of the plain form).
    """
    first: json.JSONDecodeError | None = None
    forms = _undoubled(body.strip())
    for form in forms:
        try:
            return json.loads(form)
        except json.JSONDecodeError as exc:
            first = first or exc
    for form in forms:
        try:
            return loads_lenient(form)
        except ValueError:
            continue
    assert first is not None
    raise first


def _parse_tagged(body: str, tag: str) -> list[tuple[str, dict[str, Any]]] | str:
    fenced = _INNER_FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        obj = _load_json(body)
    except json.JSONDecodeError as exc:
        return f"the <{tag}> block is not valid JSON ({exc.msg} at column {exc.colno})"
    items = obj if isinstance(obj, list) and obj else [obj]
    calls = []
    for item in items:
        call = call_from_obj(item, strict_keys=False)
        if call is None:
            return f'a <{tag}> block must hold {{"name": "<tool>", "arguments": {{...}}}}'
        calls.append(call)
    return calls


def _parse_function(name: str, body: str) -> tuple[str, dict[str, Any]] | str:
    body = body.strip()
    if not body:
        return name, {}
    if body.startswith("{"):
        try:
            args = _load_json(body)
        except json.JSONDecodeError as exc:
            return f"the arguments of <function={name}> are not valid JSON ({exc.msg})"
        if not isinstance(args, dict):
            return f"the arguments of <function={name}> must be a JSON object"
        return name, args
    params = list(_PARAMETER.finditer(body))
    if not params:
        return f"<function={name}> must hold a JSON object or <parameter=...> tags"
    args = {}
    for p in params:
        raw = p.group(3).strip()
        try:
            args[p.group(1) or p.group(2)] = json.loads(raw)
        except json.JSONDecodeError:
            args[p.group(1) or p.group(2)] = raw
    return name, args


def _untagged(body: str, tool_names: Collection[str]) -> list[tuple[str, dict[str, Any]]]:
    try:
        obj = _load_json(body)
    except json.JSONDecodeError:
        return []
    items = obj if isinstance(obj, list) else [obj]
    calls: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        call = call_from_obj(item, strict_keys=True)
        if call is None or call[0] not in tool_names:
            return []  # all or nothing: a list with a non-call is ordinary JSON
        calls.append(call)
    return calls


def _bare_objects(text: str) -> list[tuple[int, int]]:
    """Spans of the top-level JSON values (objects and lists) in ``text`` that decode,
    doubled braces and lenient forms included, scanning left to right."""
    spans: list[tuple[int, int]] = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i] not in "{[":
            i += 1
            continue
        end = None
        try:
            _, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            if text.startswith("{{", i):
                end = _doubled_end(text, i)
            else:
                end = _lenient_end(text, i)
        if end is None:
            i += 1
            continue
        spans.append((i, end))
        i = end
    return spans


def _lenient_end(text: str, start: int) -> int | None:
    """The end of the JSON-like value at ``start`` that reads leniently, if one does."""
    end = balanced_end(text, start)
    if end is None:
        return None
    try:
        loads_lenient(text[start:end])
    except ValueError:
        return None
    return end


def _own_lines(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has nothing but whitespace beside it on its lines."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    after = text[end:] if line_end < 0 else text[end:line_end]
    return not text[line_start:start].strip() and not after.strip()


def _doubled_end(text: str, start: int) -> int | None:
    """The end of a balanced ``{{...}}`` starting at ``start`` (strings respected), if any."""
    depth, in_string, escape = 0, False, False
    for j in range(start, len(text)):
        c = text[j]
        if in_string:
            escape = c == "\\" and not escape
            if c == '"' and not escape:
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return None


def parse_text_tool_calls(text: str | None, tool_names: Collection[str]) -> TextParse:
    """Find tool calls written in message text.

    Tagged blocks, XML-style functions and marker forms are looked for first; fenced JSON
    blocks only when there is none, bare JSON only when there is no fenced call either,
    and pythonic calls last.

    Args:
        text: the assistant message content (``None`` is treated as empty).
        tool_names: the names of the episode's tools (gates untagged JSON).

    Returns:
        A `TextParse`; ``calls`` is empty when nothing in the text is a call.
    """
    if not text:
        return TextParse([], "", [])
    found: list[tuple[int, ParsedToolCall]] = []
    errors: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _TAGGED.finditer(text):
        body = m.group(2).strip()
        if not body.startswith(("{", "[", "```")):
            named = tagged_named(body, tool_names)  # GLM: the name first, or <name> tags
            if named is None:
                continue  # "<tool_call>" mentioned in prose, or a <function=...> inside
            if isinstance(named, str):
                errors.append(named)
                continue
            found += [(m.start(), ParsedToolCall(n, a, "glm", m.group(0))) for n, a in named]
            spans.append(m.span())
            continue
        parsed = _parse_tagged(body, m.group(1))
        if isinstance(parsed, str):
            errors.append(parsed)
            continue
        found += [(m.start(), ParsedToolCall(n, a, "hermes", m.group(0))) for n, a in parsed]
        spans.append(m.span())
    for m in _FUNCTION.finditer(text):
        if any(s <= m.start() < e for s, e in spans):
            continue
        result = _parse_function(m.group(1) or m.group(2), m.group(3))
        if isinstance(result, str):
            errors.append(result)
            continue
        found.append((m.start(), ParsedToolCall(result[0], result[1], "xml_function", m.group(0))))
        spans.append(m.span())
    for form in [*marker_forms(text, tool_names), *template_forms(text, tool_names)]:
        if any(s <= form.start < e for s, e in spans):
            continue
        if form.error:
            errors.append(form.error)
            continue
        found += [
            (form.start, ParsedToolCall(n, a, form.source, text[form.start : form.end]))
            for n, a in form.calls
        ]
        spans.append((form.start, form.end))
    if not found and not errors:
        for m in _FENCED.finditer(text):
            calls = _untagged(m.group(1).strip(), tool_names)
            found += [
                (m.start(), ParsedToolCall(n, a, "fenced_json", m.group(0))) for n, a in calls
            ]
            if calls:
                spans.append(m.span())
    if not found and not errors:
        for start, end in _bare_objects(text):
            if not _own_lines(text, start, end):
                continue  # inline in a sentence (`{"name": ...}` quoted in prose)
            raw = text[start:end]
            calls = _untagged(raw, tool_names)
            found += [(start, ParsedToolCall(n, a, "bare_json", raw)) for n, a in calls]
            if calls:
                opener = _OPEN_FENCE.search(text, 0, start)
                spans.append((opener.start() if opener else start, end))
    if not found and not errors:
        for form in pythonic_forms(text, tool_names):
            raw = text[form.start : form.end]
            found += [(form.start, ParsedToolCall(n, a, "pythonic", raw)) for n, a in form.calls]
            spans.append((form.start, form.end))
    found.sort(key=lambda item: item[0])
    spans.sort()
    rest, last = [], 0
    for start, end in spans:
        rest.append(text[last:start])
        last = end
    rest.append(text[last:])
    return TextParse([c for _, c in found], "".join(rest).strip(), errors)


def looks_like_tool_call(text: str | None, tool_names: Collection[str]) -> bool:
    """Whether a message from which no call was parsed still looks like a tool call: it
    holds a call tag (``<tool_call>``, ``<tools>``, ``<function=...>``, ``<|python_tag|>``),
    a marker of `text_call_forms` (``[TOOL_CALLS]``, ``<|tool_call|>``, ``functools[``, a
    DeepSeek tool token, ``>>>tool``, ```` ```tool_code ````), starts like a pythonic call of
    a tool (``[get_order(``), or has a JSON-looking ``"name": "<one of the tools>"``
    (doubled braces included).

    A final answer that merely mentions a tool (``I used get_order``) does not qualify.
    """
    if not text:
        return False
    if _CALL_TAG.search(text) or looks_like_marker_or_pythonic(text, tool_names):
        return True
    if looks_like_template_call(text, tool_names):
        return True
    for m in _NAMED.finditer(text):
        if m.group(1) in tool_names:
            return True
    return False


def unread_beside(parsed: TextParse, tool_names: Collection[str]) -> str | None:
    """Why a message from which calls were read still holds a call that was not, or ``None``.

    A message with several calls, one of them malformed (Qwen2.5-Coder-1.5B wrote
    ``reply_to_customer`` with its body's closing quote unescaped before a readable
    ``close_ticket`` and ``submit``, in 3 of 3 real order-status episodes:
    ``adv/round20sys/REAL_MODEL.md``): running only the readable ones would drop the other
    unseen, and a ``submit`` among them would end the episode on it. Counted: a tagged block
    that did not parse (`TextParse.errors`), or left-over text that looks like a call
    (`looks_like_tool_call`) of a tool no read call names (a call quoted again in the prose
    around it is no other call).
    """
    if not parsed.calls:
        return None
    if parsed.errors:
        return "; ".join(parsed.errors)
    read = {c.name for c in parsed.calls}
    if _CALL_TAG.search(parsed.text):
        return "a call tag outside the calls that were read"
    for m in _NAMED.finditer(parsed.text):
        if m.group(1) in tool_names and m.group(1) not in read:
            return f"the call of {m.group(1)!r} beside the {len(read)} read could not be read"
    return None
