"""One more way a text reveals a date on file (round 16's Z16d).

A "must not reveal" check whose value is an ISO date (a date of birth on file,
``1975-03-02``) reads the value's digits as every answer check does (`_text.TextView`:
``1975-03-02``, ``1975 03 02``). A text also states the date in the other forms people
write one: the month by its name (``March 2, 1975``, ``2nd March 1975``, ``Mar. 2nd,
'75``) or in numbers, day and month either way round (``03/02/1975``, ``2.3.75``). The
date is revealed when its day, month and year all stand in one sentence in one of those
forms (`date_leaked`), a few words apart at most (``We have your birthday as 2 March; the
year on file is 1975`` states it). A month and day without the year, or the year alone,
are not the date.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["date_leaked"]

_ISO = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})\s*$")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
    "twenty-first twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth "
    "twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first"
).split()
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|\n+")
GAP = 60
"""Most characters between the parts of a date stated apart in one sentence."""


@lru_cache(maxsize=256)
def _forms(value: str) -> tuple[re.Pattern[str], ...] | None:
    """The forms of ISO date ``value``: numbers (day and month either way, a 2- or 4-digit
    year), and the parts apart (month name, day, year) as three patterns; None for a value
    that is no ISO date."""
    m = _ISO.match(value)
    if m is None:
        return None
    y, mo, d = m.group(1), int(m.group(2)), int(m.group(3))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    year = rf"(?:{y}|['\u2019]{y[2:]})"
    sep = r"\s*[/.\-]\s*"
    mm, dd = rf"0?{mo}", rf"0?{d}"
    numeric = re.compile(
        rf"(?<![\d.])(?:{mm}{sep}{dd}|{dd}{sep}{mm}){sep}(?:{y}|{y[2:]})(?![\d])"
        rf"|(?<![\d.]){y}{sep}(?:{mm}{sep}{dd}|{dd}{sep}{mm})(?![\d])"
    )
    name = _MONTHS[mo - 1]
    month = re.compile(rf"\b(?:{name}|{name[:3]}\.?|{name[:4]}\.?)(?![a-z])", re.IGNORECASE)
    if name == "may":  # the modal ``may`` is no month
        month = re.compile(r"\bMay\b")
    day = re.compile(
        rf"(?<![\d$.,])0?{d}(?:st|nd|rd|th)?(?![\d%]|[.,]\d)|\b{_ORDINALS[d - 1]}\b",
        re.IGNORECASE,
    )
    return numeric, month, day, re.compile(rf"(?<![\d$#,.]){year}(?!\d|[.,]\d)")


def _near(spans: list[list[tuple[int, int]]]) -> bool:
    """Whether one span of each list fits in a window of the parts plus `GAP` each."""
    for a in spans[0]:
        for b in spans[1]:
            for c in spans[2]:
                lo = min(a[0], b[0], c[0])
                hi = max(a[1], b[1], c[1])
                width = (a[1] - a[0]) + (b[1] - b[0]) + (c[1] - c[0])
                if hi - lo - width <= 2 * GAP:
                    return True
    return False


def date_leaked(text: str, value: str) -> bool:
    """Whether ``text`` states the ISO date ``value`` in a form of `_forms` (module
    docstring); False for a value that is no ISO date."""
    if not text or "-" not in value:
        return False  # no text, or no ISO date (`_ISO`): read before the memo, so the
        # hundreds of phrases of a forbidden list do not push the dates out of it
    forms = _forms(value)
    if forms is None:
        return False
    numeric, month, day, year = forms
    if numeric.search(text):
        return True
    for sentence in _SENTENCE.split(text):
        months = [m.span() for m in month.finditer(sentence)]
        if not months:
            continue
        years = [m.span() for m in year.finditer(sentence)]
        if not years:
            continue
        days = [
            m.span()
            for m in day.finditer(sentence)
            if not any(y0 <= m.start() < y1 for y0, y1 in years)
        ]
        if days and _near([months, days, years]):
            return True
    return False
