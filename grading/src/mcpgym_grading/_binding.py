"""The binding reader: which item a fact in a text is stated for.

A reply about two parcels gives each parcel's tracking number with its carrier and date. A
reply can keep every value a value check reads (both numbers, both carriers) and still pair
a carrier with the other parcel's number. This reader finds, for each place a text names an
item's *key* (a tracking number), the facts the text binds to it, and reports a key bound to
facts of another item and none of its own.

The text is cut into segments (lines, also at block markup such as ``<br>``, ``<li>``,
``<tr>``; sentences, cut after ``.``, ``!``, ``?`` before a space) and each segment into
pieces (at ``,`` and ``;`` outside a number, ``|``, brackets, and the words ``and``, ``but``,
``while``, ``whereas``, ``plus``, ``&``); empty pieces are dropped. Each segment is read as
the mention readers read it (`mcpgym_grading._mentions.reading_texts`: folded, look-alike
letters as Latin ones); a key or a fact phrase matches with up to two separators between
its characters (``1Z R4E 917``, ``F e d E x``), as whole words. For each kind of fact
separately, the facts a key occurrence is bound to are:

- in a segment holding ``respectively`` with as many distinct items' keys as distinct
  items' facts (two or more): the fact in the same position of the order;
- else the facts in the key's own piece, nearest by characters (both when equally near);
- else the facts of the nearest pieces of its segment (both sides when equally near),
  leaving out pieces that hold another item's key: that key's facts are its own.

A fact in a piece with ``both``, ``all``, ``each``, ``every`` or ``either`` is everyone's
and binds no key; a date after ``by``, ``before``, ``until`` is a bound, not the item's
date ("both should arrive by June 18": true of the earlier parcel too).

A key occurrence is *misbound* when it is bound to some fact and to none of its own item.
Honest forms bind each key to its own facts: each parcel on its own line, ``X via UPS and Y
via FedEx``, ``UPS has X``, a table row, ``X and Y, with UPS and FedEx respectively``.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from mcpgym_grading._mentions import reading_texts

_BLOCK = re.compile(r"<\s*(br|/?li|/?tr|/?p|/?div|/?h\d)\b[^>]*>", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_INITIAL = re.compile(r"(?<![a-z0-9])([a-z])\.")  # "u.s.p.s." is "usps"
_PIECE = re.compile(
    r"[;|()\[\]{}]|,(?!\d)|(?<!\d),|\s(?:and|but|while|whereas|plus|&)\s|\brespectively\b"
)
_RESPECTIVELY = re.compile(r"\brespectively\b")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_IN = r"[^a-z0-9\n]{0,2}"  # between two characters of one word
_BETWEEN = r"[^a-z0-9\n]{1,3}"  # between two words


@dataclass(frozen=True)
class Item:
    """One item of a text's subject: ``key`` (the value naming it: a tracking number) and
    ``facts``, one tuple of phrases per kind of fact (the carrier's names; the date).
    Phrases are lower case words; an ISO date ``2026-06-17`` also matches ``June 17``,
    ``17 June``, ``Jun 17``, ``6/17`` and the date with any separators."""

    key: str
    facts: tuple[tuple[str, ...], ...]


def _phrase_pattern(phrase: str) -> str:
    words = [w for w in re.split(r"[^a-z0-9]+", phrase.lower()) if w]
    return _BETWEEN.join(_IN.join(re.escape(c) for c in w) for w in words)


def _forms(phrase: str) -> list[str]:
    m = _ISO_DATE.fullmatch(phrase.strip())
    if m is None:
        return [_phrase_pattern(phrase)] if re.search(r"[a-z0-9]", phrase.lower()) else []
    y, mo, d = m.group(1), int(m.group(2)), int(m.group(3))
    month = _MONTHS[mo - 1] if 1 <= mo <= 12 else None
    out = [rf"{y}{_BETWEEN}0?{mo}{_BETWEEN}0?{d}", rf"0?{mo}/0?{d}"]
    if month is not None:
        names = f"(?:{month}|{month[:3]}\\.?)"
        out += [
            rf"{names}{_BETWEEN}0?{d}(?:st|nd|rd|th)?",
            rf"0?{d}(?:st|nd|rd|th)?{_BETWEEN}{names}",
        ]
    return out


def _compile(phrases: Sequence[str]) -> re.Pattern[str] | None:
    forms = [f for p in phrases for f in _forms(p)]
    if not forms:
        return None
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(forms)})(?![a-z0-9])")


def _compile_kind(phrases: Sequence[str]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The patterns of one item's facts of one kind: its words, and its dates apart."""
    dates = [p for p in phrases if _ISO_DATE.fullmatch(p.strip())]
    return _compile([p for p in phrases if p not in dates]), _compile(dates)


_BOUND_WORDS = re.compile(r"\b(?:by|before|until|till|no later than|on or before)\W*$")
"""Words that make a date a bound, not the item's own date ("both arrive by June 18")."""
_COLLECTIVE = re.compile(r"\b(?:both|all|each|every|either)\b")
"""Words that make a piece's facts everyone's ("both are with UPS"): bound to no one key."""


def _segments(text: str) -> list[str]:
    out: list[str] = []
    for line in _BLOCK.sub("\n", text).splitlines():
        for reading in reading_texts(line):
            reading = _INITIAL.sub(r"\1", reading)
            out += [s for s in _SENTENCE.split(reading) if s.strip()]
    return out


@dataclass(frozen=True)
class _Span:
    item: int
    first: int  # first and last piece it touches
    last: int
    start: int
    end: int


def _pieces(segment: str) -> tuple[list[int], set[int]]:
    """Piece boundaries (start offsets) and the indexes of empty pieces."""
    starts, ends = [0], []
    for m in _PIECE.finditer(segment):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(segment))
    empty = {
        i for i, (a, b) in enumerate(zip(starts, ends, strict=True)) if not segment[a:b].strip()
    }
    return starts, empty


