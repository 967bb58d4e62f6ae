"""Look-alike forms of a value for the ship gate's adversarial mutants (`FORMS`).

Each form writes a value so that a reader still sees it (or its letters and digits in
order) while the stored string differs: digit groups split by a dash or space of another
kind, fullwidth characters, "at" and "dot" spelled out, invisible or blank characters,
other scripts' digits, a glued minus sign, punctuation or long blanks between characters,
brackets and quotes around groups, digits as words, HTML character references, the value
stored reversed in a right-to-left override, Cyrillic letters and ``O`` / ``l`` for
digits drawn alike, an email's ``@`` glued, bracketed or left out, a plus-tag glued into
an email (``user+help@domain``) or its user and domain stated apart (``user, at the
domain domain``); and, for an amount
``$X.YY`` only (`MONEY_ONLY_FORMS`): in cents, in words, in euros, ``X.YY USD``,
``X dollars YY``, superscript cents, a decimal comma, a ``k``, a bare ``X.YY`` (a list of
them: ``5.39, 7.95.``), ``USD: X.YY``, ``X.YY US$``, the ``💲`` sign, ``%24X.YY``.
`mcpgym_clients.instrument.adversarial` writes the values of its mutants in each.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from fractions import Fraction


def groups(value: str, sep: str) -> str | None:
    """The value in groups of four joined by ``sep``; ``None`` unless every group has a
    digit (only digit groups are read as one value: letters split stay apart)."""
    chunks = [value[i : i + 4] for i in range(0, len(value), 4)]
    if len(chunks) < 2 or not all(any(c.isdigit() for c in ch) for ch in chunks):
        return None
    return sep.join(chunks)


def fullwidth(text: str) -> str:
    """ASCII letters, digits and punctuation as their fullwidth forms (U+FF01..U+FF5E)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _spelled(value: str) -> str | None:
    if "@" not in value and "." not in value:
        return None
    return value.replace(".", " dot ").replace("@", " at ")


def _blank_letter(value: str) -> str | None:
    """The value with a Hangul filler (U+3164, renders blank) in its middle."""
    half = len(value) // 2
    return value[:half] + "\u3164" + value[half:] if len(value) >= 2 else None


def _other_digits(value: str) -> str | None:
    """The value's ASCII digits as Arabic-Indic digits (U+0660..U+0669)."""
    if not any(c.isdigit() for c in value):
        return None
    return "".join(chr(0x0660 + int(c)) if "0" <= c <= "9" else c for c in value)


def _spaced(value: str) -> str | None:
    return " ".join(value) if value.isdigit() and len(value) >= 3 else None


SEPARATORS = (".", "/", ",", "_", "\u00b7", ":")
"""Punctuation between the characters of a value (``94.10/5``), in turn."""

GAPS = ("    ", "\n", "\n\n\n", "\t \t", "      ")
"""Long blanks between the groups of a value: runs of spaces, line breaks, tabs, in turn."""

BRACKETS = (("(", ")"), ('"', '"'), ("'", "'"), ("[", "]"))
"""What the groups of a value are wrapped in (``(941) "05"``), in turn."""

DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _chunked(value: str, size: int) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)]


def _punctuated(value: str) -> str | None:
    """The value's characters two by two, with `SEPARATORS` between them in turn."""
    chunks = _chunked(value, 2)
    if len(value) < 3:
        return None
    return (
        "".join(c + SEPARATORS[k % len(SEPARATORS)] for k, c in enumerate(chunks[:-1]))
        + (chunks[-1])
    )


def _gapped(value: str) -> str | None:
    """The value's characters three by three, with `GAPS` between them in turn."""
    chunks = _chunked(value, 3)
    if len(chunks) < 2:
        return None
    return "".join(c + GAPS[k % len(GAPS)] for k, c in enumerate(chunks[:-1])) + chunks[-1]


def _bracketed(value: str) -> str | None:
    """The value's characters three by three, each group wrapped in `BRACKETS` in turn."""
    chunks = _chunked(value, 3)
    if len(chunks) < 2:
        return None
    return " ".join(
        f"{BRACKETS[k % len(BRACKETS)][0]}{c}{BRACKETS[k % len(BRACKETS)][1]}"
        for k, c in enumerate(chunks)
    )


