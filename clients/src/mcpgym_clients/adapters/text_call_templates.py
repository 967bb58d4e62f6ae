r"""More template forms of text tool calls (used by `text_tool_calls`).

Forms read here, each as its chat template writes it when the server runs without the
matching tool-call parser; arguments are read as JSON or leniently
(`mcpgym_clients.adapters.lenient_json`), never evaluated:

- ``harmony`` (gpt-oss): ``<|channel|>commentary to=functions.get_order <|constrain|>json
  <|message|>{"order_id": 7}<|call|>`` (the ``<|start|>assistant`` prefix, the channel
  and the ``<|constrain|>`` part may be missing; ``<|end|>`` or the end of the text may
  close it).
- ``kimi`` (Kimi K2): ``<|tool_calls_section_begin|><|tool_call_begin|>functions.get_order:0
  <|tool_call_argument_begin|>{"order_id": 7}<|tool_call_end|><|tool_calls_section_end|>``.
- ``glm`` (GLM-4/4.5/4.6): inside a ``<tool_call>`` tag, the tool's name first, then
  ``<arg_key>order_id</arg_key><arg_value>7</arg_value>`` pairs (GLM-4.5/4.6) or a JSON
  object; ``<tool_call><name>get_order</name><arguments>{...}</arguments></tool_call>``;
  and GLM-4's untagged ``get_order\n{"order_id": 7}`` when it is the whole message and
  names a tool of the episode.
- ``react`` (ReAct, LangChain): ``Action: get_order`` then ``Action Input: {"order_id": 7}``
  on the next line, for a tool of the episode only (``Action: Final Answer`` is prose).
- ``invoke`` (MiniMax-M2, and models trained on XML function-call transcripts):
  ``<invoke name="get_order"><parameter name="order_id">7</parameter></invoke>``, bare or
  inside ``<minimax:tool_call>`` or ``<function_calls>`` tags; each parameter's value is
  read as JSON where it reads as JSON, else kept as text.

The marker forms (harmony, kimi, invoke) name their tool explicitly: a call of no tool of the
episode, or arguments that do not read as a JSON object, are reported back as errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

from mcpgym_clients.adapters.lenient_json import loads_lenient
from mcpgym_clients.adapters.text_call_forms import Call, FormMatch, TextCallSource

_HARMONY = re.compile(
    r"(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*\w*\s*)?"
    r"to\s*=\s*(?:functions\.)?([\w\-]+)[^<\n]*?(?:<\|constrain\|>\s*[\w/]*\s*)?"
    r"<\|message\|>(.*?)(?:<\|call\|>|<\|end\|>|\Z)",
    re.DOTALL,
)
_KIMI = re.compile(
    r"<\|tool_call_begin\|>\s*(?:functions\.)?([\w\-]+?)(?::\d+)?\s*"
    r"<\|tool_call_argument_begin\|>(.*?)(?:<\|tool_call_end\|>|\Z)",
    re.DOTALL,
)
_KIMI_WRAP = re.compile(r"<\|tool_calls_section_(?:begin|end)\|>")
_REACT = re.compile(
    r"^[ \t]*Action[ \t]*:[ \t]*`?([\w.\-]+)`?[ \t]*\n[ \t]*Action[ \t]+Input[ \t]*:[ \t]*",
    re.MULTILINE | re.IGNORECASE,
)
_GLM4 = re.compile(r"\A\s*([\w.\-]+)[ \t]*\n\s*(\{.*\})\s*\Z", re.DOTALL)
_ARG_PAIR = re.compile(
    r"<arg_key>\s*(.*?)\s*</arg_key>\s*<arg_value>(.*?)(?:</arg_value>|(?=<arg_key>)|\Z)",
    re.DOTALL,
)
_NAME_TAG = re.compile(
    r"\A<name>\s*([\w.\-]+)\s*</name>\s*"
    r"(?:<(arguments|parameters|args)>(.*?)(?:</\2>|\Z))?\s*\Z",
    re.DOTALL,
)
_INVOKE = re.compile(
    r"<invoke\s+name\s*=\s*[\"']?([\w.\-]+)[\"']?\s*>(.*?)(?:</invoke>|(?=<invoke[\s>])|\Z)",
    re.DOTALL,
)
_INVOKE_PARAMETER = re.compile(
    r"<parameter\s+name\s*=\s*[\"']?([\w.\-]+)[\"']?\s*>(.*?)"
    r"(?:</parameter>|(?=<parameter[\s>])|\Z)",
    re.DOTALL,
)
_INVOKE_WRAP = re.compile(r"</?\s*(?:minimax:tool_call|function_calls)\s*>")
_NAME_FIRST = re.compile(r"\A([\w.\-]+)[ \t]*(?:\n|\Z|(?=<arg_key>)|(?=\{))(.*)\Z", re.DOTALL)


def _object(body: str) -> dict[str, Any] | None:
    """``body`` read as a JSON object (strictly, then leniently); ``None`` if it is not one."""
    body = body.strip()
    if not body:
        return {}
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        try:
            value = loads_lenient(body)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


def _value(raw: str) -> Any:
    """An ``<arg_value>``: JSON where it reads as JSON, else the text itself (GLM writes
    strings unquoted)."""
    raw = raw.strip()
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _explicit(
    m: re.Match[str], name: str, body: str, source: TextCallSource, names: Collection[str]
) -> FormMatch:
    """A marker call: its arguments must be an object, its name a tool of the episode."""
    args = _object(body)
    if args is None:
        error = f"the arguments of {name} are not a JSON object: {body.strip()[:80]!r}"
        return FormMatch(m.start(), m.end(), source, [], error)
    if name not in names:
        error = f"the call of {name!r} names no tool of this episode"
        return FormMatch(m.start(), m.end(), source, [], error)
    return FormMatch(m.start(), m.end(), source, [(name, args)])


def template_forms(text: str, names: Collection[str]) -> list[FormMatch]:
    """The harmony, Kimi, ReAct and untagged GLM-4 calls in ``text`` (see the module
    docstring), in no particular order; the tagged GLM forms are `tagged_named`."""
    found: list[FormMatch] = []
    for m in _HARMONY.finditer(text):
        found.append(_explicit(m, m.group(1), m.group(2), "harmony", names))
    for m in _KIMI.finditer(text):
        found.append(_explicit(m, m.group(1), m.group(2), "kimi", names))
    if any(f.source == "kimi" for f in found):
        found += [FormMatch(m.start(), m.end(), "kimi", []) for m in _KIMI_WRAP.finditer(text)]
    found += _invoke_forms(text, names)
    for m in _REACT.finditer(text):
        name = m.group(1)
        if name not in names:
            continue  # "Action: Final Answer" and the like
        line_end = text.find("\n", m.end())
        body = text[m.end() :] if line_end < 0 else text[m.end() : line_end]
        args = _object(body)
        if args is None and body.lstrip().startswith(("{", "[")):
            args = _object(text[m.end() :].split("\nObservation", 1)[0])
            line_end = -1 if args is not None else line_end
        end = len(text) if line_end < 0 else line_end
        if args is None:
            error = f"the Action Input of {name} is not a JSON object: {body.strip()[:80]!r}"
            found.append(FormMatch(m.start(), end, "react", [], error))
        else:
            found.append(FormMatch(m.start(), end, "react", [(name, args)]))
    glm = _GLM4.match(text)
    if glm and glm.group(1) in names:
        args = _object(glm.group(2))
        if args is not None:
            found.append(FormMatch(0, len(text), "glm", [(glm.group(1), args)]))
    return found


def _invoke_forms(text: str, names: Collection[str]) -> list[FormMatch]:
    """The ``<invoke name=...>`` calls in ``text`` (and their wrapper tags, as matches
    without calls, so that they leave the rest of the text); text between the parameters
    that is not a parameter is an error, as is a name that is no tool of the episode."""
    found: list[FormMatch] = []
    for m in _INVOKE.finditer(text):
        name, body = m.group(1), m.group(2)
        pairs = _INVOKE_PARAMETER.findall(body)
        if _INVOKE_PARAMETER.sub("", body).strip():
            error = (
                f"the <invoke> of {name} holds text that is no <parameter>: {body.strip()[:80]!r}"
            )
            found.append(FormMatch(m.start(), m.end(), "invoke", [], error))
        elif name not in names:
            error = f"the call of {name!r} names no tool of this episode"
            found.append(FormMatch(m.start(), m.end(), "invoke", [], error))
        else:
            args = {k: _value(v) for k, v in pairs}
            found.append(FormMatch(m.start(), m.end(), "invoke", [(name, args)]))
    if found:
        found += [FormMatch(m.start(), m.end(), "invoke", []) for m in _INVOKE_WRAP.finditer(text)]
    return found


def tagged_named(body: str, names: Collection[str]) -> list[Call] | str | None:
    """The GLM call inside a ``<tool_call>`` block whose body is not JSON: the name first,
    then ``<arg_key>``/``<arg_value>`` pairs or a JSON object; or ``<name>`` and
    ``<arguments>`` tags.

    Returns:
        The one call; an error message when it names no tool of the episode or its
        arguments do not read; ``None`` when the body is none of these (prose).
    """
    tags = _NAME_TAG.match(body)
    if tags:
        name, args = tags.group(1), _object(tags.group(3) or "")
    else:
        first = _NAME_FIRST.match(body)
        if first is None:
            return None
        name, rest = first.group(1), first.group(2).strip()
        if rest.startswith("<arg_key>"):
            pairs = _ARG_PAIR.findall(rest)
            if not pairs:
                return f"the <arg_key> tags of {name} do not read"
            args = {k: _value(v) for k, v in pairs}
        elif rest.startswith("{") or not rest:
            args = _object(rest)
        else:
            return None
        if name not in names and not rest:
            return None  # "<tool_call>word</tool_call>" in prose
    if name not in names:
        return f"the <tool_call> block names {name!r}, which is no tool of this episode"
    if args is None:
        return f"the arguments of {name} are not a JSON object"
    return [(name, args)]


_LOOKS = re.compile(
    r"<\|channel\|>[^<]*to\s*=|to\s*=\s*functions\.[\w\-]+|<\|call\|>|"
    r"<\|tool_calls?_(?:section_)?begin\|>|<\|tool_call_argument_begin\|>|<arg_key>|"
    r"<invoke\s+name\s*=|<\s*(?:minimax:tool_call|function_calls)\s*>"
)


def looks_like_template_call(text: str, names: Collection[str]) -> bool:
    """Whether ``text`` holds a harmony or Kimi marker, GLM's ``<arg_key>``, an
    ``<invoke name=`` tag or its ``<minimax:tool_call>``/``<function_calls>`` wrapper, a ReAct
    ``Action: <tool>`` line, or starts with a tool's name alone on its first line followed
    by ``{`` (GLM-4)."""
    if _LOOKS.search(text):
        return True
    for m in re.finditer(r"^[ \t]*Action[ \t]*:[ \t]*`?([\w.\-]+)`?[ \t]*$", text, re.M | re.I):
        if m.group(1) in names:
            return True
    m = re.match(r"\s*([\w.\-]+)[ \t]*\n\s*\{", text)
    return bool(m and m.group(1) in names)
