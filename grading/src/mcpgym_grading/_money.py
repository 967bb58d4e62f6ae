"""Money mentions: every way a text states an amount, parsed to a currency and cents.

What the rubric reads as "a text states amount X" (`AnswerMatch` with ``normalize="money"``)
starts here: every *money mention* of the text is found and parsed, whatever its form, so an
amount written in another form is neither taken for the right one nor slipped past a check
that forbids it. A mention is a number marked as money:

- a currency sign or code before or after it: ``$45``, ``US$ 45``, ``USD 45``, ``45 USD``,
  ``45$``, ``45 US$``, ``usd45``, ``USD: 45``, ``💲45``, ``%2445``, ``&#36;45`` (HTML
  entities are decoded); any other currency sign or
  code (``€45``, ``£45``, ``EUR 45``, ``45 CAD``, ``CA$45``, ``45 euros``) is a mention in
  *that* currency, never a dollar amount;
- a unit word after it: ``45 dollars``, ``45 US dollars``, ``45 bucks``, ``45 dol.``,
  ``45 smackers``, ``45.00-dollar``,
  ``4500 cents``, ``50¢``; ``12 dollars 50`` and ``12 dollars and 50 cents`` are 1250;
- numbers written in words: ``forty-five dollars and fifty cents`` (4550), ``a hundred
  bucks``;
- a scale: ``$45k`` (4500000), ``$1.2m``, ``$3 million``, ``$3 bn`` (a scale letter is
  glued to its number: ``$45 k?`` and ``$45 b/c`` are 4500);
- the numbers of a list with a mention at either end (``$45.00 or 90.00``, ``$45.00, 90.00``,
  ``5.39, 7.95 or 45.00 dollars``): the same currency; a whole number only in a list with an
  ``or`` (``$45, 90 or 12``; not ``$45, 2 items``), never one with a unit of its own.

Numbers: ``1,234.50``, ``1.234,50``, ``1 234.50`` (groups of three), ``45,00`` (a comma
followed by one or two digits is a decimal comma), ``45.000`` (45; ``12.505`` is 1250.5
cents, an amount no integer number of cents equals), superscript cents (``$45⁰⁰`` is 4500),
any script's digits (dingbat digits ``❺`` too) and the Arabic decimal separator; a vulgar
fraction is its decimals (``$45½`` is 4550); a check-writer's ``forty-five and 00/100
dollars`` is 4500. A sign or parentheses are ignored (``-$5`` and ``$(5)`` are 500; a minus
sign marks the mention `Mention.negative`, which a check with ``signed_money`` reads). Bare
numbers are not money (``order 100234``, ``25.00``), except for a money check:
``money_mentions(text, bare=True, candidates=...)`` also reads a bare number that is a
candidate amount or stands in an amount context (`mcpgym_grading._money_bare`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, replace
from fractions import Fraction

from mcpgym_grading._money_bare import bare_amounts, waived_zeros
from mcpgym_grading._money_hedges import hedge, shown_computation
from mcpgym_grading._money_prepare import prepare
from mcpgym_grading._text import REMEMBERED_CHARS

MAX_AMOUNT_DIGITS = 15
"""Longer digit runs are not read as money amounts (no real amount has them)."""

USD = "USD"
"""The currency of the amounts a money check compares (integer cents of US dollars)."""

_FOREIGN_DOLLAR_PREFIXES = {
    "c": "CAD",
    "ca": "CAD",
    "a": "AUD",
    "au": "AUD",
    "nz": "NZD",
    "hk": "HKD",
    "s": "SGD",
    "sg": "SGD",
    "r": "BRL",
    "mx": "MXN",
    "nt": "TWD",
}

_CODES = (
    "usd eur gbp jpy cad aud nzd chf cny rmb inr mxn hkd sgd sek nok dkk brl zar krw rub "
    "pln czk huf ils thb php idr myr twd aed sar ars clp ngn egp vnd uah"
).split()
"""Currency codes read as markers (``try``, ``cop``, ``pen`` and other codes that are English
words are not; nor are unit words that are: ``pound``, ``real``, ``won``)."""

_WORD_UNITS: dict[str, str] = {
    "dollar": USD,
    "dollars": USD,
    "buck": USD,
    "bucks": USD,
    "dol": USD,
    "dols": USD,
    "smacker": USD,
    "smackers": USD,
    "clams": USD,
    "euro": "EUR",
    "euros": "EUR",
    "quid": "GBP",
    "yen": "JPY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rupee": "INR",
    "rupees": "INR",
    "peso": "MXN",
    "pesos": "MXN",
    "franc": "CHF",
    "francs": "CHF",
    "ruble": "RUB",
    "rubles": "RUB",
    "rouble": "RUB",
    "roubles": "RUB",
    "reais": "BRL",
    "krona": "SEK",
    "kronor": "SEK",
    "krone": "NOK",
    "kroner": "NOK",
    "zloty": "PLN",
    "baht": "THB",
    "shekel": "ILS",
    "shekels": "ILS",
    "dirham": "AED",
    "dirhams": "AED",
}
"""Unit words after a number, and the currency each names (``dollars`` is US dollars; a
qualified foreign dollar, ``canadian dollars``, is caught by its qualifier)."""

_DOLLAR_QUALIFIERS = {
    "canadian": "CAD",
    "australian": "AUD",
    "hong kong": "HKD",
    "singapore": "SGD",
    "new zealand": "NZD",
    "mexican": "MXN",
}

_SIGNS = {
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₽": "RUB",
    "₺": "TRY",
    "₪": "ILS",
    "₫": "VND",
    "₱": "PHP",
    "฿": "THB",
    "₴": "UAH",
    "₦": "NGN",
}

_SCALES = {
    "k": 1000,
    "thousand": 1000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mn": 1_000_000,
    "million": 1_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}


@dataclass(frozen=True)
class Mention:
    """One money mention: its currency (``"USD"``, ``"EUR"``...), its amount in cents (a
    `Fraction`: ``$12.505`` is 2501/2, which no integer equals) and the text it was read
    from (normalised). ``waived``: a zero amount stated as a fee that is not charged, alone
    in its clause with a fee word (``There is no restocking fee ($0.00).``, ``return
    shipping $0.00``): no competing amount (`mcpgym_grading._money_bare.waived_zeros`)."""

    currency: str
    cents: Fraction
    text: str
    waived: bool = False
    whole_bare: bool = False
    glued: bool = False
    """Written glued to letters or an underscore (``$266.13ish``, ``$90_max``, ``is$266``):
    an amount all the same, so it competes with the expected one, but a hedged or mangled
    form never states it."""
    hedged: bool = False
    """Under arithmetic or an approximation (``50% of $45``, ``$45 x 2``, ``up to $45``,
    ``$45 or so``: `mcpgym_grading._money_hedges`): an amount all the same, which competes
    with the expected one, but it never states it (round 12's H12a/H12b)."""
    bound: bool = False
    """Hedged by comparison words only (``up to $250.00``, ``more than $250.00``, ``$250.00
    at most``, ``$250.00 or less``: `mcpgym_grading._money_hedges.hedge`): the wording of a
    limit, which a check without an expected amount accepts on a limit's own amount
    (`mcpgym_grading._answer_check`); every other hedge is arithmetic or an approximation."""
    computed: tuple[int, Fraction] | None = None
    """Where a hedged mention is the unit price of a computation shown with its result
    (``2 x $51.70 + tax = $120.00``, ``$120.00 (2 x $51.70 plus tax)``:
    `mcpgym_grading._money_hedges.shown_computation`): ``(quantity, result)``, the result
    in cents as stated; a check weighs the hedge by it (`mcpgym_grading._answer_check`)."""
    product: bool = False
    """The product a multiplier states (``2 x $324.94`` is $649.88 too): an amount stated,
    read by the guards, but not a written figure a role binds (the multiplied one is)."""
    negative: bool = False
    """Written with a minus sign (``-$949.00``, ``$-949.00``, ``(-949.00 USD``): a negative
    amount, read as such by a check with ``signed_money`` (`_negative`); a dash with a space
    after it (``Refund - $5.00``) or after a letter or digit (``$5.00-$6.00``) is none."""

    @property
    def whole_cents(self) -> int | None:
        """The amount as integer cents, or None when it is not a whole number of cents."""
        return int(self.cents) if self.cents.denominator == 1 else None


# ---- the scanner ---------------------------------------------------------------------


def _sign_chars() -> str:
    # every currency sign of Unicode (category Sc) but the dollar and the cent
    return "".join(
        c for c in map(chr, range(0x10000)) if unicodedata.category(c) == "Sc" and c not in "$¢"
    )


_SIGN_CHARS = re.escape(_sign_chars())
_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 1,234.50
    r"|\d{1,3}(?:\.\d{3})+,\d{1,2}"  # 1.234,50
    r"|\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?"  # 1 234.50
    r"|\d+(?:[ \n]?\.\d+|,\d+)?"  # 45.00, 45 .00 (a line break before the point), 45,00, 45
)
_END = r"(?!\d|[.,]\d)"
_SCALE = (  # a scale letter glued to the number ("$45k", not "$45 k?" nor "$45 b/c")
    r"(?:(?P<{g}>k|mm|mn|m|bn)(?![\w/])|\s?(?P<{g}w>mm|mn|bn|thousand|million|billion)\b)?"
)
_CODE = r"(?:" + "|".join(_CODES) + r")"
_QUAL = "|".join(_DOLLAR_QUALIFIERS)
_PREFIX = (
    r"(?P<pre>(?<![a-z])(?P<dq>us|" + "|".join(_FOREIGN_DOLLAR_PREFIXES) + r")?\$"
    r"|[" + _SIGN_CHARS + r"]|\b" + _CODE + r"(?![a-z])|\b(?:dollars?|bucks?|euros?)\b)"
)
_UNIT = (  # a trailing `$` marks the number before it only when no number follows it:
    # in `Dr 6600 $1,995.50` the `$` is the prefix of $1,995.50 and 6600 is no money
    r"(?P<post>(?P<pdq>us|"
    + "|".join(_FOREIGN_DOLLAR_PREFIXES)
    + r")?\$(?![\s(]*-?\d)|¢|["
    + _SIGN_CHARS
    + r"]"
    r"|(?:(?P<qual>us|u s|american|"
    + _QUAL
    + r")\s)?(?P<unitword>"
    + "|".join(sorted(_WORD_UNITS, key=len, reverse=True))
    + r")\b|cents?\b|"
    + _CODE
    + r"\b)"
)
_TAIL = (  # 12 dollars 50, 12 dollars and 50 cents
    r"(?:\s*(?:and\s+)?(?P<tail>\d{1,2})\s*(?:cents?\b|¢)"
    r"|\s+(?P<tail2>\d{2})(?!\d|[.,]\d|\s*[a-z%]))?"
)
_MONEY = re.compile(
    # a marker before the number: $45, USD 45, €45, US$ 45, $ (45), -$45, usd45
    r"(?:"
    + _PREFIX
    + r"[\s(\-:]*(?P<n1>"
    + _NUMBER
    + r")"
    + _END
    + _SCALE.format(g="s1")
    + r"(?![\w%])"
    + r")"
    # a marker after it: 45 USD, 45 dollars, 45.00-dollar, 4500 cents, 45$, 45 euros
    r"|(?:(?<![\w.,])(?P<num>"
    + _NUMBER
    + r")"
    + _END
    + _SCALE.format(g="scale")
    + r"[\s\-]*"
    + _UNIT
    + _TAIL
    + r")"
)
_NOT_MONEY_AFTER = (  # a number of something else: 12.50 kg, 15.00%, 12.50 pm, 2 items
    r"(?!\s?(?:%|°|(?:percent|kg|g|lbs?|oz|km|mi|miles?|cm|mm|ft|h|hrs?|hours?|min|minutes?"
    r"|days?|weeks?|months?|years?|items?|units?|pcs|x|am|pm|gb|mb|kb)\b))"
)
_LISTED = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{2})?|\d+(?:\.\d{2})?)" + _END + r"(?![\w%])"
_SEP = r"(?P<sep>,|;|/|\bor\b|\band\b|\bto\b|-)"
_LIST_NEXT = re.compile(r"[\s()]*" + _SEP + r"[\s(]*" + _LISTED + _NOT_MONEY_AFTER)
_LIST_PREV = re.compile(r"(?<![\w.,])" + _LISTED + r"[\s()]*" + _SEP + r"[\s(]*\Z")
_GLUED = re.compile(  # a sign with letters glued on either side: "$266.13ish", "is$266"
    r"(?P<sign>[$" + _SIGN_CHARS + r"])[\s(]*(?P<n>" + _NUMBER + r")" + _END
)
_DIGIT = re.compile(r"\d")
"""A digit (of any script: what ``\\d`` in `_NUMBER` reads)."""
_TIMES_BEFORE = re.compile(r"(?<![\w.,$])(?P<k>[2-9]|[1-9]\d)[ \t]*(?:x|\u00d7|\*|times)[ \t]*\Z")
"""A multiplier right before a mention (``2 x $324.94``, ``3 × $5``, ``2 times $45``): the
text states the product too."""
_LIST_WINDOW = 200
"""How far before a mention its list is looked for (characters)."""


