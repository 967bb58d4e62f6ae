"""The literal beginnings of the decision reader's forms (`mcpgym_grading._decisions`):
a substring test that tells which actions need not be looked for in a reading.
"""

from __future__ import annotations

import re
import re._parser as _P  # noqa: PLC2701 (the forms' literal beginnings: `_stems`)
from typing import Any

from mcpgym_grading._decision_forms import _NOUNS, _PATTERNS

_OP: dict[str, Any] = {
    n: getattr(_P, n)
    for n in (
        "AT",
        "ASSERT",
        "ASSERT_NOT",
        "LITERAL",
        "SUBPATTERN",
        "BRANCH",
        "MAX_REPEAT",
        "MIN_REPEAT",
    )
}
"""The parser's opcodes `_stems` reads."""


def _items(sub: Any) -> list[Any]:
    """A parsed (sub)pattern's items."""
    return list(sub.data)


def _stems(items: list[Any], lead: bool = True) -> list[str]:
    """The literal beginnings of every match of a parsed pattern ``items`` (after its leading
    word boundaries and look-arounds when ``lead``): ``""`` among them where one cannot be
    told (a class or an assertion first)."""
    i = 0
    while lead and i < len(items) and items[i][0] in (_OP["AT"], _OP["ASSERT_NOT"], _OP["ASSERT"]):
        i += 1
    lit = ""
    while i < len(items) and items[i][0] is _OP["LITERAL"]:
        lit += chr(items[i][1])
        i += 1
    if i == len(items):
        return [lit]
    op, av = items[i]
    rest = items[i + 1 :]
    if op is _OP["SUBPATTERN"]:
        tails = _stems(_items(av[3]) + rest, False)
    elif op is _OP["BRANCH"]:
        tails = [t for alt in av[1] for t in _stems(_items(alt) + rest, False)]
    elif op in (_OP["MAX_REPEAT"], _OP["MIN_REPEAT"]):
        tails = _stems(_items(av[2]) + rest, False)
        tails += _stems(rest, False) if av[0] == 0 else []
    else:
        tails = [""]
    return [lit + t for t in tails]


def _stem_table() -> dict[str, tuple[str, ...] | None]:
    stems: dict[str, tuple[str, ...] | None] = {}
    for a, groups in _PATTERNS.items():
        found: list[str] | None = []
        noun = [re.compile(rf"\b(?:{_NOUNS[a]})\b")] if a in _NOUNS else []
        for p in [*(p for group in groups for p in group), *noun]:
            got = _stems(_items(_P.parse(p.pattern)))
            found = None if "" in got or found is None else [*found, *got]
        # a stem that holds a shorter one is found whenever it is: keep the shorter
        kept = sorted(set(found or ()), key=len)
        kept = [x for i, x in enumerate(kept) if not any(y in x for y in kept[:i])]
        stems[a] = None if found is None else tuple(kept)
    return stems


_STEMS = _stem_table()
"""The literal beginnings of each action's forms (and noun): an action none of whose stems
stands in a reading is not looked for clause by clause (sound: a clause's match is a match
of the whole reading, so its stem stands there; an action with a form of no literal
beginning, None, is always looked for). A substring test, far cheaper than the forms."""


def _live(reading: str, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The actions of ``wanted`` some form of which may stand in ``reading`` (`_STEMS`; an
    unknown action raises KeyError)."""
    return tuple(a for a in wanted if (s := _STEMS[a]) is None or any(x in reading for x in s))
