"""``mcpgym_items_named``: a text with the items it names by product written as records.

The decision reader reads the sentences about one record by its id (`DecisionMatch`'s
``about``: ``order #7``). A reply can name the record by a product instead: refund-damaged-item
declines a final-sale item of another order by its name only (``I can't refund the Pinnacle
Polarized Sunglasses: it was a final-sale item``), and ``I've also refunded the Pinnacle
Polarized Sunglasses`` then claims a refund of a record no sentence names (round 17's X17a). A
check reads the text through this function, which writes each mention of an item's product as
the item's record (``item #300604``), so that `DecisionMatch` with ``about`` the item's id reads
the sentences naming it, carried as for any record.

A mention is, case aside and with any spaces between the words: the product's whole name; a run
of two or more of its words; one of its words of three letters or more after a determiner
(``the sunglasses``, ``your tent``, ``those boots``: an ``s`` or ``es`` after it too); or an
``alias`` the caller gives (``the final-sale item``). A mention that one item's name shares with
another's (``pants`` in two pants) names neither: it is left as written, as is every mention
where two items have the same name.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, cast

SQL_ITEMS_NAMED = "mcpgym_items_named"
"""The SQL function ``mcpgym_items_named(text, items)``: ``text`` with each mention of an
item's product written as the item's record (`items_named`). ``items``: a JSON array of
``[record, name, alias, ...]`` (``["item #300604", "Pinnacle Polarized Sunglasses", "the
final-sale item"]``; an item whose name is NULL or empty is left out). NULL where ``text`` is
NULL; a malformed ``items`` is an error of the query."""

_DETERMINER = r"(?:the|your|this|that|these|those|its|my|both)"
_WORD = re.compile(r"[^\W_](?:[\w.'\u2019-]*[^\W_])?")


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(name)]


def _spaced(words: list[str]) -> str:
    return r"\s+".join(re.escape(w) for w in words)


def _mentions(name: str, aliases: tuple[str, ...]) -> dict[str, tuple[bool, str]]:
    """The mentions of a product named ``name`` (module docstring): each as its key (the
    words, casefolded, space-joined, to compare with another item's) and whether it is one
    word read after a determiner, with its regex."""
    words = _words(name)
    out: dict[str, tuple[bool, str]] = {}
    for size in range(len(words), 0, -1):
        for i in range(len(words) - size + 1):
            run = words[i : i + size]
            key = " ".join(run)
            if size >= 2:
                out.setdefault(key, (False, _spaced(run)))
            elif len(run[0]) >= 3 and run[0].isalpha():
                out.setdefault(key, (True, rf"{_DETERMINER}\s+{_spaced(run)}(?:e?s)?"))
    for alias in aliases:
        run = _words(alias)
        if run:
            out.setdefault(" ".join(run), (False, _spaced(run)))
    return out


@functools.lru_cache(maxsize=256)
def _patterns(items: tuple[tuple[str, str, tuple[str, ...]], ...]) -> list[re.Pattern[str]]:
    """The patterns of every item's mentions, a named group per item and mention, longest
    first: the names and runs of words first, then the words after a determiner (read on
    the text the first wrote records into: ``the Polarized Sunglasses`` is one mention)."""
    names = [" ".join(_words(name)) for _, name, _ in items]
    alts: list[tuple[bool, int, int, str]] = []
    for k, (_, name, aliases) in enumerate(items):
        if names.count(names[k]) > 1:
            continue  # two items of one name: a mention names neither
        others = [names[j] for j in range(len(items)) if j != k]
        for key, (single, regex) in _mentions(name, aliases).items():
            shared = any(
                re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", other) for other in others
            )
            if not shared:
                alts.append((single, len(key), k, regex))
    out: list[re.Pattern[str]] = []
    for single in (False, True):
        chosen = sorted((a for a in alts if a[0] is single), key=lambda a: -a[1])
        if chosen:
            body = "|".join(f"(?P<i{k}_{n}>{rx})" for n, (_, _, k, rx) in enumerate(chosen))
            out.append(re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE))
    return out


_LEADING_DETERMINER = re.compile(rf"^{_DETERMINER}\s+", re.IGNORECASE)


def items_named(text: str, items: list[tuple[str, str, tuple[str, ...]]]) -> str:
    """``text`` with each mention (module docstring) of an item's product replaced by its
    record (a determiner before one word kept: ``the item #300604``). ``items``: ``(record,
    name, aliases)``; the rest of the text is kept as written (its line breaks and
    paragraphs too: `_decision_sentences.sentences_about` reads them)."""

    def record(m: re.Match[str]) -> str:
        group = next(g for g, v in m.groupdict().items() if v is not None)
        kept = _LEADING_DETERMINER.match(m.group(0))
        return (kept.group(0) if kept else "") + items[int(group[1:].split("_")[0])][0]

    for pattern in _patterns(tuple(items)):
        text = pattern.sub(record, text)
    return text


def sql_items_named(text: object, items: object) -> str | None:
    """`SQL_ITEMS_NAMED` for SQLite: None for non-text ``text``; raises ValueError for a
    malformed ``items``."""
    if not isinstance(text, str):
        return None
    raw = json.loads(items) if isinstance(items, str) else None
    if not isinstance(raw, list):
        raise ValueError(f"{SQL_ITEMS_NAMED}: items must be a JSON array text, got {items!r}")
    parsed: list[tuple[str, str, tuple[str, ...]]] = []
    for item in cast("list[Any]", raw):
        entry = cast("list[Any]", item) if isinstance(item, list) else None
        if entry is None or len(entry) < 2 or not all(isinstance(e, str | None) for e in entry):
            raise ValueError(f"{SQL_ITEMS_NAMED}: each item is [record, name, alias...]: {item!r}")
        record, name, *aliases = entry
        if record and name:
            parsed.append((record, name, tuple(a for a in aliases if a)))
    return items_named(text, parsed)