def _listed(chain: list[tuple[str, str, tuple[int, int]]]) -> list[tuple[str, tuple[int, int]]]:
    """The numbers of a list chained to a mention (nearest first, each ``(separator,
    number, span)``) that are amounts: a two-decimal number always, a whole number only in a
    list with an ``or`` (``$45, 90 or 12``; not ``$45, 2 items``); up to the first that is
    not."""
    any_or = any(sep == "or" for sep, _, _ in chain)
    out: list[tuple[str, tuple[int, int]]] = []
    for _, num, span in chain:
        if "." not in num and not any_or:
            break
        out.append((num, span))
    return out


def _number(raw: str) -> Fraction | None:
    """A number as written (``1,234.50``, ``1.234,50``, ``1 234``, ``45,00``) as a Fraction."""
    raw = raw.replace(" ", "")
    if "," in raw and "." in raw:
        dec = "," if raw.rfind(",") > raw.rfind(".") else "."
        whole, frac = raw.rsplit(dec, 1)
        whole = whole.replace(",", "").replace(".", "")
    elif "," in raw:
        groups = raw.split(",")
        if len(groups) == 2 and len(groups[1]) in (1, 2):
            whole, frac = groups  # a decimal comma: 45,00
        else:
            whole, frac = "".join(groups), ""
    elif raw.count(".") > 1:
        whole, frac = raw.replace(".", ""), ""
    else:
        whole, _, frac = raw.partition(".")
    if len(whole) > MAX_AMOUNT_DIGITS or len(frac) > MAX_AMOUNT_DIGITS:
        return None  # not a plausible amount (and int() refuses >4300 digits)
    value = Fraction(int(whole or "0"))
    if frac:
        value += Fraction(int(frac), 10 ** len(frac))
    return value


