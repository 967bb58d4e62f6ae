"""The decision reader: which actions a text claims as done, and which it says were not.

A reply to a customer or a note in the books states a decision (the order was cancelled or
not, the bill posted or left a draft). A text can keep every fact a value check reads (the
order number, the amount) and still state the opposite decision; this reader reads the
decision, for a closed set of actions (`ACTIONS`), each with the verb forms that claim it.

The text is read as every mention reader reads it (`mcpgym_grading._mentions.reading_texts`:
folded, casefolded, look-alike letters as Latin ones) and cut into clauses (at ``.``, ``;``,
``:``, ``!``, ``?``, ``,``, a dash between spaces and line breaks; not a point or comma
between two digits). In each clause, each
place a verb form of an action stands is:

- a *denial* when a negation stands in the clause before it (``not``, ``n't``, ``no
  longer``, ``never``, ``unable to``, ``nothing``): ``it can no longer be cancelled``, ``I
  couldn't change the address``; base forms count here too (``could not cancel``);
- else not read when a hedge stands in the clause before it: a condition or a time to come
  (``if``, ``once``, ``when``, ``after``, ``before``, ``until``, ``as soon as``), a modal
  (``will``, ``would``, ``can``, ``could``, ``may``, ``might``, ``should``, ``going to``),
  a request (``asked``, ``want``, ``request``, ``please``, ``pending``): ``once it is back
  we'll refund``, ``please approve before it is posted``;
- else a *claim*: the action is stated as done. Only past forms and fixed phrases claim
  (``cancelled``, ``posted``, ``will now ship to``); a bare ``cancel`` claims nothing.

A negation or a modal left dangling at the end of a clause (``I have not, as you asked,
cancelled order #7``; ``It will, once approved, be cancelled``) stands before the next
clauses of its sentence, up to the first that holds a form of an action: that clause is read
as denied (or hedged). Dangling means the clause ends in the negation (``not``, ``never``,
``haven't``, optionally ``yet``, ``been``, ``actually``...), or is a short one (up to four
words) ending in a modal or a condition word (``It will``, ``If``); ``As discussed before``
or ``Per your request`` carry nothing.

Edge forms it does not read: pronouns across sentences. The forms are the engine's, not the
rubric's: changing them changes grades, not rubric digests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from mcpgym_grading._mentions import reading_texts

Action = Literal[
    "cancel",
    "address-change",
    "exchange",
    "post",
    "write-off",
    "refund",
    "refund-both",
    "store-credit",
    "card-refund",
]
"""The actions the reader knows (`ACTIONS`)."""

_W = r"[^;:!?\n]"  # a character inside one clause (split first at `_CLAUSE`)

ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # action: (forms that claim it when neither negated nor hedged,
    #          base forms that only deny it, negated: "could not cancel")
    "cancel": (
        (
            r"\bcancell?ed\b",
            rf"\bcancellation\b{_W}{{0,20}}\b(done|complete|confirmed|processed)\b",
        ),
        (r"\bcancel\b",),
    ),
    "address-change": (
        (
            rf"\b(changed|updated|amended|corrected|switched|redirected)\b{_W}{{0,40}}\baddress",
            rf"\baddress\b{_W}{{0,40}}\b(changed|updated|amended|corrected|is now|now reads|"
            r"has been set|was set|is set)\b",
            rf"\b(set|moved)\b{_W}{{0,40}}\baddress\b",
            r"\b(will|shall) (now )?(be )?(delivered|sent|going|headed|heading) to\b",
            r"\b(will|shall) now (be )?ship(ped)? to\b",
            r"\bnow ships? to\b",
            r"\b(will|shall) (be )?ship(ped)? to\b",
            r"\b(is|are) now (set|going|heading|addressed) to\b",
            r"\bredirected\b",
        ),
        (r"\b(change|update|amend|correct|redirect)\b",),
    ),
    "exchange": (
        (
            r"\b(exchanged|swapped)\b",
            rf"\b(exchange|swap)\b{_W}{{0,20}}\b(is|has been|was) (done|complete|arranged|"
            r"set up|confirmed|processed|on its way)\b",
            rf"\breplacement\b{_W}{{0,30}}\b(ships|shipped|is on its way|has been sent|was sent)\b",
        ),
        (r"\b(exchange|swap)\b",),
    ),
    "post": (
        (r"\bposted\b", rf"\bposting\b{_W}{{0,20}}\b(done|complete)\b"),
        (r"\bpost\b",),
    ),
    "write-off": (
        (
            r"\b(wrote|written|writing)\b-? ?off\b",
            rf"\b(wrote|written)\b{_W}{{0,60}}?\boff\b",
            rf"\bwrite-?off\b{_W}{{0,20}}\b(is|has been|was) (done|complete|posted|recorded)\b",
        ),
        (rf"\bwrite\b{_W}{{0,60}}?\boff\b",),
    ),
    "refund": (
        (
            r"\brefunded\b",
            rf"\brefund\b{_W}{{0,30}}\b(has been|was|is) (issued|processed|made|sent|done|"
            r"complete)\b",
        ),
        (r"\brefund\b",),
    ),
    "refund-both": (
        (
            rf"\b(refunded|reversed|returned|credited)\b{_W}{{0,40}}\b(both|each of the|all two|"
            r"two charges|two payments)\b",
            rf"\b(both|each of the|two) (charges|payments|transactions)\b{_W}{{0,50}}"
            r"\b(refunded|reversed|returned|credited)\b",
        ),
        (r"\brefund\b",),
    ),
    "store-credit": (
        (
            r"\bstore credit\b",
            r"\b(account|shop|gift) credit\b",
            r"\bcredit(ed)? (to|on|in) your account\b",
        ),
        (),
    ),
    "card-refund": (
        (
            rf"\b(refunded|returned|credited|sent|back)\b{_W}{{0,50}}\b(to|on) your\b{_W}{{0,30}}"
            r"\bcard\b",
            r"\bback (to|on) your\b",
        ),
        (),
    ),
}
"""Each action's forms: those that claim it, and base forms that only deny it."""

