"""The lexicon reader: every item of an app's closed vocabulary (its teams, say) a text names.

A `Lexicon` lists each item with the words that name it, and `Lexicon.mentions` finds them
in the text as `mcpgym_grading._mentions.reading_texts` reads it (glued CamelCase split,
look-alike letters read as Latin ones):

- a *name* anywhere, in its word forms: the word, its plural (``manager``, ``managers``),
  a multi-word name with ``and`` / ``&`` / ``/`` between its words or not (``trust and
  safety``, ``Trust & Safety``); a name glued to a unit noun (``fraudteam``, ``BillingDept``);
- a *qualifier* (a word that names the item only before a unit noun: ``returns`` in
  ``returns team``, ``Returns Dept.``, not in "your returns") before one of the `units`
  (``team``, ``department``, ``dept``, ``desk``, ``group``...), also as one of several
  joined by ``&`` / ``/`` / ``and`` (``Returns & Exchanges team``, ``returns/exchanges
  team``), or listed right after a name (``billing and returns``: a list of team names
  shares its unit word);

- a *rank* (the words of an item marked ``ranks``: ``manager``, ``team lead``, ``senior`` in
  ``senior colleague``) whose last word is a person noun (`PERSONS`: ``lead``, ``colleague``,
  ``member``...) or a unit noun, *governed* by another item, names that item, not the
  rank's: a rank is a person's rank within a team, and the team is said by

  - another item's name right before it, with a possessive or unit nouns between or not
    (``billing team lead``, ``billing's senior colleague``, ``finance dept manager``), or a
    rank word inside another item's name before a unit noun (``senior billing specialist``);
  - a preposition right after it (person nouns between or not) and another item's name
    (``a senior colleague in billing``, ``a senior team member from our billing team``);
  - ``there`` / ``in that team`` right after it, where the nearest mention before it is of
    another item (``I've escalated it to billing; a senior colleague there``);

  with no connector (``and``, ``or``, ``,``, ``/``, ``&``, brackets) between: ``billing and
  our senior team`` names management, ``billing (and my boss)`` too; a rank governed by
  nothing (``A senior team member will follow up``) names the rank's item. Governed words are
  also left out of the look-up of the items' names as values (`Lexicon.lookup_texts`).
  A bracket or an ``or`` right after a rank (or after the team governing it from after it)
  names a second team: ``our billing team lead (shipping)``, ``a senior colleague in
  billing or in shipping`` name billing and ``other: shipping``; ``(returns)`` names
  returns (the rank's unit noun is shared). Brackets naming no team (``(usually within 2
  days)``, ``(ticket 4412)``) name none; a person's name in brackets reads as a team
  (``our billing team lead (Maria)``: write the name outside them).

- a *team-like name* that is none of the items: a word before a unit noun that is no
  item's, no `neutral` word (the agent's own team: ``support``, ``customer service``;
  ``our``, ``the``, ``relevant``, ``dedicated``...) and no function word (``escalations
  team``, ``shipping department``). With ``others="alternative"`` (the default) it is a
  mention of an item outside the vocabulary, ``other: <word>``: a text telling the customer
  their request went to a team the app does not have names an alternative to the right one
  all the same. ``others="ignored"`` drops them.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from mcpgym_grading._mentions import Mention, reading_texts

UNITS = (
    "team",
    "department",
    "dept",
    "desk",
    "unit",
    "division",
    "group",
    "squad",
    "specialist",
    "colleague",
    "staff",
    "crew",
    "folks",
)
"""Nouns that make the word before them the name of a team (their plurals too)."""

PERSONS = (
    "lead",
    "leader",
    "head",
    "manager",
    "supervisor",
    "boss",
    "member",
    "colleague",
    "specialist",
    "staff",
    "folks",
    "person",
    "people",
    "rep",
    "representative",
    "agent",
    "expert",
    "officer",
    "analyst",
    "someone",
    "somebody",
)
"""Nouns of people in a team (their plurals too): a rank ending in one can be governed by
another item (see the module docstring)."""

NEUTRAL = frozenset(
    (
        # determiners, pronouns, function words
        "a an the our my your their his her its this that these those some any each every "
        "to of for with by from in on at into onto as is are was were be been will would can "
        "could should may might must has have had do does did and or but not no nor so than "
        "who whom which what whose it we you they he she i us them me one also just only "
        "sent told given taken made put set "
        # adjectives of a team that name none
        "right relevant appropriate responsible correct proper specialist specialised "
        "specialized dedicated same other another whole entire internal separate expert "
        "designated competent wider own new full "
        # the agent's own team
        "support customer customers client clients service services care success experience "
        "help helpdesk contact agent agents frontline front line tier level first second"
    ).split()
)
"""Words before a unit noun that name no team (a word ending in ``-ed`` or ``-ly`` neither)."""

_WORD = re.compile(r"[^\W\d_]+")
_CONNECTOR = re.compile(r"\s*(?:&|/|\+|,|\band\b|\bor\b)\s*")
_BLANK = re.compile(r"[\s\-]*")


class LexiconItem(BaseModel):
    """How a text names one item.

    Attributes:
        names: words or phrases naming it anywhere (``fraud``, ``loss prevention``).
        qualifiers: words naming it only before a unit noun (``returns``: ``returns team``).
        ranks: its words are ranks (see below).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    names: tuple[str, ...] = ()
    qualifiers: tuple[str, ...] = ()
    ranks: bool = False
    """Its words name a rank of people within a team (management: ``manager``, ``team
    lead``, ``senior``): governed by another item, they name that item (module docstring)."""


