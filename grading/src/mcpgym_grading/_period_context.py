"""The period reader's context: words of other languages, relative months, hedges, roles.

Every word is written as the mention readers read it (`mcpgym_grading._mentions`: folded,
so accents are gone: ``février`` is ``fevrier``, ``März`` is ``marz``).

- `FOREIGN_MONTHS`: month names and abbreviations in Spanish, French, German, Italian,
  Portuguese, Dutch and the Scandinavian languages, read wherever they stand;
  `GUARDED_MONTHS`: those that are also a common word or name (``set``, ``out``, ``ago``,
  ``mars``, ``marco``...): read only beside a year (``set 2026``), after a month
  preposition of their language (``en mars``, ``em out``), or as the whole alternative
  after a hedge (``or maybe mars.``); `MAY_LIKE`: May's short forms (``mai``, ``mayo``,
  ``mei``, ``maj``), read as English ``may`` is (beside a number, after ``in``, ``of``...).
- `ANCHORED`, `UNANCHORED`: a month given relative to another (``the month before April``;
  ``the prior month`` after a month the text named).
- `HEDGED_FRAGMENT`: a short alternative after a hedge (``or maybe 13.``) that no pattern
  reads but that looks like a period (`looks_like_a_period`); `DIRECTION_WORDS`: one that
  points from the period named to another (``April, or its predecessor``, ``(or
  earlier)``, ``give or take a month``: `hedged_relatives`).
- `ROLE_BEFORE`, `HEDGE`: a month bound to a document date that is no posting (``due in
  June``, ``invoice date``), and the words that make it an alternative after all;
  `PERIOD_AFTER`, `SAID_PERIOD_AFTER`, `RELATIVE_AFTER`: words after it that say it is the
  period all the same (``issued in March, which is where it belongs``, ``due March 2026,
  the correct month``).

The passes over what `mcpgym_grading._periods` found (`Found`, positions in the folded
text) live here too: `order_dates`, `merge_ranges`, `resolve_relative`, `hedged_unread`,
`hedged_relatives`, `hedges`, `role_bound`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BY_MONTH = (
    "enero janvier janv januar janner jaenner gennaio janeiro januari",
    "febrero fevrier fevr fev februar feber febbraio fevereiro februari",
    "marzo marz maerz mrz maart mrt marts",
    "abril avril aprile",
    "maggio maio",
    "junio juin juni giugno giu junho",
    "julio juillet juil juli luglio julho",
    "agosto aout augustus augusti",
    "septiembre setiembre septembre settembre sett setembro",
    "octubre octobre oktober okt ottobre ott outubro",
    "noviembre novembre novembro",
    "diciembre decembre dezember dez dicembre dezembro",
)
FOREIGN_MONTHS: dict[str, int] = {w: i + 1 for i, ws in enumerate(_BY_MONTH) for w in ws.split()}
"""Month words of other languages read wherever they stand (folded), to their month."""

GUARDED_MONTHS: dict[str, int] = {
    "ene": 1,
    "gen": 1,
    "mars": 3,
    "marco": 3,
    "abr": 4,
    "avr": 4,
    "mag": 5,
    "lug": 7,
    "ago": 8,
    "set": 9,
    "out": 10,
    "dic": 12,
}
"""Month words that are also common words or names: read only in a month's context."""

MAY_LIKE = frozenset({"mai", "mayo", "mei", "maj"})
"""Short forms of May in other languages, read as English ``may`` is."""

FOREIGN_PREPOSITIONS = frozenset("en im au em di del dal al".split())
"""Words of those languages after which a guarded or May-like word is the month."""

ANCHORED = re.compile(
    r"(?:(?:the|a)\s+)?(?:(?P<n>one|two|three|\d)\s+)?months?\s+"
    r"(?P<dir>before|after|preceding|following|prior\s+to|ahead\s+of|earlier\s+than|"
    r"later\s+than)\s+(?:the\s+month\s+of\s+)?\Z"
)
"""Before a month: ``the month before`` / ``two months after`` (matched on the text before
the month's mention)."""

