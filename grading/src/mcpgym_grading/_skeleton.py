"""The skeleton view of `mcpgym_grading._text.TextView`: a value's letters and digits, in
order, whatever stands between them.

A value hidden from a "must not reveal" check is still the same letters and digits in the
same order: ``941.05``, ``(941) 05``, ``9 4 1 0 5`` on five lines, ``nine four one oh five``,
``janeATexample.com`` and ``jane(at)example(dot)com``. The skeleton is the folded text as a
sequence of *atoms*:

- a letter run or a digit run of the text (a token ``zip94105`` is the atoms ``zip`` and
  ``94105``: a digit run is a value's boundary even with letters glued to it);
- a spelled number, read as its digits (``nine`` is ``9``; ``twenty-eight`` is ``28``;
  ``eight hundred one`` is ``801``; ``oh`` next to a number is ``0``; spelled digits glued
  together, ``ninefourone``), or a letter of the spelling alphabet (``zulu``, ``zee`` is
  ``z``), each also as its own word; a run of braille letters, read as letters and (all
  of its cells ``a`` to ``j``) as digits; letters of other scripts, and ``I`` and a
  vertical line glued between letters, read as the Latin letter or digit of their
  look-alike class (`mcpgym_grading._confusables`: Unicode's confusables data, read before
  casefolding), in the value too;
- a separator word (`SEPARATOR_WORDS`: ``at``, ``dot``...), which a value may skip;
- a money amount (``$288.01``, as `mcpgym_grading._text.money_amounts` reads it): opaque.
  A run of atoms never crosses it, so the ZIP ``28801`` is not inside ``$288.01``.

A value is found when its letters and digits are the letters and digits of consecutive
atoms, from the start of one atom to the end of one: whatever is *between* two atoms
(spaces and line breaks of any length, ``.`` ``/`` ``,`` ``_`` ``·`` ``:``, quotes,
brackets) is no boundary, but a word is (unless it is a separator word). Where the value
itself has a separator (the ``@`` and ``.`` of an email), a separator word may also be
glued in (``janeATexample``) or the separator may be left out (``janeexample``). Where the
value has a ``0`` or a ``1``, the text may have a letter drawn like it (`DIGIT_LIKE`:
``94lO5``, ``lZ999``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from mcpgym_grading import _confusables, _prose
from mcpgym_grading._confusables import BRAILLE_LETTERS, MULTI, PIPES

if TYPE_CHECKING:
    from mcpgym_grading._view_index import AtomStarts

SEPARATOR_WORDS = frozenset(
    {
        "at",
        "dot",
        "period",
        "point",
        "underscore",
        "dash",
        "hyphen",
        "slash",
        "colon",
        "comma",
        "sign",
        "symbol",
    }
)
"""Words that stand for a separator: a value's letters and digits may have them between
(``nine four one dot zero five``, ``jane at sign example``)."""

GLUED_WORDS = ("at", "dot")
"""Separator words also found glued inside a token where the value has a separator
(``janeATexample.com``, ``janeDOTdoe``)."""

_UNITS = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())
} | {"nought": 0, "naught": 0, "nil": 0, "niner": 9, "fife": 5, "fower": 4, "wun": 1}
_RADIO_WORDS = {"too": 2, "tree": 3, "ait": 8}
"""Radio digit words that are also English words (the ICAO ``too``, ``tree``, ``ait``):
read as digits only beside another number word or digits, as ``oh`` is
(``wun too tree``)."""
_UNITS |= _RADIO_WORDS
"""Digit words, with the radio forms (``niner``, ``fife``, ``fower``, ``wun``, and
`_RADIO_WORDS`)."""
_REPEAT = {"double": 2, "triple": 3, "treble": 3}
"""``double zero`` is ``00``, ``triple five`` ``555``."""
_TEENS = {
    w: 10 + i
    for i, w in enumerate(
        "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 20 + 10 * i
    for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_SCALES = {"thousand": 1000, "million": 1_000_000}
_NUMBER_WORDS = frozenset({*_UNITS, *_TEENS, *_TENS, *_SCALES, "hundred"} - _RADIO_WORDS.keys())
_XRAY = re.compile(r"(?<![^\W_])x[- ]ray(?![^\W_])")
"""``x-ray`` and ``x ray``, the spelling alphabet's X written as two words."""

