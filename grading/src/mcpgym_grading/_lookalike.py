"""Letters and digits drawn as symbols that NFKC leaves as they are: what
`mcpgym_grading._text.fold` reads them as.

NFKC folds most presentation forms of a Latin letter or a digit (fullwidth, circled
``ⓙ``, squared ``🄹``, parenthesized ``⒥``, mathematical ``𝑗``, superscript ``ʲ``), but not
every block of the same kind: the negative circled and negative squared letters (``🅙``,
``🅹``), the regional indicator letters (``🇯``; two of them pair into a flag, which is still
two letters), the squared small ``🆥``, the tortoise-shell ``🄪``, the combining Latin
letters, the squared and negative squared abbreviations (``🆔`` is ``id``), the dingbat
circled zeros (``🄋``) and the enclosed numbers from ten on (``❿``, ``⓫``, ``㉈``). They are
found by their Unicode names, so a whole block is read, not a list of characters:

- a name ``<presentation words> LATIN [CAPITAL|SMALL] LETTER X`` or ``REGIONAL INDICATOR
  SYMBOL LETTER X`` is the letter ``x``;
- in the Enclosed Alphanumeric Supplement, ``[NEGATIVE] SQUARED|CIRCLED XY`` (one word
  of two to five letters) is the letters ``xy``;
- a character with a whole numeric value whose name is presentation words around
  ``DIGIT`` or ``NUMBER`` and the number's words (``DINGBAT NEGATIVE CIRCLED NUMBER TEN``,
  ``CIRCLED NUMBER TEN ON BLACK SQUARE``) is that number's digits.

The presentation words (`PRESENTATION`) name how a glyph is drawn, never a script: a
numeral of another script (Aegean, counting rods) is no look-alike of a digit.
"""

from __future__ import annotations

import re
import unicodedata

PRESENTATION = frozenset(
    (
        "NEGATIVE CIRCLED SQUARED CROSSED PARENTHESIZED TORTOISE SHELL BRACKETED ITALIC "
        "FULLWIDTH SUPERSCRIPT SUBSCRIPT COMBINING DINGBAT SANS-SERIF DOUBLE OUTLINED BLACK "
        "WHITE ON SQUARE FULL STOP COMMA MODIFIER SEGMENTED BOLD"
    ).split()
)
"""Words of a Unicode name that say how a letter or digit is drawn (enclosed, negative,
bracketed...), not which script it belongs to."""

_LETTER = re.compile(
    r"(?:(?P<pre>[A-Z -]+) )?(?:LATIN (?:CAPITAL |SMALL )?LETTER|REGIONAL INDICATOR SYMBOL"
    r" LETTER) (?P<x>[A-Z])"
)
_ABBREVIATION = re.compile(r"(?:NEGATIVE )?(?:SQUARED|CIRCLED) (?P<x>[A-Z]{2,5})")
_ENCLOSED_SUPPLEMENT = range(0x1F100, 0x1F200)
_NUMBER_WORDS = frozenset(
    (
        "DIGIT NUMBER ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE "
        "THIRTEEN FOURTEEN FIFTEEN SIXTEEN SEVENTEEN EIGHTEEN NINETEEN TWENTY THIRTY FORTY "
        "FIFTY SIXTY SEVENTY EIGHTY NINETY HUNDRED THOUSAND"
    ).split()
)


def _reading(code: int) -> str | None:
    c = chr(code)
    name = unicodedata.name(c, "")
    if not name or re.search(r"[A-Za-z0-9]", unicodedata.normalize("NFKC", c)):
        return None  # NFKC already reads it (or it is no named character)
    m = _LETTER.fullmatch(name)
    if m:
        pre = (m.group("pre") or "").split()
        return m.group("x").lower() if set(pre) <= PRESENTATION else None
    if code in _ENCLOSED_SUPPLEMENT and (m := _ABBREVIATION.fullmatch(name)):
        return m.group("x").lower()
    value = unicodedata.numeric(c, None)
    words = set(name.split())
    if (
        value is not None
        and value == int(value)
        and words & {"DIGIT", "NUMBER"}
        and words - _NUMBER_WORDS
        and words - _NUMBER_WORDS <= PRESENTATION
    ):
        return str(int(value))
    return None


def lookalike_table() -> dict[int, str]:
    """``{code point: its letters or digits}`` for every look-alike of a Latin letter or a
    digit on the basic and supplementary multilingual planes that NFKC leaves as it is
    (see the module docstring): ``🅙`` is ``"j"``, ``🇯`` ``"j"``, ``🆔`` ``"id"``, ``❿``
    ``"10"``. Built once at import (a scan of 131,072 names)."""
    table: dict[int, str] = {}
    for code in range(0x80, 0x20000):
        reading = _reading(code)
        if reading is not None:
            table[code] = reading
    return table
