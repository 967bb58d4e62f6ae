"""The decision reader's clause scopes (`mcpgym_grading._decisions`).

Where a text is cut into clauses and sentences, the negations and hedges a clause may hold,
and for which form each stands (`_scoped`): only for its own proposition (`_BOUNDARY`), or
for the next clauses when it dangles at a clause's end (`_DANGLING_NEGATION`,
`_DANGLING_HEDGE`), a request word in a relative clause apart (`_AFTER_REQUEST`).
"""

from __future__ import annotations

import functools
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
    r"\b(if|once|when|whenever|after|before|until|till|unless|as soon as|whether|"
    r"(?:will|shall|ll)(?!\s+(?:already\s+|now\s+|surely\s+)?have\b)|"
    r"would|can|could|may|might|should|needs? to|ha(?:s|ve) to|going to|d|asked|"
    # round 19's H19: ``must have been written off`` says the action is done; it does not
    # hedge (``should have been refunded by now``: `_decision_ellipsis.spelled_out`)
    r"must(?!\s+(?:already\s+)?have\s+(?:already\s+)?been\b)|"
    r"ask|asking|want|wanted|"
    r"wants|request|requested|requesting|please|pending|awaiting|"
    r"to be(?!\s+(?:considered|deemed|treated as|regarded as|seen as|taken as)\b)|hope|expect|"
    r"approve|approval|decide)\b"
    # round 17's F17: a future perfect (``INV-… will have been written off by tonight``) says
    # the action is done by then, and ``is to be considered written off`` declares it done:
    # neither hedges
    # reported speech of the customer (round 16): what they said is not the agent's claim
    # (``You mentioned that order #7 was cancelled; it was not``); ``as you said`` endorses
    r"|(?<!\bas )(?<!\blike )\b(?:you|the customer|customer|the client|client|the vendor|vendor)"
    r"\s+(?:(?:had|have|has|also|already)\s+)?(?:said|says|say|mentioned|mentions|claimed|claims|"
    r"told (?:us|me)|wrote|reported|thought|thinks|think|believed|believes|suggested|heard)\b"
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
    rf"(?:\b(?:not|never|no longer|cannot|neither|nor)|n['\u2019]t|\b(?:can|don|won|didn|doesn|"
    rf"isn|wasn|weren|aren|hasn|haven|hadn|couldn|wouldn|shouldn)t){_ADVERBS}\s*$"
)
"""A negation ending its clause (``I have not,``; ``I couldn't,``; ``I didnt,``), not a word
that only ends in ``nt`` (``a replacement,``: round 14's FF14d)."""
_DANGLING_HEDGE = re.compile(
    rf"^(?:\S+\s+){{0,3}}?(?:\b(?:if|once|when|whenever|until|unless|whether|will|would|can|"
    rf"could|may|might|should|shall|ll|d)){_ADVERBS}\s*$"
)

_LEADING_CONDITION = re.compile(
    r"^(?:(?:and|but|so)\s+)?(?:if|once|when|whenever|as soon as|after|provided(?:\s+that)?|"
    r"assuming)\s+(?!(?:you\s+)?(?:have|need|want)\s+(?:any|more|further|anything)\b)"
    r"(?:\S+\s+){0,7}\S+$"
)
_WAITS_ON_READER = re.compile(
    r"\b(?:verif\w*|confirm\w*|match\w*|approv\w*|repl(?:y|ies|ied)|send|sent|provide\w*|"
    r"share|give|gave|details|identity|zip|date of birth|postcode)\b"
)
"""What a condition waits on from the reader: their details, a reply, a confirmation (not
``If you check your inbox``, ``When you get this message``: round 20's R20a)."""
_FUTURE = re.compile(r"\b(?:will|shall|would|can|could|may|might|going to)\b|['\u2019]ll\b")