def _currency(m: re.Match[str]) -> tuple[str, bool]:
    """The currency a match names, and whether its number counts cents (``45 cents``)."""
    pre = m.group("pre")
    if pre is not None:
        if pre.endswith("$"):
            dq = m.group("dq")
            return (USD if dq in (None, "us") else _FOREIGN_DOLLAR_PREFIXES[dq]), False
        if pre.startswith(("dollar", "buck")):
            return USD, False
        if pre.startswith("euro"):
            return "EUR", False
        if len(pre) == 1:
            return _SIGNS.get(pre, pre), False
        return pre.upper(), False
    post = m.group("post")
    if post.endswith("$"):
        pdq = m.group("pdq")
        return (USD if pdq in (None, "us") else _FOREIGN_DOLLAR_PREFIXES[pdq]), False
    if post == "¢" or post.startswith("cent"):
        return USD, True
    if len(post) == 1:
        return _SIGNS.get(post, post), False
    word = m.group("unitword")
    if word is not None:
        qual = m.group("qual")
        if qual in _DOLLAR_QUALIFIERS and word.startswith("dollar"):
            return _DOLLAR_QUALIFIERS[qual], False
        return _WORD_UNITS[word], False
    return post.upper(), False


def money_mentions(
    text: str, *, bare: bool = False, candidates: Collection[int] = ()
) -> list[Mention]:
    """Every money mention of ``text``, in order (see `_money_mentions`): remembered per
    text, ``bare`` and set of ``candidates`` (a grade reads the same reply through several
    checks); the list is the caller's own, its `Mention` items are immutable."""
    key = frozenset(candidates) if bare else frozenset()
    return list(_money_mentions(text, bare, key))