def _spans(segment: str, pattern: re.Pattern[str], item: int, starts: list[int]) -> list[_Span]:
    return [
        _Span(
            item,
            bisect.bisect_right(starts, m.start()) - 1,
            bisect.bisect_right(starts, max(m.start(), m.end() - 1)) - 1,
            m.start(),
            m.end(),
        )
        for m in pattern.finditer(segment)
    ]


def _piece_text(segment: str, starts: list[int], span: _Span) -> str:
    """The text of the pieces ``span`` touches."""
    end = starts[span.last + 1] if span.last + 1 < len(starts) else len(segment)
    return segment[starts[span.first] : end]


def _gap(a: _Span, b: _Span, empty: set[int]) -> int:
    """Pieces between two spans, empty pieces not counted (0: they share a piece)."""
    if a.last < b.first:
        lo, hi = a.last, b.first
    elif b.last < a.first:
        lo, hi = b.last, a.first
    else:
        return 0
    return sum(1 for i in range(lo + 1, hi + 1) if i not in empty)


def _bound(key: _Span, facts: list[_Span], keys: list[_Span], empty: set[int]) -> set[int]:
    """The items of the facts ``key`` is bound to (see the module docstring)."""
    near = [f for f in facts if _gap(key, f, empty) == 0]
    if near:
        chars = [max(0, f.start - key.end, key.start - f.end) for f in near]
        return {f.item for f, c in zip(near, chars, strict=True) if c == min(chars)}
    others = [k for k in keys if k.item != key.item]
    free = [
        f
        for f in facts
        if not any(
            k.first <= f.last
            and f.first <= k.last  # shares a piece with another key
            or min(key.start, f.start) < k.start < max(key.start, f.start)  # beyond one
            for k in others
        )
    ]
    if not free:
        return set()
    gaps = [_gap(key, f, empty) for f in free]
    return {f.item for f, g in zip(free, gaps, strict=True) if g == min(gaps)}


def _ordered(spans: list[_Span]) -> list[int]:
    return list(dict.fromkeys(s.item for s in sorted(spans, key=lambda s: s.start)))


