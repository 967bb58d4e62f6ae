"""Long ids of a role's kind anywhere in a text: a tracking number nothing holds.

The value-role reader (`mcpgym_grading._value_roles`) closes each role's kind, but reports
only a value a role's words bind (``tracking number 1ZR…``): an unbound value of a short kind
may be anything (a house number, a list of codes). A value of ten digits or more is an id no
text states by chance, and a reply gives it to be used: another number of its kind, with no
cue at all (``Here it is: 1ZR4E9170335758783``) or inside a link (``https://track.example.com/
?n=…``, ``…/t/1ZR…``), is a wrong id the customer will use (round 17's N17o: the right
tracking number with its last digit changed passed wherever no ``tracking`` stood beside it).

Only an id *nothing on file holds* is read so (``known``: every id of the kind the store
holds, another order's or customer's tracking number too). An id on file stated unbound is
another record's, which the checks that refuse other records' values read, in the gate's
look-alike forms of it as well (split, spaced, in words, in homoglyphs): read here in its
plain form only, it failed where its forms passed (round 18: the gate's condition 7 on
order-status's ``guard``/``stuff`` mutants, which list the other orders' tracking numbers).
An invented id has no look-alike mutant: it is read in the plain (folded) text.

Read over the folded text, each kind (`_value_roles._kind`: digit runs as runs of as many
digits, other characters themselves) as a whole token: no letter or digit on either side, so a
link's ``=``, ``/`` or ``?`` bounds it. A number written in digit groups is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from mcpgym_grading._text import fold

MIN_DIGITS = 10
"""The fewest digits a role's value holds for its kind to be read unbound."""


@lru_cache(maxsize=256)
def _pattern(kinds: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9a-z])(?:{'|'.join(kinds)})(?![0-9a-z])")


def unknown_long_ids(
    text: str,
    values: Sequence[str],
    known: Collection[str],
    kind_of: Callable[[str], str | None],
) -> list[str]:
    """The tokens of ``text`` (folded) of the kind of a value of ``values`` that holds
    `MIN_DIGITS` digits or more, none of ``values`` nor of ``known`` (ids on file, folded
    here), each once, in order, as ``"VALUE (held by no record)"``. ``kind_of(value)``: the
    regex of a value's kind or None (`_value_roles._kind`)."""
    own = {fold(v) for v in values}
    kinds = sorted(
        {
            k
            for v in own
            if sum(c.isdigit() for c in v) >= MIN_DIGITS and (k := kind_of(v)) is not None
        },
        key=len,
        reverse=True,
    )
    if not kinds:
        return []
    held = own | {fold(v) for v in known}
    found = [m.group(0) for m in _pattern(tuple(kinds)).finditer(fold(text))]
    return [f"{v} (held by no record)" for v in dict.fromkeys(found) if v not in held]
