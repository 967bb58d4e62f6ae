"""The direction reader: a change from one value to another stated the wrong way round.

An exchange takes an item of one size (the *old* value) for another (the *new* one). A text
can name both sizes, as every check that reads values wants, and still say the change went
the other way: "size US 11 -> US 12" for a US 12 exchanged for a US 11, or "your US 12 ships
today; please send the US 11 back". This reader finds such places.

The text is cut into clauses (lines, sentences cut after ``.``, ``!``, ``?`` before a space,
``;`` and ``but``). A value is found as a whole token (``US 11`` with any spaces, ``M/L``);
a value of at most three characters with no digit (``M``, ``XL``) only as written, upper
case (``I'm``, ``a.m.`` name no size). In each clause:

- a *change form* between the two values gives each its role: ``A -> B`` (also ``→``,
  ``=>``, ``>``), ``A to B``, ``from A to B``, ``A into B``, ``A for (a|an|the) B``,
  ``replace A with B``, ``B instead of A``, ``B rather than A``, ``B in place of A``,
  ``B in exchange for A`` (A the value given up, B the one received);
- a clause naming one of the two values and no change form binds it to the nearest *cue*
  of the clause (by characters; equally near cues of both roles bind nothing): cues of the
  value given up (``back``, ``return``, ``too big``, ``doesn't fit``...) and of the value
  received (``ships``, ``new``, ``replacement``, ``out of stock``...).

A place is *reversed* when a change form runs from the new value to the old one, or a clause
binds the new value to a cue of the value given up, or the old value to a cue of the value
received. A value with no cue and no change form is read as nothing (lenient: the value
checks decide whether it must be stated).
"""

from __future__ import annotations

import re

__all__ = ["SQL_REVERSED", "reversed_change", "sql_reversed"]

_CLAUSE = re.compile(r"\n+|(?<=[.!?])\s+|;|\bbut\b", re.IGNORECASE)
_FILLER = r"(?:\s+(?:a|an|the|your|size|new|one|pair))*"
_ARROW = r"\s*(?:->|-->|=>|→|⟶|>)\s*"

OLD_CUES = (
    "back",
    "return",
    "returned",
    "returning",
    "returns",
    "too big",
    "too small",
    "too tight",
    "too loose",
    "too long",
    "too short",
    "doesn't fit",
    "does not fit",
    "didn't fit",
    "original",
    "old",
    "current",
    "you have",
)
"""Words binding a value to the role of the one given up (a done-word or a fit complaint)."""

NEW_CUES = (
    "ships",
    "ship",
    "shipped",
    "shipping",
    "sending you",
    "sent you",
    "send you",
    "on its way",
    "on the way",
    "new",
    "replacement",
    "out of stock",
    "in stock",
    "unavailable",
    "sold out",
    "wanted",
    "asked for",
    "requested",
)
"""Words binding a value to the role of the one received (or wanted, where it is out of
stock)."""


def _value(value: str) -> str:
    """The regex of ``value`` as a whole token (module docstring)."""
    words = [re.escape(w) for w in value.split()]
    body = r"\s*".join(words).replace("/", r"\s*/\s*")
    short = len(value) <= 3 and not any(c.isdigit() for c in value)
    core = f"(?-i:{body})" if short else f"(?i:{body})"
    return rf"(?<![\w'’./]){core}(?![\w/]|['’]\w)"


def _forms(a: str, b: str) -> re.Pattern[str]:
    """The change forms from value regex ``a`` (given up) to ``b`` (received)."""
    forward = [
        rf"{a}{_ARROW}{b}",
        rf"{a}\s+(?:to|into){_FILLER}\s+{b}",
        rf"{a}\s+for{_FILLER}\s+{b}",
        rf"replac\w*{_FILLER}\s+{a}\s+(?:with|by){_FILLER}\s+{b}",
        rf"{b}(?:\s+(?:instead\s+of|rather\s+than|in\s+place\s+of|in\s+exchange\s+for)"
        rf"|,?\s+not){_FILLER}\s+{a}",
    ]
    return re.compile("|".join(f"(?:{f})" for f in forward), re.IGNORECASE)


def _cues(words: tuple[str, ...]) -> re.Pattern[str]:
    alts = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(rf"\b(?:{alts})\b", re.IGNORECASE)


_OLD = _cues(OLD_CUES)
_NEW = _cues(NEW_CUES)


def _nearest(clause: str, start: int, end: int) -> str | None:
    """``"old"`` or ``"new"``: the role of the cue nearest the span (``None``: no cue, or
    equally near cues of both roles)."""
    best: dict[str, int] = {}
    for role, pattern in (("old", _OLD), ("new", _NEW)):
        for m in pattern.finditer(clause):
            gap = max(0, m.start() - end, start - m.end())
            best[role] = min(best.get(role, gap), gap)
    if not best:
        return None
    low = min(best.values())
    roles = [r for r, g in best.items() if g == low]
    return roles[0] if len(roles) == 1 else None


def reversed_change(text: str, old: str, new: str) -> list[str]:
    """The clauses of ``text`` that state the change from ``old`` to ``new`` the wrong way
    round (module docstring), stripped, in text order; empty when none does, or when
    ``old`` and ``new`` are empty or the same."""
    if not old.strip() or not new.strip() or old.strip().lower() == new.strip().lower():
        return []
    o, n = _value(old.strip()), _value(new.strip())
    forward, backward = _forms(o, n), _forms(n, o)
    po, pn = re.compile(o), re.compile(n)
    out: list[str] = []
    for clause in _CLAUSE.split(text):
        if not clause or not clause.strip():
            continue
        if backward.search(clause):
            out.append(clause.strip())
            continue
        if forward.search(clause):
            continue
        olds, news = list(po.finditer(clause)), list(pn.finditer(clause))
        if olds and news:
            continue  # both values, no change form: which is which is not read
        for m, role in [*((m, "old") for m in olds), *((m, "new") for m in news)]:
            bound = _nearest(clause, m.start(), m.end())
            if bound is not None and bound != role:
                out.append(clause.strip())
                break
    return list(dict.fromkeys(out))


SQL_REVERSED = "mcpgym_reversed"
"""The SQL function ``mcpgym_reversed(text, old, new)``: the clauses of ``text`` that state
the change from ``old`` to ``new`` the wrong way round (`reversed_change`), joined by
newlines, or NULL where none does (or any argument is NULL)."""


def sql_reversed(text: object, old: object, new: object) -> str | None:
    """`SQL_REVERSED` (see there)."""
    if not isinstance(text, str) or old is None or new is None:
        return None
    found = reversed_change(text, str(old), str(new))
    return "\n".join(found) if found else None
