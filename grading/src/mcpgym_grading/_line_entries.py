"""A bank line said to be matched to another journal entry than the books hold (round 17's
L17b, ledger reconcile-bank-lines).

`_line_claims` reads the state a text gives a line (matched, ignored, unmatched), not the
entry it names as the line's match: a fee memo ``; line 154 matched to entry 344`` (344 the
vendor payment's entry, the fee line matched to the fee's entry) passed every check.

`misnamed(text, line, entry)` gives the sentences of ``text`` that bind bank line ``line``
to a journal entry other than ``entry`` (the line's ``bank_lines.journal_entry_id``; None
where the line is matched to none: every entry bound to it is another). Read folded,
sentence by sentence (cut at ``.!?`` before a space but ``no.``, a newline, ``;``):

- a line is named ``line 154``, ``bank line #154``, ``lines 154 and 155``; an entry
  ``entry 344``, ``journal entry #344``, ``entry no. 344``, ``entries 344 and 345``,
  ``JE 344``, ``JE-344``;
- a line's name followed by an entry's name with no other line named between them binds
  the two (``line 154 matched to entry 344``, ``line 154 -> JE 344``, ``line 154 (entry
  344)``, ``line 154 posted as entry 344``), and so does an entry's name that opens the
  sentence's names followed by a line's (``Entry 344 matched to line 154``, ``Matched entry
  344 to line 154``); lists bind respectively when they are as long, else not at all;
- a negation (``not``, ``never``, ``n't``, ``rather than``, ``instead of``, ``other than``,
  ``unlike``, ``except``) or a hedge (``will``, ``should``, ``if``, ...: `_line_claims`'s)
  between the two names, or before the first of them in its sentence, binds nothing
  (``line 154 matched to entry 345, not to entry 344``).

`payment_misnamed(text, line, payment)` reads a line bound to a payment the same way (round
20's F2: ``; line 155 matched to payment 17`` where the line's ``bank_lines.payment_id`` is
12): a payment is named ``payment 17``, ``customer payment #17``, ``payment no. 17``,
``payments 17 and 18``; an entry named between a line and a payment binds neither to the
other (``line 154 matched to entry 345 (payment 12 is line 155's)``). `misnamed` does not
read payments.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mcpgym_grading._line_claims import _HEDGED, _LINES
from mcpgym_grading._text import fold

__all__ = [
    "SQL_LINE_ENTRY_MISNAMED",
    "SQL_LINE_PAYMENT_MISNAMED",
    "misnamed",
    "payment_misnamed",
    "sql_line_entry_misnamed",
    "sql_line_payment_misnamed",
]

_ENTRIES = re.compile(
    r"\b(?:journal )?entr(?:y|ies)\s*(?:no\.?\s*|number\s*|id\s*)?#?\s*(\d+)"
    r"((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
    r"|\bjes?\s*[-#]?\s*(\d+)((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
)
_PAYMENTS = re.compile(
    r"\b(?:(?:customer|vendor|supplier) )?payments?\s*(?:no\.?\s*|number\s*|id\s*)?#?\s*(\d+)"
    r"((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
)
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\bno\.)\s+|\n+|;")
"""`_line_claims`'s sentences, but ``no.`` (``entry no. 344``) ends none."""
_DENIED = re.compile(
    r"\b(?:not|never|no|nor|none|without|rather than|instead of|other than|unlike|except|"
    r"apart from)\b|\wn['\u2019]t\b"
)


def _mentions(
    sentence: str, other: re.Pattern[str], apart: re.Pattern[str] | None = None
) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """``(start, end, kind, ids)`` of each line (``"line"``), entry or payment (``"other"``:
    what ``other`` names, `_ENTRIES` or `_PAYMENTS`) and name of ``apart`` (``"apart"``:
    binds nothing, but stands between the others) in a folded sentence, in text order."""
    out = []
    for m in apart.finditer(sentence) if apart else ():
        out.append((m.start(), m.end(), "apart", ()))
    for m in _LINES.finditer(sentence):
        out.append((m.start(), m.end(), "line", (m.group(1), *re.findall(r"\d+", m.group(2)))))
    for m in other.finditer(sentence):
        first, rest = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        ids = (first, *re.findall(r"\d+", rest or ""))
        if not any(s <= m.start() < e for s, e, k, _ in out if k != "apart"):
            out.append((m.start(), m.end(), "other", ids))
    return sorted(out)


