"""A list of values looked for in one `mcpgym_grading._text.TextView` at once.

`TextView.contains` answers for one value: its plain tokens as a run of whole tokens, its
grouped and loose tokens (`mcpgym_grading._text._find_groups`), or its skeleton needle
(`mcpgym_grading._skeleton.find`). A forbidden list asks it of hundreds of values of the
same reply (``replies-withdraw-nothing``: 429 phrases), and each search was its own. Here
a list is prepared once (`ValueList`, kept per list) and searched in one pass per view
(`contains_each`), with every answer the one `TextView.contains` gives, value by value
(including its ``ValueError`` for a value with no alphanumeric token, answered ``None``):

- the token streams: a value's plain run, grouped and loose searches can only succeed
  where its first token (plain) or a prefix of its first group (grouped, loose; the group
  itself where it has no digit, `_keys`) is a token of the view, so each list keeps its
  values by those keys and only the values whose key is one of the view's tokens are
  searched (as `TextView` searches them);
- the skeleton: the needles of a list are one trie per ``(long, more, sign)`` (what the
  search reads of a needle beyond its characters, `mcpgym_grading._skeleton._plan`), the
  edge to each character labelled with whether the needle has a separator or a prose break
  before it (`Needle.breaks`, `Needle.proses`). The search of `_skeleton._Run`, read one
  character at a time, moves between states ``(atom, reading, offset, trie position)`` by
  rules that read only the needle's characters and labels up to that position (a letter
  pair read as one letter reads the labels of the pair's characters), so every needle
  sharing a prefix shares the states up to it: the states reachable from the starts are
  walked once, and a needle is found when a state at its end and at an atom's end is
  reached, as its own search would return True there.

A list that differs little from a large one already prepared (a variant's "every other
order's tracking number": the snapshot's numbers less its own order's) is not prepared
anew: it is searched as that list (`_BASES`: the values it does not hold are found and
dropped) and a small list of the values it lacks (`_layout`), each value answered as its
own search answers it.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mcpgym_grading import _skeleton
from mcpgym_grading._confusables import MULTI
from mcpgym_grading._skeleton import GLUED_WORDS, MAX_CHARS, MONEY, SEP, Atom, Needle

if TYPE_CHECKING:
    from mcpgym_grading._text import TextView
    from mcpgym_grading._view_index import AtomStarts

ENABLED = True
"""False: `contains_each` asks `TextView.contains` value by value (benchmarks compare)."""

_BREAK, _PROSE, _END = 1, 2, 4
"""A trie edge's label bits (a separator / a prose break before the character), and the
label of a state at a needle's end."""


class _Node:
    """A trie position: the values whose needle ends here, and the next characters by
    label (`_BREAK` | `_PROSE` bits) then character."""

    __slots__ = ("ends", "kids")

    def __init__(self) -> None:
        self.ends: list[int] = []
        self.kids: dict[int, dict[str, _Node]] = {}


class _Trie:
    """The needles of one ``(long, more, neg)`` group."""

    __slots__ = ("long", "more", "neg", "root")

    def __init__(self, long: bool, more: dict[str, str] | None, neg: bool) -> None:
        self.long, self.more, self.neg = long, more, neg
        self.root = _Node()

    def add(self, needle: Needle, value: int) -> None:
        node = self.root
        for i, ch in enumerate(needle.chars):
            label = (_BREAK if i in needle.breaks else 0) | (_PROSE if i in needle.proses else 0)
            kids = node.kids.setdefault(label, {})
            nxt = kids.get(ch)
            if nxt is None:
                nxt = kids[ch] = _Node()
            node = nxt
        node.ends.append(value)


def _keys(head: str) -> list[str]:
    """The tokens a grouped search of a value whose first group is ``head`` can start
    from (`mcpgym_grading._text._find_groups`): a token ``head`` starts with, and only
    ``head`` itself where it has no digit (a token joins the one before it only where both
    have digits, so a digit-free group is one whole token)."""
    if not any(c.isdigit() for c in head):
        return [head]
    return [head[:end] for end in range(1, len(head) + 1)]