UNANCHORED = re.compile(
    r"(?<![^\W\d_])(?:the\s+(?P<dir>previous|prior|preceding|next|following|subsequent)"
    r"\s+(?:month|period)"
    r"|(?:a|one)\s+month\s+(?P<dir2>earlier|later|before|after|prior))(?![^\W\d_])"
)
"""A month relative to the month the text named last (``Asked for April; posted in the
following month``; ``the prior period``). ``next month`` / ``last month`` (relative to
today) are not read."""

_STEPS = {"one": 1, "two": 2, "three": 3, "a": 1}
_BACK = {
    "before",
    "preceding",
    "prior",
    "previous",
    "prior to",
    "ahead of",
    "earlier",
    "earlier than",
}


def step(direction: str, count: str | None) -> int:
    """The months ``direction`` (``before``, ``following``...) moves, signed."""
    n = 1 if not count else _STEPS.get(count) or int(count)
    return -n if re.sub(r"\s+", " ", direction) in _BACK else n


HEDGE = re.compile(
    r"(?<![^\W\d_])(?:or|maybe|perhaps|possibly|probably|alternatively|otherwise|"
    r"might|could|else|unless)(?![^\W\d_])|[/?]"
)
"""Words that make what follows an alternative (``or maybe due in March``)."""

HEDGE_LEAD = (
    r"(?<![^\W\d_])(?:or\s+(?:maybe|perhaps|possibly|else|even|rather)|maybe|perhaps|"
    r"possibly|alternatively|otherwise|failing\s+that|(?P<plain>or))(?![^\W\d_])"
)
HEDGED_FRAGMENT = re.compile(
    HEDGE_LEAD + r"[\s,:]*(?:it\s+(?:is|was|goes\s+to|belongs\s+to)\s+|in\s+|to\s+)?"
    r"(?P<frag>(?:[^.;:!?()\[\]\n]|\.(?=\d)){1,28}?)\s*(?=[;:!?)\]\n]|\.(?!\d)|\Z)"
)
"""A short clause-final alternative after a hedge (``, or maybe 13.``; after a plain ``or``
only with a period unit word: ``or the month before.``, not ``1 or 2.``)."""

_PERIODISH = re.compile(
    r"(?:the|a|of|in|to|one|that|this|next|last|prior|previous|following|earlier|later|"
    r"before|after|month|months|period|periods|quarter|half|year|fiscal|financial|"
    r"[^\W_]*\d[^\W_]*)"
)
_FRAGMENT_WORD = re.compile(r"[^\s'\u2019/\-]+")


def looks_like_a_period(fragment: str) -> bool:
    """Whether a hedged alternative no pattern read still looks like a period: at most
    three words, each a number-bearing token or a period word (``month``, ``prior``...),
    one of them bearing a digit or naming a period unit (``13``, ``P13``, ``period X``)."""
    words = _FRAGMENT_WORD.findall(fragment)
    if not 1 <= len(words) <= 3:
        return False
    if not all(_PERIODISH.fullmatch(w.strip(".,")) for w in words):
        return False
    return any(re.search(r"\d", w) or _UNIT.search(w) for w in words)


_UNIT = re.compile(r"month|period|quarter|half|year")


ROLE_BEFORE = re.compile(
    r"(?<![^\W\d_])(?P<role>due|payable|(?:due|invoice|issue|payment)\s+date|issued)"
    r"(?:\s+date)?(?:\s+(?:is|was|of))?\s*:?\s*(?:(?:on|in|by|before|from|at\s+the\s+end\s+of|"
    r"end\s+of|for)\s+)?(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?\Z"
)
"""The words before a month bound to a document date that is no posting (``due in``,
``payable by``, ``due date:``, ``invoice date``, ``issued on the 3rd of``)."""

POSTING_WORDS = re.compile(
    r"(?<![^\W\d_])(?:belong\w*|post\w*|periods?|books?|booked|record\w*|recogni[sz]\w*|"
    r"accru\w*|dated|entr(?:y|ies)|allocat\w*|attribut\w*|charged|expensed|journal\w*)"
    r"(?![^\W\d_])"
)
"""Words that make a month after a role's words a posting's all the same."""

