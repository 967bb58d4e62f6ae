"""Caps on the tool-call log, so that one agent cannot flood memory or the episode store.

Two limits, both options of `EpisodeManager` (and of ``create_app``, ``serve_stdio`` and
``mcpgym serve``):

- **value cap** (`LOG_VALUE_CAP`, 64 KiB): the arguments and the result of one call are
  each kept whole in the log when their JSON is at most this many bytes. That JSON is
  compact and UTF-8: ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``
  (keys in the order received; `json_bytes` computes it, in Rust for results).
  Past it the log keeps the first bytes of that JSON as a *string* in place of the
  value, and `CappedValue` (length and sha256 of the whole JSON) in
  ``arguments_capped`` / ``result_capped``. The tool itself and the agent always see the
  whole value; only the log is capped. Error texts are cut to the cap too, and so is
  the submitted answer (measured and hashed as its UTF-8 text, recorded in
  ``meta.answer_capped``).
- **log budget** (`LOG_BUDGET`, 16 MiB): the bytes an episode's log may hold, counted as
  the kept JSON of arguments and results plus error texts and `ENTRY_OVERHEAD` per call.
  The call that takes the log past it is kept, then the episode is sealed with
  termination ``log_budget``; later calls get the "episode has ended" error.

Graders must not read a capped value as the value: `mcpgym_grading` treats a call whose
arguments were capped as one whose arguments are unknown (it never matches an expected
argument, and counts as a possible match for ``tool_not_called``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic_core import PydanticSerializationError, to_json

from mcpgym_server._bundle_meta import CappedValue, LogEntry

LOG_VALUE_CAP = 64 * 1024
"""Default cap, in bytes of compact JSON, on each argument set and result in the log."""

LOG_BUDGET = 16 * 1024 * 1024
"""Default byte budget of one episode's tool-call log; past it the episode is sealed."""

MIN_LOG_VALUE_CAP = 1024
"""Smallest value cap accepted (the log must stay readable)."""

ENTRY_OVERHEAD = 160
"""Bytes counted per call for the fixed fields of a log entry (step, status, clock...)."""

MAX_TOOL_NAME = 200
"""Longest tool name kept in the log (only unknown tools can be longer)."""


def json_bytes(value: Any) -> bytes:
    r"""Compact UTF-8 JSON of ``value``: the form the caps measure and the sha256 covers.

    Computed by `pydantic_core.to_json` (several times faster than `json.dumps` on the
    large results of list tools); text UTF-8 cannot encode (lone surrogates in a tool
    result) falls back to ``\u`` escapes, so every JSON value has a measure.

    Raises:
        TypeError: ``value`` holds something JSON cannot represent.
    """
    try:
        return to_json(value)
    except PydanticSerializationError:
        return json.dumps(value, separators=(",", ":")).encode("ascii")


def utf8(text: str) -> bytes:
    """``text`` in UTF-8 (lone surrogates, which a tool result may hold, passed through)."""
    return text.encode("utf-8", errors="surrogatepass")


def cap_json(data: bytes, cap: int) -> tuple[str, CappedValue]:
    """The head kept of a too-long UTF-8 text, and the record of the whole.

    Args:
        data: the whole text in UTF-8: JSON (see `json_bytes`), or an answer.
        cap: bytes to keep at most.

    Returns:
        ``(head, capped)``: the first at most ``cap`` bytes as text (cut on a character
        boundary; a JSON head is no longer valid JSON) and `CappedValue` of ``data``.
    """
    head = data[:cap].decode("utf-8", errors="ignore")
    return head, CappedValue(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())


def cap_text(text: str, cap: int) -> str:
    """``text`` if at most ``cap`` UTF-8 bytes, else its head and how much was left out."""
    data = utf8(text)
    if len(data) <= cap:
        return text
    head = data[:cap].decode("utf-8", errors="ignore")
    return f"{head}... ({len(data) - len(head.encode('utf-8'))} more bytes not logged)"


def check_limits(value_cap: int, budget: int) -> None:
    """Refuse limits that would make the log unreadable or empty.

    Raises:
        ValueError: ``value_cap`` below `MIN_LOG_VALUE_CAP`, or ``budget`` below it.
    """
    if value_cap < MIN_LOG_VALUE_CAP:
        raise ValueError(
            f"log value cap {value_cap} is below the minimum of {MIN_LOG_VALUE_CAP} bytes"
        )
    if budget < value_cap:
        raise ValueError(
            f"log budget {budget} is below the log value cap {value_cap}; raise the budget"
        )


def log_form(entry: LogEntry, arguments_json: bytes | None, cap: int) -> tuple[LogEntry, int]:
    """The form of a call kept in the log, and the bytes it counts against the budget.

    Args:
        entry: the call as the agent sees it (whole arguments and result).
        arguments_json: `json_bytes` of its arguments, or ``None`` when they were not
            plain JSON (the entry then holds a bounded ``ascii()`` text of them).
        cap: the value cap in bytes.

    Returns:
        ``(logged, size)``: ``entry`` itself when nothing was over the cap, else a copy
        with the capped fields replaced (see the module docstring); ``size`` counts the
        kept arguments, result, texts and `ENTRY_OVERHEAD`.
    """
    update: dict[str, Any] = {}
    if len(entry.tool) > MAX_TOOL_NAME:
        update["tool"] = cap_text(entry.tool, MAX_TOOL_NAME)
    size = ENTRY_OVERHEAD + len(update.get("tool", entry.tool))
    for name in ("error", "internal_detail"):
        text = getattr(entry, name)
        if text is not None:
            kept = cap_text(text, cap)
            if kept is not text:
                update[name] = kept
            size += len(kept)
    if arguments_json is None:
        size += len(str(entry.arguments))
    elif len(arguments_json) > cap:
        update["arguments"], update["arguments_capped"] = cap_json(arguments_json, cap)
        size += cap
    else:
        size += len(arguments_json)
    if entry.result is not None:
        result_json = json_bytes(entry.result)
        if len(result_json) > cap:
            update["result"], update["result_capped"] = cap_json(result_json, cap)
            size += cap
        else:
            size += len(result_json)
    return (entry.model_copy(update=update) if update else entry), size
