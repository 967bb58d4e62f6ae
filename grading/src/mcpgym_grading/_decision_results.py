"""An action's result told as something the reader will see, get or find: ``If you check your
card, you'll see the refund for order #7``, ``The refund will appear on your statement``,
``Your statement will show the refund``, ``Order #7 will show as cancelled`` (round 17's D17k).

Such a sentence names no verb of the action, and its future is the reader's (``you'll see``),
which the decision reader reads as a hedge; yet it tells the reader the action is settled, as
the agent's own promise does (`_decision_promises`). Read as an *unsure claim* (refused where
no claim may stand, never a claim where one must), in these forms, each with one of the
action's nouns (`_decision_forms._NOUNS`: ``refund``, ``cancellation``; and ``money back``
for a refund):

- the reader's future or modal of perceiving or receiving before the noun: ``you'll see``,
  ``you should see``, ``you will get``, ``you'll receive``, ``you're going to notice``,
  ``you can already see`` (``can``/``may`` only with a verb of seeing: ``you can get a
  refund by returning it`` is an option, not a result), with only determiners, amounts and
  a few adjectives between (``the full $45.00 refund``, ``order #7's cancellation``);
- an imperative of waiting for it at the sentence's start: ``Expect the refund …``, ``Look
  out for the refund …``;
- the noun, then within its clause a future or modal of arriving or showing: ``the refund
  will appear / show up / land / reach / post / be on …``, or a present of being there:
  ``the refund is now showing / is on your card / has landed``;
- an account or statement that will show it or shows it: ``your statement will show the
  refund``, ``your card now reflects the refund``;
- a record that will show as done: ``Order #7 will show as cancelled`` (the action's claim
  form after ``will show as``, ``will appear as``, ``will be listed as``).

Left unread: a sentence that waits (`_decision_promises._WAITS`: ``you'll see the refund once
billing approves it``; a condition of looking is no wait: ``if you check your card, …``), a
question, a request or an imperative condition before the form (``send it back and you'll
get a refund``), a negation before it (``you won't see a refund``, ``no refund will
appear``), and a noun of a rule or a form (``refund policy``, ``refund request``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from mcpgym_grading._decision_promises import _ASKED, _WAITS
from mcpgym_grading._text import REMEMBERED_CHARS

_LOOKING = re.compile(
    r"\b(?:if|when|whenever|once|as soon as|next time)\s+you\s+(?:(?:now|just|simply|then)\s+)?"
    r"(?:check|look(?:\s+(?:at|in|into|over))?|log\s*(?:in|on)(?:\s*to)?|sign\s+in(?:\s*to)?|"
    r"open|view|go\s+(?:to|into)|visit|refresh|pull\s+up|take\s+a\s+look(?:\s+at)?|see)\b"
    r"[^,;.!?\n]*(?:[,;]\s*|\s+(?=you\b))"
)
"""A condition of the reader's looking (``If you check your card, ``, ``when you log in ``):
no wait of the result, removed before the sentence is read for one."""
_OTHER_WAITS = re.compile(
    r"\b(?:on\s+receipt|on\s+return|by\s+returning|in\s+return\s+for|as\s+long\s+as|"
    r"so\s+long\s+as|providing|in\s+the\s+event|approv\w*|sign(?:s|ed)?\s+off|review\w*)\b"
)
"""Waits `_WAITS` does not hold, read here only: ``on receipt of the return``, ``by returning
it``, an approval or review (``you'll see the refund after billing's review``)."""
_IMPERATIVE = re.compile(
    r"^\W*(?:(?:just|simply|please|so)\s+)?(?:return|send|ship|mail|bring|drop|post|pack|"
    r"reply|call|contact|let|fill|click|follow|use|print)\b.*\band\s+(?:then\s+)?$"
)
"""An imperative condition before the form (``Send it back and you'll get a refund``)."""
_NEGATED = re.compile(
    r"(?:\bnot|n['\u2019]t|\bnever|\bno\s+longer|\bno|\bnothing|\bneither|\bnor)\b[^,;]*$"
)
"""A negation before the form in its clause (``you won't see``, ``no refund will``)."""

_AUX = r"(?:will|shall|should|would|['\u2019]ll|(?:are|['\u2019]re|is|['\u2019]s)\s+going\s+to)"
_ADV = r"(?:(?:now|soon|already|also|then|definitely|certainly|shortly|probably|likely)\s+)*"
_NP = (
    r"(?:(?:the|your|a|an|this|that|its|their|full|complete|partial|whole|entire|pending|"
    r"promised|requested|expected|original|same|first|second|new|usd|dollars?|"
    r"\$?\d[\d.,]*|(?:order\s+)?#?\s?[\w-]*\d[\w-]*['\u2019]s)\s+){0,4}"
)
_NOT_RULE = (
    r"(?!\s+(?:request|policy|policies|window|rules?|terms|limit|options?|form|fee|deadline|"
    r"process|status|details|reference|reason|eligibility|criteria|procedure|team|desk))"
)
_SEEN = (
    rf"\byou(?:\s+{_AUX}|\s*['\u2019]ll)\s+{_ADV}(?:be\s+able\s+to\s+)?"
    r"(?:see|notice|spot|find|get|receive|have|expect|be\s+(?:seeing|getting|receiving))"
    rf"\s+{_NP}"
    rf"|\byou\s+(?:can|could|may|might)\s+{_ADV}(?:see|notice|spot|find)\s+{_NP}"
    rf"|^\W*(?:(?:so|and|just|then|please)\s+)?(?:expect|look\s+out\s+for|watch\s+(?:out\s+)?for|"
    rf"keep\s+an\s+eye\s+out\s+for|look\s+for)\s+{_NP}"
    r"|\b(?:your|the)\s+(?:(?:credit|debit|card|bank|online|account|monthly)\s+){0,2}"
    r"(?:statement|card|account|bank|balance|app|banking)\s+"
    rf"(?:(?:{_AUX}|can|may|might)\s+{_ADV}(?:show|reflect|list|display|include)|{_ADV}"
    rf"(?:shows|reflects|lists|displays|includes))\s+{_NP}"
)
"""What stands before the noun: the reader's perceiving or receiving, an imperative of
waiting, an account that shows it."""
_ARRIVES = (
    rf"[^;:!?\n]{{0,40}}?\b(?:(?:{_AUX}|may|might|can)\s+{_ADV}"
    r"(?:show(?:\s+up)?|appear|land|arrive|reach|hit|post|clear|come\s+through|reflect|"
    r"be\s+(?:visible|on\s+your|back|in\s+your|showing|there|reflected|available|listed))"
    r"|(?:is|are|['\u2019]s|has|have)\s+(?:(?:now|already|also|just)\s+)*"
    r"(?:on\s+your|showing|visible|reflected|in\s+your|back\s+on|posted\s+to|landed|arrived|"
    r"appeared|shown\s+up|pending\s+on))\b"
)
"""What follows the noun in its clause: its arriving or showing, to come or now."""
_SHOWS_AS = re.compile(
    rf"\b(?:{_AUX}|may|might)\s+{_ADV}(?:show|appear|display|be\s+(?:listed|marked|shown))"
    r"(?:\s+up)?\s+as\s+"
)
"""A record's future showing as its action's claim form (``will show as cancelled``)."""
_NONE_BEFORE = re.compile(r"\b(?:no|any|every|each|without)\s+(?:\w+\s+)?$")
_SENTENCE = re.compile(r"(?<!\d)[.!?](?!\d)|\n")


@functools.lru_cache(maxsize=256)
def _noun_patterns(noun: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    return (
        re.compile(rf"(?:{_SEEN})(?:{noun})\b{_NOT_RULE}"),
        re.compile(rf"\b(?:{noun})\b{_NOT_RULE}{_ARRIVES}"),
    )


def _sentences(reading: str) -> tuple[str, ...]:
    """``reading``'s sentences that state: a condition of looking removed (`_LOOKING`), none
    that ends in ``?`` or waits (`_WAITS`, `_OTHER_WAITS`). The same for every action
    (`results` reads each in turn, ~25 times over ~4 readings a helpdesk grade): remembered
    per reading up to `REMEMBERED_CHARS` characters (`_stated_sentences`)."""
    if len(reading) > REMEMBERED_CHARS:
        return _read_sentences(reading)
    return _stated_sentences(reading)


def _read_sentences(reading: str) -> tuple[str, ...]:
    out: list[str] = []
    start = 0
    for end_m in (*_SENTENCE.finditer(reading), None):
        end = len(reading) if end_m is None else end_m.end()
        sentence = _LOOKING.sub(" ", reading[start:end])
        start = end
        if sentence.rstrip().endswith("?"):
            continue
        if _WAITS.search(sentence) or _OTHER_WAITS.search(sentence):
            continue
        out.append(sentence)
    return tuple(out)


_stated_sentences = functools.lru_cache(maxsize=256)(_read_sentences)
"""`_read_sentences` remembered (`cache_clear` empties it: a text-keyed memo)."""


def _free(sentence: str, at: int) -> bool:
    """Whether nothing before ``at`` in ``sentence`` keeps the form from stating: a request,
    an imperative condition, a negation in its clause, ``no``/``any`` before the noun."""
    before = sentence[:at]
    return not (
        _ASKED.search(before)
        or _IMPERATIVE.search(before)
        or _NEGATED.search(before)
        or _NONE_BEFORE.search(before)
    )


def results(
    reading: str, noun: str | None, claimed: Callable[[str, int], bool] | None
) -> list[str]:
    """The sentences of ``reading`` (a text as the decision reader reads it: folded,
    casefolded) that tell an action's result as seen (module docstring). ``noun``: the regex
    of the action's nouns, None where it has none; ``claimed(sentence, pos)``: whether a
    claim form of the action starts at ``pos`` (for ``will show as …``), None to read none.
    Returns the sentences, stripped, in order."""
    patterns = _noun_patterns(noun) if noun else ()
    out: list[str] = []
    for sentence in _sentences(reading):
        found = any(_free(sentence, m.start()) for p in patterns for m in p.finditer(sentence)) or (
            claimed is not None
            and any(
                _free(sentence, m.start()) and claimed(sentence, m.end())
                for m in _SHOWS_AS.finditer(sentence)
            )
        )
        if found:
            out.append(sentence.strip())
    return out