_SPELLING = {
    w: w[0]
    for w in (
        "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo "
        "lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey "
        "whisky xray yankee zulu"
    ).split()
} | {"zee": "z", "zed": "z"}
"""The spelling alphabet, and the names of Z: read as one letter (each also as its word)."""


def __getattr__(name: str) -> dict[int, str]:
    """``CONFUSABLES``: letters that a reader takes for Latin ones, one reading per
    casefolded character (`mcpgym_grading._confusables.Tables.confusables`, built on first
    use): a value's needle reads so, and the mention readers do."""
    if name == "CONFUSABLES":
        return _confusables.tables().confusables
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


LETTER_LIKE = {
    "n": "ν",
    "v": "ν",
    "o": "0",
    "l": "1",
    "i": "1",
    "z": "2",
    "e": "3",
    "a": "4",
    "s": "5",
    "g": "69",
    "t": "7",
    "b": "68",
    "q": "9",
}
"""Characters that may read as a Latin letter: the Greek ``ν`` (``Ν`` casefolded) is
drawn like ``v`` and, as a capital, like ``N``; the digits ``0`` and ``1`` like ``o`` and
``l`` / ``I`` (the reverse of `DIGIT_LIKE`: ``jane.d0e``, ``examp1e``), and the other
digits like the letters of `LONG_DIGIT_LIKE` (leet: ``3xampl3``, ``ex4mple``). Where the
value has that letter, the text may have one of them."""

DIGIT_LIKE = {"0": "o", "1": "li"}
"""Letters drawn like a digit (``O``, ``l``, ``I``): where the value has that digit, the
text may have one of them (``94lO5``, ``lZ999``)."""

LONG_DIGIT_LIKE = {"2": "z", "3": "e", "4": "a", "5": "s", "6": "gb", "7": "t", "8": "b", "9": "gq"}
"""More letters drawn like a digit (``Z`` ``E`` ``A`` ``S`` ``G`` ``T`` ``B`` ``q``, after
casefolding: ``b`` and ``g`` may be ``6``, ``8`` or ``9``), read so only in a long value of
digits alone (`mcpgym_grading._prose.LONG_VALUE` or more: a tax id ``577326433`` as
``STTEZG4EE``). In a short one they make words (the order id ``4150`` is ``also``); nine
characters in a row that spell a given number so are as improbable in honest prose as the
digits themselves."""

TOK, SEP, MONEY = 0, 1, 2

MAX_CHARS = 200
"""Values with more letters and digits than this are not looked for in the skeleton (the
other views of `TextView` still find them); the search's depth is bounded by it."""


@dataclass(frozen=True, slots=True)
class Atom:
    """One atom of a skeleton: ``texts`` its readings (the first its own letters), ``kind``
    `TOK`, `SEP` (a separator word, may be skipped) or `MONEY` (opaque), ``neg`` whether a
    minus sign stands before it (a number's sign), ``stop`` whether a prose break before it
    ends a run (`mcpgym_grading._prose`)."""

    kind: int
    texts: tuple[str, ...]
    neg: bool = False
    stop: bool = False
    pipes: int = 0


_TOKEN = re.compile(rf"(?:[^\W_]|[{BRAILLE_LETTERS}])+")
_PART = re.compile(rf"\d+|[{BRAILLE_LETTERS}]+|[^\W\d_]+")
_BRAILLE_AS_LETTERS = str.maketrans(BRAILLE_LETTERS, "abcdefghijklmnopqrstuvwxyz")
_BRAILLE_AS_DIGITS = str.maketrans(BRAILLE_LETTERS[:10], "1234567890")


def _braille(part: str) -> tuple[str, ...]:
    """A run of braille letters read as letters, and as digits where every cell is one of
    ``a`` to ``j`` (``⠃⠓⠓⠚⠁`` is ``bhhja`` and ``28801``)."""
    letters = part.translate(_BRAILLE_AS_LETTERS)
    digits = part.translate(_BRAILLE_AS_DIGITS)
    return (letters, digits) if digits.isdigit() else (letters,)


def _is_digits(tok: str) -> bool:
    return tok.isdigit()


