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

A negation or hedge counts only for its own proposition (`_BOUNDARY`): a clause is cut
again at a conjunction not followed straight by a participle (``so``, ``and``, ``because``,
``since``, ``but``, ``while``, ``then``) and at the subject ``I``/``we`` after other words.
``Order #7 hadn't shipped yet so I cancelled it`` and ``After checking your account I
cancelled order #7`` claim; a negation whose proposition holds a form of the same action
(``I was not able to change the address so it will ship to…``) or a verb of thinking (``I
don't think we cancelled it``), or a condition or modal left alone (``If | we cancelled
it``) still stands for the next. Also read:

- ``no`` just before the form denies (``No refund has been issued``); a rule about every
  record (``Cancelled orders are refunded in full``) states nothing;
- outcome states deny without the verb (`_STATES`: ``will ship as planned``, ``to your
  original address``, ``is on hold``, ``left as a draft``, ``stays open``);
- a short key takes its value (``Posted: no``, ``Cancellation of order #7: done``);
  a noun of the action with a word of completion claims (``Your request to cancel order #7
  has been completed``, ``your refund went through``), as do ``was able to`` / ``managed to``
  + a base form, a checked box or a check mark (``- [x] Cancel order #7``, ``✅ Cancel
  order #7``) and a key of completion (``Done: cancel order #7``);
- letters spaced or dotted apart (``c-a-n-c-e-l-l-e-d``, ``cancel·led``) are read joined;
- (round 11) a frame of saying does not hedge what it says (`_FRAME`: ``I can confirm
  that…``, ``Please note that…``); a done-word before the action's noun claims (``I've
  issued a full refund``), as do the agent's present progressive (``I'm cancelling order
  #7``), an elided completion after the request (``…, which I did``) and a request word in
  a relative clause (``What you asked for has been refunded``).

- (round 16) the state an action ends, said with its own negation, claims it
  (`_decision_forms._ENDED`: ``Order #7 is no longer active``, ``Bill X is no longer a
  draft``); the customer's reported speech hedges what it reports (``You said order #7 was
  cancelled``) and ``it was not`` after it denies it (`_DENIED_BACK`), as `AFFIRMED` claims;
  a rule's key naming a record lists it (``Cancelled orders: #7``).

Edge forms it does not read: pronouns across sentences. The forms are the engine's, not the
rubric's: changing them changes grades, not rubric digests.

The sentence forms (`ACTIONS`, `_STATES`, `_FRAME`...) are `_decision_forms`', the clause
scopes (`_BOUNDARY`, the dangling negations and hedges) `_decision_scopes`', the forms'
literal beginnings `_decision_stems`'; this module reads them together.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from mcpgym_grading._decision_ellipsis import spelled_out
from mcpgym_grading._decision_forms import (
    _CHECKED,
    _DONE_ABLE,
    _DONE_KEY,
    _ELIDED,
    _FRAME,
    _GENERIC,
    _NOUNS,
    _PATTERNS,
    _SPACED,
    _VALUE_NO,
    _VALUE_YES,
    AFFIRMED,
    ENDED_FORMS,
)
from mcpgym_grading._decision_forms import ACTIONS as ACTIONS
from mcpgym_grading._decision_forms import Action as Action
from mcpgym_grading._decision_forms import decision_sentence as decision_sentence
from mcpgym_grading._decision_futures import THIRD_PARTY_OBJECTS, THIRD_PARTY_SKIPS, futures
from mcpgym_grading._decision_lists import headed
from mcpgym_grading._decision_objects import changed_record
from mcpgym_grading._decision_promises import promises
from mcpgym_grading._decision_results import results
from mcpgym_grading._decision_scopes import (
    _DANGLING_HEDGE,
    _DANGLING_NEGATION,
    _HEDGE,
    _LITOTES,
    _NEGATION,
    _NO_BEFORE,
    _SENTENCE_BREAK,
    _clauses,
    _scoped,
    leading_condition,
    litotes_led,
    ungoverned,
)
from mcpgym_grading._decision_stems import _live, _live_in, may_match
from mcpgym_grading._mentions import reading_texts
from mcpgym_grading._skeleton import LETTER_LIKE
from mcpgym_grading._text import REMEMBERED_CHARS