def _pairs(sentence: str, other: re.Pattern[str], apart: re.Pattern[str] | None = None):
    """``(line id, entry or payment id)`` for each binding of a folded sentence (module
    docstring; ``other`` and ``apart`` as in `_mentions`)."""
    names = _mentions(sentence, other, apart)
    for i in range(len(names) - 1):
        a, b = names[i], names[i + 1]
        if {a[2], b[2]} != {"line", "other"}:
            continue
        if a[2] == "other" and any(n[2] == "line" for n in names[:i]):
            continue  # an entry after a line binds to that line, not the next one
        head = sentence[names[i - 1][1] if i else 0 : a[0]]
        between = sentence[a[1] : b[0]]
        if _DENIED.search(head + " " + between) or _HEDGED.search(head + " " + between):
            continue
        lines, entries = (a[3], b[3]) if a[2] == "line" else (b[3], a[3])
        if len(lines) != len(entries):
            continue
        yield from zip(lines, entries, strict=True)


def _bound_elsewhere(
    text: str,
    line: int | str,
    own: int | str | None,
    other: re.Pattern[str],
    apart: re.Pattern[str] | None = None,
) -> list[str]:
    """The folded sentences of ``text`` binding ``line`` to another ``other`` than ``own``
    (``apart`` as in `_mentions`)."""
    ident, mine = str(line), None if own is None else str(own)
    out = []
    for sentence in _SENTENCE.split(fold(text)):
        if any(ln == ident and x != mine for ln, x in _pairs(sentence, other, apart)):
            out.append(sentence.strip())
    return list(dict.fromkeys(out))


def misnamed(text: str, line: int | str, entry: int | str | None) -> list[str]:
    """The sentences of ``text`` binding bank line ``line`` to a journal entry other than
    ``entry`` (None: the line is matched to none), folded, in text order (module
    docstring)."""
    return _bound_elsewhere(text, line, entry, _ENTRIES)


def payment_misnamed(text: str, line: int | str, payment: int | str | None) -> list[str]:
    """The sentences of ``text`` binding bank line ``line`` to a payment other than
    ``payment`` (the line's ``bank_lines.payment_id``; None: matched to none), folded, in
    text order (module docstring)."""
    return _bound_elsewhere(text, line, payment, _PAYMENTS, _ENTRIES)


SQL_LINE_ENTRY_MISNAMED = "mcpgym_line_entry_misnamed"
"""The SQL function ``mcpgym_line_entry_misnamed(text, line, entry)``: the sentences of
``text`` binding bank line ``line`` to another journal entry than ``entry`` (NULL: none),
joined by newlines (`misnamed`), or NULL where none does (or ``text``/``line`` is NULL)."""


def _sql_joined(
    read: Callable[[str, int | str, int | str | None], list[str]],
    text: object,
    line: object,
    other: object,
) -> str | None:
    """``read(text, line, other)``'s sentences joined by newlines, or NULL where it finds none
    or an argument is not what SQL should pass (``text`` not a string, ``line`` NULL)."""
    if not isinstance(text, str) or not isinstance(line, int | str):
        return None
    if other is not None and not isinstance(other, int | str):
        return None
    found = read(text, line, other)
    return "\n".join(found) if found else None


def sql_line_entry_misnamed(text: object, line: object, entry: object) -> str | None:
    """`SQL_LINE_ENTRY_MISNAMED` (see there)."""
    return _sql_joined(misnamed, text, line, entry)


SQL_LINE_PAYMENT_MISNAMED = "mcpgym_line_payment_misnamed"
"""The SQL function ``mcpgym_line_payment_misnamed(text, line, payment)``: the sentences of
``text`` binding bank line ``line`` to another payment than ``payment`` (NULL: none), joined
by newlines (`payment_misnamed`), or NULL where none does (or ``text``/``line`` is NULL)."""


def sql_line_payment_misnamed(text: object, line: object, payment: object) -> str | None:
    """`SQL_LINE_PAYMENT_MISNAMED` (see there)."""
    return _sql_joined(payment_misnamed, text, line, payment)