def _cardinal(words: Sequence[str], i: int) -> tuple[int, int]:
    """The number the words from ``i`` on spell (``twenty eight thousand one``), and the
    index after them; a unit after a unit starts the next number (``nine four``)."""
    total, cur, last = 0, 0, ""
    j = i
    while j < len(words):
        w = words[j]
        if w in _UNITS and (last in ("", "hundred", "scale") or (last == "tens" and _UNITS[w])):
            cur, last = cur + _UNITS[w], "unit"
        elif w in _TEENS and last in ("", "hundred", "scale"):
            cur, last = cur + _TEENS[w], "teen"
        elif w in _TENS and last in ("", "hundred", "scale"):
            cur, last = cur + _TENS[w], "tens"
        elif w == "hundred" and last in ("unit", "teen", "tens") and cur < 100:
            cur, last = cur * 100, "hundred"
        elif w in _SCALES and last in ("unit", "teen", "tens", "hundred"):
            total, cur, last = total + cur * _SCALES[w], 0, "scale"
        elif (
            w == "and"
            and last in ("hundred", "scale")
            and j + 1 < len(words)
            and words[j + 1] in (_UNITS.keys() | _TEENS.keys() | _TENS.keys())
        ):
            pass
        else:
            break
        j += 1
    return total + cur, j


def _number_flags(toks: Sequence[str], brk: Sequence[bool]) -> list[bool]:
    """Which tokens are read as spelled numbers: number words, ``and`` between them,
    ``double`` or ``triple`` before a digit word, ``oh`` beside a number word or digits,
    and a radio word that is also an English word (`_RADIO_WORDS`) beside another number
    word with no prose break between (``brk[k]``: a break before token ``k``)."""
    n = len(toks)
    flags = [t in _NUMBER_WORDS for t in toks]
    words = _NUMBER_WORDS | _REPEAT.keys() | _RADIO_WORDS.keys() | {"oh"}
    for k, t in enumerate(toks):
        if t == "oh":
            near = [toks[x] for x in (k - 1, k + 1) if 0 <= x < n]
            flags[k] = any(x in words or _is_digits(x) for x in near)
        elif t in _RADIO_WORDS:
            flags[k] = (k > 0 and not brk[k] and toks[k - 1] in words) or (
                k < n - 1 and not brk[k + 1] and toks[k + 1] in words
            )
        elif t == "and":
            flags[k] = 0 < k < n - 1 and flags[k - 1] and toks[k + 1] in _NUMBER_WORDS
        elif t in _REPEAT:
            flags[k] = k < n - 1 and (toks[k + 1] in _UNITS or toks[k + 1] == "oh")
    return flags


_DIGIT_WORDS = (*_UNITS, *_TEENS, *_TENS, "oh")


def _glued_number(tok: str) -> str | None:
    """The digits of a token made only of spelled digits glued together
    (``ninefouroneohfive``: ``94105``), or None."""
    if len(tok) < 6 or not (tok.startswith(_DIGIT_WORDS) and tok.endswith(_DIGIT_WORDS)):
        return None
    ends: dict[int, list[str]] = {0: []}  # how the first i letters split into words
    for i in range(len(tok)):
        if i not in ends:
            continue
        for w in _DIGIT_WORDS:
            if tok.startswith(w, i) and i + len(w) not in ends:
                ends[i + len(w)] = [*ends[i], w]
    words = ends.get(len(tok))
    if not words or len(words) < 2:
        return None
    words = ["zero" if w == "oh" else w for w in words]
    out, j = "", 0
    while j < len(words):
        value, j = _cardinal(words, j)
        out += str(value)
    return out


