r"""Text normalisation for `AnswerMatch`: one canonical form for every text check.

Every answer check, whether it looks for a value that must be there or for one that must
not, reads the text through `fold` and `TextView`, so a value written in another form
(fullwidth characters, an em dash or an ideographic space between digit groups, digits
split by spaces, "at" and "dot" spelled out) is found by both or by neither:

- `fold`: NFKC, character references and escapes decoded (``&#57;``, ``&commat;``, ``%40``,
  ``\u0039``), markup a reader does not see dropped (HTML tags, markdown link targets and
  emphasis, LaTeX spacing) and bidi controls resolved to display order
  (`mcpgym_grading._decode`), then every space or line separator of any kind becomes one
  space, every dash (Unicode category Pd, the minus sign) a hyphen-minus, every decimal
  digit of any script and every character with a digit value (``❾``, ``⓽``, ``➈``) its
  ASCII digit, invisible format characters (zero-width space, soft hyphen, bidi controls,
  tag characters, variation selectors, on every plane), blank letters (Hangul fillers, the
  braille blank) and leftover combining marks are dropped; letters and digits drawn as
  symbols that NFKC keeps (negative circled ``🅙`` and squared ``🅹``, regional indicators
  ``🇯``, ``🆔``, ``❿``: `mcpgym_grading._lookalike`) are read as those; then casefolded.
  Tag characters stand for ASCII: a text's source reading (`markup_source`, read beside
  the rendered one by every check) has them as that ASCII.
- `TextView`: the folded text's tokens in three streams (plain alphanumeric tokens; digit
  groups joined; spelled-out separator words dropped), searched as whole-token runs, and
  its skeleton (`mcpgym_grading._skeleton`: letters and digits whatever stands between
  them, spelled numbers read as digits, money amounts kept whole).
- `money_amounts`: amounts marked as money, in integer cents, read from the folded text.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from mcpgym_grading import _skeleton
from mcpgym_grading._decode import (
    decode_references,
    markup_source,
    strip_markup,
    visual_order,
)
from mcpgym_grading._lookalike import lookalike_table
from mcpgym_grading._view_index import AtomStarts, GroupStarts

MAX_AMOUNT_DIGITS = 15
"""Longer digit runs are not read as money amounts (no real amount has them)."""

SPELLED_SEPARATORS = frozenset({"at", "dot", "period", "underscore", "dash", "hyphen"})
"""Words that stand for a separator in a value written out to dodge a filter
(``jane dot doe at example dot org``); the third token stream of `TextView` drops them."""


BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5"
"""Characters that render as nothing or a blank but are not format characters (Hangul
fillers, the braille blank, Khmer inherent vowels): dropped like invisible marks."""


INTERLINEAR = "\ufff9\ufffa\ufffb"
"""The interlinear annotation anchor, separator and terminator (format characters): a
boundary, not nothing, since the annotation is shown apart from the text it annotates
(``\ufff9jane@example.org\ufffax\ufffb`` is not ``jane@example.orgx``)."""


def _fold_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    # the basic and supplementary multilingual planes and the special-purpose plane (tags,
    # variation selectors): every format character and combining mark of Unicode is there
    codes = [*range(0x20000), *range(0xE0000, 0xE1000)]
    for code in codes:
        c = chr(code)
        cat = unicodedata.category(c)
        if c.isspace() or cat in ("Zs", "Zl", "Zp"):
            if c != " ":
                table[code] = " "
        elif cat == "Pd" or c in "\u2212\u2043\u02d7\u2796":
            if c != "-":
                table[code] = "-"
        elif c in INTERLINEAR:
            table[code] = " "
        elif cat in ("Cf", "Mn", "Me") or c in BLANK_LETTERS:
            table[code] = None
        elif cat == "Nd" and not c.isascii():
            table[code] = str(unicodedata.decimal(c))  # ٤ (Arabic-Indic), ४, ๔ -> 4
        elif not c.isascii() and unicodedata.digit(c, None) is not None:
            # a digit NFKC leaves as it is (❾ dingbat, ⓽ double circled, ➈, 🯹): its digit
            table[code] = str(unicodedata.digit(c))
    # letters and digits drawn as symbols NFKC keeps (🅙, 🅹, 🇯, 🆔, ❿): their letters
    table.update(lookalike_table())
    return table


_FOLD = _fold_table()
_ASCII_SPACES = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in sorted(_FOLD) if c < 0x80) + "]"
)
"""The ASCII characters `_FOLD` changes (each to a space: tabs, line breaks, the
information separators): an ASCII text folds by this alone (`fold_cased`)."""
if any(_FOLD[c] != " " for c in _FOLD if c < 0x80):  # pragma: no cover - a table change
    raise ImportError("an ASCII character that _FOLD maps to something else than a space")
_ASCII_PLAIN = re.compile(r"[&%\\<*_~`]|\]\(")
"""What an ASCII text must hold for `fold_cased` to do more than `_ASCII_SPACES`: a
reference or escape to decode (``&``, ``%``, ``\\``), markup to strip (``<``, ``](``,
emphasis markers). NFKC leaves ASCII as it is, and ASCII has no bidi control."""


def fold(text: str) -> str:
    """The canonical form every text check reads (see the module docstring).

    ``"Ｊａｎｅ\u00a0—\u3000ＤＯＥ"`` folds to ``"jane - doe"``; ``"&#57;&#x34;"`` to ``"94"``;
    ``"\u202e50149\u202c"`` (shown as 94105) to ``"94105"``. Linear time; remembered
    per text up to `REMEMBERED_CHARS` characters (`_folded`: the checks of a grade fold
    one reply several times).
    """
    if len(text) > REMEMBERED_CHARS:
        return fold_cased(text).casefold()
    return _folded(text)


@functools.lru_cache(maxsize=2048)
def _folded(text: str) -> str:
    return fold_cased(text).casefold()


def fold_cased(text: str) -> str:
    """The text as `fold` reads it before casefolding: ``fold(t)`` is
    ``fold_cased(t).casefold()``. The skeleton reads it, where a capital ``I`` is also an
    ``l`` (`mcpgym_grading._confusables`)."""
    if text.isascii() and _ASCII_PLAIN.search(text) is None:
        return _ASCII_SPACES.sub(" ", text)  # the same, faster (see `_ASCII_PLAIN`)
    return visual_order(strip_markup(decode_references(text))).translate(_FOLD)


_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+")
_SIGNED_TOKEN = re.compile(r"(?<![^\W_])-(?=\d)[^\W_]+|[^\W_]+")
"""A token, with a leading minus sign when it is a number's (``-5``: the ``-`` not preceded
by a letter or digit and followed by a digit; ``1Z-999`` and ``2026-06-15`` have none)."""


def normalise_text(text: str) -> str:
    """`fold`, then collapse runs of whitespace to one space (trimmed)."""
    return _WS.sub(" ", fold(text)).strip()


def tokens(text: str, *, signed: bool = False) -> list[str]:
    """Alphanumeric tokens of the folded text; everything else (punctuation, ``_``, space)
    separates. With ``signed``, a number's leading minus sign is part of its token."""
    return (_SIGNED_TOKEN if signed else _TOKEN).findall(fold(text))