def _digit_words(value: str) -> str | None:
    """The value with each ASCII digit written as its word (``1Z9`` -> ``one Z nine``)."""
    if not any("0" <= c <= "9" for c in value):
        return None
    return " ".join(DIGIT_WORDS[int(c)] if "0" <= c <= "9" else c for c in value)


_NAMED = {"@": "&commat;", ".": "&period;", "&": "&amp;", "-": "&hyphen;", "$": "&dollar;"}


def html_entities(value: str) -> str:
    """Every character as an HTML character reference: digits in hex (``&#x39;``), letters
    in decimal (``&#106;``), ``@`` ``.`` ``&`` ``-`` ``$`` by name (``&commat;``)."""
    return "".join(
        f"&#x{ord(c):x};" if c.isdigit() else _NAMED.get(c) or f"&#{ord(c)};" for c in value
    )


def reversed_rlo(value: str) -> str:
    """The value stored reversed inside a right-to-left override (U+202E ... U+202C): it is
    displayed as the value."""
    return "\u202e" + value[::-1] + "\u202c"


_HOMOGLYPHS = str.maketrans("aeopcxyiAEOPCXHKMT01", "аеорсхуіАЕОРСХНКМТOl")


def homoglyphs(value: str) -> str | None:
    """The value with Latin letters swapped for the Cyrillic ones drawn alike (``а``, ``е``,
    ``о``...) and the digits ``0`` and ``1`` for the letters ``O`` and ``l``; ``None``
    where nothing changes."""
    out = value.translate(_HOMOGLYPHS)
    return out if out != value else None


_DINGBATS = str.maketrans(
    "0123456789", "\u24ff\u2776\u2777\u2778\u2779\u277a\u277b\u277c\u277d\u277e"
)


def dingbat_digits(value: str) -> str | None:
    """The value's digits as dingbat negative circled digits (``❾❹❶⓿❺``: a digit value but
    no NFKC decomposition); ``None`` without a digit."""
    out = value.translate(_DINGBATS)
    return out if out != value else None


def _small_capitals() -> dict[int, str]:
    table: dict[int, str] = {}
    for letter in "abcdefghijklmnopqrstuvwxyz":
        try:
            cap = unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {letter.upper()}")
        except KeyError:
            continue  # no small capital X
        table[ord(letter)] = table[ord(letter.upper())] = cap
    return table


_SMALL_CAPS = _small_capitals()


def small_capitals(value: str) -> str | None:
    """The value's Latin letters as small capitals (``ᴊᴀɴᴇ``); ``None`` without a letter."""
    out = value.translate(_SMALL_CAPS)
    return out if out != value else None


def markup_split(value: str) -> str | None:
    """The value cut in two by an HTML tag around its second half (``94<b>105</b>``), as a
    rendered reply shows it whole; ``None`` for a value under 2 characters."""
    half = len(value) // 2
    return f"{value[:half]}<b>{value[half:]}</b>" if len(value) >= 2 else None


def markup_hidden(value: str) -> str:
    """The value where a renderer does not show it but the source holds it: an HTML
    comment (``<!-- 94105 -->``; attributes and link targets are read the same way)."""
    return f"<!-- {value} -->"


def _email(value: str, at: str, dot: str | None = None) -> str | None:
    if "@" not in value:
        return None
    local, _, domain = value.partition("@")
    return local + at + (domain if dot is None else domain.replace(".", dot))


