"""Futures of an action with another subject than the agent: ``Our billing team will refund
order #7 today``, ``The warehouse will cancel it now``, ``Your refund will be issued to your
card`` (stop 25's issue 9 §4; the agent's own promise is `_decision_promises`').

An unconditional future of the action itself, by anyone on the business's side, tells the
reader the action is settled as the agent's own promise does: read as an *unsure claim*
(refused where no claim may stand, never a claim where one must). Read:

- a team or a person of the business (`_WHO`: ``billing``, ``finance``, ``the warehouse``,
  ``our returns team``, ``a specialist``, ``they``, ``someone``...) with ``will``, ``'ll``,
  ``shall`` or ``is going to`` straight before a form of the action (a base form too:
  ``will refund``);
- a noun of the action (``refund``, ``cancellation``, ``write-off``...) that ``will be`` /
  ``will get`` / ``will go`` done (``issued``, ``processed``, ``sent``, ``completed``,
  ``credited``, ``through``...): ``Your refund will be issued``, ``A refund will be processed
  to your card``;
- a future done-word before the noun, any subject (``Billing will process the refund``,
  ``they'll issue a full refund``; not ``the refund request``).

Left unread, as for the agent's own promise: a sentence that waits (a condition or a time:
``if``, ``once``, ``after``, ``pending``...), a question, a request to the reader before the
future, and a verb of another action between the subject and the form (``a specialist will
review``, ``billing will decide whether to refund``, ``they will contact you about the
refund``). Not read with a third party as subject at all: the actions whose future by
someone else is their decision or their own act, not the agent's claim (`THIRD_PARTY_SKIPS`:
``the controller will approve it``, ``the customer will pay``, ``AR will issue a reminder``),
and a change of the address or contact without its object (`THIRD_PARTY_OBJECTS`: ``the team
will update you``); the customer (``you will``) is no subject here (``you'll return it with
the label``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from mcpgym_grading._decision_promises import _ADVERBS, _ASKED, stated_sentences
from mcpgym_grading._text import REMEMBERED_CHARS

THIRD_PARTY_SKIPS = frozenset({"approve", "escalate", "pay", "receive-payment", "credit-note"})
"""Actions not read after a third party's future: approving and escalating are a decision
(``the controller will approve it``), a payment by someone else is the counterparty's act
(``they will pay next week``), and the credit note's base forms are any issuing or raising
(``AR will issue a reminder``)."""

_OBJECT = (
    r"[a-z]+\s+(?:(?:the|your|their|its|his|her|my|account|order|shipping|delivery|new)\s+){0,3}"
)
THIRD_PARTY_OBJECTS: dict[str, re.Pattern[str]] = {
    "address-change": re.compile(rf"{_OBJECT}address"),
    "contact-update": re.compile(rf"{_OBJECT}(?:e-?mail|phone|telephone|mobile|contact)\b"),
}
"""Actions whose base forms are any change (``billing will correct the charge``, ``the team
will update you by email``): after a third party's future, read only with their object
straight after the form (``the warehouse will update the delivery address``)."""

_WHO = (
    r"(?:they|someone|somebody|team|teams|department|dept|desk|warehouse|billing|finance|"
    r"accounts|payable|receivable|ap|ar|specialists?|colleagues?|agents?|managers?|"
    r"supervisors?|controller|staff|store|system|support|fulfil+ment|office|treasury|"
    r"bookkeepers?|accountants?|processor|bank)"
)
"""The head of a subject on the business's side, straight before the future (``our billing
team will``, ``Finance is going to``, ``they'll``)."""
_THIRD = re.compile(
    rf"\b{_WHO}(?:\s+(?:will|shall)\s+|\s*['\u2019]ll\s+|(?:\s+is|\s+are|['\u2019]s|['\u2019]re)"
    rf"\s+going\s+to\s+){_ADVERBS}"
)
"""A third party's future before a form (``billing will``, ``the warehouse'll now``,
``finance is going to``)."""
_FUTURE = r"\b(?:will|shall|['\u2019]ll|(?:is|are|['\u2019]s|['\u2019]re)\s+going\s+to)\s+"
_TO_BE_DONE = (
    rf"{_FUTURE}(?:(?:now|also|then|just|be)\s+)*?(?:be|get|go)\s+"
    r"(?:(?:fully|now|also|immediately|promptly|completely)\s+)*"
    r"(?:issued|processed|made|sent|completed|done|carried\s+out|finali[sz]ed|put\s+through|"
    r"through|paid|paid\s+out|credited|released|returned|posted|recorded|booked)\b"
)
"""A noun's future completion (``will be issued``, ``'ll go through``)."""
_FUTURE_DONE_BEFORE = (
    rf"{_FUTURE}{_ADVERBS}(?:issue|process|make|complete|finali[sz]e|put\s+through|send|"
    r"carry\s+out|post|book|record)\s+(?:(?:the|a|an|your|full|complete|partial|whole|"
    r"entire|this|that)\s+){0,3}"
)
"""A future done-word before the noun (``will process the refund``)."""
_NOT_REQUEST = (
    r"(?!\s+(?:request|policy|policies|window|rules?|terms|limit|options?|form|fee|deadline|"
    r"process|status|details|amount|reference))"
)
_W = r"[^;:!?\n]"


@functools.lru_cache(maxsize=256)
def _noun_patterns(noun: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    return (
        re.compile(rf"\b(?:{noun})\b{_NOT_REQUEST}{_W}{{0,40}}?{_TO_BE_DONE}"),
        re.compile(rf"{_FUTURE_DONE_BEFORE}(?:{noun})\b{_NOT_REQUEST}"),
    )


def futures(
    reading: str, matches: Callable[[str, int], bool] | None, noun: str | None
) -> list[str]:
    """The sentences of ``reading`` (a text as the decision reader reads it: folded,
    casefolded) that state an unconditional future of an action with another subject than
    the agent (module docstring). ``matches(sentence, pos)``: whether a form of the action
    (base or claim) starts at ``pos``, None to read no third party's future; ``noun``: the
    regex of the action's nouns, None where it has none. Returns the sentences, stripped, in
    order; none for a question, a sentence that waits or a future after a request."""
    nouns = _noun_patterns(noun) if noun else ()
    out: list[str] = []
    for sentence in stated_sentences(reading):
        third = (
            _third(sentence) if len(sentence) <= REMEMBERED_CHARS else _third.__wrapped__(sentence)
        )
        found = matches is not None and any(matches(sentence, pos) for pos in third)
        found = found or any(
            not _ASKED.search(sentence, 0, m.start()) for p in nouns for m in p.finditer(sentence)
        )
        if found:
            out.append(sentence.strip())
    return out


@functools.lru_cache(maxsize=1024)
def _third(sentence: str) -> tuple[int, ...]:
    """Where a form may follow a third party's future in ``sentence``: the end of each
    `_THIRD` that no request (`_ASKED`) stands before. The same for every action (`futures`
    reads each in turn): remembered."""
    return tuple(
        m.end() for m in _THIRD.finditer(sentence) if not _ASKED.search(sentence, 0, m.start())
    )
