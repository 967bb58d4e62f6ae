"""A claimed action bound to the record the text names (`DecisionMatch.records`): the
record kinds and the rows read (`_decision_check.misbound_claims` reads the texts).

A text that names a record and claims an action there (``order #7 refunded in full too``)
claims it of that record. Where the episode took the action, but on other records only,
the claim is wrong though the action-level reading (`DecisionMatch.not_claimed`) lets it
stand: the action was taken (stop 24's A14, a refund's reason claiming the declined order
refunded as well).

Only the sentences that name the record are read, piece by piece where they name several
(`_decision_check.sentences_about` without its carry-over): a sentence naming no record is
not bound to the one named before it here (``Customer also asked about #7, declined. Refund
to card.`` in a refund's reason is about the refund's own order).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from mcpgym_grading._text import fold

MAX_RECORDS = 1 << 16
"""Record names (`record_name`) and patterns (`record_pattern`) kept per process. A records
query lists every record on file and every action taken before the episode (a helpdesk
grade: ~1,200 rows, nearly all the snapshot's, the same in every grade of the environment),
so each is folded and compiled once, not once per grade."""


@lru_cache(maxsize=MAX_RECORDS)
def record_name(value: str) -> str:
    """A record as `taken_on` and `on_file` keep it: ``value`` folded (`fold`), stripped."""
    return fold(value).strip()


@lru_cache(maxsize=MAX_RECORDS)
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


def taken_on(rows: Iterable[tuple[object, ...]]) -> dict[str, frozenset[str]]:
    """``{action: folded records}`` from ``(action, record)`` rows (NULLs skipped)."""
    out: dict[str, set[str]] = {}
    for row in rows:
        if len(row) < 2 or row[0] is None or row[1] is None:
            continue
        out.setdefault(str(row[0]), set()).add(record_name(str(row[1])))
    return {a: frozenset(r) for a, r in out.items()}


def on_file(rows: Iterable[tuple[object, ...]]) -> frozenset[str]:
    """The folded records of ``(NULL, record)`` rows: the records on file of a kind, listed by
    a ``records`` query beside its ``(action, record)`` rows. Where any is listed, a number
    named without an id's cue (`CUED`) names a record only when it is on file
    (``partially_refunded, 4200, 105624`` in a reply lists an amount in cents, not an
    order; ``refunded 100107 in full too`` names the order 100107 on file)."""
    return frozenset(
        record_name(str(row[1]))
        for row in rows
        if len(row) >= 2 and row[0] is None and row[1] is not None
    )


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
