"""``mcpgym_withdrawal``: where a text withdraws what was said before it.

An answer followed by "please disregard my previous message" leaves the customer with no
answer, while every check that reads all the replies still reads the first one's facts
(round 11's R6). A list of phrases closes only its own wording ("Scratch that", "Ignore the
above", "I misspoke", "Correction: …" were outside it), so this reads the speech act: a
sentence withdraws the earlier text when

- it says a verb of withdrawing (`WITHDRAW_VERBS`: disregard, ignore, retract, scratch,
  forget, take back…) or of being wrong (`WRONG_WORDS`: wrong, incorrect, in error, not
  meant for you, sent to the wrong customer…) *and* refers back to an earlier text of the
  writer's (`BACK_REFERENCE`: ``my previous message``, ``our last reply``, ``the above``,
  ``what I said``, ``that`` right after the verb); or
- it is one of the self-corrections that need no object (`SELF_CORRECTIONS`: ``scratch
  that``, ``never mind``, ``I misspoke``, ``I take that back``, ``please disregard``).

A correction of one fact is no withdrawal (docs/instrument.md, "One answer stands"): a back
reference to a part of the earlier text (``the date in my last message was wrong: it is
June 16``, ``the order number in my last message should read #N``) does not count, nor does
``Correction:`` or ``my mistake`` before a fact; the fact checks read both replies.

The customer's own earlier message is no back reference (``the details in your message did
not match``), and neither is a text of a third party (``the shipping notice``). Texts are
read folded (`mcpgym_grading._text.normalise_text`, HTML references decoded), one sentence
at a time.
"""

from __future__ import annotations

import functools
import html
import re

from mcpgym_grading._text import normalise_text

SQL_WITHDRAWAL = "mcpgym_withdrawal"
"""The SQL function ``mcpgym_withdrawal(text)``: the first words of ``text`` that withdraw
what was said before (`withdrawal`), as the folded text writes them; NULL where none (or
``text`` is NULL)."""

WITHDRAW_VERBS = (
    r"disregard(?:ed|ing)?|ignor(?:e|ed|ing)|retract(?:ed|ing)?|withdraw(?:n|ing)?|"
    r"scratch(?:ed)?|strike|struck|forget|delete|discard|void|unsend|take (?:that |it |this )?back|"
    r"set aside|pay no (?:attention|mind)|(?:do not|don't|dont) (?:rely on|act on|use|read)"
)
"""Verbs that take back a text (regex alternatives over the folded text)."""

WRONG_WORDS = (
    r"wrong|incorrect|inaccurate|mistaken|erroneous|invalid|in error|by mistake|a mistake|"
    r"an error|mixed up|misspoke|not (?:right|correct|accurate|true|valid|applicable|meant|"
    r"intended|for you|yours)|(?:was|is|were|are)n't (?:right|correct|accurate|true|valid|"
    r"meant|intended|for you)|(?:no longer|does not|doesn't|did not|didn't|do not|don't) "
    r"(?:apply|applies|stand|stands|hold|holds|valid)|no longer (?:valid|stands|applies|"
    r"holds|correct|accurate)|(?:another|a different|the wrong|other) (?:customer|person|"
    r"ticket|account|client|case)"
)
"""Words that say a text was wrong or not the reader's (regex alternatives)."""

_ADJ = r"previous|last|earlier|prior|above|first|preceding|original|former|other|initial"
_NOUN = (
    r"message|messages|reply|replies|email|emails|e-mail|mail|response|responses|answer|"
    r"answers|note|text|update|statement|information|info|details|comment|post"
)
BACK_REFERENCE = (
    rf"(?:my|our) (?:own )?(?:(?:{_ADJ}) )?(?:{_NOUN})|"
    rf"(?:the|that|this|those|these) (?:{_ADJ}) (?:{_NOUN})|"
    rf"(?:the|that|this) (?:{_NOUN}) (?:above|before this|i sent|we sent|i wrote|we wrote)|"
    r"(?:all (?:of )?)?the above|everything (?:above|i said|i wrote|before)|"
    r"what (?:i|we) (?:just |had |have )?(?:said|wrote|written|sent|told you|stated|mentioned)|"
    r"(?:i|we) (?:just |had |have )?(?:said|wrote|sent|told you|stated|mentioned) (?:above|"
    r"earlier|before|previously)"
)
"""Words that refer back to an earlier text of the writer's (regex alternatives)."""

SELF_CORRECTIONS = (
    r"(?:scratch|strike|ignore|disregard|forget|delete) (?:that|this|it|all that)\b|"
    r"never ?mind|i mis-?spok(?:e|en)|i take (?:that|it|this|everything) back|"
    r"please (?:disregard|ignore)\b|"
    r"sorry,? wrong (?:customer|ticket|person|order|message|account)"
)
"""Self-corrections that need no object (regex alternatives)."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+|[;\n]+")
_WITHDRAWN = re.compile(rf"\b(?:{WITHDRAW_VERBS})\b")
_WRONG = re.compile(rf"\b(?:{WRONG_WORDS})\b")
_BACK = re.compile(rf"\b(?:{BACK_REFERENCE})\b")
_SELF = re.compile(rf"\b(?:{SELF_CORRECTIONS})")
_PART_OF = re.compile(r"\b(?:in|of|from|on|at)\s+$")
_VERB_THAT = re.compile(rf"\b(?:{WITHDRAW_VERBS}) (?:all (?:of )?)?(?:that|this|it|everything)\b")


@functools.lru_cache(maxsize=256)
def withdrawal(text: str) -> str | None:
    """The first words of ``text`` (folded) that withdraw what was said before it (see the
    module docstring), or None. A sentence counts when it says a withdrawing or wrong-word
    and refers back to an earlier text of the writer's, or is a self-correction."""
    folded = normalise_text(html.unescape(text)).replace("\u2019", "'")
    for sentence in _SENTENCE.split(folded):
        s = sentence.strip(" \"'*_-\u2013\u2014()[]")
        if not s:
            continue
        if (m := _SELF.search(s)) is not None:
            return m.group(0)
        if (m := _VERB_THAT.search(s)) is not None:
            return m.group(0)
        back = next((b for b in _BACK.finditer(s) if not _PART_OF.search(s[: b.start()])), None)
        if back is None:
            continue
        act = _WITHDRAWN.search(s) or _WRONG.search(s)
        if act is not None:
            lo, hi = min(back.start(), act.start()), max(back.end(), act.end())
            return s[lo:hi]
    return None


def sql_withdrawal(text: object) -> str | None:
    """`withdrawal` for SQLite: None for a non-text value."""
    return withdrawal(text) if isinstance(text, str) else None