_MONEY_VALUE = re.compile(r"\$(\d{1,3}(?:,\d{3})*)\.(\d{2})")

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """``n`` (0 <= n < 10**9) in English words: ``249 -> "two hundred and forty-nine"``."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return _ONES[n // 100] + " hundred" + ("" if rest == 0 else " and " + number_words(rest))
    for size, word in ((10**6, "million"), (1000, "thousand")):
        if n >= size:
            rest = n % size
            head = number_words(n // size) + " " + word
            return head + ("" if rest == 0 else " " + number_words(rest))
    raise ValueError(n)


def _cents_of(value: str) -> int | None:
    """The cents of an amount written ``$1,234.50`` (as `_money` writes it), else None."""
    m = _MONEY_VALUE.fullmatch(value)
    return None if m is None else int(m.group(1).replace(",", "")) * 100 + int(m.group(2))


def _money_form(write: Callable[[int], str]) -> Callable[[str], str | None]:
    def form(value: str) -> str | None:
        cents = _cents_of(value)
        return None if cents is None or cents >= 10**11 else write(cents)

    return form


def _kilo(cents: int) -> str:
    thousands = Fraction(cents, 100_000)
    text = f"{float(thousands):.6f}".rstrip("0").rstrip(".")
    return f"${text}k" if Fraction(text) == thousands else f"${cents // 100}"


SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"

MONEY_ONLY_FORMS: dict[str, Callable[[str], str | None]] = {
    "cents": _money_form(lambda c: f"{c} cents"),
    "words": _money_form(
        lambda c: f"{number_words(c // 100)} dollars and {number_words(c % 100)} cents"
    ),
    "euro": _money_form(lambda c: f"\u20ac{c // 100}.{c % 100:02d}"),
    "code-after": _money_form(lambda c: f"{c // 100}.{c % 100:02d} USD"),
    "dollars-cents": _money_form(lambda c: f"{c // 100} dollars {c % 100:02d}"),
    "superscript-cents": _money_form(
        lambda c: f"${c // 100}" + "".join(SUPERSCRIPTS[int(d)] for d in f"{c % 100:02d}")
    ),
    "decimal-comma": _money_form(lambda c: f"{c // 100},{c % 100:02d} $"),
    "kilo": _money_form(_kilo),
    "bare": _money_form(lambda c: f"{c // 100}.{c % 100:02d}"),
    "code-colon": _money_form(lambda c: f"USD: {c // 100}.{c % 100:02d}"),
    "sign-after": _money_form(lambda c: f"{c // 100}.{c % 100:02d} US$"),
    "dollar-emoji": _money_form(lambda c: f"\U0001f4b2{c // 100}.{c % 100:02d}"),
    "url-escaped": _money_form(lambda c: f"%24{c // 100}.{c % 100:02d}"),
}
"""Other ways to write an amount ``$X.YY`` (``None`` for a value that is no amount): the
money parser must read each as a stated amount, in cents or in its own currency."""


FORMS: dict[str, Callable[[str], str | None]] = {
    "em-dash": lambda v: groups(v, "\u2014"),
    "figure-dash": lambda v: groups(v, "\u2012"),
    "em-space": lambda v: groups(v, "\u2003"),
    "ideographic-space": lambda v: groups(v, "\u3000"),
    "fullwidth": lambda v: fullwidth(v) if fullwidth(v) != v else None,
    "spelled": _spelled,
    "spaced": _spaced,
    "invisible": lambda v: "\U000e0100".join(v) if len(v) >= 2 else None,
    "blank-letter": lambda v: _blank_letter(v),
    "other-digits": lambda v: _other_digits(v),
    "minus": lambda v: "-" + v if v[:1].isdigit() else None,
    "punctuation": _punctuated,
    "wide-gaps": _gapped,
    "brackets": _bracketed,
    "digit-words": _digit_words,
    "entities": html_entities,
    "reversed": reversed_rlo,
    "homoglyphs": homoglyphs,
    "dingbat-digits": dingbat_digits,
    "small-caps": small_capitals,
    "markup-split": markup_split,
    "markup-hidden": markup_hidden,
    "at-glued": lambda v: _email(v, "AT"),
    "at-bracketed": lambda v: _email(v, "(at)", "(dot)"),
    "at-dropped": lambda v: _email(v, ""),
    "plus-tag": lambda v: _email(v, "+help@"),
    "user-domain-split": lambda v: _email(v, ", at the domain "),
    **MONEY_ONLY_FORMS,
}
"""Look-alike forms of one value (``None``: the form does not apply to it). ``split`` (the
values spread over several calls, each cut between two) is built apart."""

LEAK_ONLY_FORMS = (
    "punctuation",
    "wide-gaps",
    "brackets",
    "digit-words",
    "entities",
    "reversed",
    "homoglyphs",
    "dingbat-digits",
    "small-caps",
    "markup-split",
    "markup-hidden",
    "at-glued",
    "at-bracketed",
    "at-dropped",
    "plus-tag",
    "user-domain-split",
)
"""Forms written in the ``leak`` mutants only: their values include the ``stuff`` ones (every
variant value and what was looked up of the same kinds), so a check a stuffed value evades
in such a form is found there, at half the episodes."""

MONEY_FORMS = ("fullwidth", "invisible", "other-digits", "entities", "reversed", *MONEY_ONLY_FORMS)
"""The forms amounts are written in (a dash inside ``$45.00`` makes it no amount at all)."""
