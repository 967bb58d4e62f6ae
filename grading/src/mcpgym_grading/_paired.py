"""The pairing reader: which record a phrase in a text is stated for, by the record's key
standing nearest it (round 12's open product rows: a reply naming order A's product for
order B).

A reply about two orders names each order by its number and may name a product of either.
Each place the text names a phrase of exactly one group (a product of one of the orders; a
phrase of two groups is everyone's and binds nothing) is bound to one group's key (an order
number, as a whole number, ``#`` or not): the nearest key by characters in the phrase's
sentence; else the nearest in its paragraph (lines up to a blank line); else, where its
sentence refers back to an order (``that order``), the nearest key in the text; else none. A
phrase bound to another group's key is *paired with another record*: ``I'm sorry the <B's
product> arrived damaged. I've refunded … for order #A`` states B's product as A's.

Honest forms keep each phrase with its own number: ``the Tent (order #A)``, ``order #B, with
your Bag, has shipped``, a paragraph per order, or a product named before any number in a
paragraph about its own order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, cast

from mcpgym_grading._stated_words import phrase_pattern
from mcpgym_grading._text import fold

SQL_PAIRED_OTHER = "mcpgym_paired_other"
"""The SQL function ``mcpgym_paired_other(text, groups)``: the phrases of ``groups`` (a
JSON array of ``[key, [phrase, ...]]``) that ``text`` pairs with another group's key
(`paired_other`), each as ``phrase -> #key``, joined by newlines, or NULL (``text`` NULL,
or fewer than two groups). A malformed array is an error of the query (never a pass)."""

_PARAGRAPH = re.compile(r"\n[^\S\n]*\n\s*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in pattern.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    return [*out, (start, len(text))]


def _within(spans: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    return next((s for s in spans if s[0] <= pos < s[1]), (pos, pos))


def paired_other(text: str, groups: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """The phrases of ``groups`` (``(key, phrases)`` pairs) that ``text`` binds to the key
    of another group (see the module docstring), as ``phrase -> #key``, in order, each
    once. Phrases are read folded (case, look-alike widths), with any run of spaces or
    dashes between their words, longest first; keys as whole numbers or words."""
    # folded line by line: `fold` reads a line break as a space, and the sentences and
    # paragraphs below are cut at them (round 18's FF18a: no paragraph was ever seen)
    plain = "\n".join(fold(line) for line in text.split("\n"))
    keys: list[tuple[int, int]] = []  # (position, group)
    for g, (key, _) in enumerate(groups):
        if not key.strip():
            continue
        pat = re.compile(rf"(?<![\w]){re.escape(fold(key).strip())}(?![\w])")
        keys.extend((m.start(), g) for m in pat.finditer(plain))
    if len({g for _, g in keys}) < 2:
        return []
    owners: dict[str, set[int]] = {}
    for g, (_, phrases) in enumerate(groups):
        for p in phrases:
            if re.search(r"\w", p):
                owners.setdefault(p, set()).add(g)
    sentences, paragraphs = _spans(_SENTENCE, plain), _spans(_PARAGRAPH, plain)
    out: list[str] = []
    masked = plain
    for phrase in sorted(owners, key=len, reverse=True):
        for m in phrase_pattern(phrase).finditer(masked):
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
            if len(owners[phrase]) != 1:
                continue
            bound = _bound(keys, m.start(), sentences, paragraphs, plain)
            if bound is not None and bound[1] not in owners[phrase]:
                found = f"{phrase} -> #{groups[bound[1]][0]}"
                if found not in out:
                    out.append(found)
    return out


_REFERS_TO_ORDER = re.compile(
    r"\b(?:that|this|the same|same|the other|the first|the second|the earlier|the later|"
    r"the previous|the last|the latter|the former|the older|the newer)\s+"
    r"(?:order|purchase|shipment|parcel|delivery)s?\b"
)
"""Words of a sentence that refer back to an order named before (``from that order``, ``on
the same order``): a phrase in a paragraph naming no order is bound to the nearest order only
with them (`_bound`)."""


def _bound(
    keys: list[tuple[int, int]],
    pos: int,
    sentences: list[tuple[int, int]],
    paragraphs: list[tuple[int, int]],
    plain: str,
) -> tuple[int, int] | None:
    """The key occurrence ``pos`` (in ``plain``) is bound to: nearest in its sentence, else
    its paragraph, else the nearest in the text where its sentence refers back to an order
    (`_REFERS_TO_ORDER`: ``that order``, ``this order``); None where there is none (a
    paragraph naming no order that does not refer back to one is about its products: ``The
    refund for the <A's product> is on its way.`` closing a reply whose paragraph before
    declined order #B states nothing of #B; round 18's FF18a)."""
    sentence = _within(sentences, pos)
    for span in (sentence, _within(paragraphs, pos)):
        near = [k for k in keys if span[0] <= k[0] < span[1]]
        if near:
            return min(near, key=lambda k: (abs(k[0] - pos), k[0]))
    if not _REFERS_TO_ORDER.search(plain, *sentence):
        return None
    return min(keys, key=lambda k: (abs(k[0] - pos), k[0])) if keys else None


def sql_paired_other(text: object, groups: object) -> str | None:
    """`SQL_PAIRED_OTHER` (see there); raises ValueError for a malformed array."""
    if not isinstance(text, str):
        return None
    parsed = json.loads(groups) if isinstance(groups, str) else None
    if not isinstance(parsed, list):
        raise ValueError(f"{SQL_PAIRED_OTHER}: expected a JSON array text, got {groups!r}")
    read: list[tuple[str, list[str]]] = []
    for item in cast("list[Any]", parsed):
        if not (isinstance(item, list) and len(cast("list[Any]", item)) == 2):
            raise ValueError(f"{SQL_PAIRED_OTHER}: expected [key, [phrases]], got {item!r}")
        key, phrases = cast("list[Any]", item)
        if key is None:
            continue
        if not isinstance(phrases, list):
            raise ValueError(f"{SQL_PAIRED_OTHER}: expected a list of phrases, got {phrases!r}")
        read.append((str(key), [str(p) for p in cast("list[Any]", phrases) if p is not None]))
    return "\n".join(paired_other(text, read)) or None
