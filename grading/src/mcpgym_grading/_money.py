"""Money mentions: every way a text states an amount, parsed to a currency and cents.

What the rubric reads as "a text states amount X" (`AnswerMatch` with ``normalize="money"``)
starts here: every *money mention* of the text is found and parsed, whatever its form, so an
amount written in another form is neither taken for the right one nor slipped past a check
that forbids it. A mention is a number marked as money:

- a currency sign or code before or after it: ``$45``, ``US$ 45``, ``USD 45``, ``45 USD``,
  ``45$``, ``usd45``, ``&#36;45`` (HTML entities are decoded); any other currency sign or
  code (``€45``, ``£45``, ``EUR 45``, ``45 CAD``, ``CA$45``, ``45 euros``) is a mention in
  *that* currency, never a dollar amount;
- a unit word after it: ``45 dollars``, ``45 US dollars``, ``45 bucks``, ``45.00-dollar``,
  ``4500 cents``, ``50¢``; ``12 dollars 50`` and ``12 dollars and 50 cents`` are 1250;
- numbers written in words: ``forty-five dollars and fifty cents`` (4550), ``a hundred
  bucks``;
- a scale: ``$45k`` (4500000), ``$1.2m``, ``$3 million``;
- a bare number with two decimals right after a mention, in a list (``$45.00 or 90.00``,
  ``$45.00, 90.00``): the same currency.

Numbers: ``1,234.50``, ``1.234,50``, ``1 234.50`` (groups of three), ``45,00`` (a comma
followed by one or two digits is a decimal comma), ``45.000`` (45; ``12.505`` is 1250.5
cents, an amount no integer number of cents equals), superscript cents (``$45⁰⁰`` is 4500),
any script's digits and the Arabic decimal separator. A sign or parentheses are ignored
(``-$5`` and ``$(5)`` are 500). Bare numbers are not money (``order 100234``, ``25.00``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from mcpgym_grading._text import fold

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
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_WORD_SCALE = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 10**9}

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


@dataclass(frozen=True)
class Mention:
    """One money mention: its currency (``"USD"``, ``"EUR"``...), its amount in cents (a
    `Fraction`: ``$12.505`` is 2501/2, which no integer equals) and the text it was read
    from (normalised)."""

    currency: str
    cents: Fraction
    text: str

    @property
    def whole_cents(self) -> int | None:
        """The amount as integer cents, or None when it is not a whole number of cents."""
        return int(self.cents) if self.cents.denominator == 1 else None


# ---- preparation: the text as the parser reads it -----------------------------------

_SUPER_AFTER_DIGIT = re.compile(r"(?<=\d)[" + _SUPERSCRIPTS + r"]{1,2}(?![" + _SUPERSCRIPTS + "])")
_WORD_RUN = re.compile(
    r"\b(?:a|" + "|".join(_UNITS + _TENS + list(_WORD_SCALE)) + r")"
    r"(?:(?:[ -]+|[ -]+and[ -]+)(?:" + "|".join(_UNITS + _TENS + list(_WORD_SCALE)) + r"))*\b"
)


def _words_value(run: str) -> int | None:
    """The value of a run of number words (``forty-five``, ``one hundred and twenty``), or
    None when it is no number (``a`` alone, ``a`` not before a scale word)."""
    words = [w for w in re.split(r"[ -]+", run) if w and w != "and"]
    if not words or (words[0] == "a" and (len(words) < 2 or words[1] not in _WORD_SCALE)):
        return None
    if words[0] in _WORD_SCALE:
        return None  # "$3 million": a scale after digits is read with them
    total = current = 0
    seen = False
    for w in words:
        if w == "a":
            current = 1
        elif w in _WORD_VALUE:
            current += _WORD_VALUE[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * _WORD_SCALE[w]
            current = 0
        seen = True
    return total + current if seen else None


def _digits_for_words(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        value = _words_value(m.group(0))
        return m.group(0) if value is None else str(value)

    return _WORD_RUN.sub(sub, text)


def prepare(text: str) -> str:
    """The text the money parser reads: HTML entities decoded, superscript digits after a
    number read as its cents (``45⁰⁰`` is ``45.00``), `fold`-ed (NFKC, every space, dash and
    digit script the same), Arabic decimal and thousands separators as ``.`` and ``,``,
    number words as digits (``forty-five`` is ``45``)."""
    text = html.unescape(html.unescape(text))
    text = _SUPER_AFTER_DIGIT.sub(
        lambda m: "." + "".join(str(_SUPERSCRIPTS.index(c)) for c in m.group(0)).ljust(2, "0"),
        text,
    )
    text = fold(text).replace("\u066b", ".").replace("\u066c", ",")
    return _digits_for_words(text)


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
    r"|\d+(?: ?\.\d+|,\d+)?"  # 45.00, 45 .00 (a line break before the point), 45,00, 45
)
_END = r"(?!\d|[.,]\d)"
_SCALE = r"(?:\s?(?P<{g}>k|mm|mn|m|bn|b|thousand|million|billion)\b)?"
_CODE = r"(?:" + "|".join(_CODES) + r")"
_QUAL = "|".join(_DOLLAR_QUALIFIERS)
_PREFIX = (
    r"(?P<pre>(?<![a-z])(?P<dq>us|" + "|".join(_FOREIGN_DOLLAR_PREFIXES) + r")?\$"
    r"|[" + _SIGN_CHARS + r"]|\b" + _CODE + r"(?![a-z])|\b(?:dollars?|bucks?|euros?)\b)"
)
_UNIT = (
    r"(?P<post>\$|¢|[" + _SIGN_CHARS + r"]"
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
    + r"[\s(\-]*(?P<n1>"
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
_LIST_NEXT = re.compile(
    r"[\s()]*(?:,|;|/|\bor\b|\band\b|\bto\b|-)[\s(]*(?P<num>\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})"
    + _END
    + r"(?![\w%])"
)


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
    if post in ("$",):
        return USD, False
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


def money_mentions(text: str) -> list[Mention]:
    """Every money mention of ``text``, in order (see the module docstring). Linear time."""
    prepared = prepare(text)
    out: list[Mention] = []
    pos = 0
    while True:
        m = _MONEY.search(prepared, pos)
        if m is None:
            return out
        pos = m.end()
        raw = m.group("n1") or m.group("num")
        value = _number(raw)
        if value is None:
            continue
        scale = m.group("s1") or m.group("scale")
        if scale:
            value *= _SCALES[scale]
        currency, in_cents = _currency(m)
        cents = value if in_cents else value * 100
        tail = None if m.group("pre") is not None else (m.group("tail") or m.group("tail2"))
        if tail is not None and not in_cents:
            cents += int(tail)  # 12 dollars 50, 12 dollars and 50 cents
        out.append(Mention(currency, cents, m.group(0).strip()))
        # bare two-decimal numbers listed right after it: the same currency
        while (n := _LIST_NEXT.match(prepared, pos)) is not None:
            more = _number(n.group("num"))
            if more is None:
                break
            out.append(Mention(currency, more * 100, n.group("num")))
            pos = n.end()


def money_amounts(text: str) -> list[int]:
    """The US-dollar amounts ``text`` states as integer cents, in order (`money_mentions`
    in dollars that are a whole number of cents): ``"$1,234.50 and 12 dollars"`` ->
    ``[123450, 1200]``. Mentions in another currency are left out."""
    return [
        c for m in money_mentions(text) if m.currency == USD and (c := m.whole_cents) is not None
    ]