def build(folded: str, money_spans: Sequence[tuple[int, int]]) -> tuple[Atom, ...]:
    """The atoms of the folded text (`mcpgym_grading._text.fold_cased`: before
    casefolding, so that a capital ``I`` reads as ``l`` too; a casefolded text reads the
    same but for that); ``money_spans`` (sorted ``(start, end)`` character spans of money
    amounts in the casefolded text) become one opaque atom each. Linear time."""
    # one character for one, and casefolded as `fold` does: the spans stay
    folded = folded.translate(_confusables.tables().skeleton).casefold()
    if "ray" in folded:  # x-ray: one word, padded so the spans stay
        folded = _XRAY.sub(lambda m: "xray" + " " * (len(m.group(0)) - 4), folded)
    raw: list[tuple[str, bool] | None] = []  # a token and its sign; None: a money amount
    brk: list[bool] = []  # whether a prose break stands before each raw item
    pipes: dict[int, int] = {}  # raw item: the vertical lines glued before it (`PIPES`)
    mi = 0
    in_money = -1
    prev_end = 0
    for m in _TOKEN.finditer(folded):
        s, e = m.span()
        while mi < len(money_spans) and money_spans[mi][1] <= s:
            mi += 1
        if mi < len(money_spans) and money_spans[mi][0] < e:
            if in_money != mi:
                brk.append(bool(raw) and _prose.is_break(folded[prev_end : money_spans[mi][0]]))
                raw.append(None)
                in_money = mi
            prev_end = max(e, money_spans[mi][1])
            continue
        brk.append(bool(raw) and _prose.is_break(folded[prev_end:s]))
        gap = folded[prev_end:s]
        if gap and raw and raw[-1] is not None and not gap.strip(PIPES):
            if raw[-1][0][-1:].isalpha() or folded[s].isalpha():
                pipes[len(raw)] = len(gap)  # examp|e: the | read as l too
        prev_end = e
        # a minus sign: one "-" glued to a number, not after a letter, digit or dash
        # (``9405---5932`` is digit groups split by a run of dashes)
        neg = (
            s > 0
            and folded[s - 1] == "-"
            and (s < 2 or not (folded[s - 2].isalnum() or folded[s - 2] == "-"))
        )
        raw.append((m.group(0), neg and folded[s].isdigit()))
    toks = [r[0] if r is not None else "" for r in raw]
    flags = _number_flags(toks, brk)
    atoms: list[Atom] = []
    atom_brk: list[bool] = []  # whether a prose break stands before each atom
    k = 0
    while k < len(raw):
        atom_brk.extend([False] * (len(atoms) - len(atom_brk)))
        atom_brk.append(brk[k])  # the first atom of raw item k (if it makes one)
        item = raw[k]
        if item is None:
            atoms.append(Atom(MONEY, ()))
            k += 1
            continue
        tok, neg = item
        if flags[k]:
            end = k + 1  # a spelled number does not run across a prose break
            while end < len(raw) and flags[end] and not brk[end]:
                end += 1
            words = ["zero" if t == "oh" else t for t in toks[k:end]]
            j = 0
            while j < len(words):
                if words[j] in _REPEAT and j + 1 < len(words) and words[j + 1] in _UNITS:
                    digit = str(_UNITS[words[j + 1]]) * _REPEAT[words[j]]
                    atoms.append(Atom(TOK, (toks[k + j] + toks[k + j + 1], digit)))
                    j += 2
                    continue
                value, nxt = _cardinal(words, j)
                if nxt == j:  # a stray scale word or "and": a word like any other
                    # ("and" before the last of a list of digits is a separator)
                    kind = SEP if words[j] == "and" else TOK
                    atoms.append(Atom(kind, (toks[k + j],)))
                    j += 1
                    continue
                atoms.append(Atom(TOK, ("".join(toks[k + j : k + nxt]), str(value))))
                j = nxt
            k = end
            continue
        if tok in SEPARATOR_WORDS or _list_and(toks, brk, k):
            atoms.append(Atom(SEP, (tok,)))
        elif tok in _SPELLING:
            atoms.append(Atom(TOK, (tok, _SPELLING[tok])))
        elif (digits := _glued_number(tok)) is not None:
            atoms.append(Atom(TOK, (tok, digits)))
        else:
            for p, part in enumerate(_PART.findall(tok)):
                texts = _braille(part) if part[0] in BRAILLE_LETTERS else (part,)
                glued = pipes.get(k, 0) if p == 0 else 0
                atoms.append(Atom(TOK, texts, neg and p == 0, pipes=glued))
        k += 1
    atom_brk = atom_brk[: len(atoms)] + [False] * (len(atoms) - len(atom_brk))
    if not any(atom_brk):
        return tuple(atoms)
    readings = [_piece(a) for a in atoms]
    stop = _prose.stops(readings, atom_brk)
    return tuple(replace(a, stop=True) if s else a for a, s in zip(atoms, stop, strict=True))


def _piece(atom: Atom) -> str | None:
    """An atom as `mcpgym_grading._prose.stops` reads it: ``None`` for money, ``""`` for a
    separator word, else its reading (one digit for ``triple five``: spelled digits)."""
    if atom.kind != TOK:
        return None if atom.kind == MONEY else ""
    if atom.texts[0].startswith(tuple(_REPEAT)):
        return atom.texts[-1][:1]
    return atom.texts[-1]


