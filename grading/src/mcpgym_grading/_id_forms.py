"""Ids of a value role's kind written in other forms than the record's, rewritten in the
record's form before `mcpgym_grading._value_roles` reads the text (round 14's I14).

The value reader reads an id such as ``INV-2026-0151`` in its exact shape only (letters, then
runs of digits of fixed lengths, each separator itself): ``INV 2026 0152`` or ``INV-26-152``
named another invoice and was read as no value at all, so a note naming the wrong invoice
passed. `loose_ids(text, values)` finds, for each value of ``values`` whose shape is a
prefix of letters and runs of digits (``inv-2026-0151``, ``nort-1926``; not a date, an
account code, an order number: those have no prefix), every id of that shape written with:

- any case (``inv``), and for a known prefix its word (`PREFIX_WORDS`: ``Invoice 2026-0152``);
- other separators between the parts: spaces, ``/``, ``_``, ``.``, ``#``, ``:``, a dash of
  another kind, or none (``INV20260152``); a part after the prefix's word is joined by
  something other than spaces only (``Invoice 2026 15 days`` is no id);
- a part of four digits that is a year (``20..``, not the last part) written with two
  (``INV-26-0152``), and the last part without its zero padding (``INV-2026-152``);
- digits of any script (``INV-٢٠٢٦-٠١٥٢``).

Each is written as the record's shape (``inv-2026-0152``, lower case): the reader then reads
it as a value of the kind, the episode's own or another one, and refuses another where a
role does. A bare year and number (``2026-0152``, a dash or slash, zero-padded) is read as an
id of the first such kind whose values have that digit shape; where the record has several
prefixes of that shape (an invoice and a credit note) it is read as the one of them on file,
if any. A document's word and a number alone (``invoice 152``, ``bill #8595``: `_numbered`)
is read as the one shape it fits, in the year its values share (stop 25). Anything else (a
longer run of digits, a third part, a date: ``INV 2026-05-31``) is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

PREFIX_WORDS: dict[str, tuple[str, ...]] = {
    "inv": ("invoice",),
    "cn": ("credit note", "credit-note", "creditnote"),
}
"""The words an id's prefix may be written as (``Invoice 2026-0152`` for ``INV-2026-0152``)."""

Shape = tuple[str, str, int, str, int]
"""An id's shape: ``(prefix, sep1, digits1, sep2, digits2)`` (lower case; ``digits2`` 0 and
``sep2`` empty for an id of one run of digits)."""

_SHAPE = re.compile(r"^([a-z]{2,})([^a-z0-9]?)([0-9]+)(?:([^a-z0-9])([0-9]+))?$")
_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_MARK = rf"[{_DASHES}/_.#:]"
_SEP = rf"(?:[ \t]{{0,2}}{_MARK}?[ \t]{{0,2}})"
"""What may join the parts of an id: up to two spaces, one mark, up to two spaces, or none."""
_MARKED = rf"(?:[ \t]{{0,2}}{_MARK}[ \t]{{0,2}})"
"""One mark between two parts, spaces around it or not."""
_APART = rf"(?:{_MARKED}|[ \t]{{1,2}})"
"""A mark or spaces: what a year written in two digits is set apart from the number by."""
_JOIN = rf"(?:{_MARKED}|)"
"""What joins two runs of digits after a prefix's word: a mark, or nothing (spaces alone do
not: ``Invoice 2026 15 days`` is no id)."""
_END = rf"(?!\d)(?!{_MARK}\d)"
"""No further digits straight after the id (``INV 2026-05-31`` has a third part: no id)."""


def _shape(value: str) -> Shape | None:
    """The `Shape` of an id ``value`` (lower case), or None where it is no prefixed id."""
    m = _SHAPE.match(value)
    if m is None:
        return None
    return m.group(1), m.group(2), len(m.group(3)), m.group(4) or "", len(m.group(5) or "")


@lru_cache(maxsize=256)
def _loose(shape: Shape, year: bool) -> re.Pattern[str]:
    """The pattern of ids of ``shape`` in any form of the module docstring (groups: the runs
    of digits); ``year``: the first run is a year (two digits may stand for four)."""
    prefix, _, n1, _, n2 = shape
    second = rf"(\d{{1,{n2}}})"
    if not n2:
        own = spelled = rf"{_SEP}(\d{{1,{n1}}})"
    elif year:  # two digits for the year only with something between it and the number
        own = rf"{_SEP}(?:(\d{{4}}){_SEP}|(\d{{2}}){_APART}){second}"
        spelled = rf"{_SEP}(?:(\d{{4}}){_JOIN}|(\d{{2}}){_MARKED}){second}"
    else:
        own = rf"{_SEP}(\d{{1,{n1}}}){_SEP}{second}"
        spelled = rf"{_SEP}(\d{{1,{n1}}}){_MARKED}{second}"
    body = re.escape(prefix) + own
    words = PREFIX_WORDS.get(prefix, ())
    if words:
        body += "|(?:" + "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in words)
        body += ")" + spelled
    return re.compile(rf"(?<![^\W_])(?:{body}){_END}", re.IGNORECASE)