_DIGIT_LETTERS: dict[str, str] = {}
for _letter, _like in LETTER_LIKE.items():
    for _c in _like:
        if _c.isdigit():
            _DIGIT_LETTERS[_c] = _DIGIT_LETTERS.get(_c, "") + _letter


@dataclass(frozen=True)
class Decision:
    """One place a text states an action: ``action``, ``done`` (True: claimed as done;
    False: said not done; None: an unsure claim, a form under a negation that does not
    govern it, refused where no claim may stand) and ``text`` (the clause, as read)."""

    action: str
    done: bool | None
    text: str


class _Reader(Protocol):
    def __call__(self, text: str, actions: tuple[str, ...] | None = None) -> list[Decision]: ...


def _remembered(read: _Reader) -> _Reader:
    """``read`` remembered per text and actions (`REMEMBERED` at most, texts up to
    `REMEMBERED_CHARS` characters): a regrade reads the
    same replies with the same actions; each caller gets its own list (`Decision` items
    are immutable). Unhashable actions are read each time."""
    memo = functools.lru_cache(maxsize=REMEMBERED)(lambda t, a: tuple(read(t, a)))

    @functools.wraps(read)
    def remembered(text: str, actions: tuple[str, ...] | None = None) -> list[Decision]:
        if len(text) > REMEMBERED_CHARS:
            return read(text, actions)
        try:
            return list(memo(text, actions))
        except TypeError:  # a list of actions: not hashable
            return read(text, actions)

    remembered.cache_clear = memo.cache_clear  # type: ignore[attr-defined]
    return remembered


REMEMBERED = 1024
"""Readings `decisions` keeps (by text and actions)."""