def _list_and(toks: Sequence[str], brk: Sequence[bool], k: int) -> bool:
    """Whether token ``k`` is the ``and`` before the last of a comma list of single
    characters (``j, a, n, e and x``; ``9, 4, 1, 0, and 5``): a separator there."""
    return (
        toks[k] == "and"
        and 0 < k < len(toks) - 1
        and len(toks[k - 1]) == 1
        and len(toks[k + 1]) == 1
        and (brk[k - 1] or brk[k])
        and not brk[k + 1]
    )


@dataclass(frozen=True, slots=True)
class Needle:
    """A value as the skeleton looks for it: its letters and digits (``chars``), where the
    value has a separator before a character (``breaks``), and its sign."""

    chars: str
    breaks: frozenset[int]
    neg: bool
    proses: frozenset[int] = frozenset()

    @classmethod
    def of(cls, folded: str) -> Needle:
        """The needle of a folded value (``jane.doe@example.org``: ``janedoeexampleorg``
        with breaks before ``d``, ``e`` and ``o``); ``proses``: where the value itself has
        a prose break (``Doe, Jane``: before ``j``), which the text may have there too."""
        chars = ""
        breaks: set[int] = set()
        proses: set[int] = set()
        end = 0
        for m in _TOKEN.finditer(folded.translate(_confusables.tables().confusables)):
            if chars:
                breaks.add(len(chars))
                if _prose.is_break(folded[end : m.start()]):
                    proses.add(len(chars))
            chars += m.group(0)
            end = m.end()
        neg = bool(re.match(r"-\d", folded.lstrip()))
        return cls(chars, frozenset(breaks), neg, frozenset(proses))


def find(
    atoms: Sequence[Atom],
    needle: Needle,
    *,
    signed: bool,
    whole: bool = False,
    index: AtomStarts | None = None,
) -> bool:
    """Whether ``needle`` is the letters and digits of consecutive ``atoms`` (see the module
    docstring). ``signed``: a number's sign must be the value's, and a signed number does not
    join the one before it. ``whole``: the match must span every atom (but separator words
    at either end). ``index``: ``atoms``' `mcpgym_grading._view_index.AtomStarts` (the same
    answer, trying only the atoms whose first character can start the needle). Linear in
    the atoms for a value of a few dozen characters."""
    v = needle.chars
    if not v or len(v) > MAX_CHARS:
        return False
    if index is not None and index.usable and not whole:
        run = _Run(atoms, needle, signed, -1)
        for start, ci in index.starts(v[0], run.more):
            if signed and atoms[start].neg != needle.neg:
                continue
            if run.consume(start, ci, 0, 0):
                return True
        return False
    if whole:
        toks = [i for i, a in enumerate(atoms) if a.kind != SEP]
        if not toks:
            return False
        starts: Sequence[int] = toks[:1]
        last = toks[-1]
    else:
        starts = range(len(atoms))
        last = -1
    run = _Run(atoms, needle, signed, last)
    first = v[0]
    for start in starts:
        atom = atoms[start]
        if atom.kind != TOK or (signed and atom.neg != needle.neg):
            continue
        for ci, text in enumerate(atom.texts):
            if _alike(text[0], first, run.more) and run.consume(start, ci, 0, 0):
                return True
    return False


def _alike(seen: str, wanted: str, more: dict[str, str] | None = None) -> bool:
    if seen == wanted:
        return True
    if more is None:
        return _alike_plain(seen, wanted)
    if more is LONG_DIGIT_LIKE:
        return _alike_long(seen, wanted)
    return _alike_of(seen, wanted, more)


@functools.lru_cache(maxsize=1 << 16)
def _alike_plain(seen: str, wanted: str) -> bool:
    """`_alike` without ``more``, remembered: the search asks it of the same character
    pairs over and over (the tables it reads are constants)."""
    return _alike_of(seen, wanted, None)


@functools.lru_cache(maxsize=1 << 16)
def _alike_long(seen: str, wanted: str) -> bool:
    """`_alike` with `LONG_DIGIT_LIKE`, remembered (as `_alike_plain`)."""
    return _alike_of(seen, wanted, LONG_DIGIT_LIKE)