@functools.lru_cache(maxsize=512)
def _money_mentions(text: str, bare: bool, candidates: frozenset[int]) -> tuple[Mention, ...]:
    """Every money mention of ``text``, in order (see the module docstring).

    With ``bare`` (a money check reads a reply so), a bare number that is no part of a
    mention is a mention in US dollars too when its value is one of ``candidates``
    (integer cents: ``7.95`` for 795, ``90`` for 9000) or it stands in an amount context
    (after a money label, in a series, list or table column with an amount):
    `mcpgym_grading._money_bare`. A zero amount stated as a waived fee is marked
    ``waived`` (`Mention`)."""
    scan = _scanned(text) if len(text) <= REMEMBERED_CHARS else _scan(text)
    if scan is None:
        return ()  # every form reads a number of digits (`_NUMBER`, `bare_amounts`): none
    prepared, found, found_spans, found_ends = scan
    out = list(found)
    spans = list(found_spans)
    ends = dict(found_ends)
    if bare:
        for start, end, cents in bare_amounts(prepared, spans, candidates):
            whole = not re.search(r"[.,]\d\d\Z", prepared[start:end])
            out.append((start, Mention(USD, cents, prepared[start:end], whole_bare=whole)))
            ends[start] = end
    for k, (at, m) in enumerate(out):  # under arithmetic, an approximation or a bound:
        if m.product or at not in ends:  # no amount stated as such
            continue
        kind = hedge(prepared, at, ends[at])
        if kind is not None:
            out[k] = (at, replace(m, hedged=True, bound=kind == "bound"))
    stated = {at: m for at, m in out if not (m.product or m.hedged or m.glued or m.whole_bare)}
    for k, (at, m) in enumerate(out):  # a unit price in a computation shown with its result
        if m.hedged and not m.bound and not m.product and at in ends:
            shown = shown_computation(prepared, at, ends[at], ends)
            result = None if shown is None else stated.get(shown[1])
            if shown is not None and result is not None and result.currency == m.currency:
                out[k] = (at, replace(m, computed=(shown[0], result.cents)))
    zero = [k for k, (_, m) in enumerate(out) if m.cents == 0]
    for k in waived_zeros(prepared, [at for at, _ in out], zero):
        out[k] = (out[k][0], replace(out[k][1], waived=True))
    out.sort(key=lambda pair: pair[0])
    return tuple(
        replace(mention, negative=True) if _negative(prepared, at, mention.text) else mention
        for at, mention in out
    )