class Lexicon(BaseModel):
    """A closed vocabulary read by `MentionMatch` (see the module docstring).

    Attributes:
        items: ``{item: LexiconItem}`` (the teams of ``escalate_ticket``, say).
        units: nouns that make the word before them a team's name (`UNITS`).
        persons: nouns of people in a team: a rank ending in one can be governed (`PERSONS`).
        neutral: more words that name no item before a unit noun (beside `NEUTRAL`).
        others: ``"alternative"``: a team-like name none of the items is a mention of
            ``other: <word>``; ``"ignored"``: it is not read.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["lexicon"] = "lexicon"
    items: dict[str, LexiconItem]
    units: tuple[str, ...] = UNITS
    persons: tuple[str, ...] = PERSONS
    neutral: tuple[str, ...] = ()
    others: Literal["alternative", "ignored"] = "alternative"

    def forms(self, item: str) -> tuple[str, ...]:
        """The item's names: also looked up as every answer check looks up a value
        (`TextView`), so a look-alike of a name (split letters) is found as the name is."""
        return self.items[item].names

    def universe(self, expected: str) -> list[str]:
        """The items the look-up of `forms` covers: all of them."""
        return list(self.items)

    def mentions(self, text: str) -> list[Mention]:
        """Every item ``text`` names (see the module docstring), in order."""
        return [m for s in reading_texts(text) for _a, _b, m, _g in self._spans(s)]

    def lookup_texts(self, text: str) -> list[str] | None:
        """``text`` as read (`reading_texts`) with every governed rank blanked out (``team
        lead`` in ``billing team lead``), for the look-up of the items' names as values;
        None when ``text`` holds no governed rank."""
        out: list[str] = []
        blanked = False
        for s in reading_texts(text):
            for a, b, _m, governed in reversed(self._spans(s)):
                if governed:
                    s, blanked = s[:a] + " " * (b - a) + s[b:], True
            out.append(s)
        return out if blanked else None

    def _spans(self, s: str) -> list[tuple[int, int, Mention, bool]]:
        """The mentions of one reading text as ``(start, end, mention, governed)``, a
        governed rank read as the item that governs it."""
        tables = _tables(self)
        return _govern(s, self, list(_read(s, self, *tables)), tables[2])


def _forms(word: str) -> set[str]:
    w = word.casefold()
    out = {w, w + "s", w + "es"}
    if w.endswith("s"):
        out.add(w[:-1])
    return out


_TABLES: dict[int, tuple[Lexicon, tuple[dict[str, str], dict[tuple[str, ...], str], set[str]]]] = {}
_TABLES_LOCK = threading.Lock()


def _tables(lex: Lexicon) -> tuple[dict[str, str], dict[tuple[str, ...], str], set[str]]:
    """`_make_tables` of ``lex``, made once per lexicon object (lexicons are frozen; the
    tables are only read)."""
    with _TABLES_LOCK:
        found = _TABLES.get(id(lex))
    if found is not None and found[0] is lex:
        return found[1]
    tables = _make_tables(lex)
    with _TABLES_LOCK:
        if len(_TABLES) > 256:
            _TABLES.clear()
        _TABLES[id(lex)] = (lex, tables)
    return tables


def _make_tables(lex: Lexicon) -> tuple[dict[str, str], dict[tuple[str, ...], str], set[str]]:
    """``{qualifier or one-word name form: item}``, ``{name words (last in any form): item}``
    and the unit nouns in every form."""
    single: dict[str, str] = {}
    phrases: dict[tuple[str, ...], str] = {}
    for item, spec in lex.items.items():
        for q in spec.qualifiers:
            for f in _forms(q):
                single.setdefault(f, item)
        for name in spec.names:
            words = [w for w in _WORD.findall(name.casefold()) if w != "and"]
            if len(words) == 1:
                for f in _forms(words[0]):
                    single.setdefault(f, item)
            for f in _forms(words[-1]):
                phrases[(*words[:-1], f)] = item
    units = {f for u in lex.units for f in _forms(u)}
    return single, phrases, units


def _split_glued(s: str, units: set[str], single: dict[str, str]) -> list[tuple[str, int, int]]:
    """The words of ``s`` with spans; a known word glued to a unit noun is two words."""
    out: list[tuple[str, int, int]] = []
    # the units a word ends in, taken in the order the set gives them (as a loop over
    # `units` would meet them), found from the word's own endings: no loop over every unit
    order = {u: k for k, u in enumerate(units) if len(u) >= 4}
    for m in _WORD.finditer(s):
        w = m.group(0)
        ends = sorted((order[w[-n:]], w[-n:]) for n in range(4, len(w) + 1) if w[-n:] in order)
        for _k, u in ends:
            if w[: -len(u)] in single:
                cut = m.start() + len(w) - len(u)
                out += [(w[: -len(u)], m.start(), cut), (u, cut, m.end())]
                break
        else:
            out.append((w, m.start(), m.end()))
    return out


def _listed(
    s: str,
    plain: list[tuple[str, int, int]],
    k: int,
    single: dict[str, str],
    phrases: dict[tuple[str, ...], str],
) -> Iterable[tuple[int, int, Mention]]:
    """Qualifiers listed right after a name, joined by ``and`` / ``or`` / ``,`` / ``&`` /
    ``/`` (``billing and returns``): a list of team names shares its unit word, so each
    names its item (``plain[k]`` is the word after the name)."""
    while k < len(plain) and _CONNECTOR.fullmatch(s[plain[k - 1][2] : plain[k][1]]):
        item = single.get(plain[k][0])
        if item is None or phrases.get((plain[k][0],)) == item:
            return  # not an item's word, or a name (read as a name already)
        a, b = plain[k][1], plain[k][2]
        yield a, b, Mention(s[a:b], (frozenset({item}),))
        k += 1


def _read(
    s: str,
    lex: Lexicon,
    single: dict[str, str],
    phrases: dict[tuple[str, ...], str],
    units: set[str],
) -> Iterable[tuple[int, int, Mention]]:
    words = _split_glued(s, units, single)
    plain = [w for w in words if w[0] != "and"]
    neutral = NEUTRAL | {w.casefold() for w in lex.neutral}
    ranks = {i for i, spec in lex.items.items() if spec.ranks}
    ordered = sorted(phrases.items(), key=lambda p: -len(p[0]))  # longest names first
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, item in ordered:  # each word meets only the names it starts (in that order)
        by_first.setdefault(phrase[0], []).append((phrase, item))
    for i in range(len(plain)):
        for phrase, item in by_first.get(plain[i][0], ()):
            n = len(phrase)
            if tuple(w[0] for w in plain[i : i + n]) == phrase:
                a, b = plain[i][1], plain[i + n - 1][2]
                yield a, b, Mention(s[a:b], (frozenset({item}),))
                yield from _listed(s, plain, i + n, single, phrases)
                break
    for i, (w, _start, end) in enumerate(words):
        if w not in units:
            continue
        j, nxt, first, joined = i - 1, words[i][1], True, False
        head: str | None = None  # the item of the word right before the unit noun
        while j >= 0:
            word, a, b = words[j]
            if word == "and" and not first:
                j, nxt, joined = j - 1, a, True
                continue
            gap = s[b:nxt]
            if first and not _BLANK.fullmatch(gap):
                break
            if not first:
                joined = joined or bool(_CONNECTOR.fullmatch(gap))
                if not joined and not _BLANK.fullmatch(gap):
                    break
            item = single.get(word)
            if item is None:
                stop = word in neutral or word in units or len(word) < 3
                if stop or word.endswith(("ed", "ly")) or (not first and not joined):
                    break
                if lex.others == "ignored":
                    break
                yield a, end, Mention(s[a:end], (frozenset({f"other: {word}"}),), exact=False)
            elif item in ranks and not joined and head is not None and head not in ranks:
                pass  # a rank inside another item's name (senior billing specialist)
            elif phrases.get((word,)) != item:  # a one-word name is read as a name already
                yield a, end, Mention(s[a:end], (frozenset({item}),))
            if first:
                head = item
            j, nxt, first, joined = j - 1, a, False, False


_POSSESSIVE = r"(?:'s|s'|')?"
_PREPOSITION = r"(?:in|from|at|of|on|with|within|inside)"
_DETERMINER = r"(?:(?:the|our|your|their|its|that|this)\s+)?"


@functools.lru_cache(maxsize=256)
def _govern_patterns(
    units: frozenset[str], names: frozenset[str]
) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """`_govern`'s patterns for a lexicon's ``units`` and ``names`` (its persons' forms and
    its units): what may stand before a governed rank, after it, and ``there``. Remembered
    per lexicon (`re`'s own cache of 512 patterns is cycled through by a campaign's
    variants). Alternatives of equal length are literals that cannot match at one place
    both, so their order (a set's) does not matter."""
    unit_re = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    person_re = "|".join(re.escape(p) for p in sorted(names, key=len, reverse=True))
    before = re.compile(rf"{_POSSESSIVE}(?:\s+(?:{unit_re}){_POSSESSIVE})*\s+")
    after = re.compile(rf"(?:\s+(?:{person_re}))*\s+{_PREPOSITION}\s+{_DETERMINER}")
    there = re.compile(
        rf"(?:\s+(?:{person_re}))*\s+(?:there|{_PREPOSITION}\s+(?:that|this|the same)\s+"
        rf"(?:{unit_re}))\b"
    )
    return before, after, there


def _govern(
    s: str, lex: Lexicon, found: list[tuple[int, int, Mention]], units: set[str]
) -> list[tuple[int, int, Mention, bool]]:
    """``found`` (``(start, end, mention)``) with each governed rank (module docstring)
    read as the item that governs it, flagged."""
    ranks = {i for i, spec in lex.items.items() if spec.ranks}
    if not ranks:
        return [(a, b, m, False) for a, b, m in found]
    persons = {f for p in lex.persons for f in _forms(p)}
    before, after, there = _govern_patterns(frozenset(units), frozenset(persons | units))

    tables = _tables(lex)

    def item_of(m: Mention) -> str | None:
        named = [next(iter(r)) for r in m.readings if len(r) == 1]
        return named[0] if m.exact and len(named) == 1 and len(m.readings) == 1 else None

    governors = [(a, b, item_of(m)) for a, b, m in found]
    out: list[tuple[int, int, Mention, bool]] = []
    for a, b, m in found:
        own = item_of(m)
        last = _WORD.findall(m.text)
        if own not in ranks or not last or last[-1] not in persons | units:
            out.append((a, b, m, False))
            continue
        by: str | None = None
        for ga, gb, g in governors:
            if g is None or g in ranks:
                continue
            if gb <= a and before.fullmatch(s, gb, a):
                by = g  # billing team lead, billing's senior colleague
            elif ga < a < gb <= b:
                by = g  # accounts receivable team lead: the unit noun is shared
            elif ga >= b and after.fullmatch(s, b, ga):
                by = g  # a senior colleague in billing
        if by is None and there.match(s, b):
            earlier = [(gb, g) for ga, gb, g in governors if gb <= a]
            if earlier:
                g = max(earlier, key=lambda x: x[0])[1]
                by = g if g is not None and g not in ranks else None  # ... billing; someone there
        if by is None:
            out.append((a, b, m, False))
        else:
            out.append((a, b, Mention(m.text, (frozenset({by}),)), True))
        # what follows the rank, or the team governing it from after it
        end = max([b] + [gb for ga, gb, g in governors if ga >= b and after.fullmatch(s, b, ga)])
        out.extend(_alternative(s, end, lex, tables, persons, [fa for fa, _b, _m in found]))
    return out


_ALTERNATIVE = re.compile(
    rf"\s*(?:\(\s*(?:(?:or|and)\s+)?|,?\s*\bor\s+)(?:{_PREPOSITION}\s+)?{_DETERMINER}"
)
"""What opens a second team after a rank: a bracket (``(shipping)``, ``(or in returns)``) or
an ``or`` (``or in shipping``, ``, or shipping's``), then a preposition and a determiner."""

_NO_TEAM = frozenset(
    "else another other ticket case order request reference ref id number email phone name "
    "eta hour hours day days week weeks business usually typically normally soon today "
    "tomorrow whoever whichever anyone anybody".split()
)
"""Words that open a bracket or an ``or`` after a rank and name no team (``(usually within 2
days)``, ``(ticket 123)``, ``or anyone else``); beside `NEUTRAL`, the ``-ed`` and ``-ly``
words and numbers."""


def _alternative(
    s: str,
    end: int,
    lex: Lexicon,
    tables: tuple[dict[str, str], dict[tuple[str, ...], str], set[str]],
    persons: set[str],
    starts: list[int],
) -> list[tuple[int, int, Mention, bool]]:
    """The second team named in a bracket or an ``or`` right after a rank (and the team
    governing it), ``s[end:]``: ``our billing team lead (shipping)``, ``a senior colleague
    in billing or in shipping``. The word there (person nouns and a preposition after them
    skipped: ``or someone in shipping``) names its item (``(returns)``: a qualifier, the
    rank's unit noun shared) or, being none of theirs, another team (``other: shipping``);
    a word read already, a function word, an ``-ed`` / ``-ly`` word or a `_NO_TEAM` word
    names none."""
    m = _ALTERNATIVE.match(s, end)
    if m is None:
        return []
    single, phrases, _units = tables
    pos = m.end()
    skip = re.compile(rf"\s*(?:{_PREPOSITION}\s+)?{_DETERMINER}")
    while (w := _WORD.match(s, pos)) is not None and w.group(0) in persons:
        gap = skip.match(s, w.end())
        pos = gap.end() if gap is not None else w.end()
        if _WORD.match(s, pos) is None:
            return []
    w = _WORD.match(s, pos)
    if w is None or w.start() in starts:
        return []
    word = w.group(0)
    item = single.get(word) or phrases.get((word,))
    if item is None:
        stop = word in NEUTRAL or word in _NO_TEAM or len(word) < 3 or word.endswith(("ed", "ly"))
        if stop or lex.others == "ignored" or word in {n.casefold() for n in lex.neutral}:
            return []
        item = f"other: {word}"
    return [(w.start(), w.end(), Mention(word, (frozenset({item}),), exact=False), False)]
