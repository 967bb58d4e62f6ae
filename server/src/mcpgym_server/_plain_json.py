"""Plain-JSON checks of tool arguments: only values that can be written to the tool-call
log and read back (valid UTF-8, finite numbers, nested at most `MAX_ARGUMENT_DEPTH` deep, at
most `MAX_ARGUMENT_ITEMS` items) reach a tool (`mcpgym_server._episode.EpisodeManager.call`).
"""

from __future__ import annotations

import json
from typing import Any

from mcpgym_server._item_limit import MAX_MESSAGE_ITEMS

MAX_ARGUMENT_DEPTH = 32
"""Deepest nesting of lists and objects accepted in tool arguments."""


def ascii_head(value: Any, limit: int) -> str:
    """``ascii(value)``, cut to its first ``limit`` characters when longer and then marked
    ``… (cut, N chars)`` (N: the whole text's length), so a reader of the log never takes
    the head for the whole."""
    text = ascii(value)
    return text if len(text) <= limit else f"{text[:limit]}… (cut, {len(text)} chars)"


def _depth_ok(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list | tuple):
            stack.extend((v, depth + 1) for v in item)
    return True


MAX_ARGUMENT_ITEMS = MAX_MESSAGE_ITEMS
"""Most JSON items (object members plus list items, at every depth) in one call's arguments;
a call with more is refused without validating them (the HTTP server refuses such a message
before parsing it, `mcpgym_server._item_limit`; this covers stdio and in-process callers)."""


def _items_over(value: Any, limit: int) -> bool:
    # Whether `value` holds more than `limit` items; visits at most `limit` of them.
    stack, items = [value], 0
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            items += len(item)
            if items > limit:
                return True
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            items += len(item)
            if items > limit:
                return True
            stack.extend(item)
    return False


def _plain_json_bytes(value: Any, *, check_depth: bool = True) -> bytes | None:
    # The compact UTF-8 JSON of a plain value (the form the log caps measure), else None.
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        data = text.encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return None
    # Nesting past the limit takes an opening and a closing bracket per level, so the
    # JSON of a value that short cannot be that deep: most tool arguments skip the walk.
    if (
        check_depth
        and len(data) > 2 * MAX_ARGUMENT_DEPTH
        and not _depth_ok(value, MAX_ARGUMENT_DEPTH)
    ):
        return None
    return data


def is_plain_json(value: Any) -> bool:
    """Whether ``value`` is plain, valid-UTF-8 JSON, nested at most `MAX_ARGUMENT_DEPTH` deep.

    Only such values go into the tool-call log, so every sealed bundle can be read back.
    """
    return _plain_json_bytes(value) is not None
