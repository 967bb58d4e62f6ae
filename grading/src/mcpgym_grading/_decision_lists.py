"""List items and table rows read with their heading (round 19's M19: ``Refunded orders:`` then
``- #7`` and ``- #8`` on lines of their own; a markdown table whose header is ``| Refunded
orders |``).

A line of a list or a table names a record and nothing else; the claim is its heading's. The
decision readers (`_decisions.decisions`, `_decision_sentences.sentences_about`) cut a text at
line breaks, so each item is read with its heading put before it (``Refunded orders: #8``),
as a one-line key names its records (``Cancelled orders: #7``).
"""

from __future__ import annotations

import re

_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s+(?!\[[ x]\])")
"""A list item's marker (``-``, ``*``, ``•``, ``1.``); a checkbox item (``- [x] …``) is read as
it is (`_decision_forms._CHECKED`)."""
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(
    r"^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$|^\s*\|?\s*:?-{3,}:?\s*\|?\s*$"
)
"""A table's rule under its header (``|---|``, ``| :-- | --: |``)."""
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<h>.+?)|(?P<k>[^|]+?):|\*\*(?P<b>[^*]+?):?\*\*:?)\s*$")
"""A heading line: markdown's ``## …``, a line ending in ``:``, a bold line."""


_TRAILING_CHECK = re.compile(
    r"^(?P<lead>\s*(?:[-*+\u2022]|\d{1,2}[.)])?\s*)(?P<body>\S.*?)\s*"
    r"(?P<mark>[\u2705\u2714\u2611\u2713\U0001f44d]\ufe0f?)\s*$"
)
"""A line ending in a check mark or a thumbs-up (``1. Refund: order #7 ✔``, ``Refund #7 👍``):
read with the mark first, where a ticked box claims the base form after it
(`_decision_forms._CHECKED`); where the line's last piece follows a dash, a bar or an arrow
(``Order #7 — refund ✓``, ``Refund → order #7 ✓``; round 20's J20) the mark leads that piece
too."""
_LAST_PIECE = re.compile(r"^(.*\s(?:[-\u2013\u2014|]|->|\u2192)\s+)(\S.*)$")
"""A line's last piece after a dash, a bar or an arrow between spaces."""
_MARKS = {"\U0001f44d": "\u2714"}
"""Marks read as a check mark when put first (`_CHECKED` knows the check marks)."""


def _checked_first(line: str) -> str:
    """``line`` with its trailing check mark put first, and before its last piece too
    (`_TRAILING_CHECK`, `_LAST_PIECE`); ``line`` itself where it ends in none."""
    m = _TRAILING_CHECK.match(line)
    if m is None:
        return line
    mark = _MARKS.get(m["mark"][0], m["mark"])
    piece = _LAST_PIECE.match(m["body"])
    body = m["body"] if piece is None else f"{piece[1]}{mark} {piece[2]}"
    return f"{m['lead']}{mark} {body}"


_OPEN_PARAGRAPH = re.compile(r"(?<=[^\s.!?:;,])(?=[ \t]*\n[ \t]*\n[ \t]*[^\W\d_])")
"""A paragraph's end with no stop (``> Please refund order #7`` ⏎⏎ ``Done.``): a reading joins
lines, so it is given a full stop where the paragraph after it starts with a word (one
starting with a check mark is a ticked item, `_decision_forms._CHECKED`)."""


_QA_LABEL = re.compile(
    r"^([ \t>]*)(?:q|a|question|answer)[ \t]*:[ \t]+", re.IGNORECASE | re.MULTILINE
)
"""A question's or an answer's label at a line's start (``Q: Refund order #7?`` ⏎ ``A:
Done.``; round 20's Y20): dropped, so the answer reads as the question's affirmation."""


def _cells(row: re.Match[str]) -> list[str]:
    return [c.strip() for c in row.group(1).split("|")]


def headed(text: str) -> str:
    """``text`` with each list item and table row under a heading read after it: the item's
    marker replaced by ``"{heading}: "`` (a table's row: ``"{header}: {cell}"`` per cell,
    ``; `` between), its rule line dropped. A heading holds until a line that is neither a
    heading, an item nor blank. A line's trailing check mark is put first
    (`_TRAILING_CHECK`), a paragraph's end given a stop (`_OPEN_PARAGRAPH`), a line's
    ``Q:``/``A:`` label dropped (`_QA_LABEL`)."""
    text = _OPEN_PARAGRAPH.sub(".", _QA_LABEL.sub(r"\1", text) if ":" in text else text)
    lines = [_checked_first(line) for line in text.split("\n")]
    if not any(_ITEM.match(line) or _ROW.match(line) for line in lines):
        return "\n".join(lines)
    out: list[str] = []
    head: str | None = None
    header: list[str] | None = None
    for k, line in enumerate(lines):
        row = _ROW.match(line)
        if _RULE.match(line):
            continue
        if row and k + 1 < len(lines) and _RULE.match(lines[k + 1]):
            header = _cells(row)  # a table's header
            out.append(line)
            continue
        if row and header and len(_cells(row)) == len(header):
            pairs = zip(header, _cells(row), strict=True)
            out.append("; ".join(f"{h}: {c}" for h, c in pairs) + ".")
            continue
        item = _ITEM.match(line)
        if item and head:
            out.append(f"{head}: {line[item.end() :]}")
            continue
        heading = _HEADING.match(line)
        if heading:
            head = next(g for g in heading.groups() if g).strip()
        elif line.strip() and not item:
            head, header = None, None
        out.append(line)
    return "\n".join(out)