@_remembered
def decisions(text: str, actions: tuple[str, ...] | None = None) -> list[Decision]:
    """Every claim and denial of ``actions`` (default: all of `ACTIONS`) in ``text``.

    Returns them in order of the clauses (and, within one, of the actions); a clause that
    claims and denies one action (``not cancelled but cancelled``) gives both. Unknown
    actions raise KeyError.
    """
    wanted = tuple(ACTIONS) if actions is None else actions
    out: list[Decision] = []
    text = headed(text)  # a list's items with their heading (round 19's M19)
    readings = reading_texts(text)
    unbroken = _HYPHENATED.sub("", text)
    if unbroken != text:  # a word hyphenated at a line break, read joined (round 12's L12)
        readings.extend(reading_texts(unbroken))
    for mark, marked, drop in (("_", _INNER_UNDERSCORE, ""), ("~~", _STRUCK, " ")):
        # a word split by emphasis underscores (``re_fund_ed``), a struck-out word
        # (``has ~~not~~ been refunded``): read as rendered too (round 20's E20)
        unmarked = marked.sub(drop, text) if mark in text else text
        if unmarked != text:
            readings.extend(r for r in reading_texts(unmarked) if r not in readings)
    for reading in list(readings):
        joined = _SPACED.sub(lambda m: re.sub(r"[-\s\u00b7.]", "", m.group(0)), reading)
        if joined != reading:
            readings.append(joined)
        readings.extend(r for r in _respelled(reading) if r not in readings)
    for reading in list(readings):
        # an elliptical clause with the verb it borrows (round 19's L19: ``Order #8 wasn't
        # refunded at first. Now it is.``)
        spelled = spelled_out(reading)
        if spelled is not None and spelled not in readings:
            readings.append(spelled)
    for reading in readings:
        out.extend(_changed(reading, wanted))
        out.extend(_promised(reading, wanted))
        live = _live(reading, wanted)
        if not live:
            continue
        carried = ""  # a dangling negation or modal of an earlier clause of the sentence
        unread: list[str] = []  # actions named, hedged, in the sentence's last clause with one
        said: list[str] = []  # actions named, hedged, in this sentence (to a full stop)
        asked: list[str] = []  # the same of the sentence before, for an affirmation after it
        clauses = _clauses(reading)
        for i, (clause, sep) in enumerate(clauses):
            shown = f"{carried} ... {clause.strip()}" if carried else clause.strip()
            keyed = sep.strip()[:1] in (":", "?") and len(clause.split()) <= 8
            value = clauses[i + 1][0] if keyed and i + 1 < len(clauses) else ""
            ticked = i > 0 and _ticks(*clauses[i - 1])
            found = False
            elided = bool(_ELIDED.search(clause.strip()))
            if AFFIRMED.match(clause):  # ``… cancel order #7. Done.`` (round 14's Q)
                done = dict.fromkeys(unread + (said or asked))
                out.extend(Decision(a, True, f"{shown} ({a})") for a in done)
                asked = []
                if _FULL_STOP.search(sep):
                    said, unread = [], []
                continue
            if (unread or said or asked) and _DENIED_BACK.match(clause):
                # ``You asked whether order #7 was cancelled; it was not.`` (round 16)
                done = dict.fromkeys(unread + (said or asked))
                out.extend(Decision(a, False, f"{shown} ({a})") for a in done)
                asked = []
                if _FULL_STOP.search(sep):
                    said, unread = [], []
                continue
            if asked and _BARE_YES.match(clause):
                continue  # ``Yes: all done``: the affirmation still follows the sentence
            asked = []
            hedged: list[str] = []
            # an action none of whose needed literals stands in the clause has no form
            # there: `_read` would find none (None), so it is not asked
            # a yes/no question states nothing itself (round 18's FF18b: ``Was INV-… written
            # off? Not yet.``): read as after ``whether``; its answer claims or denies it
            # (a key's value, `AFFIRMED`, `_DENIED_BACK`)
            asks = not carried and sep.strip()[:1] == "?" and bool(_QUESTION.match(clause))
            for action in _live_in(clause, live):
                got = _read(clause, "whether" if asks else carried, action, value, ticked=ticked)
                found = found or got is not None
                if got == [] and elided:
                    got = [True]
                elif got == []:
                    hedged.append(action)
                out.extend(Decision(action, done, shown) for done in got or ())
            if not found and elided:
                out.extend(Decision(a, True, f"{shown} ({a})") for a in unread)
            if found:
                unread = hedged
                said += [a for a in hedged if a not in said]
            if _FULL_STOP.search(sep):
                asked, said, unread = said, [], []
            elif _SENTENCE_BREAK.search(sep):
                unread = []
            # a leading condition (``Once you're verified,``; round 18's FF18c) reaches the
            # future after it even where it names the action itself (``When you reply with
            # the correct ZIP,``: ``correct`` is a form, hedged there)
            led = not _SENTENCE_BREAK.search(sep) and leading_condition(
                clause.strip(), clauses[i + 1][0] if i + 1 < len(clauses) else ""
            )
            if (found and not led) or _SENTENCE_BREAK.search(sep):
                carried = ""
            elif led or _DANGLING_NEGATION.search(clause) or _DANGLING_HEDGE.search(clause.strip()):
                carried = clause.strip()
    return out


def _changed(reading: str, wanted: tuple[str, ...]) -> list[Decision]:
    """An unsure claim of each of ``wanted`` for each clause of ``reading`` that says its
    record was changed by a verb no list reads (`_decision_objects.changed_record`: ``I
    wrote down the invoice``)."""
    found = [(clause, changed_record(clause)) for clause, _ in _clauses(reading)]
    return [
        Decision(a, None, f"{clause.strip()} (changed: {words})")
        for clause, words in found
        if words is not None
        for a in wanted
    ]


