"""The period reader: every month or period of the books a text names, in its written forms.

A period is a calendar month, its item written ``YYYY-MM`` (``2026-04``); fiscal years are
calendar years (fiscal period ``P4`` is April). `period_mentions` reads, in the text as
`mcpgym_grading._mentions.reading_texts` reads it:

- month names and abbreviations (``April``, ``Apr``, ``Sept``; glued to digits too,
  ``jun26``), with the year written beside them (``April 2026``, ``17 April 2026``,
  ``Apr '26``; a month without a year is in the reader's ``year``). ``may`` is the month
  only next to a number or after a word such as ``in``, ``of``, ``to`` (it is a verb too);
- numeric months: ``2026-04``, ``2026/4``, ``2026.04``, ``202604``, ``04/2026``, ``4/2026``,
  ``04.2026``, ``04-2026``, ``04/26``, ``2026 M04``, ``M04``; and dates: ``2026-04-17``,
  ``20260417``, ``17/04/2026``, ``4/17/2026``, ``17.04.26``, ``4/17`` (a date names its
  month). A date both day-month and month-day orders read as a date (``05/04/2026``)
  is read in the order the text's other dates use, else both ways: it is within the
  allowed periods when either reading is;
- fiscal periods: ``P4``, ``P04``, ``period 4``, ``fiscal period 4``, ``FY26 P4``,
  ``P4 FY2026``; lists after ``period(s)`` / ``month(s)`` (``months 1, 2 and 6``);
- ranges of months: quarters (``Q2``, ``Q2 2026``, ``2026-Q2``, ``2Q26``, ``second
  quarter``), halves (``H1``, ``first half``), a whole year (``FY2026``, ``fiscal year``,
  ``every month``, ``all periods``, ``the whole year``), and ``X to Y`` / ``X-Y`` between
  two months (``January to April``, ``Jan-Dec``, ``P1-P4``): each names every month it
  covers;
- month names of the common European languages, CJK month signs (``3月``), months
  relative to another (``the month before April``), and hedged alternatives that look
  like a period but read as none (`UNREAD`): see `mcpgym_grading._period_context`.

Each mention says whether it is hedged (`Mention.hedged`). Not read: ``next month`` /
``last month`` outside a hedge (relative to today), vague periods (``mid-year``),
holidays, a bare year (``in 2026``), a month number with no marker (``4/5``: a ratio as
often as a date).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mcpgym_grading import _period_context as w
from mcpgym_grading._mentions import Mention, reading_texts

_Found = w.Found
_months = w.months

MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()

_ABBREVIATIONS = {m[:3]: i + 1 for i, m in enumerate(MONTH_NAMES)} | {"sept": 9}
_NAMES = {m: i + 1 for i, m in enumerate(MONTH_NAMES)} | _ABBREVIATIONS
MONTH_WORDS = tuple(sorted(_NAMES, key=len, reverse=True))
"""Every word naming a month (full names and abbreviations, ``sept`` too), longest first."""
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    )
} | {f"{n}{s}": n for n, s in ((1, "st"), (2, "nd"), (3, "rd"), (4, "th"))}

_MAY_BEFORE = frozenset(
    "in of for to into from until till through since by during on before after early mid late "
    "end start beginning month period".split()
)
"""Words after which ``may`` is the month (elsewhere it is read only beside a number)."""

_L = r"(?<![^\W\d_])"  # no letter before
_R = r"(?![^\W\d_])"  # no letter after
_B0 = r"(?<![\w.,/\-])"  # a number's start: nothing glued before
_B1 = r"(?![\w]|[./\-]\d)"  # a number's end: nothing glued after
_Y4 = r"(?:19|20)\d\d"
_MM = r"0?[1-9]|1[0-2]"
_DD = r"0?[1-9]|[12]\d|3[01]"
_YEAR_AFTER = re.compile(
    r"\.?\s*(?:(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*,?\s*)?(?:(?:of|de|del)\s+)?,?\s*"
    rf"(?:(?P<y4>{_Y4})(?!\d)|['\u2019](?P<y2>\d\d)(?!\d))"
)
_ALL_NAMES = _NAMES | w.FOREIGN_MONTHS | w.GUARDED_MONTHS | dict.fromkeys(w.MAY_LIKE, 5)
_NAME = re.compile(_L + "(" + "|".join(sorted(_ALL_NAMES, key=len, reverse=True)) + ")" + _R)


def _fy(tag: str) -> str:
    """A fiscal year (``FY26``, ``FY 2026``), its groups ``fy4<tag>`` / ``fy2<tag>``."""
    return rf"fy\s*-?\s*(?:(?P<fy4{tag}>{_Y4})|(?P<fy2{tag}>\d\d))(?!\d)"


def _yr(tag: str) -> str:
    """A year after a quarter or half (``2026``, ``26``, ``FY26``)."""
    return rf"(?:(?P<y4{tag}>{_Y4})|(?P<y2{tag}>\d\d)(?!\d)|{_fy(tag)})"


_NUM = rf"(?:{_MM})"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(rx))
    for kind, rx in (
        # dates first: their month parts are no month of their own
        ("ymd", rf"{_B0}(?P<y>{_Y4})(?P<s>[-/.])(?P<m>{_MM})(?P=s)(?P<d>{_DD}){_B1}"),
        ("ymd", rf"{_B0}(?P<y>20\d\d)(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01]){_B1}"),
        ("dmy", rf"{_B0}(?P<a>{_DD})(?P<s>[-/.])(?P<b>{_DD})(?P=s)(?P<y>{_Y4}|\d\d){_B1}"),
        ("md", rf"{_B0}(?P<m>{_MM})/(?P<d>1[3-9]|2\d|3[01]){_B1}"),
        ("ym", rf"{_B0}(?P<y>{_Y4})\s?(?:[-/.]|m)\s?(?P<m>{_MM}){_B1}"),
        ("ym", rf"{_B0}(?P<y>20\d\d)(?P<m>0[1-9]|1[0-2]){_B1}"),
        ("my", rf"{_B0}(?P<m>{_MM})(?:[-/.]|\s?/\s?)(?P<y>{_Y4}){_B1}"),
        ("my", rf"{_B0}(?P<m>0[1-9]|1[0-2])/(?P<y>\d\d){_B1}"),
        ("m", rf"{_L}m(?P<m>{_MM}){_B1}"),
        # CJK: 2026年3月, 3月, 2026년 3월 (the month sign reads the number before it)
        ("ym", rf"{_B0}(?P<y>{_Y4})\s?[年년]\s?(?P<m>{_MM})\s?[月월]"),
        ("m", rf"{_B0}(?P<m>{_MM})\s?[月월]"),
        # fiscal periods, quarters, halves, years (a fiscal year beside them is their year)
        (
            "p",
            rf"{_L}(?:{_fy('a')}\s*[-/,]?\s*)?(?:fiscal\s+)?(?:p|periods?|months?)\s*-?\s*"
            rf"(?P<list>{_NUM}(?:\s*(?:,|&|and|or|to|through|thru|-)\s*(?:p\s*)?{_NUM})*)"
            rf"(?![\w]|[./\-]\d|[.,]\d)(?:\s*(?:/|of|,)?\s*{_fy('b')})?",
        ),
        (
            "q",
            rf"{_L}(?:(?P<y0>{_Y4})\s?[-/]?\s?|{_fy('a')}\s*[-/]?\s*)?"
            rf"(?:q(?P<q>[1-4])|(?P<q1>[1-4])q|quarter\s+(?P<q2>[1-4]))"
            rf"(?:\s?[-/'\u2019]?\s?{_yr('b')})?(?![\w])",
        ),
        (
            "q",
            rf"{_L}(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th|last)\s+(?:fiscal\s+)?"
            rf"quarter(?:\s+(?:of\s+)?{_yr('b')})?{_R}",
        ),
        (
            "h",
            rf"{_L}(?:(?P<y0>{_Y4})\s?[-/]?\s?|{_fy('a')}\s*[-/]?\s*)?"
            rf"(?:h(?P<h>[12])|(?P<h1>[12])h)(?:\s?[-/'\u2019]?\s?{_yr('b')})?(?![\w])",
        ),
        (
            "h",
            rf"{_L}(?P<hw>first|second|1st|2nd)\s+half(?:[\s-]+year)?"
            rf"(?:\s+(?:of\s+)?{_yr('b')})?{_R}",
        ),
        ("o", rf"{_L}(?P<o>{'|'.join(_ORDINALS)})\s+month{_R}"),
        (
            "y",
            rf"{_L}(?:{_fy('a')}|(?:fiscal|financial|calendar)\s+year(?:\s*(?P<y0>{_Y4}))?"
            rf"|fiscal\s*(?P<y1>{_Y4})"
            r"|(?:every|each|any|all)\s+(?:the\s+|of\s+the\s+)?(?:months?|periods?)"
            r"|all\s+(?:twelve|12)\s+months|(?:whole|full|entire)\s+year)"
            rf"(?!\s*[-/,]?\s*(?:p|periods?|q|h|m)\s*\d){_R}",
        ),
    )
)
_RANGE = w.RANGE
_LIST_ITEM = re.compile(rf"(?:p\s*)?({_MM})(?!\d)")


class PeriodReader(BaseModel):
    """The configuration of the period reader in a `MentionMatch` (see the module docstring).

    Attributes:
        year: the year of a month or fiscal period written without one (``None``: the
            expected period's year).
        document_dates: ``"named"`` (default): every month the text names counts.
            ``"ignored"``: a month bound to a document date that is no posting (``due in
            June``, ``payable by``, ``due date:``, ``invoice date``, ``issue date``,
            ``issued on``) is no period named, unless a hedge (``or``, ``maybe``,
            ``possibly``, ``/``...) stands in its clause before those words (``posted to
            April, or maybe due in March`` names March).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["periods"] = "periods"
    year: int | None = Field(default=None, ge=1900, le=2099)
    document_dates: Literal["named", "ignored"] = "named"

    def mentions(self, text: str, *, year: int) -> list[Mention]:
        """Every period ``text`` names (`read_periods`), months without a year in
        ``self.year`` or else ``year``."""
        return self.read(text, year=year)[0]

    def read(self, text: str, *, year: int) -> tuple[list[Mention], list[str] | None]:
        """`read_periods` with this reader's options: the mentions, and the texts as read
        with the months left out blanked (``None`` when none was)."""
        y = self.year if self.year is not None else year
        return read_periods(text, year=y, document_dates=self.document_dates)

    def forms(self, item: str) -> tuple[str, ...]:
        """How a month is most often written (its name, abbreviation, ``YYYY-MM``): also
        looked up as every answer check looks up a value (`TextView`), so a look-alike of
        one (split letters, digits in words) is found as the plain form is."""
        y, m = (int(x) for x in item.split("-"))
        name = MONTH_NAMES[m - 1]
        short = ("sep", "sept") if m == 9 else (name[:3],)
        return (name, *(s for s in short if s != name), f"{y}-{m:02d}")

    def universe(self, expected: str) -> list[str]:
        """The periods the look-up of `forms` covers: every month of the expected year."""
        y = self.year if self.year is not None else int(expected.split("-")[0])
        return [f"{y}-{m:02d}" for m in range(1, 13)]


def period_item(value: str) -> tuple[int, int]:
    """``(year, month)`` of an item ``YYYY-MM``.

    Raises:
        ValueError: ``value`` is not ``YYYY-MM``.
    """
    m = re.fullmatch(r"((?:19|20)\d\d)-(0[1-9]|1[0-2])", value.strip())
    if m is None:
        raise ValueError(f"a period is written YYYY-MM (2026-04), got {value!r}")
    return int(m.group(1)), int(m.group(2))


def _year(y4: str | None, y2: str | None, default: int) -> int:
    if y4:
        return int(y4)
    if y2:
        return 2000 + int(y2)
    return default


def _year_of(digits: str | None, default: int) -> int:
    """A year written with 4 or 2 digits."""
    if not digits:
        return default
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


def _tagged_year(g: dict[str, str | None], tag: str, default: int) -> int:
    for y4, y2 in ((f"y4{tag}", f"y2{tag}"), (f"fy4{tag}", f"fy2{tag}")):
        if g.get(y4) or g.get(y2):
            return _year(g.get(y4), g.get(y2), default)
    return default


def _numeric(kind: str, g: dict[str, str | None], year: int) -> _Found | None:
    """A date or a numeric month (kinds ymd, dmy, md, ym, my, m)."""
    if kind == "ymd":
        return _Found(0, 0, (((int(g["y"] or 0), int(g["m"] or 0)),),), False)
    if kind == "dmy":
        y = _year_of(g["y"], year)
        a, b = int(g["a"] or 0), int(g["b"] or 0)
        readings = [((y, m),) for m in (b, a) if m <= 12]  # day-month, then month-day
        if not readings:
            return None
        order = "dm" if a > 12 else "md" if b > 12 else ""
        return _Found(0, 0, tuple(dict.fromkeys(readings)), False, order=order)
    if kind == "md":
        return _Found(0, 0, (((year, int(g["m"] or 0)),),), False, order="md")
    y = _year_of(g.get("y"), year)
    return _Found(0, 0, (((y, int(g["m"] or 0)),),), True, month=True)


_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": 4}
_QUARTER_WORDS |= {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def _ranged(kind: str, g: dict[str, str | None], year: int) -> _Found | None:
    """Fiscal periods and month lists, quarters, halves, ordinal months, whole years."""
    if kind == "p":
        y = _tagged_year(g, "a", _tagged_year(g, "b", year))
        text = g["list"] or ""
        nums: list[int] = []
        items = list(_LIST_ITEM.finditer(text))
        for i, it in enumerate(items):
            n = int(it.group(1))
            if i and nums and _RANGE.fullmatch(text[items[i - 1].end() : it.start()]):
                nums += list(range(nums[-1] + 1, n + 1))
            else:
                nums.append(n)
        months = tuple((y, n) for n in dict.fromkeys(nums) if 1 <= n <= 12)
        one = len(months) == 1
        return _Found(0, 0, (months,), one, month=one) if months else None
    if kind in ("q", "h"):
        y = int(g.get("y0") or 0) or _tagged_year(g, "b", _tagged_year(g, "a", year))
        if kind == "q":
            q = int(g.get("q") or g.get("q1") or g.get("q2") or 0)
            q = q or _QUARTER_WORDS[g.get("qw") or "first"]
            return _Found(0, 0, (_months(y, 3 * q - 2, 3 * q),), False)
        h = int(g.get("h") or g.get("h1") or 0) or (1 if g.get("hw") in ("first", "1st") else 2)
        return _Found(0, 0, (_months(y, 6 * h - 5, 6 * h),), False)
    if kind == "o":
        return _Found(0, 0, (((year, _ORDINALS[g["o"] or "first"]),),), True, month=True)
    y = int(g.get("y0") or g.get("y1") or 0) or _tagged_year(g, "a", year)
    return _Found(0, 0, (_months(y, 1, 12),), False)


_DATE_GOES_ON = re.compile(r"[-/.]\d")
_GLUED_AFTER = re.compile(r"[\s.,'\u2019-]*\d")
_GLUED_BEFORE = re.compile(r"\d[\s,.-]*$")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s(]*$")


def _may_is_month(s: str, start: int, end: int) -> bool:
    """``may`` beside a number, or after a word such as ``in`` (not the verb)."""
    if _GLUED_AFTER.match(s, end) or _GLUED_BEFORE.search(s[max(0, start - 8) : start]):
        return True
    before = _WORD_BEFORE.search(s[max(0, start - 24) : start])
    return before is not None and before.group(1) in _MAY_BEFORE


def _names(s: str, year: int, taken: list[tuple[int, int]]) -> Iterable[_Found]:
    for m in _NAME.finditer(s):
        if any(a <= m.start() < b for a, b in taken):
            continue
        word = m.group(1)
        after = _YEAR_AFTER.match(s, m.end())
        if after is not None and (after.group("y4") or after.group("y2")):
            # a year that starts a date (``set 2026-05-01``) is no year of this word
            if _DATE_GOES_ON.match(s, after.end()):
                after = None
        if word == "may" and not _may_is_month(s, m.start(), m.end()):
            continue
        if word in w.MAY_LIKE and not _may_is_month(s, m.start(), m.end()):
            if not w.guarded_is_month(s, m.start(), m.end(), False):
                continue
        if word in w.GUARDED_MONTHS and not w.guarded_is_month(
            s, m.start(), m.end(), after is not None
        ):
            continue
        y = year
        end = m.end()
        if after is not None:
            y = _year(after.group("y4"), after.group("y2"), year)
            end = after.end()
        yield _Found(m.start(), end, (((y, _ALL_NAMES[word]),),), True, month=True)


def period_mentions(text: str, *, year: int) -> list[Mention]:
    """Every period ``text`` names (see the module docstring), in order.

    Args:
        text: the text (the replies or notes of an episode, joined).
        year: the year of a month or fiscal period written without one.

    Returns:
        One `Mention` per period, its readings the ``YYYY-MM`` items it names (several
        for a range: a quarter names its three months); exact for a single month written
        as a month (not a date in it, nor a range holding it). A hedged alternative that
        looks like a period but is read as none (``or maybe 13.``) is a mention of
        `UNREAD`.
    """
    return read_periods(text, year=year)[0]


UNREAD = "unread period"
"""The item of a hedged alternative that looks like a period but reads as none."""


def read_periods(
    text: str, *, year: int, document_dates: Literal["named", "ignored"] = "named"
) -> tuple[list[Mention], list[str] | None]:
    """`period_mentions`, and with ``document_dates="ignored"`` without the months bound
    to a document date that is no posting (``due in June``; `_period_context.role_bound`).

    Returns:
        The mentions, and the texts as read with those months blanked out (for the
        look-up of look-alikes, which must not find them either), or ``None`` when no
        month was left out.
    """
    out: list[Mention] = []
    cleared: list[str] = []
    dropped = False
    for s in reading_texts(text):
        found = _found(s, year)
        if document_dates == "ignored":
            bound = w.role_bound(s, found)
            if bound:
                dropped = True
                found = [f for f in found if f not in bound]
                chars = list(s)
                for f in bound:
                    chars[f.start : f.end] = " " * (f.end - f.start)
                s = "".join(chars)
        cleared.append(s)
        for f, hedged in zip(found, w.hedges(s, found), strict=True):
            items = (
                (frozenset({UNREAD}),)
                if f.unread
                else tuple(frozenset(f"{y}-{m:02d}" for y, m in r) for r in f.readings)
            )
            out.append(Mention(s[f.start : f.end], items, f.exact, hedged=hedged))
    return out, (cleared if dropped else None)


def _found(s: str, year: int) -> list[_Found]:
    """Every period of the folded text ``s``, in order (relative months resolved, ranges
    merged, hedged unread alternatives added)."""
    found: list[_Found] = []
    taken: list[tuple[int, int]] = []
    for kind, rx in _PATTERNS:
        for m in rx.finditer(s):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            g = m.groupdict()
            f = (
                _numeric(kind, g, year)
                if kind in ("ymd", "dmy", "md", "ym", "my", "m")
                else _ranged(kind, g, year)
            )
            if f is None or not f.readings or not f.readings[0]:
                continue
            f.start, f.end = m.start(), m.end()
            found.append(f)
            taken.append((m.start(), m.end()))
    found += list(_names(s, year, taken))
    found.sort(key=lambda f: f.start)
    w.order_dates(found)
    found = w.merge_ranges(s, w.resolve_relative(s, found))
    found += w.hedged_unread(s, found)
    found.sort(key=lambda f: f.start)
    return found
