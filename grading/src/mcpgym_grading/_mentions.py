"""What the mention readers share: the text as they read it, and a `Mention`.

A *mention reader* finds every place a text names an item of a closed vocabulary (a
period of the books, a team of the app) in any of its written forms, where a value check
(`mcpgym_grading._text.TextView`) looks for one value at a time. `MentionMatch` checks
read texts this way: the text names the expected item and no item but the allowed ones.

The readers read the text as every answer check does (`fold`: NFKC, references decoded,
markup a reader does not see dropped, display order, every space and dash alike,
casefolded), with glued CamelCase words split first (``FraudTeam`` is ``fraud team``), words
joined by underscores read apart (``written_off``, ``WRITTEN_OFF`` are ``written off``: an
identifier, a status value in JSON; round 14's J14) but for a field's name (`_FIELD_ENDS`:
``written_off_cents``, ``shipped_at`` stay as written) and
letters drawn like Latin ones read as those (`mcpgym_grading._skeleton.CONFUSABLES`:
small capitals, Cyrillic ``а``). A text holding markup is read twice, as rendered and as
its source (a period hidden in a comment is named all the same).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from mcpgym_grading import _confusables
from mcpgym_grading._decode import encoded_source, markup_source
from mcpgym_grading._text import REMEMBERED_CHARS, fold

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SNAKE = re.compile(r"(?<![^\W_])[^\W\d_]+(?:_+[^\W\d_]+)+(?![^\W_])")
"""Words of letters joined by underscores (``written_off``)."""
_FIELD_ENDS = frozenset(
    ("at", "on", "by", "id", "ids", "cents", "date", "code", "number", "count", "total")
    + ("amount", "days", "name", "time", "bp", "ref", "status")
)
"""The last words of a field's name (``refunded_cents``, ``posted_at``): a field named, not
a state claimed; read as written."""


def _unsnaked(m: re.Match[str]) -> str:
    parts = [p for p in m.group(0).split("_") if p]
    return m.group(0) if parts[-1].casefold() in _FIELD_ENDS else " ".join(parts)


_EDGE_UNDERSCORES = re.compile(r"(?<![^\W_])_+(?=[^\W_])|(?<=[^\W_])_+(?![^\W_])")
"""Underscores at a word's edge, one side a letter or digit and the other not (markdown's
``__refunded__``, ``_posted_``: emphasis a renderer shows as the bare word; round 20's E20):
read as spaces, so the word inside is a word. Underscores between two letters
(``written_off``) are `_SNAKE`'s."""


def _read(text: str) -> str:
    # underscores are read apart after `fold`, which drops the invisible characters a
    # look-alike form puts between the letters (``w\U000e0100r…n_o…f\U000e0100f``)
    text = fold(_CAMEL.sub(" ", unicodedata.normalize("NFKC", text)))
    if "_" in text:
        text = _EDGE_UNDERSCORES.sub(" ", text)
    return _SNAKE.sub(_unsnaked, text).translate(_confusables.tables().confusables)


def reading_texts(text: str) -> list[str]:
    """``text`` as the mention readers read it (see the module docstring): one text, one
    more when it holds markup (as rendered, then as its source), and one more when it holds
    URL-encoded or base64 runs (`encoded_source`, decoded). Remembered per text up to
    `REMEMBERED_CHARS` characters (`_readings`: a grade reads a reply through the decision,
    term and period readers, and a sentence of it again per record it names); the list is
    the caller's own."""
    if len(text) > REMEMBERED_CHARS:
        return _reading_texts(text)
    return list(_readings(text))


def _reading_texts(text: str) -> list[str]:
    """`reading_texts`, read each time."""
    out = [_read(text)]
    source = markup_source(text)
    if source is not None:
        out.append(_read(source))
    encoded = encoded_source(text)
    if encoded is not None:
        out.append(_read(encoded))
    return out


_readings = functools.lru_cache(maxsize=256)(lambda text: tuple(_reading_texts(text)))
"""`_reading_texts` remembered, as a tuple (`cache_clear` empties it)."""


@dataclass(frozen=True)
class Mention:
    """One place a text names items of a vocabulary.

    Attributes:
        text: the words as read (folded). readings: each way to read them, as the set of
            items named (a date both ``6/4`` and ``4/6`` could be has two readings; most
            mentions have one). exact: the words name one item as the vocabulary names it
            (a month, not a date in it nor a quarter holding it; a team, not a team-like
            name): only an exact mention says which item is meant. hedged: the words
            around it make it an alternative (``or``, ``maybe``, ``possibly``...; read by
            the period reader only).
    """

    text: str
    readings: tuple[frozenset[str], ...]
    exact: bool = True
    hedged: bool = False

    def within(self, allowed: frozenset[str]) -> bool:
        """Whether some reading names only ``allowed`` items."""
        return any(r <= allowed for r in self.readings)

    def names(self, item: str) -> bool:
        """Whether this is an exact mention of ``item`` (and of nothing else)."""
        return self.exact and any(r == {item} for r in self.readings)
