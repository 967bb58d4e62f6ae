"""Money parsing, part three: which *bare* numbers (no money marker) a money check reads,
and which zero amounts are waived fees (`waived_zeros`).

A number with a marker (a sign, a code, a unit word: `mcpgym_grading._money`) is always an
amount. A bare number (``90``, ``7.95``) is one, in US dollars, when:

- **its value is a candidate**: it equals, in cents, one of the amounts the check knows
  (its expected amount, its forbidden and allowed ones): ``7.95`` when 795 is one, and for
  a whole-dollar candidate its integer form too (``90`` when 9000 is one); or
- **it stands in an amount context**:
  - a money label right before it on its line (``Total: 90``, ``refund of 12.50``,
    ``"refund": 45.00``, ``Refund options: 5``; `LABELS`);
  - it is in a series with an amount: joined to it by a separator (``,`` ``;`` ``/``
    ``|`` ``or`` ``and`` ``to`` ``vs`` an arrow, a tilde, a dash, a bracket; a hedge
    word may stand beside it: ``or maybe 12``), on the same line, link by link;
  - it is the whole of a list item (``- 90``, ``2. 90``) of a list with an amount in
    another item or introduced by a line naming money or alternatives (``Other options:``;
    `LABELS`, `HEDGES`), or the whole of a table cell (``| 90 |``) in a column with an
    amount or a money header.

Anything else bare is not an amount: ``section 4.12``, ``at 10.30``, ``size 10.50``; a bare
number is never one when it is part of a date (``January 29``), a time, a version, a
phone number, a range or an identifier (``06/15/2026``, ``5:30``, ``1.2.3``, ``5-10``,
``T-1042``, ``#100473``, a run of three or more space-separated digit groups of ten digits
or more: ``9205 5010 0428 0000 0400 74``), counts something (``12.50 kg``, ``2 items``, a
quantity before ``×``: ``1 × $45.00``; a whole number followed by a word: ``4 Dome Tent``,
``3-Pack``, but a candidate value followed by a qualifier is read: ``74 total``, ``74 tops``,
`QUALIFIERS`) or is a list marker; a whole number has at most five digits (order numbers
are not amounts).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection
from fractions import Fraction

from mcpgym_grading._periods import MONTH_WORDS

LABELS = (
    "total subtotal amount amounts refund refunds refunded price prices priced cost costs "
    "charge charges charged credit credits credited balance payment payments paid fee fees "
    "sum owed owe due tax value worth compensation reimbursement reimbursed payout deposit "
    "discount rebate bill billed invoice usd dollars money"
).split()
"""Words that label a number as money (a number right after one is an amount)."""

HEDGES = (
    "option options alternative alternatives alt choice choices possibility possibilities "
    "candidate candidates other others also maybe perhaps possibly or either"
).split()
"""Words of a line that introduces a list of alternatives (``Other options:``)."""

_NOT_AFTER = (
    r"(?!\s?(?:%|°|(?:percent|kg|g|lbs?|oz|km|mi|miles?|cm|mm|ft|h|hrs?|hours?|min|minutes?"
    r"|days?|weeks?|months?|years?|items?|units?|pcs|x|am|pm|gb|mb|kb|stars?)\b|\u00d7))"
)
_TOKEN = re.compile(
    r"(?:(?<=[.,]\d\d-)|(?<!\d-))(?<![a-z]-)(?<![\w.,/:#@$])"
    r"(?P<num>(?:0|[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*)(?P<dec>[.,]\d\d)?)"
    r"(?![\w%]|[.,/:]\d|-(?!\d+[.,]\d\d(?![\d.,]))\d)" + _NOT_AFTER
)
"""A bare number: whole or with two decimals, not part of a longer dotted, dashed, slashed
or glued number, nor a count of something else."""
_WORD_AFTER = re.compile(
    r"(?:\s*(?:to|or|and|-|\u2013)\s*\d+)*[\s\-]*(?!(?:or|and|to|vs|nor)\b)[a-z]"
)
"""What follows a whole number that counts or names something (``4 dome``, ``3-pack``,
``3 to 5 business days``)."""
QUALIFIERS = (
    "total totals tops max maximum minimum otherwise instead ish flat even exactly only "
    "just overall altogether approx approximately roughly then if "
    "unless is was were would will should could might may must maybe perhaps possibly "
    "probably either also too though anyway"
).split()
"""Words that may follow an amount without naming what a number counts (``74 total``,
``74 tops``, ``74 otherwise``, ``74 is right``, ``74-ish``): a candidate value followed by
one is still read."""
_QUALIFIER_AFTER = re.compile(r"[\s\-]*(?:" + "|".join(QUALIFIERS) + r")\b")
_DIGIT_RUN = re.compile(r"(?<![\w.,/:#@$-])\d+(?: \d+){2,}(?![\w%]|[.,/:-]\d)")
"""Three or more digit groups separated by single spaces (``9205 5010 0428 0000 0400 74``):
one identifier (a tracking, card or account number) when it holds ten digits or more."""
_LABEL_BEFORE = re.compile(
    r"(?:(?<![a-z0-9])(?:" + "|".join(LABELS) + r")\w*[\"']?(?:[ \t]+[a-z]+){0,2}[ \t]*[:=|]"
    r"|(?<![a-z0-9])(?:"
    + "|".join(LABELS)
    + r")\w*[\"']?[ \t]*(?:[:=|]|\b(?:of|is|was|are|were|be|"
    r"will be|would be|comes to|came to|at)\b)?"
    r"|(?<![a-z0-9])(?:" + "|".join(HEDGES) + r")[ \t]*[:=]?"
    r")[ \t]*[\[({\"']*[ \t]*\Z"
)
_LINK = re.compile(
    r"\A(?:[\s()\[\]{}\"']|,|;|/|\||\bor\b|\band\b|\bto\b|\bnor\b|\bvs\b\.?|->|→|~|-|\u2013"
    r"|\u2014|\b(?:maybe|perhaps|possibly|even|also|alternatively|else|either|just)\b)*\Z"
)
"""The text between two items of one series (nothing but separators, brackets, hedges)."""
_MONTH_BEFORE = re.compile(r"\b(?:" + "|".join(MONTH_WORDS) + r")\.?[ \t]+(?:the[ \t]+)?\Z")
"""A month name right before a day number: ``delivered on January 29`` is a date."""
_ROW = re.compile(r"[ \t]*\|")
_ITEM = re.compile(r"[ \t]*(?:[-*•+·]|\d{1,2}[.)])[ \t]+")
_NAMED = re.compile(r"\b([a-z]+)[ \t]*[:#]?[ \t]*\Z")
"""The word right before a number (``size 10.50``, ``pickup 10.30``)."""
_NEUTRAL = frozenset(
    "or and to vs nor of is was be are were with maybe perhaps possibly even alternatively "
    "else either just".split()
)
_WORDS = re.compile(r"[a-z]+")


Token = tuple[int, int, Fraction, bool]
"""A bare number: start, end, cents, whether it is whole."""


def _value(raw: str, decimals: bool) -> Fraction:
    """``90``, ``1,234``, ``7.95``, ``7,95``, ``1,234.50`` as a Fraction of dollars."""
    whole, frac = (raw[:-3], raw[-2:]) if decimals else (raw, "")
    return Fraction(int(whole.replace(",", "") or "0")) + (Fraction(int(frac), 100) if frac else 0)


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``text[start:end]`` overlaps one of ``spans`` (sorted, not overlapping)."""
    k = bisect_left(spans, (start, start))
    return (k < len(spans) and spans[k][0] < end) or (k > 0 and spans[k - 1][1] > start)


