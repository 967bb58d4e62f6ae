"""``mcpgym_unquoted``: a reply read without the customer's own words quoted back in it.

Mail clients and people quote the message they answer: ``> I was charged twice for order
#5012`` lines under a ``You wrote:`` line, or inline, ``You wrote: "please cancel order
#5012"``. Those words are the customer's, not the agent's: a reader of the agent's claims
and facts must not read them (an honest reply quoting "has my refund of $45.00 gone
through?" claims no refund of its own, round 11's R7), and a check that wants a fact stated
must not be credited by the customer's mention of it.

A quote is no hiding place: only quoted text that *is* the customer's (found in the text
the caller passes, the customer's messages, in the folded form every answer check reads,
spaces collapsed) is dropped. A ``>`` line or a quoted span holding anything else stays and
is read as the agent's words, ``> I've refunded order #5012`` included.

- ``>`` lines: a line that starts with ``>`` (any number, spaces between) is dropped when
  what follows the markers is empty or found whole in the customer's text;
- quoted spans: text between quote marks (``"…"``, ``'…'``, ``“…”``, ``‘…’``, ``«…»``) of at
  least `MIN_SPAN` letters or digits is dropped, marks included, when found whole in the
  customer's text (the longest such span from each opening mark). Shorter spans stay: a
  word in quotes is as likely the agent's as the customer's.
- a quote the agent answers with an affirmation (``You wrote: "Please cancel order #7" Done.``;
  a ``>`` block and then ``Done, that's handled``) is kept: the agent makes the customer's
  request its own claim (`_decision_forms.AFFIRMED_LEAD`; round 14's Q).
"""

from __future__ import annotations

import functools
import re

from mcpgym_grading._decision_forms import AFFIRMED_LEAD
from mcpgym_grading._text import normalise_text

SQL_UNQUOTED = "mcpgym_unquoted"
"""The SQL function ``mcpgym_unquoted(text, source)``: ``text`` without the passages it
quotes from ``source`` (`unquoted`). NULL where ``text`` is NULL; ``text`` unchanged where
``source`` is NULL or empty."""

MIN_SPAN = 12
"""Letters and digits a quoted span needs before it can be taken for the customer's words."""

_QUOTE_LINE = re.compile(r"^[ \t]*>[ \t>]*(.*)$")
_OPEN = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb"}
_ALNUM = re.compile(r"[^\W_]")


def _found(piece: str, source: str) -> bool:
    folded = normalise_text(piece)
    return folded != "" and folded in source


_OPENERS = re.compile("[" + re.escape("".join(_OPEN)) + "]")
"""A character that may open a quoted span (`_OPEN`): `_spans` reads only from these."""


def _spans(line: str, source: str) -> str:
    """``line`` without the quoted spans found in ``source`` (already folded)."""
    out: list[str] = []
    i = 0
    while i < len(line):
        opener = _OPENERS.search(line, i)  # what lies before the next opener is kept
        if opener is None:
            out.append(line[i:])
            break
        out.append(line[i : opener.start()])
        i = opener.start()
        close = _OPEN.get(line[i])
        if close is None or (line[i] in "'\u2019" and i > 0 and line[i - 1].isalnum()):
            out.append(line[i])
            i += 1
            continue
        best = -1
        for j in range(len(line) - 1, i, -1):
            if line[j] != close or (j + 1 < len(line) and line[j + 1].isalnum()):
                continue
            inner = line[i + 1 : j]
            if len(_ALNUM.findall(inner)) >= MIN_SPAN and _found(inner, source):
                # a quote the agent answers with an affirmation is its own (round 14's Q)
                best = -1 if AFFIRMED_LEAD.match(line, j + 1) else j
                break
        if best < 0:
            out.append(line[i])
            i += 1
        else:
            i = best + 1
    return "".join(out)


@functools.lru_cache(maxsize=256)
def unquoted(text: str, source: str) -> str:
    """``text`` without its ``>`` lines and quoted spans that are found in ``source`` (the
    customer's messages; see the module docstring). Lines are kept in order; a dropped
    ``>`` line leaves an empty line, so sentences around it stay apart."""
    folded = normalise_text(source)
    if not folded:
        return text
    lines: list[str] = []
    given = text.split("\n")
    for n, line in enumerate(given):
        quoted = _QUOTE_LINE.match(line)
        if quoted is not None and not _affirmed(given, n):
            rest = quoted.group(1).strip()
            if rest == "" or _found(rest, folded):
                lines.append("")
                continue
        lines.append(_spans(line, folded))
    return "\n".join(lines)


def _affirmed(lines: list[str], n: int) -> bool:
    """Whether the first line with text after the ``>`` block holding ``lines[n]`` leads
    with an affirmation (``> Please cancel order #7`` then ``Done.``): the agent makes the
    quoted words its own, and they are read as its (round 14's Q)."""
    for line in lines[n + 1 :]:
        if _QUOTE_LINE.match(line) is None and line.strip():
            return AFFIRMED_LEAD.match(line) is not None
    return False


def sql_unquoted(text: object, source: object) -> str | None:
    """`unquoted` for SQLite: None for non-text ``text``; non-text ``source`` is empty."""
    if not isinstance(text, str):
        return None
    return unquoted(text, source if isinstance(source, str) else "")
