"""Facts without digits a text states: a closed vocabulary of one kind (colours, product
names, card brands, a decline's reasons) and the name a reply greets.

`mcpgym_grading._value_roles` closes a kind by its shape (digits), so a wrong colour, product
or card brand, written in words, has no shape to read. Here a kind is closed by its
vocabulary instead: the check lists the phrases of the kind that are *not* the episode's
(every catalogue colour but the item's, every card brand but the order's) and the text fails
where it states one of them, as a whole phrase (folded, case-insensitive, any run of spaces
or dashes between words), outside the phrases it may state (the episode's own product names,
in which a colour word may stand: ``Forest Green`` in ``Forest Green Rain Shell``).

The greeting is read apart: the first word after ``Hi``/``Hello``/``Dear``... at the start
of a line (a title such as ``Ms.`` skipped) must be one of the names the reply may use (the
customer's first or last name) or a word that names nobody (``there``, ``team``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from mcpgym_grading._text import normalise_text

SQL_STATED_OTHER = "mcpgym_stated_other"
"""The SQL function ``mcpgym_stated_other(text, forbidden, allowed)``: the phrases of the
JSON array ``forbidden`` that ``text`` states (`stated_other`) joined by newlines, or NULL
where none is (or ``text`` is NULL); ``allowed`` is a JSON array of phrases read out of the
text first. A malformed array is an error of the query (never a pass)."""

SQL_SLOT_OTHER = "mcpgym_slot_other"
"""The SQL function ``mcpgym_slot_other(text, pattern, allowed)``: the fillers of a
slot of ``pattern`` in ``text`` that ``allowed`` does not hold (`slot_other`), joined by
newlines, or NULL where none does (or ``text`` is NULL). A malformed array or pattern is an
error of the query (never a pass)."""

SQL_GREETED_OTHER = "mcpgym_greeted_other"
"""The SQL function ``mcpgym_greeted_other(text, names)``: the name a greeting in ``text``
uses that is none of the JSON array ``names`` (`greeted_other`), or NULL."""


@lru_cache(maxsize=4096)
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """``phrase`` as a whole phrase over a folded text: its folded words with any run of
    spaces or dashes between them (``Master-Card``, ``master  card``)."""
    words = [re.escape(w) for w in re.split(r"[\s\-]+", normalise_text(phrase)) if w]
    return re.compile(r"(?<![\w])" + r"[\s\-]*".join(words) + r"(?![\w])")


_phrase = phrase_pattern


@lru_cache(maxsize=4096)
def _phrase_words(phrase: str) -> tuple[str, ...]:
    """The words `phrase_pattern` writes for ``phrase``, as plain text: a text it matches
    holds each of them (so a phrase with a word the text lacks is neither compiled nor
    searched)."""
    return tuple(w for w in re.split(r"[\s\-]+", normalise_text(phrase)) if w)


_WORDY = re.compile(r"\w")
"""A letter or digit: a phrase without one is skipped (`stated_other`)."""


def _may_match(phrase: str, plain: str) -> bool:
    return all(w in plain for w in _phrase_words(phrase))


def stated_other(text: str, forbidden: Sequence[str], allowed: Sequence[str] = ()) -> list[str]:
    """The phrases of ``forbidden`` that ``text`` states as whole phrases (folded, any run of
    spaces or dashes between words) outside every phrase of ``allowed`` (read out first,
    longest first). Phrases without a letter or digit are skipped."""
    plain = normalise_text(text)
    for a in sorted({a for a in allowed if _WORDY.search(a)}, key=len, reverse=True):
        if _may_match(a, plain):
            plain = _phrase(a).sub(" | ", plain)
    return [
        f
        for f in dict.fromkeys(forbidden)
        if _WORDY.search(f) and _may_match(f, plain) and _phrase(f).search(plain)
    ]


@lru_cache(maxsize=256)
def _slot(pattern: str) -> re.Pattern[str]:
    slot = re.compile(pattern)
    if not slot.groupindex:
        raise ValueError(f"{SQL_SLOT_OTHER}: the pattern has no named group: {pattern!r}")
    return slot


_SLOT_WORD = re.compile(r"[^\W_]+(?:['\u2019.&][^\W_]+)*")


def slot_other(text: str, pattern: str, allowed: Sequence[str]) -> list[str]:
    """The fillers of the slot ``pattern`` (a regular expression over the folded text, lower
    case with one space between words, whose named groups are the slot: each alternative
    names its own, and the first that took part in a match is its filler) in ``text``
    that hold a word no phrase of ``allowed`` holds (words compared folded; a phrase's
    words each allowed: ``Master Card`` allows ``master`` and ``card``), in order, each
    once.

    The kind's slot rule (round 12's open colours and card brands): the word a slot holds
    (``your X card ending in``, ``in XL (X)``) is the record's or a word of no fact, and a
    word the vocabulary does not know there is refused rather than read as no fact."""
    ok = {w for a in allowed for w in _SLOT_WORD.findall(normalise_text(a))}
    out: list[str] = []
    for m in _slot(pattern).finditer(normalise_text(text)):
        filler = next((g for g in m.groupdict().values() if g is not None), "").strip()
        if any(w not in ok for w in _SLOT_WORD.findall(filler)) and filler not in out:
            out.append(filler)
    return out


_GREETING = re.compile(
    r"(?:^|\n)[^\S\n]*(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon|evening))"
    r"\b[^\S\n]*[,!:.-]?[^\S\n]*(?:(?:mr|mrs|ms|mx|miss|dr)\b\.?[^\S\n]*)?([^\W\d_][\w'’-]*)",
    re.IGNORECASE,
)
_NOBODY = frozenset(
    {"there", "team", "all", "everyone", "again", "friend", "folks", "customer", "and", "sir"}
    | {"madam", "both", "you", "from", "i", "it", "this", "thanks", "thank", "and"}
)
"""Words after a greeting that name nobody (``Hi there``, ``Hello again``)."""


def greeted_other(text: str, names: Sequence[str]) -> list[str]:
    """The words a greeting of ``text`` (``Hi``, ``Hello``, ``Dear``... at a line's start, a
    title skipped) addresses that are none of ``names`` (case-insensitive) nor a word naming
    nobody (``there``, ``team``)."""
    own = {n.casefold() for n in names if n}
    return [
        m.group(1)
        for m in _GREETING.finditer(text)
        if m.group(1).casefold() not in own and m.group(1).casefold() not in _NOBODY
    ]


def _strings(raw: object, fn: str) -> list[str]:
    parsed = json.loads(raw) if isinstance(raw, str) else None
    if not isinstance(parsed, list):
        raise ValueError(f"{fn}: expected a JSON array text, got {raw!r}")
    return [str(x) for x in cast("list[Any]", parsed) if x is not None]


def sql_stated_other(text: object, forbidden: object, allowed: object) -> str | None:
    """`SQL_STATED_OTHER` (see there); raises ValueError for a malformed array."""
    if not isinstance(text, str):
        return None
    found = stated_other(
        text, _strings(forbidden, SQL_STATED_OTHER), _strings(allowed, SQL_STATED_OTHER)
    )
    return "\n".join(found) or None


def sql_slot_other(text: object, pattern: object, allowed: object) -> str | None:
    """`SQL_SLOT_OTHER` (see there); raises ValueError for a malformed array or pattern."""
    if not isinstance(text, str):
        return None
    if not isinstance(pattern, str):
        raise ValueError(f"{SQL_SLOT_OTHER}: expected a pattern text, got {pattern!r}")
    found = slot_other(text, pattern, _strings(allowed, SQL_SLOT_OTHER))
    return "\n".join(found) or None


def sql_greeted_other(text: object, names: object) -> str | None:
    """`SQL_GREETED_OTHER` (see there); raises ValueError for a malformed array."""
    if not isinstance(text, str):
        return None
    return "\n".join(greeted_other(text, _strings(names, SQL_GREETED_OTHER))) or None
