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

SQL_GREETED_OTHER = "mcpgym_greeted_other"
"""The SQL function ``mcpgym_greeted_other(text, names)``: the name a greeting in ``text``
uses that is none of the JSON array ``names`` (`greeted_other`), or NULL."""


@lru_cache(maxsize=4096)
def _phrase(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[\s\-]+", normalise_text(phrase)) if w]
    return re.compile(r"(?<![\w])" + r"[\s\-]*".join(words) + r"(?![\w])")


def stated_other(text: str, forbidden: Sequence[str], allowed: Sequence[str] = ()) -> list[str]:
    """The phrases of ``forbidden`` that ``text`` states as whole phrases (folded, any run of
    spaces or dashes between words) outside every phrase of ``allowed`` (read out first,
    longest first). Phrases without a letter or digit are skipped."""
    plain = normalise_text(text)
    for a in sorted({a for a in allowed if re.search(r"\w", a)}, key=len, reverse=True):
        plain = _phrase(a).sub(" | ", plain)
    return [f for f in dict.fromkeys(forbidden) if re.search(r"\w", f) and _phrase(f).search(plain)]


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


def sql_greeted_other(text: object, names: object) -> str | None:
    """`SQL_GREETED_OTHER` (see there); raises ValueError for a malformed array."""
    if not isinstance(text, str):
        return None
    return "\n".join(greeted_other(text, _strings(names, SQL_GREETED_OTHER))) or None
