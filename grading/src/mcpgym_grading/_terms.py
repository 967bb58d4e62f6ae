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
  team``);
- a *team-like name* that is none of the items: a word before a unit noun that is no
  item's, no `neutral` word (the agent's own team: ``support``, ``customer service``;
  ``our``, ``the``, ``relevant``, ``dedicated``...) and no function word (``escalations
  team``, ``shipping department``). With ``others="alternative"`` (the default) it is a
  mention of an item outside the vocabulary, ``other: <word>``: a text telling the customer
  their request went to a team the app does not have names an alternative to the right one
  all the same. ``others="ignored"`` drops them.
"""

from __future__ import annotations

import re
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
)
"""Nouns that make the word before them the name of a team (their plurals too)."""

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
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    names: tuple[str, ...] = ()
    qualifiers: tuple[str, ...] = ()


class Lexicon(BaseModel):
    """A closed vocabulary read by `MentionMatch` (see the module docstring).

    Attributes:
        items: ``{item: LexiconItem}`` (the teams of ``escalate_ticket``, say).
        units: nouns that make the word before them a team's name (`UNITS`).
        neutral: more words that name no item before a unit noun (beside `NEUTRAL`).
        others: ``"alternative"``: a team-like name none of the items is a mention of
            ``other: <word>``; ``"ignored"``: it is not read.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["lexicon"] = "lexicon"
    items: dict[str, LexiconItem]
    units: tuple[str, ...] = UNITS
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
        out: list[Mention] = []
        tables = _tables(self)
        for s in reading_texts(text):
            out += _read(s, self, *tables)
        return out


def _forms(word: str) -> set[str]:
    w = word.casefold()
    out = {w, w + "s", w + "es"}
    if w.endswith("s"):
        out.add(w[:-1])
    return out


def _tables(lex: Lexicon) -> tuple[dict[str, str], dict[tuple[str, ...], str], set[str]]:
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
    for m in _WORD.finditer(s):
        w = m.group(0)
        for u in units:
            if len(u) >= 4 and w.endswith(u) and w[: -len(u)] in single:
                cut = m.start() + len(w) - len(u)
                out += [(w[: -len(u)], m.start(), cut), (u, cut, m.end())]
                break
        else:
            out.append((w, m.start(), m.end()))
    return out


def _read(
    s: str,
    lex: Lexicon,
    single: dict[str, str],
    phrases: dict[tuple[str, ...], str],
    units: set[str],
) -> Iterable[Mention]:
    words = _split_glued(s, units, single)
    plain = [w for w in words if w[0] != "and"]
    neutral = NEUTRAL | {w.casefold() for w in lex.neutral}
    ordered = sorted(phrases.items(), key=lambda p: -len(p[0]))  # longest names first
    for i in range(len(plain)):
        for phrase, item in ordered:
            if phrase[0] != plain[i][0]:
                continue
            n = len(phrase)
            if tuple(w[0] for w in plain[i : i + n]) == phrase:
                yield Mention(s[plain[i][1] : plain[i + n - 1][2]], (frozenset({item}),))
                break
    for i, (w, _start, end) in enumerate(words):
        if w not in units:
            continue
        j, nxt, first, joined = i - 1, words[i][1], True, False
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
                yield Mention(s[a:end], (frozenset({f"other: {word}"}),), exact=False)
            elif phrases.get((word,)) != item:  # a one-word name is read as a name already
                yield Mention(s[a:end], (frozenset({item}),))
            j, nxt, first, joined = j - 1, a, False, False
