"""A bound on the JSON items of one MCP message, checked before anything parses it.

A tool call of 200,000 unknown argument keys fits the 4 MiB body limit (3.6 MB), and the work
it caused grew with its number of items, not its bytes: the SDK's JSON parse and validation,
the argument checks and one validation error per key took seconds, all on the event loop, so
`/healthz` and every other episode stalled for the whole call (adversarial round 9, S5-1).

`count_items` counts the items of a JSON text (members of objects plus items of lists, at
every depth) without parsing it: a few passes of `bytes` methods over 64 KiB slices, in a
worker thread (`limit_body` runs it through `anyio.to_thread`), so the event loop is held for
a slice at most. A message over `MAX_MESSAGE_ITEMS` is refused like an oversized one: HTTP 413
with JSON-RPC ``-32602`` naming the limit and the count, which a harness answers to the model
as a tool error; the call is not run and the episode goes on. Messages within the limit cost
the SDK and the episode a bounded amount of work however they are shaped.
"""

from __future__ import annotations

MAX_MESSAGE_ITEMS = 10_000
"""Most JSON items (object members plus list items, at every depth) in one MCP message.
Honest tool calls hold a few dozen; the largest argument the tools accept (1,000 list items,
`MAX_ITEMS`, of a few fields each) holds about 5,000."""

COUNT_FROM_BYTES = 8 * 1024
"""Bodies at most this long are not counted: they cannot hold more than half as many items."""

SLICE_BYTES = 64 * 1024
"""Bytes examined per step of `count_items` (the longest the GIL is held in a row)."""

_WHITESPACE = b" \t\r\n"


def count_items(body: bytes, *, stop: int | None = None, slice_bytes: int = SLICE_BYTES) -> int:
    """The items of the JSON text ``body``: members of every object plus items of every list.

    ``{"a": [1, 2], "b": {}}`` has 4 (``a``, ``b``, ``1``, ``2``). Exact for valid JSON (each
    container with k items has k - 1 commas outside strings); for invalid JSON a number
    without meaning, which is fine: the parser refuses such a text anyway.

    Args:
        body: UTF-8 JSON text.
        stop: return as soon as the count passes this (a value above ``stop``).
        slice_bytes: bytes examined per step (tests use small slices).

    Returns:
        The number of items (or a number above ``stop`` once it is passed).
    """
    items = 0
    in_string = False
    last = b""  # the last byte outside strings so far: an empty `[]` may span two slices
    start, size = 0, len(body)
    while start < size:
        end = min(start + slice_bytes, size)
        piece = body[start:end]
        if (len(piece) - len(piece.rstrip(b"\\"))) % 2 and end < size:
            end += 1  # a backslash escapes the next byte: keep the pair in one slice
            piece = body[start:end]
        start = end
        if b"\\" in piece:  # escaped backslashes first, so `\\"` still ends a string
            piece = piece.replace(b"\\\\", b"").replace(b'\\"', b"")
        parts = piece.split(b'"')
        # every string becomes one `s`, so `["a"]` keeps its item and `[]` stays empty
        outside = b"s".join(parts[1 if in_string else 0 :: 2])
        if len(parts) % 2 == 0:
            in_string = not in_string
        if in_string:
            outside += b"s"
        outside = outside.translate(None, _WHITESPACE)
        if not outside:
            continue
        joined = last + outside
        items += outside.count(b",") + outside.count(b"[") + outside.count(b"{")
        items -= joined.count(b"[]") + joined.count(b"{}")
        last = outside[-1:]
        if stop is not None and items > stop:
            break
    return items


def too_many_items_message(limit: int) -> str:
    """The refusal's explanation, naming the limit."""
    return (
        f"the request holds more than {limit:,} JSON items (object members plus list items, "
        "counted at every depth), this server's limit for one MCP message: the call was not "
        "run; send fewer arguments"
    )
