"""Long ids of a role's kind anywhere in a text: a tracking number none of the record's.

The value-role reader (`mcpgym_grading._value_roles`) closes each role's kind, but reports
only a value a role's words bind (``tracking number 1ZR…``): an unbound value of a short kind
may be anything (a house number, a list of codes). A value of ten digits or more is an id no
text states by chance, and a reply gives it to be used: another number of its kind, with no
cue at all (``Here it is: 1ZR4E9170335758783``) or inside a link (``https://track.example.com/
?n=…``, ``…/t/1ZR…``), is a wrong id the customer will use (round 17's N17o: the right
tracking number with its last digit changed passed wherever no ``tracking`` stood beside it).

Read over the folded text, each kind (`_value_roles._kind`: digit runs as runs of as many
digits, other characters themselves) as a whole token: no letter or digit on either side, so a
link's ``=``, ``/`` or ``?`` bounds it. A number written in digit groups is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from mcpgym_grading._text import fold

MIN_DIGITS = 10
"""The fewest digits a role's value holds for its kind to be read unbound."""


@lru_cache(maxsize=256)
def _pattern(kinds: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9a-z])(?:{'|'.join(kinds)})(?![0-9a-z])")


def other_long_ids(
    text: str, values: Sequence[str], kind_of: Callable[[str], str | None]
) -> list[str]:
    """The tokens of ``text`` (folded) of the kind of a value of ``values`` that holds
    `MIN_DIGITS` digits or more, none of ``values``, each once, in order, as ``"VALUE (none
    of the record's)"``. ``kind_of(value)``: the regex of a value's kind or None
    (`_value_roles._kind`)."""
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
    found = [m.group(0) for m in _pattern(tuple(kinds)).finditer(fold(text))]
    return [f"{v} (none of the record's)" for v in dict.fromkeys(found) if v not in own]