PERIOD_AFTER = re.compile(
    POSTING_WORDS.pattern[: -len(r"(?![^\W\d_])")].replace(
        r"(?:belong", r"(?:where\s+it|real\w*|should|instead|there|belong", 1
    )
    + r"(?![^\W\d_])"
)
"""Words after a role-bound month, in its clause, that say it is the posting's period after
all (``issued March 2026, which is where it really belongs``, ``due 2026-03-31 (the period
it belongs to)``, ``issued in March, so book it there``)."""

SAID_PERIOD_AFTER = re.compile(
    r"(?<![^\W\d_])(?:(?:months?|quarters?)(?![\s-]*end)|fiscal|correct|proper|actual|"
    r"actually|accurate|appropriate|intended|genuine|rightful|true|"
    r"(?:the|its|their|this|that)\s+right)(?![^\W\d_])"
)
"""Words after a role-bound month, in its clause, that describe it as a period of the books
(``due March 2026, the correct month``, ``issued in March, its actual period``): a period
word or a word calling it the right one. They count as `PERIOD_AFTER` does."""

RELATIVE_AFTER = re.compile(r"\s*[,(\-\u2013\u2014]?\s*(?:which|that|where|i\.?e\.?)(?![^\W\d_])")
"""A relative clause about a role-bound month right after it (``issued in March, which ...``):
the month is not a mere document date then."""

_NEXT_MONTH_OF = re.compile(r"(?:\s+[^\W\d_]+){0,3}\s*")
"""At most three words between a posting word and a later month it is said of (``posted to
April``): the word is that month's, not the role-bound one's."""

CLAUSE_END = re.compile(r"[.;:!?\n](?=\s|\Z)|\n")
"""Where a clause ends (the hedge of a role-bound month is looked for back to it)."""


@dataclass
class Found:
    """One period found in a text (positions in the folded text)."""

    start: int
    end: int
    readings: tuple[tuple[tuple[int, int], ...], ...]  # each reading: its (year, month)s
    exact: bool
    month: bool = False  # one month by name or number (a range's end, maybe)
    order: str = ""  # a date's order when only one fits: "dm" or "md"
    unread: bool = False  # a hedged alternative that looks like a period, not read


def _single(f: Found) -> tuple[int, int] | None:
    """The one month ``f`` names (a month, or a date read one way), else ``None``."""
    if f.unread or len(f.readings) != 1 or len(f.readings[0]) != 1:
        return None
    return f.readings[0][0]


def _shift(ym: tuple[int, int], n: int) -> tuple[int, int]:
    k = ym[0] * 12 + ym[1] - 1 + n
    return k // 12, k % 12 + 1


_HEDGED_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:or|either|maybe|perhaps|possibly|alternatively|otherwise"
    r"|ou|o|oder|eller|peut-etre|vielleicht|quizas|quiza|forse|talvez|misschien)[\s,]*\Z"
)
_CLAUSE_AFTER = re.compile(r"\s*(?:[.;:!?)\]\n,]|\Z)")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\s+\Z")


def guarded_is_month(s: str, start: int, end: int, year_after: bool) -> bool:
    """Whether a `GUARDED_MONTHS` or `MAY_LIKE` word at ``s[start:end]`` is the month:
    a year follows (``year_after``), a month preposition of its language comes before
    (``en mars``), or it is the whole alternative after a hedge (``or maybe mars.``)."""
    if year_after:
        return True
    before = _WORD_BEFORE.search(s, max(0, start - 24), start)
    if before is not None and before.group(1) in FOREIGN_PREPOSITIONS:
        return True
    hedged = _HEDGED_BEFORE.search(s, max(0, start - 24), start) is not None
    return hedged and _CLAUSE_AFTER.match(s, end) is not None


_ANCHOR_START = re.compile(r"(?<![^\W\d_])(?=(?:the|a|one|two|three|\d|months?)\s)")


