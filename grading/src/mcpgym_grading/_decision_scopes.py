"""The decision reader's clause scopes (`mcpgym_grading._decisions`).

Where a text is cut into clauses and sentences, the negations and hedges a clause may hold,
and for which form each stands (`_scoped`): only for its own proposition (`_BOUNDARY`), or
for the next clauses when it dangles at a clause's end (`_DANGLING_NEGATION`,
`_DANGLING_HEDGE`), a request word in a relative clause apart (`_AFTER_REQUEST`).
"""

from __future__ import annotations

import re

from mcpgym_grading._decision_forms import _PATTERNS

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
_NO_BEFORE = re.compile(r"\bno\s+(?:\w+\s+)?$")
"""``no`` just before the form (``No refund has been issued``, ``no further refund``)."""
_HEDGE = re.compile(
    r"\b(if|once|when|whenever|after|before|until|till|unless|as soon as|whether|will|"
    r"would|can|could|may|might|should|shall|must|needs? to|ha(?:s|ve) to|going to|ll|d|asked|"
    r"ask|asking|want|wanted|"
    r"wants|request|requested|requesting|please|pending|awaiting|to be|hope|expect|"
    r"approve|approval|decide)\b"
)
_BOUNDARY = re.compile(
    r"\b(?:so|and|because|since|but|while|whereas|then)\s+(?:then\s+|also\s+)?"
    r"(?!\w+(?:ed|en)\b)(?=\w)|(?<=\w\s)(?=\b(?:i|we)\b)"
    r"|(?:(?<=\basked\s)|(?<=\bwanted\s)|(?<=\brequested\s))and\b"
)
"""Where a new proposition starts inside a clause: a conjunction not followed straight by
a participle (``hadn't shipped yet so I cancelled``; not ``not cancelled and refunded``),
or the subject ``I``/``we`` after other words (``After checking your account I
cancelled``). A negation or hedge stands only for its own proposition."""
_REQUEST = re.compile(r"^(?:asked|wanted|requested|request|please|approval|pending|awaiting)$")
"""Hedge words that close their own proposition (``As you requested I cancelled``)."""
_AFTER_REQUEST = re.compile(
    r"\s*(?:for|about)?\s*(?:has|have|had|was|were|is|are)\s+(?:now\s+)?(?:been\s+)?$"
)
"""What stands between a request word and the form in ``what you asked for has been
cancelled``: the request word belongs to a relative clause (round 11's R9)."""
_THINK = re.compile(r"\b(think|believe|recall|remember|know|see|expect|say|confirm)\b")
_DANGLING_NEGATION = re.compile(
    rf"(?:\b(?:not|never|no longer|cannot|neither|nor)|n['\u2019]?t){_ADVERBS}\s*$"
)
_DANGLING_HEDGE = re.compile(
    rf"^(?:\S+\s+){{0,3}}?(?:\b(?:if|once|when|whenever|until|unless|whether|will|would|can|"
    rf"could|may|might|should|shall|ll|d)){_ADVERBS}\s*$"
)


def _scoped(found: re.Pattern[str], text: str, pos: int, action: str) -> bool:
    """Whether ``found`` (a negation or hedge) stands for the form after ``before``: in the
    last proposition of ``before`` (`_BOUNDARY`), or in an earlier one whose words end at it
    (dangling), or whose rest holds a form of the same action or a verb of thinking
    (``I was not able to change the address so it will ship to…``, ``I don't think we…``)."""
    before = text[:pos]
    cuts = [0, *(m.start() for m in _BOUNDARY.finditer(text) if m.start() < pos), pos]
    live: str | bool = False  # a negation (hedge) of an earlier proposition stands for this one
    for a, b in zip(cuts, cuts[1:], strict=False):
        part = before[a:b]
        last = next(reversed(list(found.finditer(part))), None)
        if last is None:
            if b == len(before):
                return bool(live)
            live = live == "always" and "always"
            continue
        rest = part[last.end() :]
        if b == len(before):
            # a request word in a relative clause before the verb (``Everything you asked
            # for has been cancelled``) names what was asked, it does not hedge the claim
            return not (_REQUEST.search(last.group(0)) and _AFTER_REQUEST.match(rest))
        if _THINK.search(rest) or any(p.search(rest) for g in _PATTERNS[action][:2] for p in g):
            live = "always"
        else:
            dangling = not re.sub(_ADVERBS, "", rest).strip() and not _REQUEST.search(last.group(0))
            live = "next" if dangling else False
    return bool(live)


def _clauses(reading: str) -> list[tuple[str, str]]:
    """The clauses of ``reading`` (`_CLAUSE`), each with the break after it ("" at the end)."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _CLAUSE.finditer(reading):
        out.append((reading[start : m.start()], m.group(0)))
        start = m.end()
    out.append((reading[start:], ""))
    return out
