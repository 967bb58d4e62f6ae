"""Where a search of a `mcpgym_grading._text.TextView` may start, indexed once per view.

A forbidden list names hundreds of values (``replies-withdraw-nothing``: 429 phrases), and
each is looked for in the same reply: from every token of its token streams
(`mcpgym_grading._text._find_groups`) and from every atom of its skeleton
(`mcpgym_grading._skeleton.find`). Almost every start is refused at once, by its first
token or first character. These indexes hand each search only the starts that its first
test lets through, in the order the full scan would try them, so every answer (and every
error a search might raise) is the full scan's:

- `GroupStarts`: the tokens of a stream by text. A value's first group ``head`` starts
  with a token exactly when that token is one of ``head``'s prefixes, so the starts are the
  positions of ``head[:0]``, ``head[:1]``... ``head``.
- `AtomStarts`: the readings of the skeleton's `TOK` atoms by first character. The starts
  of a needle whose first character is ``first`` are those whose first character is
  `_skeleton._alike` to it (with the search's ``more``), worked out once per
  ``(first, more)`` and view.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpgym_grading import _skeleton


class GroupStarts:
    """The positions of each token of one token stream (``toks``), for `starts`."""

    def __init__(self, toks: Sequence[str]) -> None:
        at: dict[str, list[int]] = {}
        for i, tok in enumerate(toks):
            at.setdefault(tok, []).append(i)
        self._at = at

    def starts(self, head: str) -> list[int]:
        """The positions ``i``, ascending, where ``head.startswith(toks[i])``."""
        out: list[int] = []
        at = self._at
        for end in range(len(head) + 1):
            got = at.get(head[:end])
            if got:
                out.extend(got)
        out.sort()
        return out


class AtomStarts:
    """The ``(atom, reading)`` pairs of a skeleton's `TOK` atoms by the reading's first
    character, for `starts`. ``usable`` is False where a `TOK` reading is empty (the full
    scan would raise on it: the caller scans)."""

    def __init__(self, atoms: Sequence[_skeleton.Atom]) -> None:
        by_first: dict[str, list[tuple[int, int]]] = {}
        usable = True
        for a, atom in enumerate(atoms):
            if atom.kind != _skeleton.TOK:
                continue
            for ci, text in enumerate(atom.texts):
                if not text:
                    usable = False
                    break
                by_first.setdefault(text[0], []).append((a, ci))
        self.usable = usable
        self._by_first = by_first
        self._memo: dict[tuple[str, int], tuple[tuple[int, int], ...]] = {}

    def starts(self, first: str, more: dict[str, str] | None) -> tuple[tuple[int, int], ...]:
        """The ``(atom, reading)`` pairs, ascending, whose reading's first character
        ``_skeleton._alike(c, first, more)`` (``more``: None or a module constant table,
        told apart by identity)."""
        key = (first, id(more))
        got = self._memo.get(key)
        if got is None:
            pairs = [
                pair
                for c, listed in self._by_first.items()
                if _skeleton._alike(c, first, more)  # noqa: SLF001 - the scan's own test
                for pair in listed
            ]
            pairs.sort()
            got = self._memo[key] = tuple(pairs)
        return got