_Scan = tuple[
    str, tuple[tuple[int, "Mention"], ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]
]
"""`_scan`'s reading: the prepared text, ``(start, mention)`` pairs, spans, ``(start, end)``."""


def _scan(text: str) -> _Scan | None:
    """What `_money_mentions` reads of ``text`` whatever ``bare`` and ``candidates``: the
    prepared text, the mentions of the written forms (with the lists beside them, the signs
    glued to letters and the products ``2 x $324.94``) as ``(start, mention)`` in the order
    found, their spans, and each one's end by its start; None when the prepared text has no
    digit. Remembered per text (`_scanned`): a grade reads one reply with several sets of
    candidates (one per money check and role reader)."""
    prepared = prepare(text)
    if _DIGIT.search(prepared) is None:
        return None
    out: list[tuple[int, Mention]] = []
    ends: dict[int, int] = {}  # a mention's start: its end (`_money_hedges.hedge`)
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _MONEY.search(prepared, pos)
        if m is None:
            break
        floor, pos = pos, m.end()
        raw = m.group("n1") or m.group("num")
        value = _number(raw)
        if value is None:
            continue
        scale = m.group("s1") or m.group("s1w") or m.group("scale") or m.group("scalew")
        if scale:
            value *= _SCALES[scale]
        currency, in_cents = _currency(m)
        cents = value if in_cents else value * 100
        tail = None if m.group("pre") is not None else (m.group("tail") or m.group("tail2"))
        if tail is not None and not in_cents:
            cents += int(tail)  # 12 dollars 50, 12 dollars and 50 cents
        unit = 1 if in_cents else 100
        if m.group("pre") is None:  # "5.39, 7.95 or 45.00 dollars": the list before it
            back: list[tuple[str, str, tuple[int, int]]] = []
            start = m.start()
            lo = max(floor, start - _LIST_WINDOW)
            while (p := _LIST_PREV.search(prepared, lo, start)) is not None:
                back.append((p.group("sep"), p.group("num"), p.span("num")))
                start = p.start()
            for num, span in reversed(_listed(back)):
                if (value := _number(num)) is not None:
                    out.append((span[0], Mention(currency, value * unit, num)))
                    spans.append(span)
                    ends[span[0]] = span[1]
        ends[m.start()] = m.end()
        out.append((m.start(), Mention(currency, cents, m.group(0).strip())))
        spans.append(m.span())
        # numbers listed right after it: the same currency
        chain: list[tuple[str, str, tuple[int, int]]] = []
        at = pos
        while (n := _LIST_NEXT.match(prepared, at)) is not None:
            if _MONEY.match(prepared, n.start("num")) is not None:
                break  # a mention of its own: "$45 or 9000 cents", "$45.00 or 90.00 euros"
            chain.append((n.group("sep"), n.group("num"), n.span("num")))
            at = n.end()
        for num, span in _listed(chain):
            if (value := _number(num)) is not None:
                out.append((span[0], Mention(currency, value * unit, num)))
                spans.append(span)
                ends[span[0]] = span[1]
                pos = span[1]
    for g in _GLUED.finditer(prepared):  # what no form above read: a sign glued to letters
        if any(a < g.end() and g.start() < b for a, b in spans):
            continue
        if (value := _number(g.group("n"))) is None:
            continue
        sign = g.group("sign")
        currency = USD if sign == "$" else _SIGNS.get(sign, sign)
        out.append((g.start(), Mention(currency, value * 100, g.group(0), glued=True)))
        spans.append(g.span())
        ends[g.start()] = g.end()
    for at, mention in list(out):  # 2 x $324.94: $649.88 is stated too
        times = _TIMES_BEFORE.search(prepared, max(0, at - 12), at)
        if times is not None and not mention.waived:
            k = int(times.group("k"))
            text_k = prepared[times.start() : at] + mention.text
            out.append((at, replace(mention, cents=mention.cents * k, text=text_k, product=True)))
    return prepared, tuple(out), tuple(spans), tuple(ends.items())


_scanned = functools.lru_cache(maxsize=512)(_scan)
"""`_scan` remembered (texts up to `REMEMBERED_CHARS` characters; `cache_clear` empties it)."""


_MINUS_BEFORE = re.compile(r"(?:^|(?<=[\s(\[:;,=/]))-\Z")
_MINUS_INSIDE = re.compile(r"^[$]\s?-")


def _negative(prepared: str, at: int, text: str) -> bool:
    """Whether the mention ``text`` at ``at`` of ``prepared`` has a minus sign: right before
    it (after the start, a space or an opening bracket or punctuation) or right after its
    dollar sign."""
    return bool(_MINUS_BEFORE.search(prepared[max(0, at - 2) : at])) or bool(
        _MINUS_INSIDE.match(text)
    )


def money_amounts(text: str) -> list[int]:
    """The US-dollar amounts ``text`` states as integer cents, in order (`money_mentions`
    in dollars that are a whole number of cents): ``"$1,234.50 and 12 dollars"`` ->
    ``[123450, 1200]``. Mentions in another currency are left out."""
    return [
        c
        for m in money_mentions(text)
        if m.currency == USD and not m.glued and (c := m.whole_cents) is not None
    ]
