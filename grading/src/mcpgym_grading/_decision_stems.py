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
        "ATOMIC_GROUP",
        "POSSESSIVE_REPEAT",
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


def _needed(items: list[Any]) -> list[str] | None:
    r"""Literal strings one of which stands inside every match of a parsed pattern ``items``
    (anywhere in it, not only at its beginning: ``\b(?:i|we)\s+refunded`` needs
    ``refunded``), the most telling such set (its shortest string the longest); None
    where none can be told. Case-insensitive parts tell nothing."""
    run = ""
    found: list[list[str]] = []
    for op, av in items:
        if op is _OP["LITERAL"]:
            run += chr(av)
            continue
        if run:
            found.append([run])
            run = ""
        got: list[str] | None = None
        if op is _OP["SUBPATTERN"]:
            if not (av[1] | av[2]) & _P.SRE_FLAG_IGNORECASE:
                got = _needed(_items(av[3]))
        elif op is _OP["ATOMIC_GROUP"]:
            got = _needed(_items(av))
        elif op is _OP["BRANCH"]:
            alts = [_needed(_items(alt)) for alt in av[1]]
            got = None if any(x is None for x in alts) else [t for x in alts for t in x or ()]
        elif op in (_OP["MAX_REPEAT"], _OP["MIN_REPEAT"], _OP["POSSESSIVE_REPEAT"]):
            got = _needed(_items(av[2])) if av[0] >= 1 else None
        if got:
            found.append(got)
    if run:
        found.append([run])
    best: list[str] | None = None
    for got in found:
        if best is None or min(map(len, got)) > min(map(len, best)):
            best = got
    return best


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


def _clause_table() -> dict[str, tuple[str, ...] | None]:
    needed: dict[str, tuple[str, ...] | None] = {}
    for a, groups in _PATTERNS.items():
        found: list[str] | None = []
        for p in (p for group in groups for p in group):
            got = None if p.flags & re.IGNORECASE else _needed(_items(_P.parse(p.pattern)))
            found = None if got is None or found is None else [*found, *got]
        if found is not None and a in _NOUNS:
            noun = _needed(_items(_P.parse(rf"\b(?:{_NOUNS[a]})\b")))
            found = None if noun is None else [*found, *noun]
        kept = sorted(set(found or ()), key=len)
        kept = [x for i, x in enumerate(kept) if not any(y in x for y in kept[:i])]
        needed[a] = None if found is None else tuple(kept)
    return needed


_CLAUSE_NEEDS = _clause_table()
"""Literals of each action's forms (and noun) one of which stands inside any match of them
(`_needed`): an action none of which stands in a clause has no form there, so the
decision reader does not read it there (sound: each pattern's set is one every match of it
holds; None where some form has none)."""


def _live_in(clause: str, live: tuple[str, ...]) -> tuple[str, ...]:
    """The actions of ``live`` (`_live` of the reading) a form of which may stand in
    ``clause`` (`_CLAUSE_NEEDS`): those the reader must read there."""
    out: list[str] = []
    for a in live:  # (plain loops: faster than `any` over a generator, called per clause)
        needs = _CLAUSE_NEEDS[a]
        if needs is None:
            out.append(a)
            continue
        for x in needs:
            if x in clause:
                out.append(a)
                break
    return tuple(out)


def _pattern_table() -> dict[re.Pattern[str], tuple[str, ...] | None]:
    needs: dict[re.Pattern[str], tuple[str, ...] | None] = {}
    for groups in _PATTERNS.values():
        for p in (p for group in groups for p in group):
            if p not in needs:
                got = None if p.flags & re.IGNORECASE else _needed(_items(_P.parse(p.pattern)))
                needs[p] = None if got is None else tuple(sorted(set(got), key=len))
    return needs


_PATTERN_NEEDS = _pattern_table()
"""Literals of each form (`_needed`) one of which stands inside any match of it; None
where none can be told. The per-form sets `_CLAUSE_NEEDS` joins per action."""


def may_match(pattern: re.Pattern[str], clause: str) -> bool:
    """False where ``pattern`` (a form of `_PATTERNS`) has no match in ``clause``: none of
    its `_PATTERN_NEEDS` stands there (a substring test; True for any other pattern), so
    the decision reader does not run it there."""
    needs = _PATTERN_NEEDS.get(pattern)
    if needs is None:
        return True
    for x in needs:
        if x in clause:
            return True
    return False