def _alike_of(seen: str, wanted: str, more: dict[str, str] | None) -> bool:
    if seen == wanted:
        return True
    like = DIGIT_LIKE.get(wanted, "") + LETTER_LIKE.get(wanted, "")
    if more is not None:
        like += more.get(wanted, "")
    if seen in like:
        return True
    # a character with several readings (`READINGS`: a capital I is i or l)
    readings = _confusables.tables().readings.get(seen)
    return readings is not None and any(r == wanted or r in like for r in readings)


def _same(text: str, off: int, v: str, i: int, k: int, more: dict[str, str] | None = None) -> bool:
    """Whether ``text[off:off+k]`` reads as ``v[i:i+k]`` (`DIGIT_LIKE` letters too, and
    ``more``: `LONG_DIGIT_LIKE` for a long value of digits)."""
    if text[off : off + k] == v[i : i + k]:
        return True
    return len(text) - off >= k and all(_alike(text[off + j], v[i + j], more) for j in range(k))


@functools.lru_cache(maxsize=1 << 14)
def _plan(needle: Needle) -> tuple[bool, dict[str, str] | None, tuple[int, ...]]:
    """What `_Run` reads of a needle, worked out once per needle (a check's values are
    looked for in every text): whether it is long (`_prose.LONG_VALUE`: it crosses every
    prose break), its ``more`` table, and the first break after each position (or the end)."""
    long = len(needle.chars) >= _prose.LONG_VALUE
    more = LONG_DIGIT_LIKE if long and needle.chars.isdigit() else None
    n = len(needle.chars)
    nxt = [n] * (n + 1)
    for i in range(n - 1, -1, -1):
        nxt[i] = i + 1 if i + 1 in needle.breaks else nxt[i + 1]
    return long, more, tuple(nxt)


class _Run:
    """The search of one needle from one atom on (depth: the atoms it spans)."""

    def __init__(self, atoms: Sequence[Atom], needle: Needle, signed: bool, last: int) -> None:
        self.atoms, self.v, self.signed, self.last = atoms, needle.chars, signed, last
        self.breaks, self.proses = needle.breaks, needle.proses
        self.long, self.more, self.next_break = _plan(needle)

    def consume(self, a: int, c: int, off: int, i: int) -> bool:
        v, n = self.v, len(self.v)
        text = self.atoms[a].texts[c]
        while off < len(text):
            if i == n:
                return False  # the value ends inside an atom
            if i in self.breaks:  # a separator word glued in where the value has one
                for w in GLUED_WORDS:
                    if text.startswith(w, off) and self.consume(a, c, off + len(w), i):
                        return True
            k = min(len(text) - off, self.next_break[i] - i)
            if not _same(text, off, v, i, k, self.more):
                return self._multi(a, c, off, i, k)
            off, i = off + k, i + k
        if i == n:
            return self.last < 0 or a == self.last
        atoms = self.atoms
        for b in range(a + 1, len(atoms)):
            nxt = atoms[b]
            if nxt.kind == MONEY or (self.signed and nxt.neg):
                return False
            if nxt.stop and i not in self.proses and not self.long:
                return False  # a comma between whole values (`mcpgym_grading._prose`)
            p = nxt.pipes  # vertical lines glued before it, read as l (`PIPES`)
            if (
                p
                and i + p <= len(v)
                and _same("l" * p, 0, v, i, p)
                and any(self.consume(b, cj, 0, i + p) for cj in range(len(nxt.texts)))
            ):
                return True
            if any(self.consume(b, cj, 0, i) for cj in range(len(nxt.texts))):
                return True
            if nxt.kind != SEP:
                return False
        return False

    def _multi(self, a: int, c: int, off: int, i: int, k: int) -> bool:
        """Whether the rest of atom ``a`` (reading ``c``) from ``off`` goes on reading the
        value from ``i``, where its next ``k`` characters do not read as the value's: past
        the characters that do, a letter pair read as one letter (`MULTI`: ``rn`` for
        ``m``), or one letter as a pair."""
        text, v = self.atoms[a].texts[c], self.v
        j = 0
        while j < k and _alike(text[off + j], v[i + j], self.more):
            j += 1
        off, i = off + j, i + j
        for seen, wanted in MULTI:
            if (
                text.startswith(seen, off)
                and self.v.startswith(wanted, i)
                and self.next_break[i] >= i + len(wanted)
                and self.consume(a, c, off + len(seen), i + len(wanted))
            ):
                return True
        return False