_CLAUSE = re.compile(r"[;:!?\n]+|[.,](?!\d)|(?<!\d)[.,]|\s[-\u2013\u2014]\s")
"""Clause breaks; a point or comma between digits is part of a number (``$1,234.50``)."""
_SENTENCE_BREAK = re.compile(r"[;:!?\n.]")
"""The clause breaks that also end a sentence: a dangling negation stops at them."""
_ADVERBS = r"(?:\s+(?:yet|been|actually|really|ever|so far|in fact|however|quite|already))*"
_NEGATION = re.compile(
    r"\b(not|no longer|never|nothing|unable|cannot|couldn['\u2019]?t|can['\u2019]?t|"
    r"won['\u2019]?t|wasn['\u2019]?t|isn['\u2019]?t|hasn['\u2019]?t|haven['\u2019]?t|"
    r"didn['\u2019]?t|weren['\u2019]?t|aren['\u2019]?t|wouldn['\u2019]?t|neither|nor|"
    r"instead of|rather than|without)\b|n['\u2019]t\b"
)
_HEDGE = re.compile(
    r"\b(if|once|when|whenever|after|before|until|till|unless|as soon as|whether|will|"
    r"would|can|could|may|might|should|shall|going to|ll|d|asked|ask|asking|want|wanted|"
    r"wants|request|requested|requesting|please|pending|awaiting|to be|hope|expect|"
    r"approve|approval|decide|able to)\b"
)
_DANGLING_NEGATION = re.compile(
    rf"(?:\b(?:not|never|no longer|cannot|neither|nor)|n['\u2019]?t){_ADVERBS}\s*$"
)
_DANGLING_HEDGE = re.compile(
    rf"^(?:\S+\s+){{0,3}}?(?:\b(?:if|once|when|whenever|until|unless|whether|will|would|can|"
    rf"could|may|might|should|shall|ll|d)){_ADVERBS}\s*$"
)


