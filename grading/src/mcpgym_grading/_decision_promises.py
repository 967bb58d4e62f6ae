"""A promise of an action: ``I will cancel order #7 today``, ``Order #7 will be refunded
within the hour`` (round 14's F14, F14b).

The decision reader (`mcpgym_grading._decisions`) reads ``will`` as a hedge: a time to come
claims nothing. An unconditional promise of the action, in the first person (``I will``,
``I'll``, ``we will``, ``we'll``, ``I shall``, ``I'm going to``) followed by a form of the
action, or a passive future (``will be`` / ``will get`` followed by a form that claims it),
still tells
the reader the action is settled: read as an *unsure claim* (refused where no claim may
stand, never a claim where one must), as a record changed by a verb no list reads is.

A promise that waits on something is no claim: a sentence with a condition or a time it
waits for (``if``, ``once``, ``when``, ``after``, ``as soon as``, ``pending``, ``subject
to``, ``unless``, ``until``, ``provided``, ``whether``...), a request to the reader before
it (``Please send your ZIP code and we'll update the address``), a question, or a verb between
the promise and the action (``I'll ask the team to refund it``, ``I will not cancel it``,
``a specialist will review``) is left unread.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from mcpgym_grading._text import REMEMBERED_CHARS

_ADVERBS = (
    r"(?:(?:now|also|then|just|personally|immediately|promptly|certainly|definitely|"
    r"gladly|happily|right away|go ahead and|be sure to|make sure to|get|have)\s+)*"
)
_FIRST = re.compile(
    rf"\b(?:i|we)(?:\s+(?:will|shall)\s+|\s*['\u2019]ll\s+|(?:\s+am|\s+are|['\u2019]m|"
    rf"['\u2019]re)\s+going\s+to\s+){_ADVERBS}"
)
"""The agent's own future before a form (``I will``, ``we'll now``, ``I'll go ahead and``,
``I'm going to``)."""
_PASSIVE = re.compile(
    rf"\b(?:will|shall|['\u2019]ll)\s+{_ADVERBS}(?:be|get)\s+"
    r"(?:(?:fully|now|also|immediately|promptly|completely)\s+)*"
)
"""A passive future before a form (``will be refunded``, ``will get cancelled``)."""
_WAITS = re.compile(
    r"\b(?:if|once|when|whenever|after|as soon as|pending|subject to|unless|until|till|"
    r"provided|assuming|whether|in case|should you|upon|awaiting)\b"
)
"""A condition or a time the promise waits for: the sentence promises nothing yet."""
_ASKED = re.compile(
    r"\b(?:please(?!\s+(?:note|be advised|be aware|know))|kindly(?!\s+note)|reply|send (?:us|me)|"
    r"let (?:me|us) know|get back to (?:me|us))\b"
)
"""A request to the reader before the promise (``Please send your ZIP code and we'll update
the address``): the promise waits on the answer (a frame, ``Please note``, asks nothing)."""
_SENTENCE = re.compile(r"(?<!\d)[.!?](?!\d)|\n")


def stated_sentences(reading: str) -> Iterator[str]:
    """The sentences of ``reading`` (cut after ``.``, ``!``, ``?`` not between digits, and at
    line breaks; each with its end mark) that state rather than ask or wait: a question
    (ending ``?``) and a sentence with a condition or waiting word (`_WAITS`) are skipped.
    What the promise and future readers (`promises`, `_decision_futures`) read, for each
    action in turn: remembered per reading (`_stated_sentences`)."""
    if len(reading) > REMEMBERED_CHARS:
        return _stated(reading)
    return iter(_stated_sentences(reading))


@functools.lru_cache(maxsize=256)
def _stated_sentences(reading: str) -> tuple[str, ...]:
    return tuple(_stated(reading))


def _stated(reading: str) -> Iterator[str]:
    start = 0
    for end_m in (*_SENTENCE.finditer(reading), None):
        end = len(reading) if end_m is None else end_m.end()
        sentence = reading[start:end]
        start = end
        if not sentence.rstrip().endswith("?") and not _WAITS.search(sentence):
            yield sentence


def promises(reading: str, matches: Callable[[str, int, bool], bool]) -> list[str]:
    """The sentences of ``reading`` (a text as the decision reader reads it: folded,
    casefolded) that promise an action unconditionally. ``matches(sentence, pos,
    passive)`` says whether a form of the action starts at ``pos`` (``passive``: only a
    form that claims it, ``refunded``; else a base form too, ``refund``). Returns the
    sentences, stripped, in order; none for a question, a sentence that waits (`_WAITS`) or a
    promise after a request (`_ASKED`).
    """
    out: list[str] = []
    for sentence in stated_sentences(reading):
        marks = (
            _marks(sentence) if len(sentence) <= REMEMBERED_CHARS else _marks.__wrapped__(sentence)
        )
        found = any(matches(sentence, pos, passive) for passive, pos in marks)
        if found:
            out.append(sentence.strip())
    return out


@functools.lru_cache(maxsize=1024)
def _marks(sentence: str) -> tuple[tuple[bool, int], ...]:
    """Where a form may follow a promise in ``sentence``: ``(passive, position)`` after each
    `_FIRST` (not passive) then each `_PASSIVE` that no request (`_ASKED`) stands before,
    in that order. The same for every action (`promises` reads each in turn): remembered."""
    return tuple(
        (passive, m.end())
        for passive, marker in ((False, _FIRST), (True, _PASSIVE))
        for m in marker.finditer(sentence)
        if not _ASKED.search(sentence, 0, m.start())
    )