def bare_amounts(
    text: str, marked: list[tuple[int, int]], candidates: Collection[int] = ()
) -> list[tuple[int, int, Fraction]]:
    """The bare numbers of the prepared ``text`` that are amounts (see the module
    docstring), as ``(start, end, cents)``; ``marked``: the spans of the money mentions
    (they are amounts, and no bare number is inside one); ``candidates``: the amounts the
    check knows, in integer cents."""
    cands = set(candidates)
    spans = sorted(marked)
    tokens: list[Token] = []
    lines, at = [], 0
    for line in text.split("\n"):
        lines.append((at, at + len(line)))
        at += len(line) + 1
    markers = []
    for a, b in lines:
        if (m := _ITEM.match(text, a, b)) is not None:
            markers.append((a, m.end()))
    idents = [
        r.span() for r in _DIGIT_RUN.finditer(text) if sum(c.isdigit() for c in r.group()) >= 10
    ]
    for t in _TOKEN.finditer(text):
        s, e = t.span("num")
        if _overlaps(spans, s, e) or _overlaps(markers, s, e) or _overlaps(idents, s, e):
            continue
        whole = t.group("dec") is None
        cents = _value(t.group("num"), not whole) * 100
        if whole and (len(t.group("num")) > 5 or _counts(text, e, cents in cands)):
            continue
        if (
            whole
            and int(t.group("num").replace(",", "")) <= 31
            and _MONTH_BEFORE.search(text, max(0, s - 16), s)
        ):
            continue  # a day of a month: "delivered on January 29"
        tokens.append((s, e, cents, whole))
    amount = [
        c in cands or _LABEL_BEFORE.search(text[max(0, s - 60) : s].rsplit("\n", 1)[-1]) is not None
        for s, _, c, _ in tokens
    ]
    _series(text, tokens, marked, amount)
    _Reader(text, tokens, spans, amount).blocks(lines)
    _series(text, tokens, marked, amount)
    return [(s, e, c) for (s, e, c, _), yes in zip(tokens, amount, strict=True) if yes]