def _promised(reading: str, wanted: tuple[str, ...]) -> list[Decision]:
    """An unsure claim of each of ``wanted`` for each sentence of ``reading`` that promises
    it unconditionally (`_decision_promises.promises`: ``I will cancel order #7 today``,
    ``Order #7 will be refunded within the hour``; round 14's F14), or states its future
    with a third party as subject or a noun of it (`_decision_futures.futures`: ``Billing
    will refund order #7 today``, ``Your refund will be issued``; stop 25)."""
    out: list[Decision] = []
    for a in wanted:
        claims_, bases, _ = _PATTERNS[a]

        def matches(s: str, pos: int, passive: bool, c=claims_, b=bases, a=a) -> bool:
            if a == "refund-both" and not _TWO.search(s):
                return False  # ``I will refund order #7``: one charge
            return any(p.match(s, pos) for p in (c if passive else (*c, *b)))

        out.extend(Decision(a, None, f"{s} (promised)") for s in promises(reading, matches))
        if a in THIRD_PARTY_SKIPS:
            continue

        obj = THIRD_PARTY_OBJECTS.get(a)

        def third(s: str, pos: int, m=matches, o=obj) -> bool:
            return m(s, pos, False) and (o is None or bool(o.match(s, pos)))

        said = futures(reading, third, _NOUNS.get(a))
        if a == "refund-both":  # a future of one refund is no future of both
            said = [s for s in said if _TWO.search(s)]
        out.extend(Decision(a, None, f"{s} (future)") for s in said)
        if a != "refund-both":  # the result told as seen (round 18's D17k)
            seen = results(reading, _RESULT_NOUNS.get(a, _NOUNS.get(a)), _claimed_at(a))
            out.extend(Decision(a, None, f"{s} (result)") for s in seen)
    return out


_RESULT_NOUNS = {"refund": rf"{_NOUNS['refund']}|money\s+back"}
"""Nouns of an action's result besides `_NOUNS` (`_decision_results.results`)."""


def _claimed_at(action: str) -> Callable[[str, int], bool]:
    claims_ = _PATTERNS[action][0]
    return lambda s, pos: any(p.match(s, pos) for p in claims_)


_FULL_STOP = re.compile(r"[.!?\n]")
"""The breaks that end a sentence for an affirmation after it (``;`` and ``:`` do not:
``Please refund it; I don't want another one. Done.``)."""
_QUESTION = re.compile(
    r"^\s*(?:(?:and|but|so|also|then)\s+)?(?:was|were|is|are|has|have|had|did|do|does|will|would|"
    r"could|can|should|shall)\b(?!\s*(?:n['\u2019]?t|not)\b)"
)
"""A clause that asks whether (an auxiliary first, the clause ended by ``?``; not a negated
one, ``Wasn't it written off?``, which asserts): its forms are read as hedged."""
_TWO = re.compile(r"\b(?:both|each|two|twice|all|every)\b")
"""A word of two charges: without one, refund-both's base form (``refund``) is no reading of
it (a ticked ``Refund order #7`` refunds one charge; round 14's false fail)."""
_DENIED_BACK = re.compile(
    r"^\s*(?:(?:no|nope|sadly|unfortunately)\b[\s,]*)?(?:(?:i checked|checking)(?:\s+and)?\s+)?"
    r"(?:it|that|they|this)\s+(?:(?:was|were|has|have|had|did|is)\s*(?:n['\u2019]?t|\s+not)"
    r"(?:\s+been)?|(?:was|has|had|is)\s+not)(?:\s+(?:yet|at all|i['\u2019]m afraid|"
    r"unfortunately))*[\s.!]*$"
)
"""A clause that only denies what the sentence before named, asked or reported (``You asked
whether order #7 was refunded; it was not``, ``I checked and it hasn't been``): the denial
of those actions, as `AFFIRMED` claims them (round 16's reported speech)."""
_LISTED = re.compile(r"#\s?\d|\b\d{3,}\b|\b[a-z]{2,6}-\d")
"""A record's name in a key's value (``#7``, ``100494``, ``trai-9197``, ``inv-2026-0151``)."""
_BARE_YES = re.compile(r"^[\W_]*(?:(?:yes|yep|yeah|sure|ok(?:ay)?)[\W_]*)?$", re.IGNORECASE)
"""A clause of a bare ``yes`` (or only marks: the ``")`` closing a quote) between a sentence
and its affirmation (``Yes: all done``): it keeps the sentence's actions for the affirmation
after it."""
_DID = re.compile(r"\bdid\s+(?:(?:i|we)\s+)?(?:(?:also|actually|indeed|really|in fact)\s+)?$")
"""An emphatic ``did`` before a base form (``I did cancel it``, ``Not only did I cancel``,
``I could and did post the bill``): the base form claims, as after ``was able to``."""
_HEREBY = re.compile(r"\bhereby\s+(?:(?:formally|officially|now)\s+)?$")
"""A performative ``hereby`` before a base form (``I hereby write off INV-…``): saying it
does it, so the base form claims, as after ``did`` (round 18)."""
_HYPHENATED = re.compile(r"(?<=[^\W\d_])-[ \t]*\r?\n\s*(?=[^\W\d_])")
"""A word hyphenated at a line break (``refu-⏎nded``), in the text as written (a reading
joins lines): read joined too (round 12's L12)."""
_INNER_UNDERSCORE = re.compile(r"_(?<=[^\W_]_)(?=[^\W_])")
"""An underscore between two letters or digits (``re_fund_ed``: emphasis markers inside a
word): a reading drops them, besides the reading that reads them apart (``written_off``)."""
_STRUCK = re.compile(r"~~(?=[^~\s])[^~\n]{1,80}(?<=[^~\s])~~")
"""Struck-out text (``~~not~~``): a renderer shows it struck, so a reading drops it (one
more reading: the text as written is read too, where ``~~refunded~~`` still claims)."""
_LEET_WORD = re.compile(r"\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]+\b")
"""A word of letters and digits (``r3fund3d``, ``wr1tt3n``): its digits may be letters."""
_LEET: tuple[dict[int, str], ...] = tuple(
    {ord(d): ls[min(k, len(ls) - 1)] for d, ls in _DIGIT_LETTERS.items()} for k in (0, 1)
)
"""Two ways to read a digit as a letter (`_skeleton.LETTER_LIKE` reversed: ``1`` as ``l``
then as ``i``, ``6`` as ``g`` then ``b``...)."""