class ValueList:
    """One list of values prepared for `contains_each` in views of one ``signed``: each
    value's forms (`mcpgym_grading._text._value_forms`, or None where it has no
    alphanumeric token), the values by first plain token and by each prefix of their first
    grouped and loose group, and the skeleton tries (by ``signed``: a signed view's search
    reads the needle's sign)."""

    def __init__(self, values: tuple[str, ...], signed: bool) -> None:
        from mcpgym_grading._text import _value_forms  # noqa: PLC0415 - _text imports us

        self.values = values
        self.index: dict[str, int] = {}  # each value's first index
        for i, v in enumerate(values):
            self.index.setdefault(v, i)
        self.forms = [_value_forms(v, signed) for v in values]
        self.by_plain: dict[str, list[int]] = {}
        self.by_grouped: dict[str, list[int]] = {}
        self.by_loose: dict[str, list[int]] = {}
        self.always_grouped: list[int] = []  # no first group: searched in every view
        tries: dict[tuple[bool, int, bool], _Trie] = {}
        self.slow: list[int] = []  # needles whose search starts at a label (none made so)
        for i, (plain, grouped, loose, needle) in enumerate(self.forms):
            if not plain:
                continue
            self.by_plain.setdefault(plain[0], []).append(i)
            if grouped:
                for p in _keys(grouped[0]):
                    self.by_grouped.setdefault(p, []).append(i)
            else:
                self.always_grouped.append(i)
            if loose:
                for p in _keys(loose[0]):
                    self.by_loose.setdefault(p, []).append(i)
            v = needle.chars
            if not v or len(v) > MAX_CHARS:
                continue  # never found in the skeleton
            if 0 in needle.breaks or 0 in needle.proses:
                self.slow.append(i)
                continue
            long, more, _ = _skeleton._plan(needle)  # noqa: SLF001 - the search's own plan
            key = (long, id(more), needle.neg and signed)
            trie = tries.get(key)
            if trie is None:
                trie = tries[key] = _Trie(long, more, key[2])
            trie.add(needle, i)
        self.tries = list(tries.values())

    def errors(self) -> list[bool]:
        """Per value: whether it has no alphanumeric token (`TextView.contains` raises)."""
        return [not f[0] for f in self.forms]


@functools.lru_cache(maxsize=256)
def value_list(values: tuple[str, ...], signed: bool) -> ValueList:
    """`ValueList` of ``values``, kept per list (a rubric's lists are read in every grade of
    its variants)."""
    return ValueList(values, signed)


BASE_MIN = 64
"""Lists shorter than this are prepared whole (cheap); longer ones may reuse a base."""
BASES_KEPT = 16
"""Large prepared lists kept per ``signed`` as bases for lists that differ little."""
_BASES: dict[bool, OrderedDict[tuple[str, ...], ValueList]] = {
    False: OrderedDict(),
    True: OrderedDict(),
}
_BASES_LOCK = threading.Lock()

_Part = tuple[ValueList, tuple[int, ...], tuple[int, ...]]
"""A prepared list, the positions of the values searched in it, and their indexes there."""


def _base_for(values: tuple[str, ...], signed: bool) -> tuple[ValueList, list[int]] | None:
    """A kept base that holds all of ``values`` but at most ``len(values) // 4`` values
    (the ones it lacks and the ones it holds beyond them, together), and the positions of
    ``values`` it lacks; None when no base is that close."""
    budget = len(values) // 4
    with _BASES_LOCK:
        bases = list(reversed(_BASES[signed].items()))
    wanted = set(values)
    for key, base in bases:
        lacked = [n for n, v in enumerate(values) if v not in base.index]
        beyond = len(base.index) - (len(wanted) - len({values[n] for n in lacked}))
        if len(lacked) + beyond <= budget:
            with _BASES_LOCK:
                if key in _BASES[signed]:
                    _BASES[signed].move_to_end(key)
            return base, lacked
    return None