_APPOSITION = re.compile(r"\s*[,(\-]\s*")
"""Between a month and a relative phrase that describes it (``April, the previous period``)."""


def resolve_relative(s: str, found: list[Found]) -> list[Found]:
    """``found`` (in order) with relative months resolved: a month after `ANCHORED` words
    becomes the month they give (``the month before April``: March), and each `UNANCHORED`
    phrase names the month relative to the last single month before it (not one it follows
    as an apposition: ``April, the previous period, is closed`` names April only)."""
    out: list[Found] = []
    for f in found:
        one = _single(f) if f.month else None
        if one is not None:
            lo = max(0, f.start - 64, out[-1].end if out else 0)
            for a in _ANCHOR_START.finditer(s, lo, f.start):
                m = ANCHORED.match(s, a.start(), f.start)
                if m is not None:
                    shifted = _shift(one, step(m.group("dir"), m.group("n")))
                    f = Found(m.start(), f.end, ((shifted,),), True, month=True)
                    break
        out.append(f)
    for m in UNANCHORED.finditer(s):
        if any(g.start < m.end() and m.start() < g.end for g in out):
            continue
        before = [g for g in out if g.end <= m.start() and _single(g) is not None]
        if not before or _APPOSITION.fullmatch(s, before[-1].end, m.start()):
            continue  # nothing to count from, or it describes that month: not read
        anchor = _single(before[-1])
        assert anchor is not None
        n = step(m.group("dir") or m.group("dir2") or "", None)
        out.append(Found(m.start(), m.end(), ((_shift(anchor, n),),), True, month=True))
        out.sort(key=lambda g: g.start)
    return out


ONE_RELATIVE = re.compile(
    r"(?:the\s+|that\s+)?(?:one\s+(?:just\s+)?(?:before|after|prior|preceding|following|"
    r"earlier|later|previous|next)(?:\s+(?:that|it|this|then))?|(?:previous|prior|preceding|"
    r"next|following|earlier|later|last|other)\s+one)"
)
"""A hedged alternative that points at a period by ``one`` (``or the one before that``,
``or the previous one``): read as an unread period, after a plain ``or`` too."""


def hedged_unread(s: str, found: list[Found]) -> list[Found]:
    """A `Found` (``unread``) for each hedged alternative no pattern read that still looks
    like a period (`looks_like_a_period`: ``or maybe 13.``, ``possibly period X``), or that
    points from a period named to another (`hedged_relatives`: ``or its predecessor``)."""
    out: list[Found] = []
    for m in HEDGED_FRAGMENT.finditer(s):
        a, b = m.span("frag")
        if any(g.start < b and a < g.end for g in found):
            continue
        frag = m.group("frag")
        if ONE_RELATIVE.fullmatch(frag.strip(" ,")) is not None:
            out.append(Found(a, b, ((),), False, unread=True))
            continue
        if m.group("plain") and _UNIT.search(frag) is None:
            continue
        if looks_like_a_period(frag):
            out.append(Found(a, b, ((),), False, unread=True))
    for g in hedged_relatives(s, found):
        if not any(x.start < g.end and g.start < x.end for x in out):
            out.append(g)
    return out


_RELATIVE_LEAD = re.compile(
    r"(?P<approx>(?<![^\W\d_])(?:give\s+or\s+take|plus\s+or\s+minus)(?![^\W\d_])"
    r"|\u00b1|\+\s*/\s*-)"
    r"|(?<![^\W\d_])(?:or(?:\s+(?:maybe|perhaps|possibly|else|even|rather))?|maybe|perhaps|"
    r"possibly|probably|alternatively|otherwise|failing\s+that|if\s+not)(?![^\W\d_])"
    r"|(?<![\d/])/(?![\d/])"
)
_RELATIVE_FRAGMENT = re.compile(r"[\s,:]*(?P<frag>[^.;:!?()\[\],\n]{1,40}?)\s*(?=[.,;:!?)\]\n]|\Z)")
DIRECTION_WORDS = frozenset(
    "before after earlier later prior sooner previous preceding next following subsequent "
    "back backward backwards ahead forward forwards behind on predecessor predecessors "
    "successor successors around thereabouts adjacent adjoining neighbor neighbors neighbour "
    "neighbours neighboring neighbouring surrounding nearest nearby near "
    "close either side sides thereafter beforehand so other another last first final".split()
)
"""Words by which a hedged alternative points from the period named to another (``or its
predecessor``, ``maybe one month back``, ``(or earlier)``, ``or thereabouts``)."""
_RELATIVE_FILLER = frozenset(
    "its the a an one two three few couple of that this it then there just even or to than "
    "in from immediately directly right straight bit little slightly somewhat "
    "month months period periods quarter quarters year years ones".split()
)
_FRAG_WORD = re.compile(r"[^\W_]+")