def _respelled(reading: str) -> list[str]:
    """``reading`` with the digits inside words of letters and digits read as the letters
    they are drawn like (`_LEET`), one reading per way; those that differ from ``reading``
    (round 12's L12: ``r3fund3d``, ``canc3ll3d``, ``wr1tt3n off``, ``p0st3d``)."""
    out: list[str] = []
    for table in _LEET:
        read = _LEET_WORD.sub(lambda m, t=table: m.group(0).translate(t), reading)
        if read != reading and read not in out:
            out.append(read)
    return out


def _ticks(clause: str, sep: str) -> bool:
    """Whether ``clause`` (with the break ``sep`` after it) is a key of completion whose
    value is the next clause (`_DONE_KEY`: ``Done: cancel #7``, ``Completed - refund it``)."""
    return sep.strip()[:1] in (":", "-", "\u2013", "\u2014") and bool(_DONE_KEY.search(clause))


def _clause_remembered(read: _ClauseReader) -> _ClauseReader:
    """``read`` (`_read`) remembered per clause, carried words, action, value and tick
    (`REMEMBERED` at most, clause and carried words up to `REMEMBERED_CHARS` characters):
    `_decision_check.misbound_claims` reads again, with the actions it names, the sentences
    of a reply `decisions` read; each caller gets its own list."""
    memo = functools.lru_cache(maxsize=REMEMBERED)(
        lambda c, r, a, v, t: None if (got := read(c, r, a, v, ticked=t)) is None else tuple(got)
    )

    @functools.wraps(read)
    def remembered(
        clause: str, carried: str, action: str, value: str = "", *, ticked: bool = False
    ) -> list[bool | None] | None:
        if len(clause) + len(carried) + len(value) > REMEMBERED_CHARS:
            return read(clause, carried, action, value, ticked=ticked)
        got = memo(clause, carried, action, value, ticked)
        return None if got is None else list(got)

    remembered.cache_clear = memo.cache_clear  # type: ignore[attr-defined]
    return remembered


class _ClauseReader(Protocol):
    def __call__(
        self, clause: str, carried: str, action: str, value: str = "", *, ticked: bool = False
    ) -> list[bool | None] | None: ...