@functools.lru_cache(maxsize=256)
def _layout(values: tuple[str, ...], signed: bool) -> tuple[_Part, ...]:
    """The prepared lists `contains_each` searches for ``values`` (kept per list): the
    list's own `ValueList`, or a close base's and a small one of the values it lacks."""
    if len(values) >= BASE_MIN:
        found = _base_for(values, signed)
        if found is not None:
            base, lacked = found
            lack = set(lacked)
            held = tuple(n for n in range(len(values)) if n not in lack)
            parts: list[_Part] = [(base, held, tuple(base.index[values[n]] for n in held))]
            if lacked:
                extra = ValueList(tuple(dict.fromkeys(values[n] for n in lacked)), signed)
                ids = tuple(extra.index[values[n]] for n in lacked)
                parts.append((extra, tuple(lacked), ids))
            return tuple(parts)
    whole = value_list(values, signed)
    if len(values) >= BASE_MIN:
        with _BASES_LOCK:
            bases = _BASES[signed]
            bases[values] = whole
            while len(bases) > BASES_KEPT:
                bases.popitem(last=False)
    every = tuple(range(len(values)))
    return ((whole, every, every),)


def contains_each(view: TextView, values: Sequence[str]) -> list[bool | None]:
    """``[view.contains(v) for v in values]``, with ``None`` where ``contains`` raises
    ``ValueError`` (no alphanumeric token); the answers kept in the view as ``contains``
    keeps them."""
    if not ENABLED:
        out: list[bool | None] = []
        for v in values:
            try:
                out.append(view.contains(v))
            except ValueError:
                out.append(None)
        return out
    answers: list[bool | None] = [None] * len(values)
    found = view._found  # noqa: SLF001 - the view's own memo, kept as `contains` keeps it
    source = view._source  # noqa: SLF001
    todo: list[int] = []  # positions searched
    hit: set[int] = set()  # positions found
    for vl, positions, ids in _layout(tuple(values), view.signed):
        mine: dict[int, int] = {}  # position by index in ``vl``, searched
        for n, i in zip(positions, ids, strict=True):
            if not vl.forms[i][0]:
                continue
            got = found.get(values[n])
            if got is None:
                todo.append(n)
                mine.setdefault(i, n)
            else:
                answers[n] = got
        if not mine:
            continue
        hits = _search(view, vl, list(mine))
        rest = [i for i in mine if i not in hits]
        if source is not None and rest:
            hits |= _search(source, vl, rest)
        hit.update(n for n, i in zip(positions, ids, strict=True) if i in hits)
    if todo:
        from mcpgym_grading._text import FOUND_KEPT  # noqa: PLC0415 - _text imports us

        for n in sorted(todo):
            answers[n] = got = n in hit
            if len(found) < FOUND_KEPT:
                found[values[n]] = got
    return answers


def _search(view: TextView, vl: ValueList, todo: list[int]) -> set[int]:
    """The values of ``todo`` (indexes into ``vl``) that ``view._contains`` finds."""
    from mcpgym_grading._text import _find_groups, _joined  # noqa: PLC0415

    wanted = set(todo)
    hits: set[int] = set()
    index = view._index  # noqa: SLF001
    toks = view._pieces[0]  # noqa: SLF001
    distinct = index.get("distinct")
    if distinct is None:
        distinct = index["distinct"] = frozenset(toks)
    plain = view._plain  # noqa: SLF001
    for t in distinct:
        for i in vl.by_plain.get(t, ()):
            if i in wanted and i not in hits and _joined(vl.forms[i][0]) in plain:
                hits.add(i)
    pieces = view._pieces  # noqa: SLF001
    starts = view._starts("pieces", toks)  # noqa: SLF001
    for i in _candidates(vl.by_grouped, distinct, wanted - hits, vl.always_grouped):
        if _find_groups(*pieces, vl.forms[i][1], starts):
            hits.add(i)
    loose = view._loose  # noqa: SLF001
    loose_distinct = index.get("loose_distinct")
    if loose_distinct is None:
        loose_distinct = index["loose_distinct"] = frozenset(loose[0])
    loose_starts = view._starts("loose", loose[0])  # noqa: SLF001
    for i in _candidates(vl.by_loose, loose_distinct, wanted - hits, ()):
        if _find_groups(*loose, vl.forms[i][2], loose_starts):
            hits.add(i)
    rest = wanted - hits
    if not rest:
        return hits
    atoms = view._atoms  # noqa: SLF001
    atom_starts = view._atom_starts()  # noqa: SLF001
    if atom_starts is None or not atom_starts.usable or vl.slow:
        for i in sorted(rest):  # the search value by value (as `contains` would)
            if _skeleton.find(atoms, vl.forms[i][3], signed=view.signed, index=atom_starts):
                hits.add(i)
        return hits
    for trie in vl.tries:
        hits |= _find_trie(atoms, trie, view.signed, atom_starts) & rest
    return hits