def _counts(text: str, end: int, candidate: bool) -> bool:
    """Whether the whole number ending at ``end`` counts or names something: a word
    follows it (`_WORD_AFTER`: ``4 Dome Tent``), unless it is a candidate value and the
    word a qualifier (``74 total``, ``74 tops``, ``74 is right``: `QUALIFIERS`)."""
    if _WORD_AFTER.match(text, end) is None:
        return False
    return not (candidate and _QUALIFIER_AFTER.match(text, end) is not None)


def _named_otherwise(text: str, start: int) -> bool:
    """Whether the word right before ``start`` names the number something else than money
    (``size 10.50``, ``pickup 10.30``, ``section 4.12``)."""
    m = _NAMED.search(text, max(0, start - 40), start)
    if m is None:
        return False
    word = m.group(1)
    return not (word in _NEUTRAL or word in HEDGES or word.startswith(tuple(LABELS)))


def _series(
    text: str,
    tokens: list[Token],
    marked: list[tuple[int, int]],
    amount: list[bool],
) -> None:
    """Mark every token linked to an amount on its line (`_LINK`), transitively, but one
    named otherwise (``size 10.50``: `_named_otherwise`)."""
    items = sorted(
        [(s, e, i) for i, (s, e, _, _) in enumerate(tokens)] + [(s, e, -1) for s, e in marked]
    )
    line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
    rows = [_ROW.match(text, at) is not None for at in line_starts]
    groups: list[list[int]] = []
    for k, (s, _, i) in enumerate(items):
        prev = items[k - 1] if k else None
        between = text[prev[1] : s] if prev is not None else ""
        table_row = rows[bisect_right(line_starts, s) - 1]
        linked = (
            prev is not None
            and "\n" not in between
            and _LINK.match(between) is not None
            and not (table_row and "|" in between)
        )
        if linked:
            groups[-1].append(i)
        else:
            groups.append([i])
    for g in groups:
        if any(i == -1 or amount[i] for i in g):
            for i in g:
                if i != -1 and not _named_otherwise(text, tokens[i][0]):
                    amount[i] = True


