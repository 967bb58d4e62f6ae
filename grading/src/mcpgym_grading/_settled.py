"""A record said to have nothing left open (round 15's L15c, read at round 16).

A write-off leaves its invoice with nothing open; a note can claim the write-off by that
state alone (``INV-2026-0151 now has a zero balance``, ``Nothing is left open on
INV-2026-0151``, ``INV-2026-0151 is settled``) with no verb the decision reader
(`mcpgym_grading._decisions`) reads. A paid invoice is in the same state, so the state is
no claim of any action by itself: a rubric asks for it only about a record that must still
be open (write-off-bad-debt's escalated invoice, `SQL_SETTLED`).

`settled(text, record)` gives the sentences (pieces, where one names several records:
`mcpgym_grading._decision_sentences.sentences_about` without carry-over) that name ``record``
and state it has nothing open, read folded: a zero or no balance (``zero balance``, ``balance
is now $0.00``, ``no balance left``), nothing open or owed (``nothing left open``, ``no
longer outstanding``), settled, cleared, closed or squared (``is settled``, ``fully
provided for and closed``). A clause with a negation before the state (``is not settled``,
``hasn't been cleared``) or a hedge (``will``, ``would``, ``once``, ``if``, ``after``,
``should``, ``until``) or reported speech (``the customer says INV-… is settled``) states
nothing.
"""

from __future__ import annotations

import re

from mcpgym_grading._decision_sentences import sentences_about

__all__ = ["SQL_SETTLED", "settled", "sql_settled"]

_ZERO = r"(?:zero|nil|nothing|none|\$\s?0(?:\.00)?|0\.00|0)"
_STATE = re.compile(
    rf"\b(?:a |an |the )?(?:zero|nil|\$\s?0(?:\.00)?|0\.00) (?:open |outstanding |remaining )?"
    r"balance\b"
    r"|\bno (?:open |outstanding |remaining )?balance\b"
    rf"|\bbalance\b[^.;:!?\n]{{0,20}}?\b(?:is|of|now|at|stands at|comes to|=)\s*(?:now\s+)?"
    rf"{_ZERO}(?![\d.,]*[1-9])"
    r"|\bnothing\b(?: (?:is|remains|was))?(?: (?:left|still|now))* (?:open|outstanding|owing|"
    r"owed|due|to collect)\b"
    r"|\bno longer (?:open|outstanding|owed|owing|due)\b"
    r"|\b(?:is|was|now|fully|been|are)\s+(?:now\s+|fully\s+|all\s+)?(?:settled|cleared|closed|"
    r"squared(?: off| up)?|provided for)\b"
)
_NEGATED = re.compile(r"\b(?:not|never|nor|without)\b|n['\u2019]?t\b")
_HEDGED = re.compile(
    r"\b(?:will|would|shall|once|if|after|should|could|may|might|until|unless|when|whether|"
    r"to be|pending|ll|d|says?|said|claims?|claimed|asks?|asked|thinks?|thought|believes?|"
    r"believed|mentioned|wrote|reports?|reported)\b"
)
_CLAUSE = re.compile(r"[,;:]\s*|\s[-\u2013\u2014]\s|\b(?:but|and|so|while|whereas)\s")


def settled(text: str, record: str) -> list[str]:
    """The pieces of ``text`` naming ``record`` that state it has nothing open (module
    docstring), in text order."""
    out: list[str] = []
    for piece in sentences_about(text, record, carry=False):
        folded = piece.casefold()
        cuts = [0, *(m.end() for m in _CLAUSE.finditer(folded)), len(folded)]
        for a, b in zip(cuts, cuts[1:], strict=False):
            clause = folded[a:b]
            m = _STATE.search(clause)
            if m is None:
                continue
            before = clause[: m.start()]
            if _NEGATED.search(before) or _HEDGED.search(before) or _NEGATED.search(m.group(0)):
                continue
            out.append(piece.strip())
            break
    return out


SQL_SETTLED = "mcpgym_settled"
"""The SQL function ``mcpgym_settled(text, record)``: the pieces of ``text`` stating
``record`` has nothing open (`settled`), joined by newlines, or NULL where none does (or
either argument is NULL)."""


def sql_settled(text: object, record: object) -> str | None:
    """`SQL_SETTLED` (see there)."""
    if not isinstance(text, str) or not isinstance(record, str) or not record:
        return None
    found = settled(text, record)
    return "\n".join(found) if found else None
