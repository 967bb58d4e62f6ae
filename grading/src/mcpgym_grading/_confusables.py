"""Letters and digits of other scripts that a reader takes for Latin ones: how the skeleton
view (`mcpgym_grading._skeleton`) and the mention readers (`mcpgym_grading._mentions`)
read them.

The classes come from Unicode's confusables data (UTS #39 ``confusables.txt``, as the
``confusable-homoglyphs`` package ships it): two characters with the same prototype look
alike. A character is read as the Latin letter or digit of its class (Cyrillic ``п`` and
Greek ``η`` as ``n``, Armenian ``ռ`` as ``n``, the dental click ``ǀ`` as ``l``, Cyrillic
``З`` as ``3``, ``б`` as ``6``), a letter with marks as its base letter's (``ё`` is ``е``,
so ``e``), a Latin small capital, dotless or script letter as its letter (found by its
Unicode name: ``ᴀ``, ``ɴ``, ``ꜱ``), and a short hand list fills what the data leaves out
(`HAND`: lowercase Cyrillic and Greek letters that only their capital's class names, ``ч``
and ``Ч`` for ``4``).

The classes are case-sensitive: capital ``I`` is confusable with ``l`` and ``1`` (one
class in the data, with ``|``), small ``i`` is not; capital ``Η`` is ``h``, small ``η``
is ``n``. So the skeleton reads the text *before* casefolding (`SKELETON`), and a
character with more than one reading (``I``: ``i`` as itself, ``l`` as its class; ``ε``:
``e`` by the hand list, ``c`` by the data) keeps every one (`READINGS`). The mention
readers, which read words, take one reading per casefolded character (`CONFUSABLES`).

Only letters and digits are read so: a symbol drawn like a letter (``×`` like ``x``,
``|`` like ``l``) stays a symbol, since honest text uses it as one; the skeleton reads
a vertical line glued between letters as ``l`` by itself (`PIPES`).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Any, NamedTuple, cast

_LATIN_LIKE = re.compile(
    r"LATIN (?:SMALL |CAPITAL )?LETTER (?:SMALL CAPITAL |DOTLESS |SCRIPT )?([A-Z])(?: WITH .+)?"
)

HAND = {
    # Cyrillic and Greek letters drawn like Latin ones (after casefolding: ``В`` is ``в``)
    **dict(
        zip("аеорсухіјѕԁԛԝһӏвнмткɑαβεηικμορτυχζ", "aeopcyxijsdqwhlbhmtkaabehikmoptuxz", strict=True)
    ),
    # Armenian, and Latin letters NFKC keeps (dotless ``ı``, script ``ɡ``...)
    **dict(zip("օոսհզցıȷɡɩʋ", "onuhqgijgiv", strict=True)),
    # Cherokee (casefolded to its capitals): ``Ꭼ`` is ``E``, ``ꮮ`` is ``Ꮮ``, ``L``
    **dict(zip("ᎠᎡᎢᎩᎪᎫᎬᎳᎷᎻᎽᏀᏃᏆᏒᏔᏕᏙᏚᏞᏟᏢᏦᏳᏴ", "drtyajewmhygzlrwsvslcpkgb", strict=True)),
    # drawn like a Latin letter or a digit, in no class of the data: Cyrillic pe (``п``,
    # an italic ``n``), che (``Ч``, ``4``), small ze (``з``, ``3``, as its capital is)
    **dict(zip("пчЧз", "n443", strict=True)),
}
"""Readings the confusables data leaves out (it has a class for ``Η`` but not ``η`` as
``h``; none for ``п``, ``Ч``). Each is one more reading of its character."""

PIPES = "|\u01c0\u05c0\u2223\uffe8\u23fd\u2758\u00a6"
"""Vertical lines drawn like ``l`` (the vertical line, dental click, Hebrew paseq, divides,
halfwidth light vertical, power-on symbol, light vertical bar, broken bar): read as ``l``
where glued between letters (``examp|e``), else as the punctuation they are (a table's
``| 9 |``)."""

I_MARK = "\u0131"
"""What the skeleton writes for a capital ``I``: the dotless ``ı``, read as ``i`` and as
``l`` (`READINGS`), so ``suIIivan`` is ``sullivan`` and ``QUINN`` is still ``quinn``."""

BRAILLE_LETTERS = "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵"
"""The braille cells of ``a`` to ``z`` (the standard English alphabet); the first ten are
also the digits ``1`` to ``9`` and ``0`` (after a number sign ``⠼``, often without it)."""

MULTI = (("rn", "m"), ("m", "rn"))
"""Letter pairs the data has as one letter's look-alike (``rn`` for ``m``): ``(seen,
wanted)``, read both ways."""


def _strip(text: str) -> str:
    text = text.replace("\u200e", "").replace("\u200f", "")
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _classes() -> dict[str, frozenset[str]]:
    """``{character: its class}`` from the confusables data: the characters that share a
    prototype (marks stripped, so ``n̩`` is ``n``), joined transitively."""
    data = cast(
        "dict[str, list[dict[str, str]]]",  # {character: [{"c": homoglyph, "n": name}]}
        json.loads(
            resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
        ),
    )
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key, glyphs in data.items():
        a = _strip(key)
        for g in glyphs:
            b = _strip(g["c"])
            if len(a) == 1 and len(b) == 1:
                parent[root(a)] = root(b)
    members: dict[str, set[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), set()).add(x)
    return {x: frozenset(members[root(x)]) for x in parent}


def _class_reading(members: frozenset[str]) -> str | None:
    """The Latin letter or digit of a class: its ASCII letter or digit (``l`` for the
    class of ``l``, ``I`` and ``1``; ``o`` for ``O`` and ``0``), else a member named as a
    Latin letter (``ᴛ``, the class of Cyrillic ``т``)."""
    ascii_ = sorted(x for x in members if x.isascii() and x.isalnum())
    if ascii_:
        return "l" if "l" in ascii_ else "o" if "O" in ascii_ else ascii_[0].casefold()
    for x in sorted(members):
        m = _LATIN_LIKE.fullmatch(unicodedata.name(x, ""))
        if m:
            return m.group(1).lower()
    return None


def _readings(c: str, classes: dict[str, frozenset[str]]) -> set[str]:
    out: set[str] = set()
    for x in dict.fromkeys((c, _strip(c))):
        if len(x) != 1:
            continue
        if x in classes and (r := _class_reading(classes[x])) is not None:
            out.add(r)
        if (m := _LATIN_LIKE.fullmatch(unicodedata.name(x, ""))) is not None:
            out.add(m.group(1).lower())
        if x.isascii() and x.isalnum() and x != c:
            out.add(x.casefold())  # é: e
    if c.casefold() in HAND:
        out.add(HAND[c.casefold()])
    if c in HAND:
        out.add(HAND[c])
    return out


def _tables() -> tuple[dict[int, str], dict[str, str], dict[int, str]]:
    classes = _classes()
    skeleton: dict[int, str] = {ord("I"): I_MARK}
    readings: dict[str, set[str]] = {I_MARK: {"i", "l"}}
    folded: dict[int, str] = {}
    hand = {*HAND, *(c.upper() for c in HAND)}
    for code in range(0x80, 0x30000):
        c = chr(code)
        if not (
            c in classes
            or c in hand
            or unicodedata.decomposition(c)[:1] not in ("", "<")  # a letter with marks
            or "LATIN" in unicodedata.name(c, "")
        ):
            continue
        if unicodedata.category(c)[0] not in "LN" or len(c.casefold()) != 1:
            continue
        got = _readings(c, classes) - {c.casefold()}
        if not got:
            continue
        low = c.casefold()
        if len(got) == 1:
            skeleton[code] = next(iter(got))
        else:
            skeleton[code] = low  # kept, read as each of its readings
            readings.setdefault(low, set()).update(got)
        if c == low:
            folded[code] = HAND.get(c) or min(got)
    return skeleton, {k: "".join(sorted(v)) for k, v in readings.items()}, folded


class Tables(NamedTuple):
    """The reading tables, built on first use (`tables`: about 0.3 s, so not at import).

    Attributes:
        skeleton: ``{code point: what the skeleton writes}`` for the text *before*
            casefolding (a Latin letter or digit, `I_MARK` for ``I``, or the casefolded
            character itself where it has several readings).
        readings: ``{character: the letters and digits it may be read as}`` for those.
        confusables: ``{code point: one Latin letter or digit}`` for casefolded text (the
            mention readers, a value's needle).
        digit_lookalikes: ``{code point: digit}``: letters of other scripts drawn like a
            digit (casefolded: Cyrillic ``з`` ``3``, ``ч`` ``4``, ``б`` ``6``, ``о``
            ``0``) and the braille cells of the digits (``⠁`` is ``1``), for the money
            reader: read as digits in a number (`mcpgym_grading._money_prepare`).
    """

    skeleton: dict[int, str]
    readings: dict[str, str]
    confusables: dict[int, str]
    digit_lookalikes: dict[int, str]


def _digit_lookalikes(skeleton: dict[int, str]) -> dict[int, str]:
    out = {
        code: r for code, r in skeleton.items() if r.isdigit() and chr(code).casefold() == chr(code)
    }
    for c in "\u043e\u03bf\u0585":  # Cyrillic, Greek and Armenian small o: 0 in a number
        out[ord(c)] = "0"
    out.update({ord(c): d for c, d in zip(BRAILLE_LETTERS[:10], "1234567890", strict=True)})
    return out


@functools.cache
def tables() -> Tables:
    """The reading tables (`Tables`), built once, on the first call (not at import:
    ``import mcpgym_grading`` does not pay for them)."""
    skeleton, readings, confusables = _tables()
    return Tables(skeleton, readings, confusables, _digit_lookalikes(skeleton))


_LAZY = {
    "SKELETON": "skeleton",
    "READINGS": "readings",
    "CONFUSABLES": "confusables",
    "DIGIT_LOOKALIKES": "digit_lookalikes",
}
"""The module's former constants, now `Tables` fields, still importable by name."""


def __getattr__(name: str) -> Any:
    """``SKELETON``, ``READINGS``, ``CONFUSABLES``, ``DIGIT_LOOKALIKES``: the `tables`
    fields of those names (built on first use)."""
    if name in _LAZY:
        return getattr(tables(), _LAZY[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