def _candidates(
    by_key: dict[str, list[int]], keys: frozenset[str], wanted: set[int], always: Sequence[int]
) -> list[int]:
    out = {i for k in keys for i in by_key.get(k, ()) if i in wanted}
    out.update(i for i in always if i in wanted)
    return sorted(out)


def _find_trie(
    atoms: Sequence[Atom],
    trie: _Trie,
    signed: bool,
    index: AtomStarts,
) -> set[int]:
    """The values of ``trie`` whose needle `_skeleton.find` finds in ``atoms`` (``index``:
    their usable `AtomStarts`)."""
    alike = _skeleton._alike  # noqa: SLF001 - the search's own test
    more, long = trie.more, trie.long
    found: set[int] = set()
    seen: set[tuple[int, int, int, _Node, int]] = set()
    stack: list[tuple[int, int, int, _Node, int]] = []

    def expand(a: int, c: int, off: int, node: _Node) -> None:
        if node.ends:
            stack.append((a, c, off, node, _END))
        for label in node.kids:
            stack.append((a, c, off, node, label))

    for label, kids in trie.root.kids.items():
        assert label == 0  # no needle has a break before its first character (`slow`)
        for first, node in kids.items():
            for a, c in index.starts(first, more):
                if signed and atoms[a].neg != trie.neg:
                    continue
                expand(a, c, 1, node)
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        a, c, off, node, label = state
        text = atoms[a].texts[c]
        if label == _END:
            if off == len(text):
                found.update(node.ends)
            continue
        kids = node.kids[label]
        if off < len(text):
            if label & _BREAK:  # a separator word glued in where the value has one
                for w in GLUED_WORDS:
                    if text.startswith(w, off):
                        stack.append((a, c, off + len(w), node, label))
            seen_char = text[off]
            for ch, nxt in kids.items():
                if alike(seen_char, ch, more):
                    expand(a, c, off + 1, nxt)
                    continue
                for pair, wanted in MULTI:  # a letter pair read as one letter, or back
                    if wanted[0] != ch or not text.startswith(pair, off):
                        continue
                    end: _Node | None = nxt
                    for w2 in wanted[1:]:  # no separator inside the letters read so
                        more_kids = end.kids.get(0) if end is not None else None
                        end = None if more_kids is None else more_kids.get(w2)
                    if end is not None:
                        expand(a, c, off + len(pair), end)
            continue
        for b in range(a + 1, len(atoms)):  # the atom read to its end: the next ones
            nxt_atom = atoms[b]
            if nxt_atom.kind == MONEY or (signed and nxt_atom.neg):
                break
            if nxt_atom.stop and not label & _PROSE and not long:
                break  # a comma between whole values (`mcpgym_grading._prose`)
            p = nxt_atom.pipes  # vertical lines glued before it, read as l (`PIPES`)
            if p:
                for end in _read_as_l(node, label, p):
                    for cj in range(len(nxt_atom.texts)):
                        expand(b, cj, 0, end)
            for cj in range(len(nxt_atom.texts)):
                stack.append((b, cj, 0, node, label))
            if nxt_atom.kind != SEP:
                break
    return found


def _read_as_l(node: _Node, label: int, p: int) -> list[_Node]:
    """The trie positions ``p`` characters on from ``node`` (the first by ``label``) along
    characters that each read as ``l`` (``_same("l" * p, ...)``: labels not read)."""
    alike = _skeleton._alike  # noqa: SLF001
    kids_now = [node.kids[label]]
    ends: list[_Node] = []
    for step in range(p):
        ends = [n for kids in kids_now for ch, n in kids.items() if alike("l", ch, None)]
        if step < p - 1:
            kids_now = [k for n in ends for k in n.kids.values()]
    return ends
