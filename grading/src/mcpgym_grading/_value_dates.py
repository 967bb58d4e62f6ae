"""Dates written in other forms, read as the ISO dates the value roles compare
(`mcpgym_grading._value_roles`): numeric forms (`iso_dates`: ``31/05/2026``, ``20260531``,
``2026.5.31``, a two-digit year, a time of day dropped) and dates in words
(`word_dates_iso`: ``September 30``, ``30th of Sept 2026``)."""

from __future__ import annotations

import re
from datetime import date

from mcpgym_grading._date_forms import _MONTHS, short_years

__all__ = ["iso_dates", "word_dates_iso"]

_EDGE = r"(?<![\w./-])"
_YMD = re.compile(_EDGE + r"(20\d{2})([/. -])(\d{1,2})\2(\d{1,2})(?![\w/]|[.-]\d)")
_DMY = re.compile(_EDGE + r"(\d{1,2})([/. -])(\d{1,2})\2(20\d{2})(?![\w/]|[.-]\d)")
_PACKED = re.compile(_EDGE + r"(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\w/]|[.-]\d)")
_CLOCK = re.compile(
    r"(?<=\d{4}-\d{2}-\d{2})t\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?\b"
)


def _iso(y: str, m: str, d: str) -> str | None:
    if 1 <= int(m) <= 12 and 1 <= int(d) <= 31:
        return f"{y}-{int(m):02d}-{int(d):02d}"
    return None


def iso_dates(text: str, own: frozenset[str] = frozenset()) -> str:
    """``text`` (prepared, lower-case) with the dates written in another numeric form read
    as ISO dates: ``2026/05/31``, ``2026.5.31``, ``2026-5-31``, ``2026 05 31``,
    ``20260531``, ``31/05/2026``, ``05/31/2026``, ``31.05.2026``, ``31 05 2026``, a two-digit
    year (`_date_forms.short_years`: ``26-05-31``, ``5/31/26``) and
    ``2026-05-31t00:00:00z`` (the time dropped). A
    day/month order that both readings allow (``04/05/2026``) is read as the one in ``own``
    (the roles' values) if either is, else month first (the books' US dollars); a dot or a
    dash between the parts is always day first. Anything else (an invalid month or day, a
    longer run of digits) is left as written."""

    def ymd(m: re.Match[str]) -> str:
        return _iso(m.group(1), m.group(3), m.group(4)) or m.group(0)

    def dmy(m: re.Match[str]) -> str:
        a, sep, b, y = m.group(1), m.group(2), m.group(3), m.group(4)
        day_first, month_first = _iso(y, b, a), _iso(y, a, b)
        if sep != "/" or month_first is None:
            return day_first or m.group(0)
        if day_first is None or day_first == month_first:
            return month_first
        return day_first if day_first in own and month_first not in own else month_first

    def packed(m: re.Match[str]) -> str:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"

    text = _CLOCK.sub("", text)
    return short_years(_PACKED.sub(packed, _DMY.sub(dmy, _YMD.sub(ymd, text))), own)


_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"([0-3]?[0-9])(?:st|nd|rd|th)?"
_YEAR_AFTER = r"(?:,?[^\S\n]+((?:19|20)[0-9]{2}))?"
_WORD_DATES = re.compile(
    rf"(?<![\w-])(?:{_MONTH}[^\S\n]+{_DAY}{_YEAR_AFTER}"
    rf"|{_DAY}[^\S\n]+(?:of[^\S\n]+)?{_MONTH}{_YEAR_AFTER})(?![\w-])",
    re.IGNORECASE,
)
"""A date in words (any case): ``September 30``, ``Sept. 30th, 2026``, ``30 Sept 2026``,
``30th of September``."""


def word_dates_iso(prepared: str, year: str) -> str:
    """``prepared`` (a text) with each date in words (`_WORD_DATES`) written as an ISO date, in
    ``year`` where it names none (a day that is no date of its month is left as written):
    the date roles read ``September 30`` as ``2026-09-30``."""

    def iso(m: re.Match[str]) -> str:
        month = _MONTHS[(m.group(1) or m.group(5)).lower()]
        day, y = int(m.group(2) or m.group(4)), m.group(3) or m.group(6) or year
        try:  # a month's dot at the end of the match is a sentence's end too (``1st of June.``)
            return date(int(y), month, day).isoformat() + ("." if m.group(0).endswith(".") else "")
        except ValueError:
            return m.group(0)

    return _WORD_DATES.sub(iso, prepared)