_GROUP_SEPARATOR = re.compile(r" {1,3}| ?-{1,2} ?")
"""What may stand between digit groups in the folded text: up to three spaces (of any kind
before folding) or one or two dashes (of any kind) with a space either side at most."""


def grouped_tokens(text: str, *, signed: bool = False) -> list[str]:
    """Like `tokens`, but digit-bearing tokens split by spaces or a dash are joined.

    ``"9405 5932 3632"``, ``"9405\u20145932"`` (em dash), ``"9 4 0 5"`` and ``"1Z-999-AA1"``
    become one token each (how carriers and people write tracking and phone numbers, and
    how a filter is dodged), while words stay apart. Linear time.
    """
    folded = fold(text)
    out: list[str] = []
    prev_end = -1
    prev_digit = False
    for m in (_SIGNED_TOKEN if signed else _TOKEN).finditer(folded):
        tok = m.group(0)
        has_digit = any(c.isdigit() for c in tok)
        if (
            out
            and prev_digit
            and has_digit
            and not tok.startswith("-")
            and _GROUP_SEPARATOR.fullmatch(folded[prev_end : m.start()])
        ):
            out[-1] += tok
        else:
            out.append(tok)
        prev_end, prev_digit = m.end(), has_digit
    return out


def loose_tokens(text: str, *, signed: bool = False) -> list[str]:
    """`grouped_tokens` without the `SPELLED_SEPARATORS` words (``jane at example dot org``
    has the tokens of ``jane@example.org``)."""
    return [t for t in grouped_tokens(text, signed=signed) if t not in SPELLED_SEPARATORS]