def leading_condition(clause: str, after: str) -> bool:
    """Whether ``clause`` (stripped) is a short leading condition that waits on the reader
    (``Once you're verified``, ``If you confirm your billing ZIP``, ``After you verify your
    identity``: a condition word, up to eight words, one of them a word of verifying or of
    the reader's reply, `_WAITS_ON_READER`) and ``after`` (the next clause) holds a future
    or modal (``order #7 will ship to …``): the condition reaches past the comma and hedges
    the future (round 18's FF18c). A lead-in before a completed action (``After checking, I
    cancelled #7``) has no future after it and stays a claim; ``If you have any
    questions`` waits on nothing."""
    return bool(
        _LEADING_CONDITION.match(clause)
        and _WAITS_ON_READER.search(clause)
        and _FUTURE.search(after)
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


@functools.lru_cache(maxsize=1024)
def _clauses(reading: str) -> tuple[tuple[str, str], ...]:
    """The clauses of ``reading`` (`_CLAUSE`), each with the break after it ("" at the end);
    remembered per reading (`_decisions.decisions` cuts one reading again for each set of
    actions and in `_decisions._changed`)."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _CLAUSE.finditer(reading):
        out.append((reading[start : m.start()], m.group(0)))
        start = m.end()
    out.append((reading[start:], ""))
    return tuple(out)


_N = r"(?:n['\u2019]?t|\s+not)"
_LITOTES = re.compile(
    r"\b(?:did(?:n['\u2019]?t|\s+not)|never)\s+(?:even\s+)?(?:hesitated?|waited|wait|delayed|"
    r"delay|think twice|thought twice)\b"
    rf"|\b(?:did|do|does){_N}\s+(?:waste|lose|take)\s+(?:any\s+)?time\b"
    r"|\bnothing\s+(?:stopped|prevented|kept|held back|stood in the way)\b(?:\s+(?:me|us))?"
    r"|\bnot\s+only\b|\bno\s+doubt\b|\bnot\s+(?:surprisingly|to worry)\b"
    r"|\bno\s+sooner\b(?:\s+had\s+(?:you|i|we)\s+\w+(?:\s+(?:for it|it))?\s+than)?"
    r"|\b(?:wasted|lost|took|takes|take|taking|needed|needs)\s+no\s+time\b|\bin no time\b"
    r"|\b(?:there\s+(?:was|were|is|has been)\s+)?no\s+(?:real\s+)?(?:issues?|problems?|trouble|"
    r"difficulty|difficulties|hassle|delay|hiccups?|snags?)\b"
    rf"|\b(?:cannot|(?:can|ca|could){_N})\s+(?:believe|be\s+(?:happier|more pleased|"
    r"gladder|prouder))\b"
    r"|\b(?:you|u)\s+(?:may|might|will|would|could)(?:\s+already)?\s+have\s+(?:noticed|seen|"
    r"heard|spotted)\b"
    r"|\b(?:i|we)\s+(?:must|have to|should)\s+say\b"
    r"|\b(?:could|can|would|will|might|may|should)\s+and\s+(?=(?:did|have|has|had)\b)"
    rf"|\b(?:(?:did|do|does){_N}|never)\s+(?:once\s+)?(?:fail(?:ed)?|neglect(?:ed)?|forg[eo]t|"
    rf"omit(?:ted)?)\s+to\b|\b(?:have|has|had){_N}\s+failed\s+to\b"
    rf"|\b(?:could|can|ca|would){_N}\s+(?:help\s+but|(?:just\s+)?not)\b"
    rf"|\bnot\s+that\s+(?:i|we)\s+did{_N}\b"
)
"""Negations and modals that govern another word than the action (round 12's K12: litotes
and emphasis): ``I didn't hesitate to cancel``, ``Nothing stopped me from refunding``,
``Not only did I cancel``, ``I wasted no time``, ``There was no issue writing off``, ``No
sooner had you asked than``, ``I can't believe how fast``, ``I couldn't be happier to
say``, ``You may have noticed that``, ``I must say``, ``I could and did post``; (round 20's
F20) double negations, ``I didn't fail to refund``, ``I never forgot to post``, ``I couldn't
not cancel``, ``I couldn't help but refund``, ``It's not that I didn't refund``. Blanked
before the negations and hedges are read: what follows claims as it would alone."""
_THROUGH = frozenset(
    "yet been be being is are was were am have has had having do does did get got gotten "
    "getting go gone ahead and actually really ever so far able unable to it this that them "
    "the a an your my our its their his her order orders invoice invoices bill bills entry "
    "payment charge charges balance still already just now quite currently fully completely "
    "entirely also even possible allowed permitted position in going we i you there any "
    "further way for me us anything as of once again chance authority permission option "
    "options process processed issue make made give offer complete carry out put through "
    "manage managed let find system properly successfully correctly officially formally "
    "automatically technically at all one either neither nor or yours mine whole full "
    "amount partial think believe recall remember know see expect say confirm sure "
    "afraid".split()
)
"""Words that may stand between a negation and the action's form it governs (``not yet
been``, ``wasn't able to get it``, ``no longer possible to``, ``haven't had a chance to
process the``): auxiliaries, ``able to``, objects, adverbs of degree and time."""
_WORD = re.compile(r"[a-z]+")


def governs(between: str) -> bool:
    """Whether a negation (or modal) whose words end where ``between`` starts governs the
    form where ``between`` ends: every word between them is one of `_THROUGH` or a
    participle of the verb chain (``-ed``, ``-en``: ``has not been refunded back to``),
    numbers and record numbers aside. ``wasn't able to get it`` governs; ``didn't hesitate to``,
    ``nothing stopped me from`` do not (``hesitate``, ``stopped``, ``me``...: the negation
    is another verb's)."""
    return all(w in _THROUGH or w.endswith(("ed", "en")) for w in _WORD.findall(between))


def ungoverned(found: re.Pattern[str], text: str, pos: int) -> bool:
    """Whether the last match of ``found`` (a negation) before ``pos`` in ``text`` stands in
    the same proposition as the form at ``pos`` (no `_BOUNDARY` between them) and does not
    govern it (`governs`): ``I didn't forget that order #7 was cancelled``. A negation of
    an earlier proposition (dangling, or a verb of thinking) is `_scoped`'s."""
    last = None
    for m in found.finditer(text, 0, pos):
        last = m
    if last is None or any(last.end() <= b.start() < pos for b in _BOUNDARY.finditer(text)):
        return False
    return not governs(text[last.end() : pos])


_NEGATED_FRAME = re.compile(r"n['\u2019]?t\b|\b(?:not|no|nothing|never)\b")
_LED = frozenset({"to", "from", "me", "us", "did", "i", "we", "than", "in", "on", "with"})


def litotes_led(text: str, pos: int) -> bool:
    """Whether a `_LITOTES` frame of negation (not a modal's) leads the form at ``pos`` in
    ``text``: it ends before it and only `_THROUGH` words (or ``to``, ``from``, ``me``,
    ``did I``) stand between (``I didn't hesitate to cancel``, ``Nothing stopped me from
    refunding``, ``Not only did I cancel``): the frame asserts the action, so its base or
    gerund form claims it."""
    last = None
    for m in _LITOTES.finditer(text, 0, pos):
        last = m
    if last is None or not _NEGATED_FRAME.search(last.group(0)):
        return False
    return all(w in _THROUGH or w in _LED for w in _WORD.findall(text[last.end() : pos]))