class _Reader:
    """The lists and tables of a prepared text, and which of its tokens are amounts."""

    def __init__(
        self, text: str, tokens: list[Token], marked: list[tuple[int, int]], amount: list[bool]
    ) -> None:
        self.text, self.tokens, self.marked, self.amount = text, tokens, marked, amount
        self.starts = [t[0] for t in tokens]

    def inside(self, a: int, b: int) -> list[int]:
        """The tokens within ``text[a:b]`` (tokens are in text order)."""
        lo = bisect_left(self.starts, a)
        hi = bisect_left(self.starts, b)
        return [i for i in range(lo, hi) if self.tokens[i][1] <= b]

    def has_amount(self, a: int, b: int) -> bool:
        return _overlaps(self.marked, a, b) or any(self.amount[i] for i in self.inside(a, b))

    def names_money(self, a: int, b: int, *, hedges: bool) -> bool:
        words = set(_WORDS.findall(self.text[a:b]))
        return any(w.startswith(tuple(LABELS)) for w in words) or (
            hedges and bool(words & set(HEDGES))
        )

    def mark_lone(self, a: int, b: int) -> None:
        """Mark the token that is the whole of ``text[a:b]`` (bar punctuation), if one is."""
        for i in self.inside(a, b):
            s, e = self.tokens[i][0], self.tokens[i][1]
            if (
                self.text[a:s].strip(" \t*_`([") == ""
                and self.text[e:b].strip(" \t.,;:!*_`)]") == ""
            ):
                self.amount[i] = True

    def table(self, block: list[tuple[int, int]]) -> None:
        """Lone-number cells of a column with an amount or a money header are amounts."""
        text = self.text
        rows: list[list[tuple[int, int]]] = []
        for a, b in block:
            cells: list[tuple[int, int]] = []
            at = a + text[a:b].index("|") + 1
            while (bar := text.find("|", at, b)) != -1:
                cells.append((at, bar))
                at = bar + 1
            if text[at:b].strip():
                cells.append((at, b))
            if not all(set(text[c0:c1].strip()) <= set("-: ") for c0, c1 in cells):
                rows.append(cells)
        for j in range(max((len(r) for r in rows), default=0)):
            column = [r[j] for r in rows if j < len(r)]
            if any(self.has_amount(*c) for c in column) or (
                bool(column) and self.names_money(*column[0], hedges=False)
            ):
                for c in column:
                    self.mark_lone(*c)

    def blocks(self, lines: list[tuple[int, int]]) -> None:
        """Mark the lone-number items of lists and tables with an amount."""
        text = self.text

        def is_row(ln: tuple[int, int]) -> bool:
            return text[ln[0] : ln[1]].lstrip().startswith("|")

        def is_item(ln: tuple[int, int]) -> bool:
            return _ITEM.match(text, *ln) is not None

        k = 0
        while k < len(lines):
            kind = is_row if is_row(lines[k]) else is_item if is_item(lines[k]) else None
            if kind is None:
                k += 1
                continue
            run = k
            while run < len(lines) and kind(lines[run]):
                run += 1
            block = lines[k:run]
            if kind is is_row:
                self.table(block)
            else:
                intro = next(
                    (lines[j] for j in range(k - 1, -1, -1) if text[slice(*lines[j])].strip()),
                    None,
                )
                items = [(m.end(), lb) for la, lb in block if (m := _ITEM.match(text, la, lb))]
                if any(self.has_amount(*it) for it in items) or (
                    intro is not None and self.names_money(*intro, hedges=True)
                ):
                    for it in items:
                        self.mark_lone(*it)
            k = run


_CLAUSE_END = re.compile(r"[!?;\n]|\.(?!\d)|(?<!\d)\.")
_FEE = re.compile(
    r"\b(?:fees?|charges?|charged|surcharges?|restocking|shipping|postage|handling|penalty"
    r"|penalties|deductible|free)\b"
)
_LEFT = re.compile(r"\b(?:nothing|none|no)\b.*\b(?:left|leftover|remaining|remains|unapplied)\b")
"""A zero stated as what is left over (``Nothing left unapplied ($0.00 on account).``)."""
_BALANCE = re.compile(r"\b(?:open|outstanding|owing|owed|unpaid|balance|due|remaining)\b")
"""A zero stated as the balance a document is left with (``paid in full ($0.00 open)``,
``balance $0.00``): what is open is nothing, no amount that competes with one stated."""
_HEDGE = re.compile(
    r"\b(?:" + "|".join(HEDGES) + r"|otherwise|else|alternatively|if|unless|instead)\b"
)


def waived_zeros(text: str, starts: list[int], zeros: list[int]) -> list[int]:
    """Which of the zero amounts ``zeros`` (indexes into ``starts``, the start of every
    mention of the prepared ``text``) are waived fees: alone in their clause (up to ``.``
    ``;`` ``!`` ``?`` or a line break) with a fee word (``There is no restocking fee
    ($0.00).``, ``return shipping $0.00``); not ``$45.00 or $0.00`` (no fee word) nor
    ``$45.00, no fee ($0.00)`` (another amount in the clause). A zero stated as nothing
    left over is waived the same way (``Nothing left unapplied ($0.00 on account).``:
    a no-word and a leftover word, `_LEFT`), and so is a zero balance (``now paid in full
    ($0.00 open)``, ``balance due $0.00``: a balance word, `_BALANCE`), but neither beside a
    hedge (``maybe nothing is left ($0.00)``, ``$0.00 or so open``)."""
    if not zeros:
        return []
    bounds = [0, *(m.end() for m in _CLAUSE_END.finditer(text)), len(text) + 1]

    def clause(at: int) -> int:
        return bisect_right(bounds, at)

    count: dict[int, int] = {}
    for at in starts:
        count[clause(at)] = count.get(clause(at), 0) + 1
    out = []
    for k in zeros:
        c = clause(starts[k])
        if count[c] != 1:
            continue
        words = text[bounds[c - 1] : bounds[c]]
        if _FEE.search(words) is not None or (
            (_LEFT.search(words) is not None or _BALANCE.search(words) is not None)
            and _HEDGE.search(words) is None
        ):
            out.append(k)
    return out
