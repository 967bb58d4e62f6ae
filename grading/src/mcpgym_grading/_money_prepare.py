"""Money parsing, part one: the text as the money parser (`mcpgym_grading._money`) reads it.

HTML entities decoded, look-alike dollar signs as ``$``, vulgar fractions as decimals,
superscript cents, `fold`, dingbat digits, Arabic separators, number words as digits.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from fractions import Fraction

from mcpgym_grading import _confusables
from mcpgym_grading._text import _ASCII_PLAIN, _ASCII_SPACES, REMEMBERED_CHARS, fold

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_WORD_SCALE = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 10**9}

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


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


def _vulgar_table() -> dict[str, str]:
    # every vulgar fraction character (category No with a numeric value below 1) as its
    # decimals: "½" is ".5" (after a digit) — NFKC would make "45½" the digits "451⁄2"
    out: dict[str, str] = {}
    for c in map(chr, range(0x10000)):
        if unicodedata.category(c) == "No" and unicodedata.decomposition(c).startswith(
            "<fraction>"
        ):
            value = Fraction(unicodedata.numeric(c)).limit_denominator(1000)
            if 0 < value < 1:
                out[c] = f"{float(value):.3f}"[1:].rstrip("0")
    return out


_VULGAR = _vulgar_table()
_VULGAR_RE = re.compile(r"(?P<d>\d)?(?P<f>[" + "".join(_VULGAR) + r"])")
_OTHER_DIGITS = {
    ord(c): str(unicodedata.digit(c))
    for c in map(chr, range(0x110000))
    if unicodedata.category(c) == "No"
    and unicodedata.digit(c, None) is not None
    and not unicodedata.decomposition(c)
}
"""Digits NFKC keeps as symbols (dingbat digits ``❺``, ``⓿``): read as the digits they show."""
_LINE_BREAK = "\ue000"
"""A private-use character standing for a line break while `fold` runs."""
_DOLLAR_LOOKALIKES = re.compile(r"\U0001f4b2|%24", re.IGNORECASE)  # 💲, a URL-escaped $
_MONEY_EMOJI = re.compile(
    r"(?P<e>[\U0001f4b0\U0001f4b5\U0001f4b8\U0001f4b6\U0001f4b7\U0001f4b4])[ \t]*(?=\d)"
)
"""A money emoji right before a number (``💵649.89``): its currency's sign (the banknotes
with a dollar, the money bag and money with wings ``$``; ``💶`` ``€``, ``💷`` ``£``, ``💴``
``¥``). Elsewhere (``Refund done 💰``) it marks nothing."""
_EMOJI_SIGN = {"\U0001f4b6": "\u20ac", "\U0001f4b7": "\u00a3", "\U0001f4b4": "\u00a5"}
_CODE_COMMA = re.compile(
    r"\b(?P<code>usd|us dollars?|dollars?)[ \t]*,[ \t]*(?=\d{1,3}(?:,\d{3})*\.\d\d(?![\d.,]\d))"
)
"""A currency code or word, a comma, then an amount with cents (``in USD, 649.89``): the
amount is in that currency (the comma dropped). A whole number after it (``in USD, 2
refunds``) stays bare."""
_GLUED_CENTS = re.compile(r"(?<![\w.,#$])(?P<n>\d{2,})c(?![\w'’])")
"""A whole number of two digits or more glued to ``c`` (``64989c``, ``50c``): cents, as
``64989 cents`` (``2c`` stays: a list item or a size as often as an amount)."""


@functools.cache
def _lookalike_number() -> re.Pattern[str]:
    """A number that may be written with digit look-alikes (`_confusables.Tables`'s
    ``digit_lookalikes``): read so where it has a digit too or stands after a currency
    sign (``$2О5.О2``, ``$бЧ9.88``, ``$⠃⠑.⠚⠚``). Compiled on first use, as the tables
    are built."""
    looks = "".join(map(chr, _confusables.tables().digit_lookalikes))
    return re.compile(rf"(?<![^\W\d_])[\d{looks}]+(?:[.,][\d{looks}]+)*(?![^\W\d_])")


_ASCII_SPACES_BUT_LINES = re.compile(_ASCII_SPACES.pattern.replace("\\\n", ""))
"""`_text._ASCII_SPACES` less the line break: what `fold` makes a space in an ASCII text."""
if _ASCII_SPACES_BUT_LINES.search("\n") or not _ASCII_SPACES.search("\n"):  # pragma: no cover
    raise ImportError("_text._ASCII_SPACES no longer lists the line feed escaped")


def _plain_ascii(text: str) -> bool:
    """Whether ``text`` (its line breaks all line feeds) is ASCII that `fold` reads its
    ASCII way (no `_text._ASCII_PLAIN` character) and no digit look-alike stands in it: its
    folded lines are then `_ASCII_SPACES_BUT_LINES` made spaces, casefolded."""
    return text.isascii() and _ASCII_PLAIN.search(text) is None and not _ascii_lookalikes()


@functools.cache
def _ascii_lookalikes() -> bool:
    """Whether an ASCII character is a digit look-alike (`_lookalike_digits`; none is)."""
    return any(c < 0x80 for c in _confusables.tables().digit_lookalikes)


def _lookalike_digits(text: str) -> str:
    lookalikes = _confusables.tables().digit_lookalikes

    def sub(m: re.Match[str]) -> str:
        run = m.group(0)
        read = run.translate(lookalikes)
        if read == run:
            return run
        after_sign = text[: m.start()].rstrip(" ")[-1:] in ("$", "\u00a3", "\u20ac")
        return read if after_sign or any(c.isdigit() for c in run) else run

    return _lookalike_number().sub(sub, text)


_CHECK_CENTS = re.compile(r"(?<![\d.,])(\d+)\s*(?:and|&)\s*(\d{2})\s*/\s*100\b")
"""A check-writer's amount, ``45 and 00/100`` (``forty-five and 00/100 dollars``): 45.00."""