def _opens_after(s: str, end: int, start: int) -> bool:
    """Whether ``s[end:start]``, between a mention and a hedge, keeps them together: no
    clause end, or one after which the hedge opens the next clause (``April. Or ...``)."""
    ends = list(CLAUSE_END.finditer(s, end, start))
    return not ends or (len(ends) == 1 and not s[ends[0].end() : start].strip(" \t\"'(["))


def hedged_relatives(s: str, found: list[Found]) -> list[Found]:
    """A `Found` (``unread``) for each hedged alternative that points from a period the text
    names to another, in words no pattern reads: right after the mention, in its clause or
    opening the next, a hedge (``or``, ``maybe``...) and a short fragment of `DIRECTION_WORDS`
    and period words only (``April, or its predecessor``, ``April, maybe one month back``,
    ``April (or earlier)``, ``April. Or later.``, ``or thereabouts``); or an approximation
    (``give or take a month``, ``+/- one period``). A hedge with other words (``maybe
    later reviewed by the controller``) or after no period is not one."""
    out: list[Found] = []
    anchors = [g for g in found if not g.unread]
    for lead in _RELATIVE_LEAD.finditer(s):
        m = _RELATIVE_FRAGMENT.match(s, lead.end())
        if m is None:
            continue
        a, b = m.span("frag")
        if any(g.start < b and a < g.end for g in found):
            continue  # a period the patterns read (``on or after 2026-05-01``)
        before = [g for g in anchors if g.end <= lead.start()]
        if not before or not _opens_after(s, before[-1].end, lead.start()):
            continue
        words = _FRAG_WORD.findall(m.group("frag"))
        if not words or len(words) > 5:
            continue
        if not all(x in DIRECTION_WORDS or x in _RELATIVE_FILLER or x.isdigit() for x in words):
            continue
        if lead.group("approx"):
            if not any(x.isdigit() or _UNIT.search(x) for x in words):
                continue
        elif not any(x in DIRECTION_WORDS for x in words):
            continue
        out.append(Found(a, b, ((),), False, unread=True))
    return out


def is_hedged(s: str, start: int, end: int, prev_end: int) -> bool:
    """Whether a hedge (`HEDGE`) stands in the clause of ``s[start:end]``: before it, back
    to the clause's start or ``prev_end`` (the mention before), or after it to the clause's
    end (``, or maybe due in March``, ``due in March, perhaps``, ``(or Q2)``)."""
    ends = [c.end() for c in CLAUSE_END.finditer(s, prev_end, start)]
    lo = max([prev_end, *ends])
    stop = CLAUSE_END.search(s, end)
    hi = stop.start() if stop is not None else len(s)
    return HEDGE.search(s, lo, start) is not None or HEDGE.search(s, end, hi) is not None


def hedges(s: str, found: list[Found]) -> list[bool]:
    """For each of ``found`` (in order), whether it is hedged (`is_hedged`)."""
    out: list[bool] = []
    prev_end = 0
    for f in found:
        out.append(is_hedged(s, f.start, f.end, prev_end))
        prev_end = f.end
    return out