def contains_tokens(haystack: list[str], needle: list[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of whole tokens in ``haystack``."""
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


_SEP = "\x00"


def _joined(stream: Iterable[str]) -> str:
    return _SEP + _SEP.join(stream) + _SEP


def _pieces(text: str, signed: bool) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The folded text's tokens, and for each whether it may join the previous one as a
    digit group (both digit-bearing, only a `_GROUP_SEPARATOR` between, no sign)."""
    return _folded_pieces(fold(text), signed)


def _folded_pieces(folded: str, signed: bool) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """`_pieces` of a text already folded."""
    toks: list[str] = []
    joins: list[bool] = []
    prev_end, prev_digit = -1, False
    for m in (_SIGNED_TOKEN if signed else _TOKEN).finditer(folded):
        tok = m.group(0)
        has_digit = any(c.isdigit() for c in tok)
        joins.append(
            bool(toks)
            and prev_digit
            and has_digit
            and not tok.startswith("-")
            and _GROUP_SEPARATOR.fullmatch(folded[prev_end : m.start()]) is not None
        )
        toks.append(tok)
        prev_end, prev_digit = m.end(), has_digit
    return tuple(toks), tuple(joins)


def _grouped(toks: tuple[str, ...], joins: tuple[bool, ...]) -> tuple[str, ...]:
    """`grouped_tokens` from the text's `_pieces`: each token that may join the previous
    one joined to it (the same test)."""
    out: list[str] = []
    for tok, join in zip(toks, joins, strict=True):
        if join:
            out[-1] += tok
        else:
            out.append(tok)
    return tuple(out)


def _without_spelled(
    toks: tuple[str, ...], joins: tuple[bool, ...]
) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    out_t: list[str] = []
    out_j: list[bool] = []
    dropped = False
    for tok, join in zip(toks, joins, strict=True):
        if tok in SPELLED_SEPARATORS:
            dropped = True
            continue
        out_t.append(tok)
        out_j.append(join and not dropped)
        dropped = False
    return tuple(out_t), tuple(out_j)


def _find_groups(
    toks: tuple[str, ...],
    joins: tuple[bool, ...],
    groups: Sequence[str],
    index: GroupStarts | None = None,
) -> bool:
    """Whether ``groups`` (a value's grouped tokens) occur from some token on, each group
    made of one token or of consecutive tokens that may join (any run of them: a digit
    group glued to the number before it is still found). ``index``: ``toks``'
    `GroupStarts` (the same answer, trying only the tokens the first group starts with)."""
    n = len(toks)
    head = groups[0] if groups else None
    starts: Iterable[int] = range(n)
    if index is not None and head is not None:
        starts = index.starts(head)
    for start in starts:
        if head is not None and not head.startswith(toks[start]):
            continue  # the first group starts with the first token (or is it)
        k = start
        for g in groups:
            acc = ""
            first = k
            while k < n and len(acc) < len(g) and (k == first or joins[k]):
                acc += toks[k]
                k += 1
            if acc != g:
                break
        else:
            return True
    return False


@dataclass(frozen=True)
class TextView:
    """A text as every answer check reads it: folded and tokenised.

    Build it with `TextView.of` from the text's parts (the replies of an episode, in
    order); parts are joined by a line break, so a digit group cut between two replies is
    joined like one cut by a line break. `contains` and `equals` look for a value with the
    value's own tokens, so the positive and the forbidden side of a check see the same
    thing. A value is found as whole tokens, or as digit groups that may join (split by up
    to three spaces or a dash of any kind; ``9405 5932`` is ``94055932``), or with the
    `SPELLED_SEPARATORS` words dropped.

    Attributes:
        folded: the folded text. signed: whether numbers keep their minus sign.
    """

    folded: str
    signed: bool
    _plain: str
    _pieces: tuple[tuple[str, ...], tuple[bool, ...]]
    _loose: tuple[tuple[str, ...], tuple[bool, ...]]
    _lists: tuple[tuple[str, ...], ...]
    _atoms: tuple[_skeleton.Atom, ...] = field(repr=False)
    _source: TextView | None = field(default=None, repr=False)
    _found: dict[str, bool] = field(
        default_factory=dict[str, bool], init=False, repr=False, compare=False
    )
    _index: dict[str, Any] = field(
        default_factory=dict[str, Any], init=False, repr=False, compare=False
    )
    """Where searches may start (`mcpgym_grading._view_index`), built on first use."""
    """`contains` answers by value (at most `FOUND_KEPT`): a view is immutable and
    remembered per text (`_cached_view`), and the checks of a grade, and the grades of a
    variant's episodes, look for the same values in the same replies. Each view has its
    own (``init=False``: `dataclasses.replace` makes a new, empty one)."""

    @classmethod
    def of(cls, parts: Sequence[str] | str, *, signed: bool = True) -> TextView:
        r"""The view of ``parts`` (a text, or texts joined by ``"\n"``).

        A text holding markup is read twice, as rendered (tags dropped) and as its source
        (`markup_source`: attributes, comments and link targets kept); a value is in the
        text when it is in either."""
        text = parts if isinstance(parts, str) else "\n".join(parts)
        if len(text) <= VIEW_CACHE_MAX_CHARS:
            return _cached_view(text, signed)
        return cls._build(text, signed)

    @classmethod
    def _build(cls, text: str, signed: bool) -> TextView:
        source = markup_source(text)
        view = cls._of(text, signed)
        if source is None:
            return view
        return replace(view, _source=cls._of(source, signed))

    @classmethod
    def _of(cls, text: str, signed: bool) -> TextView:
        cased = fold_cased(text)
        folded = cased.casefold()
        # the text folded once: its tokens (`tokens`) are the pieces', its grouped tokens
        # (`grouped_tokens`) the pieces joined, its loose ones (`loose_tokens`) those
        # without the spelled separators
        pieces = _folded_pieces(folded, signed)
        grouped = _grouped(*pieces)
        lists = (
            pieces[0],
            grouped,
            tuple(t for t in grouped if t not in SPELLED_SEPARATORS),
        )
        spans = tuple(money_spans(folded))
        long = len(cased) > VIEW_CACHE_MAX_CHARS  # (not kept: as `_cached_view`)
        atoms = _skeleton.build(cased, spans) if long else _atoms(cased, spans)
        return cls(
            folded, signed, _joined(pieces[0]), pieces, _without_spelled(*pieces), lists, atoms
        )

    def contains(self, value: str) -> bool:
        """Whether ``value`` occurs in the text (see the class docstring).

        Raises:
            ValueError: ``value`` has no alphanumeric token.
        """
        found = self._found.get(value)
        if found is None:
            found = self._contains(value) or (
                self._source is not None and self._source._contains(value)
            )
            if len(self._found) < FOUND_KEPT:
                self._found[value] = found
        return found

    def _contains(self, value: str) -> bool:
        plain, grouped, loose, needle = _value_forms(value, self.signed)
        if not plain:
            raise ValueError(f"{value!r} has no alphanumeric token to match")
        if _joined(plain) in self._plain:
            return True
        if _find_groups(*self._pieces, grouped, self._starts("pieces", self._pieces[0])):
            return True
        if loose and _find_groups(*self._loose, loose, self._starts("loose", self._loose[0])):
            return True
        return _skeleton.find(self._atoms, needle, signed=self.signed, index=self._atom_starts())

    def _starts(self, name: str, toks: tuple[str, ...]) -> GroupStarts:
        index = self._index.get(name)
        if index is None:
            index = self._index[name] = GroupStarts(toks)
        return index

    def _atom_starts(self) -> AtomStarts:
        index = self._index.get("atoms")
        if index is None:
            index = self._index["atoms"] = AtomStarts(self._atoms)
        return index

    def equals(self, value: str) -> bool:
        """Whether the whole text is ``value``'s tokens (plain, grouped or loose), both as
        rendered and as its source (a value beside another hidden in a comment or an
        attribute is not the whole text).

        Raises:
            ValueError: ``value`` has no alphanumeric token.
        """
        if not self._equals(value):
            return False
        return self._source is None or self._source._equals(value)

    def _equals(self, value: str) -> bool:
        wanted = {
            tuple(tokens(value, signed=self.signed)),
            tuple(grouped_tokens(value, signed=self.signed)),
            tuple(loose_tokens(value, signed=self.signed)),
        } - {()}
        if not wanted:
            raise ValueError(f"{value!r} has no alphanumeric token to match")
        if any(s in wanted for s in self._lists):
            return True
        needle = _skeleton.Needle.of(fold(value))
        return _skeleton.find(self._atoms, needle, signed=self.signed, whole=True)


@functools.lru_cache(maxsize=256)
def _atoms(cased: str, spans: tuple[tuple[int, int], ...]) -> tuple[_skeleton.Atom, ...]:
    """`_skeleton.build` remembered per text: a text's signed and unsigned views read the
    same atoms (a grade asks for both)."""
    return _skeleton.build(cased, spans)


@functools.lru_cache(maxsize=1 << 14)  # a check may list thousands of values
def _value_forms(
    value: str, signed: bool
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], _skeleton.Needle]:
    """A value as `TextView.contains` looks for it: its plain, grouped and loose tokens and
    its skeleton needle (remembered: a check's values are looked for in every text)."""
    return (
        tuple(tokens(value, signed=signed)),
        tuple(grouped_tokens(value, signed=signed)),
        tuple(loose_tokens(value, signed=signed)),
        _skeleton.Needle.of(fold(value)),
    )


FOUND_KEPT = 4096
"""Values whose `TextView.contains` answer one view keeps (a forbidden list may name
thousands: past this they are looked for each time)."""

REMEMBERED_CHARS = 8192
"""The longest text (characters) whose reading a per-text cache of the readers keeps: its
`TextView` (`_cached_view`), its money text (`_money_prepare.prepare`), its decisions
(`_decisions.decisions`), its sentences and promise marks (`_decision_promises`); a longer
one is read each time."""

VIEW_CACHE_MAX_CHARS = REMEMBERED_CHARS
"""Texts up to this length have their `TextView` remembered (`_cached_view`)."""


VIEW_CACHE_CHARS = 1_000_000
"""Characters of text whose views `_cached_view` keeps in all (~40 bytes of view a
character: ~40 MB). Bounded by characters, not views: a 140-episode helpdesk campaign
reads ~280 distinct texts per pass, which a cache of 256 views forgot every pass (an LRU
read in a cycle longer than itself misses every time), while a few long replies must not
hold hundreds of MB."""


class ViewCacheInfo(NamedTuple):
    """`_ViewCache.cache_info`: lookups answered and built, views and characters kept."""

    hits: int
    misses: int
    currsize: int
    chars: int


class _ViewCache:
    """`TextView` by ``(text, signed)``, least recently used dropped first once the texts
    kept pass `VIEW_CACHE_CHARS` characters (the callable `_cached_view`)."""

    def __init__(self) -> None:
        self._views: OrderedDict[tuple[str, bool], TextView] = OrderedDict()
        self._chars = self._hits = self._misses = 0
        self._lock = threading.Lock()

    def __call__(self, text: str, signed: bool) -> TextView:
        """`TextView.of` of a short text, remembered: a view depends only on the text and
        ``signed`` and is immutable, and one grade reads the same texts through several
        checks (the submitted answer by each answer check, the expected value once per
        forbidden value in `value_within`), as do the grades of one variant's episodes."""
        key = (text, signed)
        with self._lock:
            view = self._views.get(key)
            if view is not None:
                self._views.move_to_end(key)
                self._hits += 1
                return view
            self._misses += 1
        view = TextView._build(text, signed)  # noqa: SLF001 - built outside the lock
        with self._lock:
            if key not in self._views:
                self._views[key] = view
                self._chars += len(text)
                while self._chars > VIEW_CACHE_CHARS and len(self._views) > 1:
                    (old, _), _ = self._views.popitem(last=False)
                    self._chars -= len(old)
            return self._views[key]

    def cache_clear(self) -> None:
        """Forget every view (tests, benchmarks)."""
        with self._lock:
            self._views.clear()
            self._chars = self._hits = self._misses = 0

    def cache_info(self) -> ViewCacheInfo:
        """Lookups answered and built since the last clear, views and characters kept."""
        with self._lock:
            return ViewCacheInfo(self._hits, self._misses, len(self._views), self._chars)


_cached_view = _ViewCache()


def value_within(inner: str, outer: str, *, signed: bool = True) -> bool:
    """Whether value ``inner`` occurs inside value ``outer`` (as `TextView.contains` would
    find it): a forbidden value inside the expected one cannot be forbidden."""
    try:
        return TextView.of(outer, signed=signed).contains(inner)
    except ValueError:
        return False


_NUMBER = r"(?P<{g}>\d{{1,3}}(?:,\d{{3}})+(?:\.\d{{1,2}})?|\d+(?:\.\d{{1,2}})?)(?!\d|[.,]\d)"
_MONEY = re.compile(
    r"(?:(?:US\$|\$|\bUSD)\s?-?\s?" + _NUMBER.format(g="pre") + r")"
    r"|(?:(?<![\w.,$])" + _NUMBER.format(g="post") + r"\s?(?:USD\b|(?:US\s)?dollars?\b|\$))",
    re.IGNORECASE,
)


def money_spans(folded: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans of the money amounts in the folded text (as
    `money_amounts` reads them), in order: the skeleton view keeps each whole."""
    return [m.span() for m in _MONEY.finditer(folded)]


def money_amounts(text: str) -> list[int]:
    """Money amounts in the folded ``text`` as integer cents, in order of appearance.

    Recognised: ``$1,234.50``, ``$12``, ``US$ 5``, ``USD 12.00``, ``1234.50 USD``,
    ``12 dollars``, ``249.00 US dollars``, ``249.00$``, ``249 $``, also in fullwidth or
    with any kind of space. A sign is ignored (``-$5`` is 500). Bare numbers are not amounts.
    """
    amounts: list[int] = []
    for m in _MONEY.finditer(fold(text)):
        raw = (m.group("pre") or m.group("post")).replace(",", "")
        whole, _, frac = raw.partition(".")
        if len(whole) > MAX_AMOUNT_DIGITS:
            continue  # not a plausible amount (and int() refuses >4300 digits)
        amounts.append(int(whole) * 100 + int(frac.ljust(2, "0") or "0"))
    return amounts
