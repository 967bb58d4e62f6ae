"""Where a comma in a text ends a value: the prose-break rule of the skeleton view
(`mcpgym_grading._skeleton`).

The skeleton joins letters and digits across whatever stands between them, so that
``941.05`` or ``9 4 1 0 5`` is the ZIP ``94105``. A comma or a semicolon followed by white
space (a *prose break*: ``, `` ``; `` ``、`` ``،``) is how prose separates whole values
(``Apt 9, 4105 Elm Street``; ``Dates: 9/4, 1/05``; ``orders 10, 4``), so the skeleton
crosses one only where the pieces on its two sides are regular, as the pieces of one value
cut up on purpose are:

- **spaced-out characters**: every piece on both sides is one character (``9, 4, 1, 0,
  5``; ``j, a, n, e``; ``nine, four, one``: a spelled digit is one digit);
- **equal digit groups**: every piece on both sides is a digit run of one length
  (``9405, 5932, 3632, 1234``; ``9405 5932, 3632 1234``);
- **a remainder** (one digit run of another length) at either end of at least two equal
  digit groups (``9400, 1190, 3303, 1441, 4006, 92``; ``9400 1190, 3303 1441, 4006 92``;
  ``9, 4055, 9323``; a phone number ``415, 555, 0134``).

A repeated spelled digit (``triple five``) is spaced-out characters too.

A *piece* is a letter or digit run; the pieces *on a side* of a break are those between it
and the nearest word (a letter run of two or more letters), money amount or other break:
in ``ZIP 9, 4105 Elm`` they are ``9`` and ``4105``, which are not regular, so the ZIP
``94105`` is not there. A value whose own text has a prose break at that place
(``Doe, Jane``) crosses it in any case. Separator words (``dot``, ``at``) are no pieces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

PROSE_BREAK = re.compile(r"[,;\u3001\u060c\u061b]\s")
"""A comma or semicolon (ASCII, ideographic, Arabic; NFKC has already made the fullwidth
and small forms ASCII) followed by white space: found in the gap between two atoms."""


def is_break(gap: str) -> bool:
    """Whether the text ``gap`` between two atoms holds a prose break."""
    return PROSE_BREAK.search(gap) is not None


def _value_like(reading: str) -> bool:
    return reading.isdigit() or len(reading) == 1


def stops(readings: Sequence[str | None], breaks: Sequence[bool]) -> list[bool]:
    """For each atom, whether the prose break before it may not be crossed.

    ``readings``: per atom, its reading (a piece: letters or digits), ``""`` for a
    separator word, ``None`` for a money amount; ``breaks``: per atom, whether a prose
    break stands before it. Returns a list as long, ``True`` where a break stands and the
    pieces on its two sides are not regular (see the module docstring). Linear time."""
    n = len(readings)
    starts = [0] + [i for i in range(1, n) if breaks[i]]
    segs = [range(s, e) for s, e in zip(starts, [*starts[1:], n], strict=True)]
    leading = [_side(readings, seg) for seg in segs]
    trailing = [_side(readings, reversed(seg))[::-1] for seg in segs]
    whole = [_whole(readings, seg) for seg in segs]
    m = len(segs)
    eq = [False] * m  # eq[j]: the break before segment j joins equal pieces
    for j in range(1, m):
        eq[j] = _equal(trailing[j - 1], leading[j])
    left = [0] * m  # equal groups in the chain of equal breaks ending at segment j
    for j in range(m):
        left[j] = len(trailing[j]) + (left[j - 1] if j and eq[j] and whole[j] else 0)
    right = [0] * m  # ... starting at segment j
    for j in range(m - 1, -1, -1):
        more = j + 1 < m and eq[j + 1] and whole[j]
        right[j] = len(leading[j]) + (right[j + 1] if more else 0)
    out = [False] * n
    for j in range(1, m):
        lhs, rhs = trailing[j - 1], leading[j]
        ok = (
            eq[j]
            or _remainder(lhs, rhs, left[j - 1], at_end=True)
            or _remainder(rhs, lhs, right[j], at_end=False)
        )
        out[segs[j].start] = not ok
    return out


def _side(readings: Sequence[str | None], order: Sequence[int] | reversed[int]) -> list[str]:
    """The pieces from one end of a segment to its first word or money amount."""
    out: list[str] = []
    for i in order:
        r = readings[i]
        if r is None or (r and not _value_like(r)):
            break
        if r:
            out.append(r)
    return out


def _whole(readings: Sequence[str | None], seg: range) -> bool:
    return all(r is not None and (not r or _value_like(r)) for r in (readings[i] for i in seg))


def _equal(lhs: list[str], rhs: list[str]) -> bool:
    pieces = lhs + rhs
    if not lhs or not rhs:
        return False
    if all(len(p) == 1 for p in pieces):
        return True
    return all(p.isdigit() for p in pieces) and len({len(p) for p in pieces}) == 1


def _remainder(groups: list[str], rest: list[str], chain: int, *, at_end: bool) -> bool:
    """Whether ``rest`` is digit groups of the length of the equal digit groups ``groups``
    but for one run of another length at the far end (``at_end``: its last; else its
    first), with at least two groups of that length in the chain they belong to."""
    if not groups or not rest or not all(p.isdigit() for p in groups + rest):
        return False
    k = len(groups[0])
    short, full = (rest[-1], rest[:-1]) if at_end else (rest[0], rest[1:])
    return (
        k >= 2
        and len(short) != k
        and all(len(g) == k for g in groups + full)
        and chain + len(full) >= 2
    )