@lru_cache(maxsize=64)
def _bare(n1: int, n2: int) -> re.Pattern[str]:
    """A year and a zero-padded number with no prefix (``2026-0152``): groups the two runs."""
    return re.compile(rf"(?<![\w{_DASHES}/.])(20\d{{{n1 - 2}}})[-/](0\d{{{n2 - 1}}}){_END}")


def _write(shape: Shape, year: bool, first: str, second: str | None) -> str:
    prefix, sep1, n1, sep2, n2 = shape
    if year and len(first) == 2:
        first = "20" + first
    out = f"{prefix}{sep1}{int(first):0{n1}d}"
    return out + f"{sep2}{int(second or 0):0{n2}d}" if n2 else out


def _found(shape: Shape, year: bool, m: re.Match[str]) -> str:
    runs = [g for g in m.groups() if g is not None]  # the prefix's or its word's groups
    return _write(shape, year, runs[0], runs[1] if len(runs) > 1 else None)


def loose_ids(text: str, values: Iterable[str]) -> str:
    """``text`` with each id of the shape of one of ``values`` written in another form (see
    the module docstring) written in that value's form, lower case; ``values``: the roles'
    values (any case; those that are no prefixed id are skipped). Returns ``text`` as it was
    where no value is a prefixed id."""
    own = {v.lower() for v in values}
    shapes: dict[Shape, bool] = {}
    for v in sorted(own):
        shape = _shape(v)
        if shape is not None:  # a first run of four digits, 20.., before another: a year
            first = v[len(shape[0]) + len(shape[1]) :][: shape[2]]
            year = bool(shape[4]) and shape[2] == 4 and first.startswith("20")
            shapes[shape] = shapes.get(shape, False) or year
    for shape, year in shapes.items():
        text = _loose(shape, year).sub(lambda m, s=shape, y=year: _found(s, y, m), text)
    text = _numbered(text, shapes, own)
    bare: dict[tuple[int, int], list[Shape]] = {}
    for shape, year in shapes.items():
        if year:
            bare.setdefault((shape[2], shape[4]), []).append(shape)
    for (n1, n2), kinds in bare.items():

        def one(m: re.Match[str], kinds: list[Shape] = kinds) -> str:
            written = [_write(s, True, m.group(1), m.group(2)) for s in kinds]
            return next((w for w in written if w in own), written[0])

        text = _bare(n1, n2).sub(one, text)
    return text


_NUMBERED = re.compile(
    r"(?<![^\W_])(invoice|inv|bill|document|doc|credit[ \t]+note|credit-note)"
    r"(?:[ \t]+(?:no\.?|number|nr\.?|num\.?)|[ \t]*#)?[ \t]*#?[ \t]*(\d{1,6})"
    r"(?!\d|[.,/:-]\d|[ \t]*(?:%|\+|[-/][ \t]*\d)|[ \t]+(?:days?|weeks?|months?|years?|"
    r"business|percent|lines?|items?|units?|times|of|x)\b)",
    re.IGNORECASE,
)
"""A document's word and a number with no year nor prefix (``invoice 152``, ``Invoice
#152``, ``bill no. 8595``; not ``an invoice 90 days past due``, ``invoice 1 of 2``)."""


def _numbered(text: str, shapes: dict[Shape, bool], own: set[str]) -> str:
    """``text`` with each document's number written without its year or prefix
    (`_NUMBERED`) written as the id of the one shape of ``shapes`` it fits (stop 25): a
    year's shape takes the year its values share (``invoice 152`` as ``inv-2026-0152``,
    the number padded), a shape of one run takes a number of as many digits (``bill 8595``
    as ``summ-8595``). The word picks among shapes of its prefix (`PREFIX_WORDS`: an invoice,
    a credit note) where any fits; a number no shape fits, or more than one, or a year
    (``20..``), is left."""
    years: dict[Shape, set[str]] = {}
    for v in own:
        shape = _shape(v)
        if shape is not None and shapes.get(shape):
            years.setdefault(shape, set()).add(v[len(shape[0]) + len(shape[1]) :][:4])

    def one(m: re.Match[str]) -> str:
        word, digits = re.sub(r"[ \t-]+", " ", m.group(1).lower()), m.group(2)
        fits = [
            s
            for s, year in shapes.items()
            if (year and len(digits) <= s[4] and len(years.get(s, ())) == 1)
            or (not year and not s[4] and len(digits) == s[2])
        ]
        named = [s for s in fits if word == s[0] or word in PREFIX_WORDS.get(s[0], ())]
        fits = named or fits
        if len(fits) != 1 or (len(digits) == 4 and digits.startswith("20")):
            return m.group(0)  # none, several, or a year (``invoice 2026``)
        s = fits[0]
        if shapes[s]:
            return _write(s, True, next(iter(years[s])), digits)
        return _write(s, False, digits, None)

    return _NUMBERED.sub(one, text)
