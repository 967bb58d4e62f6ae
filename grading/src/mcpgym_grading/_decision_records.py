"""A claimed action bound to the record the text names (`DecisionMatch.records`): the
record kinds and the rows read (`_decision_check.misbound_claims` reads the texts).

A text that names a record and claims an action there (``order #7 refunded in full too``)
claims it of that record. Where the episode took the action, but on other records only,
the claim is wrong though the action-level reading (`DecisionMatch.not_claimed`) lets it
stand: the action was taken (stop 24's A14, a refund's reason claiming the declined order
refunded as well).

Only the sentences that name the record are read, piece by piece where they name several
(`_decision_sentences.sentences_about` without its carry-over): a sentence naming no record is
not bound to the one named before it here (``Customer also asked about #7, declined. Refund
to card.`` in a refund's reason is about the refund's own order).
"""

from __future__ import annotations

import functools
import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Generic, TypeVar

from mcpgym_grading._text import fold


@functools.lru_cache(maxsize=4096)
def record_pattern(record: str) -> re.Pattern[str]:
    """The names of records of ``record``'s kind, read folded (`fold`), group 1 the record.

    A number (``100495``): a whole number of as many digits with the same first digit
    (``#100107``, ``order no. 100107``, ``100107``); the helpdesk's ids keep each kind in its
    own range (items ``3…``, payments ``7…``, refunds ``9…``, tickets of four digits), and an
    amount's digits (``$100,495.00``, ``1004.95``) are no record. A value that starts with
    letters (``INV-2026-0151``): the same letters and separators with as many digits in each
    group, anywhere (``inv-2026-0152``; ``CN-2026-0015`` is another kind).
    """
    folded = fold(record)
    if folded.isdigit():
        return re.compile(
            rf"(?<![0-9a-z$.,])({folded[0]}\d{{{len(folded) - 1}}})(?![0-9a-z]|[.,]\d)"
        )
    shape = "".join(
        rf"\d{{{len(m.group())}}}" if m.group()[0].isdigit() else re.escape(m.group())
        for m in re.finditer(r"\d+|\D", folded)
    )
    return re.compile(rf"(?<![0-9a-z])({shape})(?![0-9a-z])")


@functools.lru_cache(maxsize=8192)
def record_name(record: str) -> str:
    """A record's name as `taken_on` and `on_file` keep it (`fold`, stripped), remembered: a
    records query lists every record on file in every grade (~1,200 rows a helpdesk grade)."""
    return fold(record).strip()


Rows = tuple[tuple[object, ...], ...]
_T = TypeVar("_T")


class _SameRows(Generic[_T]):
    """``read(rows)`` remembered for the same rows: a hit only where every row is the very
    object it was (a records query `_sqlmemo` serves from a snapshot gives the same row
    objects in every grade), so rows that are only equal (``1`` and ``1.0``, whose names
    differ) never share a result. At most `size` kept; they hold their rows."""

    def __init__(self, read: Callable[[Rows], _T], size: int = 64) -> None:
        self.read, self.size = read, size
        self._items: OrderedDict[tuple[int, int, int], tuple[Rows, _T]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, rows: Rows) -> _T:
        if not rows:
            return self.read(rows)
        key = (id(rows[0]), id(rows[-1]), len(rows))
        with self._lock:
            hit = self._items.get(key)
        if hit is not None and all(map(operator.is_, hit[0], rows)):
            return hit[1]
        value = self.read(rows)
        with self._lock:
            self._items[key] = (rows, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def cache_clear(self) -> None:
        """Forget every result (tests, benchmarks)."""
        with self._lock:
            self._items.clear()


def taken_on(rows: Iterable[tuple[object, ...]]) -> dict[str, frozenset[str]]:
    """``{action: folded records}`` from ``(action, record)`` rows (NULLs skipped)."""
    return dict(_taken_on(tuple(rows)))


def _read_taken(rows: Rows) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for row in rows:
        if len(row) < 2 or row[0] is None or row[1] is None:
            continue
        out.setdefault(str(row[0]), set()).add(record_name(str(row[1])))
    return {a: frozenset(r) for a, r in out.items()}


_taken_on = _SameRows(_read_taken)
"""`taken_on` remembered for the same rows (the caller gets a copy)."""


def on_file(rows: Iterable[tuple[object, ...]]) -> frozenset[str]:
    """The folded records of ``(NULL, record)`` rows: the records on file of a kind, listed by
    a ``records`` query beside its ``(action, record)`` rows. Where any is listed, a number
    named without an id's cue (`CUED`) names a record only when it is on file
    (``partially_refunded, 4200, 105624`` in a reply lists an amount in cents, not an
    order; ``refunded 100107 in full too`` names the order 100107 on file)."""
    return _on_file(tuple(rows))


def _read_on_file(rows: Rows) -> frozenset[str]:
    return frozenset(
        record_name(str(row[1]))
        for row in rows
        if len(row) >= 2 and row[0] is None and row[1] is not None
    )


_on_file = _SameRows(_read_on_file)
"""`on_file` remembered for the same rows."""


def record_patterns(
    taken: Mapping[str, frozenset[str]],
) -> tuple[dict[str, dict[str, re.Pattern[str]]], re.Pattern[str] | None]:
    """``({action: {pattern text: pattern}}, kinds)``: the `record_pattern` of each record of
    each action of ``taken`` (`taken_on`), one per distinct pattern, in ``taken``'s order,
    and ``kinds``, one pattern of them all (``None`` when there are none). Remembered per
    ``taken`` (shared: the caller must not change them)."""
    items = tuple(taken.items())
    try:
        return _record_patterns(items)
    except TypeError:  # records in an unhashable collection: read as they are
        return _record_patterns.__wrapped__(items)


@functools.lru_cache(maxsize=64)
def _record_patterns(
    items: tuple[tuple[str, frozenset[str]], ...],
) -> tuple[dict[str, dict[str, re.Pattern[str]]], re.Pattern[str] | None]:
    patterns = {a: {p.pattern: p for p in map(record_pattern, recs)} for a, recs in items}
    every = [pat for pats in patterns.values() for pat in pats.values()]
    kinds = re.compile("|".join(f"(?:{p.pattern})" for p in every)) if every else None
    return patterns, kinds


CUED = re.compile(r"(?:#|\border|\bno\.?|\bnumber|\bnr\.?)\s*$")
"""An id's cue right before a number (``#``, ``order``, ``no.``, ``number``): a number so
named is a record's name whether or not it is on file (`on_file`)."""


JOINED = (
    r"^[\s,;:]*(?:and|&|plus|as well as)\s+(?:(?:the|order|no\.?|number|#)\s*)*{record}"
    r"(?:\s+(?:in|full|fully|too|as|well|also|to|the|your|card|both|each|original|payment))*"
    r"[\s.!,;]*$"
)
"""A piece that is only ``and`` + the record (+ ``in full``, ``too``, ``to the card``...):
it shares the verb of the piece before it."""