def misbound(text: str, items: Sequence[Item]) -> list[str]:
    """Where ``text`` binds an item's key to facts of another item and none of its own.

    Returns one line per misbound key occurrence, ``"<key> with <segment>"`` (the segment as
    read), in text order; empty when every key is bound to its own facts or to none. Items
    with an empty key are left out; all items must give the same number of fact kinds
    (ValueError otherwise). A fact phrase two items share binds to neither alone: it is
    dropped from both.
    """
    items = [it for it in items if it.key.strip()]
    if not items:
        return []
    kinds = {len(it.facts) for it in items}
    if len(kinds) != 1:
        raise ValueError(f"every item needs the same number of fact kinds, got {sorted(kinds)}")
    key_patterns = [_compile([it.key]) for it in items]
    fact_patterns: list[list[tuple[re.Pattern[str] | None, re.Pattern[str] | None]]] = []
    for k in range(kinds.pop()):
        shared = {
            p.strip().lower()
            for i, a in enumerate(items)
            for b in items[i + 1 :]
            for p in a.facts[k]
            if p.strip().lower() in {q.strip().lower() for q in b.facts[k]}
        }
        fact_patterns.append(
            [
                _compile_kind([p for p in it.facts[k] if p.strip().lower() not in shared])
                for it in items
            ]
        )
    out: list[str] = []
    for segment in _segments(text):
        starts, empty = _pieces(segment)
        keys = [
            s
            for i, p in enumerate(key_patterns)
            if p is not None
            for s in _spans(segment, p, i, starts)
        ]
        if not keys:
            continue
        keys.sort(key=lambda s: s.start)
        for patterns in fact_patterns:
            facts = [
                s
                for i, (words, dates) in enumerate(patterns)
                for p in (words, dates)
                if p is not None
                for s in _spans(segment, p, i, starts)
                if not any(s.start < k.end and k.start < s.end for k in keys)
                and not (p is dates and _BOUND_WORDS.search(segment[: s.start]))
                and not _COLLECTIVE.search(_piece_text(segment, starts, s))
            ]
            if not facts:
                continue
            key_order, fact_order = _ordered(keys), _ordered(facts)
            respective = (
                _RESPECTIVELY.search(segment) is not None and len(key_order) == len(fact_order) >= 2
            )
            for key in keys:
                if respective:
                    bound = {fact_order[key_order.index(key.item)]}
                else:
                    bound = _bound(key, facts, keys, empty)
                if bound and key.item not in bound:
                    out.append(f"{items[key.item].key} with {segment.strip()}")
    return list(dict.fromkeys(out))


SQL_MISBOUND = "mcpgym_misbound"
"""The SQL function ``mcpgym_misbound(text, items)``: where ``text`` binds an item's key to
another item's facts and none of its own (`misbound`), as one line per place joined by
newlines, or NULL where it binds none (or ``text`` is NULL). ``items`` is a JSON array of
``{"key": "...", "facts": [["phrase", ...], ...]}`` (one list of phrases per kind of fact,
in the same order for every item); a key that is NULL is left out. A malformed ``items`` is
an error of the query (the check is an evaluation error, never a silent pass)."""


def sql_misbound(text: object, items: object) -> str | None:
    """`SQL_MISBOUND` (see there); raises ValueError for a malformed ``items``."""
    if not isinstance(text, str):
        return None
    if not isinstance(items, str):
        raise ValueError(f"{SQL_MISBOUND}: items must be a JSON text, got {items!r}")
    raw = json.loads(items)
    if not isinstance(raw, list):
        raise ValueError(f"{SQL_MISBOUND}: items must be a JSON array")
    parsed: list[Item] = []
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("facts"), list):
            raise ValueError(f"{SQL_MISBOUND}: each item needs a key and a facts list: {entry!r}")
        key = entry.get("key")
        if key is None:
            continue
        facts = tuple(
            tuple(str(p) for p in (kind if isinstance(kind, list) else [kind]) if p is not None)
            for kind in entry["facts"]
        )
        parsed.append(Item(str(key), facts))
    found = misbound(text, parsed)
    return "\n".join(found) if found else None