def role_bound(s: str, found: list[Found]) -> list[Found]:
    """The mentions of ``found`` bound to a document date that is no posting (`ROLE_BEFORE`:
    ``due in June``) and not hedged (`is_hedged`, from the role's words: ``posted to April,
    or maybe due in March`` and ``due in March, perhaps`` are hedged), nor said of the
    posting (`POSTING_WORDS` in the clause before the role's words: ``it belongs to the
    period due in March``)."""
    out: list[Found] = []
    prev_end = 0
    for f in found:
        m = None if f.unread else ROLE_BEFORE.search(s, max(prev_end, f.start - 48), f.start)
        if m is not None and not is_hedged(s, m.start(), f.end, prev_end):
            ends = [c.end() for c in CLAUSE_END.finditer(s, prev_end, m.start())]
            if POSTING_WORDS.search(s, max([prev_end, *ends]), m.start()) is None:
                if not _said_of_after(s, f, found):
                    out.append(f)
        prev_end = f.end
    return out


def _said_of_after(s: str, f: Found, found: list[Found]) -> bool:
    """Whether the clause after the role-bound ``f`` says it is the posting's period: a
    relative clause about it follows (`RELATIVE_AFTER`), or a `PERIOD_AFTER` or
    `SAID_PERIOD_AFTER` word stands in the rest of its clause that is not said of a later
    month (``, posted to May``)."""
    if RELATIVE_AFTER.match(s, f.end) is not None:
        return True
    stop = CLAUSE_END.search(s, f.end)
    hi = stop.start() if stop is not None else len(s)
    later = [g.start for g in found if f.end <= g.start < hi]
    for rx in (PERIOD_AFTER, SAID_PERIOD_AFTER):
        for p in rx.finditer(s, f.end, hi):
            if not any(_NEXT_MONTH_OF.fullmatch(s, p.end(), g) for g in later if g >= p.end()):
                return True
    return False


RANGE = re.compile(r"\s*(?:-|to|through|thru|till|until)\s*")
"""What stands between the two ends of a range of months (``X to Y``, ``X-Y``)."""


def months(y: int, first: int, last: int) -> tuple[tuple[int, int], ...]:
    """The months from ``first`` to ``last`` (into the next year when ``last < first``)."""
    out = [(y, first)]
    m = first
    while m != last and len(out) < 12:
        m, y = (1, y + 1) if m == 12 else (m + 1, y)
        out.append((y, m))
    return tuple(out)


def order_dates(found: list[Found]) -> None:
    """Read each date both orders fit in the order the text's other dates use."""
    orders = {f.order for f in found} - {""}
    if len(orders) != 1:
        return
    dm = orders.pop() == "dm"
    for f in found:
        if len(f.readings) == 2 and not f.exact:
            f.readings = (f.readings[0],) if dm else (f.readings[1],)


def merge_ranges(s: str, found: list[Found]) -> list[Found]:
    """``X to Y`` between two single months: one mention of every month from X to Y."""
    out: list[Found] = []
    for f in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.month
            and f.month
            and len(prev.readings) == 1 == len(f.readings)
            and RANGE.fullmatch(s[prev.end : f.start])
        ):
            (a,), (b,) = prev.readings[0][-1:], f.readings[0][:1]
            span = months(a[0], a[1], b[1]) if a[0] == b[0] and a[1] <= b[1] else (a, b)
            out[-1] = Found(prev.start, f.end, ((*prev.readings[0], *span),), False, month=True)
            continue
        out.append(f)
    return out


__all__ = [
    "ANCHORED",
    "RANGE",
    "Found",
    "merge_ranges",
    "months",
    "order_dates",
    "guarded_is_month",
    "hedged_relatives",
    "hedged_unread",
    "hedges",
    "is_hedged",
    "resolve_relative",
    "role_bound",
    "CLAUSE_END",
    "DIRECTION_WORDS",
    "FOREIGN_MONTHS",
    "FOREIGN_PREPOSITIONS",
    "GUARDED_MONTHS",
    "HEDGE",
    "HEDGED_FRAGMENT",
    "MAY_LIKE",
    "POSTING_WORDS",
    "ROLE_BEFORE",
    "SAID_PERIOD_AFTER",
    "UNANCHORED",
    "looks_like_a_period",
    "step",
]
