"""``mcpgym_dated``: dates said relative to today written as the ISO dates they name.

The value roles read a date in digits or in words (`mcpgym_grading._value_roles`), but a
reply may give the ETA as ``next Tuesday``, ``tomorrow`` or ``in 3 days``: a wrong one passed
every fact check (stop 21's open list). This rewrites each such phrase as the ISO date it
names from ``today`` (the store's date), so the roles read it as they read ``2026-06-16``:

- ``today``/``tonight`` (today), ``tomorrow``, ``the day after tomorrow``, ``yesterday``,
  ``the day before yesterday``;
- ``in N days``, ``N days from now``/``from today``, ``N days ago`` (N in digits or words up
  to twenty; not ``within``, not a range ``3-5 days``: those are no date);
- a weekday, alone or after ``on``/``by``/``this``/``next``/``last``/``coming``/``until``/
  ``before``: its occurrences within a week either side (``last`` only before today,
  ``next`` a week later too). Where one of them is one of the ``own`` dates (the roles'
  values) it is read as that one: ``next Tuesday`` said of the 23rd on Monday the 15th is
  honest; else as the first (the nearest ahead, or behind for ``last``).

A date relative to today is only as right as "today": the caller passes the store's date.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import date, timedelta

SQL_DATED = "mcpgym_dated"
"""The SQL function ``mcpgym_dated(text, today, roles)``: ``text`` with its relative dates
written as ISO dates from ``today`` (``YYYY-MM-DD``, a longer timestamp cut to its date);
``roles`` the `mcpgym_misstated` roles JSON (its ISO date values are the own dates) or
NULL. ``text`` unchanged where ``today`` is no date; NULL where ``text`` is NULL."""

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_N = r"(\d{1,2}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r"|a|an)"
_WD = r"(" + "|".join(_WEEKDAYS) + r")"
_PHRASE = re.compile(
    r"(?<![\w-])(?:"
    r"(?P<dayafter>the day after tomorrow)|(?P<daybefore>the day before yesterday)|"
    r"(?P<today>today|tonight)|(?P<tomorrow>tomorrow)|(?P<yesterday>yesterday)|"
    rf"(?<!within )(?<!-)(?:in )(?P<in>{_N}) (?:calendar )?days?(?! ?[-\u2013])|"
    rf"(?<!-)(?P<from>{_N}) days? from (?:now|today)|"
    rf"(?<!-)(?P<ago>{_N}) days? ago|"
    rf"(?:(?P<mod>next|last|this coming|this|coming|on|by|until|before) )?(?P<wd>{_WD})"
    r")(?![\w-])",
    re.IGNORECASE,
)


def _number(word: str) -> int | None:
    w = word.lower()
    if w.isdigit():
        return int(w)
    if w in ("a", "an"):
        return 1
    return _NUMBERS.get(w)


def _weekday(word: str) -> int:
    return _WEEKDAYS.index(word.lower())


def _candidates(m: re.Match[str], today: date) -> list[date]:
    if m.group("dayafter"):
        return [today + timedelta(days=2)]
    if m.group("daybefore"):
        return [today - timedelta(days=2)]
    if m.group("today"):
        return [today]
    if m.group("tomorrow"):
        return [today + timedelta(days=1)]
    if m.group("yesterday"):
        return [today - timedelta(days=1)]
    for key, sign in (("in", 1), ("from", 1), ("ago", -1)):
        if m.group(key):
            n = _number(m.group(key))
            return [] if n is None else [today + timedelta(days=sign * n)]
    wd = _weekday(m.group("wd"))
    ahead = (wd - today.weekday()) % 7 or 7
    behind = (today.weekday() - wd) % 7 or 7
    nxt, prev = today + timedelta(days=ahead), today - timedelta(days=behind)
    same = [today] if wd == today.weekday() else []
    mod = (m.group("mod") or "").lower()
    if mod == "last":
        return [prev, prev - timedelta(days=7)]
    if mod == "next":
        return [nxt, nxt + timedelta(days=7)]
    if mod in ("this", "this coming", "coming", "by", "until", "before"):
        return [*same, nxt]
    return [*same, nxt, prev]


@functools.lru_cache(maxsize=256)
def dated(text: str, today: str, own: frozenset[str] = frozenset()) -> str:
    """``text`` with each relative date (see the module docstring) replaced by the ISO date it
    names from ``today`` (``YYYY-MM-DD``...), read as one of ``own`` (ISO dates) where one of
    its readings is. ``text`` unchanged where ``today`` is no date."""
    try:
        base = date.fromisoformat(today[:10])
    except ValueError:
        return text

    def iso(m: re.Match[str]) -> str:
        found = _candidates(m, base)
        if not found:
            return m.group(0)
        pick = next((d for d in found if d.isoformat() in own), found[0])
        return pick.isoformat()

    return _PHRASE.sub(iso, text)


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def sql_dated(text: object, today: object, roles: object) -> str | None:
    """`dated` for SQLite: ``roles`` a `mcpgym_misstated` roles JSON array (``[[value,
    cues], ...]``) or NULL; None for non-text ``text``."""
    if not isinstance(text, str):
        return None
    if not isinstance(today, str):
        return text
    own: set[str] = set()
    if isinstance(roles, str):
        try:
            raw = json.loads(roles)
        except ValueError:
            raw = []
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, list) and item and isinstance(item[0], str):
                if _ISO.match(item[0]):
                    own.add(item[0])
    return dated(text, today, frozenset(own))