@_clause_remembered
def _read(
    clause: str, carried: str, action: str, value: str = "", *, ticked: bool = False
) -> list[bool | None] | None:
    """The readings (True: claim, False: denial, None: unsure claim) of ``action`` in one
    clause; None where no form of it stands there. ``value``: the clause after a colon, read
    as the key's value (``Posted: no``, ``Cancellation of order #7: done``). ``ticked``: the
    clause is the value of a key of completion (`_ticks`): a form leading it is claimed, as
    after ``- [x]``."""
    claims, bases, states = _PATTERNS[action]
    # a rule about every record states nothing, but as a list's key it names its records
    # (``Cancelled orders: #7``, ``Posted bills: TRAI-9197``; round 16's C16a)
    generic = bool(_GENERIC.search(clause)) and not _LISTED.search(value)
    read: list[tuple[bool | None, tuple[int, int], str]] = []
    seen = False
    raw = f"{carried} {clause}"
    context = _LITOTES.sub(lambda m: " " * len(m.group(0)), raw)
    unframed = _FRAME.sub(lambda m: " " * len(m.group(0)), context)
    for patterns, kind in ((claims, "claim"), (bases, "base"), (states, "state")):
        if kind == "base" and action == "refund-both" and not _TWO.search(clause):
            continue  # ``- [x] Refund order #7``: ``refund`` alone names no two charges
        for pattern in patterns:
            if not may_match(pattern, clause):
                continue  # no match there (`_decision_stems.may_match`)
            for m in pattern.finditer(clause):
                seen = True
                before, at = clause[: m.start()], len(carried) + 1 + m.start()
                # (refund-both's base is refund's: ``refund`` alone names no two charges)
                led = kind == "base" and action != "refund-both" and litotes_led(raw, at)
                # a ticked box or check mark just before the form starts an item of its own:
                # a negation before the mark (``the igniter doesn't work ✅ Cancel it``, two
                # lines a reading joined) cannot be told to reach the form after it, so the
                # item reads as an unsure claim (below), neither a claim nor a denial
                checked = bool(_CHECKED.search(before))
                outside = _scoped(_NEGATION, context, at, action) or _NO_BEFORE.search(context[:at])
                own = "" if pattern.pattern in ENDED_FORMS else m.group(0)  # V15c
                negated = not led and ((not checked and outside) or _NEGATION.search(own))
                if kind == "state":
                    if not negated:
                        read.append((False, m.span(), kind))
                elif (
                    negated
                    and kind == "claim"
                    and not _NEGATION.search(own)
                    and not _NO_BEFORE.search(before)
                    and ungoverned(_NEGATION, context, at)
                ):
                    # a negation of another word in the form's proposition (``I didn't
                    # forget that it was cancelled``): it neither denies nor rules out the
                    # claim; unless hedged, read as an unsure claim (refused where no
                    # claim may stand, no claim where one must)
                    if not _scoped(_HEDGE, unframed, at, action):
                        read.append((None, m.span(), kind))
                elif negated:
                    read.append((False, m.span(), kind))
                elif generic:
                    continue
                elif checked and outside and not led:
                    read.append((None, m.span(), kind))
                elif (
                    checked
                    or (ticked and not before.strip())
                    or (
                        (
                            kind == "claim"
                            or led
                            or _DONE_ABLE.search(before)
                            or (
                                action != "refund-both"
                                and (_DID.search(before) or _HEREBY.search(before))
                            )
                        )
                        and not _scoped(_HEDGE, unframed, at, action)
                    )
                ):
                    read.append((True, m.span(), kind))
    if not seen and action in _NOUNS and value:
        seen = bool(re.search(rf"\b(?:{_NOUNS[action]})\b", clause))
    if not seen:
        return None
    if _VALUE_NO.search(value):
        return [False]
    if _VALUE_YES.search(value):
        return [True]
    if any(done is False for done, _, _ in read):  # another form of it is denied there
        read = [r for r in read if r[0] is not None]
    states_at = [span for done, span, kind in read if kind == "state"]
    return [
        done
        for done, (s0, s1), _ in read
        if done is False or not any(s0 < t1 and t0 < s1 for t0, t1 in states_at)
    ]


def claims(text: str, action: str) -> bool:
    """Whether ``text`` claims ``action`` as done (see the module docstring)."""
    return any(d.done is True for d in decisions(text, (action,)))


def denies(text: str, action: str) -> bool:
    """Whether ``text`` says ``action`` was not done (see the module docstring)."""
    return any(d.done is False for d in decisions(text, (action,)))
