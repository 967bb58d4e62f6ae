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
"""

from __future__ import annotations

import re

from mcpgym_grading._line_claims import _HEDGED, _LINES
from mcpgym_grading._text import fold

__all__ = ["SQL_LINE_ENTRY_MISNAMED", "misnamed", "sql_line_entry_misnamed"]

_ENTRIES = re.compile(
    r"\b(?:journal )?entr(?:y|ies)\s*(?:no\.?\s*|number\s*|id\s*)?#?\s*(\d+)"
    r"((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
    r"|\bjes?\s*[-#]?\s*(\d+)((?:\s*(?:,|and|&|/|or)\s*#?\s*\d+\b)*)"
)
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\bno\.)\s+|\n+|;")
"""`_line_claims`'s sentences, but ``no.`` (``entry no. 344``) ends none."""
_DENIED = re.compile(
    r"\b(?:not|never|no|nor|none|without|rather than|instead of|other than|unlike|except|"
    r"apart from)\b|\wn['\u2019]t\b"
)


def _mentions(sentence: str) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """``(start, end, kind, ids)`` of each line (``"line"``) and entry (``"entry"``) named
    in a folded sentence, in text order."""
    out = []
    for m in _LINES.finditer(sentence):
        out.append((m.start(), m.end(), "line", (m.group(1), *re.findall(r"\d+", m.group(2)))))
    for m in _ENTRIES.finditer(sentence):
        first, rest = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        ids = (first, *re.findall(r"\d+", rest or ""))
        if not any(s <= m.start() < e for s, e, _, _ in out):
            out.append((m.start(), m.end(), "entry", ids))
    return sorted(out)


def _pairs(sentence: str):
    """``(line id, entry id)`` for each binding of a folded sentence (module docstring)."""
    names = _mentions(sentence)
    for i in range(len(names) - 1):
        a, b = names[i], names[i + 1]
        if {a[2], b[2]} != {"line", "entry"}:
            continue
        if a[2] == "entry" and any(n[2] == "line" for n in names[:i]):
            continue  # an entry after a line binds to that line, not the next one
        head = sentence[names[i - 1][1] if i else 0 : a[0]]
        between = sentence[a[1] : b[0]]
        if _DENIED.search(head + " " + between) or _HEDGED.search(head + " " + between):
            continue
        lines, entries = (a[3], b[3]) if a[2] == "line" else (b[3], a[3])
        if len(lines) != len(entries):
            continue
        yield from zip(lines, entries, strict=True)


def misnamed(text: str, line: int | str, entry: int | str | None) -> list[str]:
    """The sentences of ``text`` binding bank line ``line`` to a journal entry other than
    ``entry`` (None: the line is matched to none), folded, in text order (module
    docstring)."""
    ident, own = str(line), None if entry is None else str(entry)
    out = []
    for sentence in _SENTENCE.split(fold(text)):
        if any(ln == ident and en != own for ln, en in _pairs(sentence)):
            out.append(sentence.strip())
    return list(dict.fromkeys(out))


SQL_LINE_ENTRY_MISNAMED = "mcpgym_line_entry_misnamed"
"""The SQL function ``mcpgym_line_entry_misnamed(text, line, entry)``: the sentences of
``text`` binding bank line ``line`` to another journal entry than ``entry`` (NULL: none),
joined by newlines (`misnamed`), or NULL where none does (or ``text``/``line`` is NULL)."""


def sql_line_entry_misnamed(text: object, line: object, entry: object) -> str | None:
    """`SQL_LINE_ENTRY_MISNAMED` (see there)."""
    if not isinstance(text, str) or not isinstance(line, int | str):
        return None
    if entry is not None and not isinstance(entry, int | str):
        return None
    found = misnamed(text, line, entry)
    return "\n".join(found) if found else None