_THOUSANDS_QUOTE = re.compile(r"(?<=\d)['\u2019](?=\d{3}(?!\d))")
"""An apostrophe between digit groups of three (``$1'995.50``, Swiss): a thousands
separator (round 12's F12c)."""
_ROMAN = re.compile(
    r"(?<![\w.,$])(M{0,9}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))"
    r"(?=[ \t]+(?i:(?:us[ \t]+)?(?:dollars?|bucks|usd))\b)"
)
"""A roman numeral (capitals) right before a money word (``CCV dollars``): read as its number
(round 12's A12), so the amount it names competes as any other does."""
_ROMAN_VALUES = {"m": 1000, "d": 500, "c": 100, "l": 50, "x": 10, "v": 5, "i": 1}


def _roman(m: re.Match[str]) -> str:
    word = m.group(1)
    if not word:
        return m.group(0)
    values = [_ROMAN_VALUES[c] for c in word.lower()]
    total = sum(
        -v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)
    )
    return str(total)


def prepare(text: str) -> str:
    """The text the money parser reads (`_prepare`), remembered per text up to
    `REMEMBERED_CHARS` characters (a grade reads one reply through several money and role
    readers: ~17 calls over ~7 texts a helpdesk grade)."""
    return _prepared(text) if len(text) <= REMEMBERED_CHARS else _prepare(text)


def _prepare(text: str) -> str:
    """The text the money parser reads: HTML entities decoded, the heavy dollar sign ``💲``
    and ``%24`` as ``$``, a vulgar fraction as its decimals (``45½`` is ``45.5``, never the
    digits ``451``), superscript digits after a number read as its cents (``45⁰⁰`` is
    ``45.00``), `fold`-ed (NFKC, every space, dash and digit script the same), dingbat
    digits (``❺``) as digits, Arabic decimal and thousands separators as ``.`` and ``,``,
    number words as digits (``forty-five`` is ``45``), a check-writer's ``45 and 00/100``
    as ``45.00``; a money emoji before a number as its sign (``💵649.89``), ``USD, 649.89``
    as ``USD 649.89``, a number glued to ``c`` as cents (``64989c``), an apostrophe between
    digit groups of three as a thousands comma (``1'995.50``), a roman numeral before a
    money word as its number (``CCV dollars`` is ``205 dollars``)."""
    text = html.unescape(html.unescape(text))
    text = _ROMAN.sub(_roman, _THOUSANDS_QUOTE.sub(",", text))
    text = _DOLLAR_LOOKALIKES.sub("$", text)
    if not text.isascii():  # each of these three reads a character outside ASCII
        text = _MONEY_EMOJI.sub(lambda m: _EMOJI_SIGN.get(m.group("e"), "$"), text)
        text = _VULGAR_RE.sub(lambda m: (m.group("d") or "0") + _VULGAR[m.group("f")], text)
        text = _SUPER_AFTER_DIGIT.sub(
            lambda m: "." + "".join(str(_SUPERSCRIPTS.index(c)) for c in m.group(0)).ljust(2, "0"),
            text,
        )
    # line breaks kept (a list item, a table row is a line): fold makes every space " "
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _plain_ascii(text):
        # what the lines below make of it, faster: `fold`'s ASCII way (`_text._ASCII_PLAIN`)
        # with the line breaks kept; no other digit, look-alike or Arabic separator in it
        text = _ASCII_SPACES_BUT_LINES.sub(" ", text).casefold()
    else:
        text = fold(text.replace("\n", _LINE_BREAK)).replace(_LINE_BREAK, "\n")
        text = _lookalike_digits(text.translate(_OTHER_DIGITS))  # $бЧ9.88, $⠃⠑.⠚⠚
        text = text.replace("\u066b", ".").replace("\u066c", ",")
    text = _CODE_COMMA.sub(lambda m: m.group("code") + " ", text)
    text = _GLUED_CENTS.sub(lambda m: m.group("n") + " cents", text)
    return _CHECK_CENTS.sub(r"\1.\2", _digits_for_words(text))


_prepared = functools.lru_cache(maxsize=1024)(_prepare)
"""`_prepare` remembered (the callable `prepare` reads; `cache_clear` empties it)."""