@dataclass(frozen=True)
class Decision:
    """One place a text states an action: ``action``, ``done`` (True: claimed as done;
    False: said not done) and ``text`` (the clause, as read)."""

    action: str
    done: bool
    text: str


def _compiled() -> dict[str, tuple[list[re.Pattern[str]], list[re.Pattern[str]]]]:
    return {
        a: ([re.compile(p) for p in claims], [re.compile(p) for p in bases])
        for a, (claims, bases) in ACTIONS.items()
    }


_PATTERNS = _compiled()


def decisions(text: str, actions: tuple[str, ...] | None = None) -> list[Decision]:
    """Every claim and denial of ``actions`` (default: all of `ACTIONS`) in ``text``.

    Returns them in order of the clauses (and, within one, of the actions); a clause that
    claims and denies one action (``not cancelled but cancelled``) gives both. Unknown
    actions raise KeyError.
    """
    wanted = tuple(ACTIONS) if actions is None else actions
    out: list[Decision] = []
    for reading in reading_texts(text):
        carried = ""  # a dangling negation or modal of an earlier clause of the sentence
        for clause, sep in _clauses(reading):
            shown = f"{carried} ... {clause.strip()}" if carried else clause.strip()
            found = False
            for action in wanted:
                claims, bases = _PATTERNS[action]
                for pattern, claiming in [(p, True) for p in claims] + [(p, False) for p in bases]:
                    for m in pattern.finditer(clause):
                        found = True
                        before = f"{carried} {clause[: m.start()]}"
                        if _NEGATION.search(before) or _NEGATION.search(m.group(0)):
                            out.append(Decision(action, False, shown))
                        elif claiming and not _HEDGE.search(before):
                            out.append(Decision(action, True, shown))
            if found or _SENTENCE_BREAK.search(sep):
                carried = ""
            elif _DANGLING_NEGATION.search(clause) or _DANGLING_HEDGE.search(clause.strip()):
                carried = clause.strip()
    return out


def _clauses(reading: str) -> list[tuple[str, str]]:
    """The clauses of ``reading`` (`_CLAUSE`), each with the break after it ("" at the end)."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _CLAUSE.finditer(reading):
        out.append((reading[start : m.start()], m.group(0)))
        start = m.end()
    out.append((reading[start:], ""))
    return out


def claims(text: str, action: str) -> bool:
    """Whether ``text`` claims ``action`` as done (see the module docstring)."""
    return any(d.done for d in decisions(text, (action,)))


def denies(text: str, action: str) -> bool:
    """Whether ``text`` says ``action`` was not done (see the module docstring)."""
    return any(not d.done for d in decisions(text, (action,)))


_CLAIM_SENTENCES: dict[str, str] = {
    "cancel": "{it} has{not} been cancelled.",
    "address-change": "The shipping address of {it} has{not} been changed.",
    "exchange": "{it} has{not} been exchanged.",
    "refund": "{it} has{not} been refunded.",
    "refund-both": "Both charges of {it} have{not} been refunded.",
    "post": "{it} has{not} been posted.",
    "write-off": "{it} has{not} been written off.",
    "store-credit": "{it} has{not} been refunded as store credit on your account.",
    "card-refund": "{it} has{not} been refunded back to your card.",
}


def decision_sentence(action: str, *, done: bool, about: str | None = None) -> str:
    """A plain sentence claiming ``action`` done (``done``) or saying it was not, about
    ``#about`` when given (else "It"): what the ship gate's ``claim`` mutants write, so a
    `DecisionMatch` is never vacuous. Raises KeyError for an unknown action."""
    it = f"#{about}" if about is not None else "It"
    return _CLAIM_SENTENCES[action].format(it=it, **{"not": "" if done else " not"})
