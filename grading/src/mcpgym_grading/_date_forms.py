"""Dates written in forms the word-date reader of `mcpgym_grading._value_roles` does not
read, rewritten as ISO dates before it reads the text; ranges and alternatives of a date
written in one token split into two dates; and what still looks like a date but is read as
none (round 12's D12, D12s).

`more_dates(text, anchor)` rewrites (any case; ``anchor`` is the last role date, an ISO
date, whose year a form without one takes):

- ordinal words beside a month: ``June thirtieth``, ``the thirtieth of June`` (``June
  30th``, which the word-date reader reads);
- dashes between the parts: ``30-Jun-2026``, ``Jun-30``, ``Jun-30-2026``;
- a roman month: ``30.VI.2026``, ``30/VI/2026``;
- an ISO week date: ``2026-W27-2``;
- the day of the year: ``day 181 of 2026``;
- a month/day without a year: ``6/30`` (month first; day first where only that is a date);
- a weekday and a day without a month: ``Tuesday the 30th`` (the anchor's month, the next
  or the one before, whichever has that day on that weekday);
- (round 14's D14) an ordinal date, the year and the day of the year: ``2026-167``;
- a date in CJK characters: ``2026年6月16日``, ``6月16日`` (the anchor's year), ``2026년 6월 16일``;
- a range or alternative in one token: ``2026-06-15/16``, ``June 15-17``, ``15-17 June``
  as two dates joined by ``/`` or ``-`` (`_value_roles` then reads the second as an
  alternative of the first's role).

`short_years(prepared, own)` reads a date with a two-digit year (``26-06-16``, ``6/16/26``,
``16.06.26``) as the ISO date it names, in the order its separator suggests, or in the one
that names a date of the record where another order does.

`unread_dates(prepared)` lists what still looks like a day of a month after all the
readers (``June 31``, ``Jun-45``, ``2026-W60``, ``31.XIII.2026``, ``2026-400``, ``6月31日``):
the text names a date the roles cannot compare, which a date role refuses as the period
reader refuses an ``unread period``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
}
for _unit in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"):
    _ORDINALS[f"twenty-{_unit}"] = 20 + _ORDINALS[_unit]
    _ORDINALS[f"twenty {_unit}"] = 20 + _ORDINALS[_unit]
_ORDINALS["thirty-first"] = _ORDINALS["thirty first"] = 31

_MONTH_NAMES = (
    ("january", "jan"),
    ("february", "feb"),
    ("march", "mar"),
    ("april", "apr"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug"),
    ("september", "sept", "sep"),
    ("october", "oct"),
    ("november", "nov"),
    ("december", "dec"),
)
_MONTHS = {name: i for i, names in enumerate(_MONTH_NAMES, 1) for name in names}
_MONTH = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ORDINAL = "|".join(sorted(_ORDINALS, key=len, reverse=True)).replace(" ", r"[ \t]+")
_S = r"[ \t]+"

_ORDINAL_AFTER = re.compile(rf"\b({_MONTH}){_S}(?:the{_S})?({_ORDINAL})\b", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(rf"\b({_ORDINAL}){_S}(?:of{_S})?({_MONTH})(?![\w])", re.IGNORECASE)
_DASHED_DMY = re.compile(rf"(?<![\w-])(\d{{1,2}})-({_MONTH})-(20\d\d)(?![\w-])", re.IGNORECASE)
_DASHED_MD = re.compile(
    rf"(?<![\w-])({_MONTH})-(\d{{1,2}})(?:-(20\d\d))?(?![\w]|-\d)", re.IGNORECASE
)
_ROMAN_MONTH = re.compile(
    r"(?<![\w.])(\d{1,2})([./ -])(" + "|".join(sorted(_ROMANS, key=len, reverse=True)) + r")\2"
    r"(20\d\d)(?![\w.]\w|\w)",
    re.IGNORECASE,
)
_ISO_WEEK = re.compile(r"(?<![\w-])(20\d\d)-?w(\d\d)-?([1-7])(?![\w-])", re.IGNORECASE)
_DAY_OF_YEAR = re.compile(
    r"\bday[ \t]+(\d{1,3})[ \t]+of[ \t]+(?:the[ \t]+year[ \t]+)?(20\d\d)\b", re.IGNORECASE
)
_DASH = "\\-\u2010\u2011\u2012\u2013\u2212"
_ORDINAL_DATE = re.compile(rf"(?<![\w{_DASH}.])(20\d\d)[{_DASH}](\d{{3}})(?!\w|[{_DASH}/.:]\d)")
"""An ordinal date (ISO 8601): the year and the day of the year, ``2026-167``."""
_DOCUMENT_BEFORE = re.compile(
    r"(?:\b(?:inv|invoice|bill|cn|credit[ \t-]?note|doc(?:ument)?|ref(?:erence)?|no|nr|"
    r"number)\.?[ \t]*[#:/_]?|#)[ \t]*$",
    re.IGNORECASE,
)
"""A document's word or mark straight before a year and three digits (``INV 2026-152``,
``invoice #2026-152``): the number of a document, not an ordinal date."""
_CJK_DATE = re.compile(
    r"(?:(\d{4}|\d{2})[ \t]*[年년][ \t]*)?(\d{1,2})[ \t]*[月월][ \t]*(\d{1,2})[ \t]*[日일]"
)
"""A date in CJK characters: ``2026年6月16日``, ``6月16日``, ``2026년 6월 16일``."""
_MONTH_DAY = re.compile(r"(?<![\w/.,$#:-])(\d{1,2})/(\d{1,2})(?![\w/%]|[.,:-]\d)")
_WEEKDAY_DAY = re.compile(
    r"\b("
    + "|".join(_WEEKDAYS)
    + rf"),?{_S}(?:the{_S})?(\d{{1,2}})(?:st|nd|rd|th)\b(?!{_S}(?:of{_S})?{_MONTH})",
    re.IGNORECASE,
)
_ISO_SPLIT = re.compile(
    r"(?<![\w-])(20\d\d-\d\d-)(\d\d)[ \t]*([/–—-])[ \t]*(\d{1,2})(?![\w/-]|[.:]\d)"
)
_MONTH_RANGE = re.compile(
    rf"\b({_MONTH}){_S}(\d{{1,2}})(?:st|nd|rd|th)?[ \t]*[-–—][ \t]*(\d{{1,2}})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)
_RANGE_MONTH = re.compile(
    rf"(?<![\w-])(\d{{1,2}})(?:st|nd|rd|th)?[ \t]*[-–—][ \t]*"
    rf"(\d{{1,2}})(?:st|nd|rd|th)?{_S}({_MONTH})(?![\w])",
    re.IGNORECASE,
)


def _dot(m: re.Match[str]) -> str:
    """A month's dot that ends the match: kept after the rewrite (it may end a sentence)."""
    return "." if m.group(0).endswith(".") else ""


def _month(word: str) -> int:
    return _MONTHS[word.lower().rstrip(".")]


def _iso(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def more_dates(text: str, anchor: str) -> str:
    """``text`` with the forms of the module docstring rewritten as ISO dates (a form that
    names no real date is left as written). ``anchor``: an ISO date (the last role date)."""
    year, anchor_date = int(anchor[:4]), date.fromisoformat(anchor)

    def ordinal_after(m: re.Match[str]) -> str:
        day = _ORDINALS[re.sub(r"[ \t]+", " ", m.group(2).lower())]
        return f"{m.group(1)} {day}th"

    def ordinal_before(m: re.Match[str]) -> str:
        day = _ORDINALS[re.sub(r"[ \t]+", " ", m.group(1).lower())]
        return f"{m.group(2).rstrip('.')} {day}th" + _dot(m)

    def dashed_dmy(m: re.Match[str]) -> str:
        return _iso(int(m.group(3)), _month(m.group(2)), int(m.group(1))) or m.group(0)

    def dashed_md(m: re.Match[str]) -> str:
        y = int(m.group(3)) if m.group(3) else year
        return _iso(y, _month(m.group(1)), int(m.group(2))) or m.group(0)

    def roman(m: re.Match[str]) -> str:
        month = _ROMANS.index(m.group(3).lower()) + 1
        return _iso(int(m.group(4)), month, int(m.group(1))) or m.group(0)

    def iso_week(m: re.Match[str]) -> str:
        try:
            return date.fromisocalendar(
                int(m.group(1)), int(m.group(2)), int(m.group(3))
            ).isoformat()
        except ValueError:
            return m.group(0)

    def day_of_year(m: re.Match[str]) -> str:
        n, y = int(m.group(1)), int(m.group(2))
        if not 1 <= n <= (366 if _iso(y, 2, 29) else 365):
            return m.group(0)
        return (date(y, 1, 1) + timedelta(days=n - 1)).isoformat()

    def month_day(m: re.Match[str]) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        return _iso(year, a, b) or _iso(year, b, a) or m.group(0)

    def weekday_day(m: re.Match[str]) -> str:
        want, day = _WEEKDAYS.index(m.group(1).lower()), int(m.group(2))
        for shift in (0, 1, -1):
            k = anchor_date.month - 1 + shift
            iso = _iso(anchor_date.year + k // 12, k % 12 + 1, day)
            if iso is not None and date.fromisoformat(iso).weekday() == want:
                return iso
        return m.group(0)

    def iso_split(m: re.Match[str]) -> str:
        second = f"{m.group(1)}{int(m.group(4)):02d}"
        if _iso(int(second[:4]), int(second[5:7]), int(second[8:])) is None:
            return m.group(0)
        return f"{m.group(1)}{m.group(2)} {m.group(3)} {second}"

    def ordinal_date(m: re.Match[str]) -> str:
        n, y = int(m.group(2)), int(m.group(1))
        if _DOCUMENT_BEFORE.search(m.string, 0, m.start()):
            return m.group(0)  # ``INV 2026-152``: a document's number, no date (stop 25)
        if not 1 <= n <= (366 if _iso(y, 2, 29) else 365):
            return m.group(0)
        return (date(y, 1, 1) + timedelta(days=n - 1)).isoformat()

    def cjk_date(m: re.Match[str]) -> str:
        y = int(m.group(1)) if m.group(1) else year
        iso = _iso(y + 2000 if y < 100 else y, int(m.group(2)), int(m.group(3)))
        return f" {iso} " if iso else m.group(0)  # set apart: a CJK letter is a word letter

    def month_range(m: re.Match[str]) -> str:
        return f"{m.group(1)} {m.group(2)} - {m.group(1)} {m.group(3)}"

    def range_month(m: re.Match[str]) -> str:
        month = m.group(3).rstrip(".")
        return f"{m.group(1)} {month} - {m.group(2)} {month}" + _dot(m)

    text = _ORDINAL_AFTER.sub(ordinal_after, text)
    text = _ORDINAL_BEFORE.sub(ordinal_before, text)
    text = _MONTH_RANGE.sub(month_range, _RANGE_MONTH.sub(range_month, text))
    text = _DASHED_DMY.sub(dashed_dmy, text)
    text = _DASHED_MD.sub(dashed_md, text)
    text = _ROMAN_MONTH.sub(roman, text)
    text = _ISO_WEEK.sub(iso_week, text)
    text = _DAY_OF_YEAR.sub(day_of_year, text)
    text = _CJK_DATE.sub(cjk_date, _ORDINAL_DATE.sub(ordinal_date, text))
    text = _WEEKDAY_DAY.sub(weekday_day, text)
    text = _MONTH_DAY.sub(month_day, text)
    return _ISO_SPLIT.sub(iso_split, text)


_UNREAD = re.compile(
    rf"(?<![\w])(?:{_MONTH})[ \t.-]*(?:the[ \t]+)?\d{{1,2}}(?:st|nd|rd|th)?(?![\w]|[.,]\d)"
    rf"|(?<![\w.])\d{{1,2}}(?:st|nd|rd|th)?[ \t.-]*(?:of[ \t]+)?(?:{_MONTH})(?![\w])"
    r"|(?<![\w-])20\d\d-?w\d\d(?:-?\d)?(?![\w])"
    r"|(?<![\w.])\d{1,2}[./][xvi]+[./]20\d\d(?![\w])"
    r"|(?<![\w.-])20\d\d-\d{3}(?!\w|[-/.:]\d)"
    r"|\d{1,2}[ \t]*[月월][ \t]*\d{1,2}[ \t]*[日일]",
    re.IGNORECASE,
)


def unread_dates(text: str) -> list[str]:
    """What in ``text`` (rewritten by `more_dates` and the word-date reader) still looks
    like a day of a month or a week (``June 31``, ``2026-W60``): a date no reader reads.
    ``may`` as a word before a number is left out (``may 2`` reads as a verb first), as is a
    year and more digits after a document's word (``INV 2026-152``)."""
    return [
        m.group(0)
        for m in _UNREAD.finditer(text)
        if not m.group(0).lower().startswith("may")
        and not m.group(0).lower().endswith("may")
        # ``INV 2026-152``: a document's number, no ordinal date (stop 25)
        and not (m.group(0)[:2] == "20" and _DOCUMENT_BEFORE.search(text, 0, m.start()))
    ]


_SHORT = re.compile(r"(?<![\w./-])(\d{1,2})([/.-])(\d{1,2})\2(\d{1,2})(?![\w/]|[.-]\d)")
_ORDERS = {"-": ("ymd", "dmy", "mdy"), "/": ("mdy", "dmy", "ymd"), ".": ("dmy", "ymd")}
"""The orders of a date with a two-digit year a separator suggests, most likely first: a
dash as ISO's year first, a slash as the books' US month first, a dot as day first."""


def short_years(text: str, own: frozenset[str] = frozenset()) -> str:
    """``text`` (prepared, lower-case) with each date of a two-digit year (``26-06-16``,
    ``6/16/26``, ``16.06.26``: three parts of one or two digits, the year's two) written as
    the ISO date it names in the 2000s: in the first order (`_ORDERS`) that names a date of
    ``own`` (the roles' ISO dates), else in the first that names a real date; a form that
    names none is left as written."""

    def one(m: re.Match[str]) -> str:
        parts = dict(zip("abc", (m.group(1), m.group(3), m.group(4)), strict=True))
        found: list[str] = []
        for order in _ORDERS[m.group(2)]:
            y, mo, d = (parts["abc"[order.index(k)]] for k in "ymd")
            iso = _iso(2000 + int(y), int(mo), int(d)) if len(y) == 2 else None
            if iso is not None:
                found.append(iso)
        return next((f for f in found if f in own), found[0] if found else m.group(0))

    return _SHORT.sub(one, text)
