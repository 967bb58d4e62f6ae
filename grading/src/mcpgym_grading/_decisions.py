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

Edge forms it does not read: pronouns across sentences. The forms are the engine's, not the
rubric's: changing them changes grades, not rubric digests.
"""

from __future__ import annotations

import re
import re._parser as _P  # noqa: PLC2701 (the forms' literal beginnings: `_stems`)
from dataclasses import dataclass
from typing import Any, Literal

from mcpgym_grading._action_forms import EXTRA_ACTIONS, EXTRA_CLAIMS, EXTRA_NOUNS, EXTRA_SENTENCES
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
    "return",
    "replacement",
    "shipping-upgrade",
    "contact-update",
    "escalate",
    "pay",
    "approve",
    "enter-bill",
    "reverse",
]
"""The actions the reader knows (`ACTIONS`; the tools' other writes are
`mcpgym_grading._action_forms`')."""

_W = r"[^;:!?\n]"  # a character inside one clause (split first at `_CLAUSE`)

ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # action: (forms that claim it when neither negated nor hedged,
    #          base forms that only deny it, negated: "could not cancel")
    "cancel": (
        (
            r"\bcancel+e?d\b",
            r"\bvoided\b",
            r"\b(cancelad|anulad)[oa]s?\b",
            rf"\bcancellation\b{_W}{{0,20}}\b(done|complete|confirmed|processed)\b",
        ),
        (r"\bcancel\b",),
    ),
    "address-change": (
        (
            rf"\b(changed|updated|amended|corrected|switched|redirected)\b{_W}{{0,40}}"
            r"(?<!mail )\baddress",
            rf"(?<!mail )\baddress\b{_W}{{0,40}}\b(changed|updated|amended|corrected|is now|"
            r"now reads|has been set|was set|is set)\b",
            rf"\b(set|moved)\b{_W}{{0,40}}(?<!mail )\baddress\b",
            r"\b(will|shall) (now )?(be )?(delivered|sent|going|headed|heading) to\b",
            r"\b(will|shall) now (be )?ship(ped)? to\b",
            r"\bnow ships? to\b",
            r"\b(will|shall) (be )?ship(ped)? to\b",
            r"\b(is|are) now (set|going|heading|addressed) to\b",
            r"\bredirected\b",
            r"\bnew (delivery |shipping )?address (for|of|on) (your )?order\b",
            r"\bnew (delivery |shipping )?address is\b",
            r"\bships to\b",
            r"\b(now )?goes to\b",
            r"\b(will|shall) (now )?(go|arrive|be arriving|travel) (to|at)\b",
            r"\b(is|are) (now )?(headed|heading|going) to\b",
            rf"\b(will|shall|ll) (now )?deliver\b{_W}{{0,40}}\bto\b",
            rf"\b(changed|updated|amended|switched)\b{_W}{{0,30}}\b(where|over to)\b",
            rf"\b(changed|updated|amended|corrected)\b{_W}{{0,40}}\b(delivery|shipping) "
            r"(details|destination)",
        ),
        (r"\b(change|update|amend|correct|redirect)\b",),
    ),
    "exchange": (
        (
            r"\b(exchanged|swapped)\b",
            rf"\b(exchange|swap)\b{_W}{{0,20}}\b(is|has been|was) (done|complete|arranged|"
            r"set up|confirmed|processed|on its way)\b",
            rf"\breplacement\b{_W}{{0,30}}\b(ships|shipped|is on its way|has been sent|was sent)\b",
            rf"\b(ships|shipped|has shipped|is shipping|goes out|went out)\b{_W}{{0,30}}\bon "
            r"(your )?(new |replacement )?order\b",
            r"\b(sent|shipped|dispatched|mailed) (you )?(the|your) \w+( \w+)? on (your )?(new |"
            r"replacement )?order\b",
        ),
        (r"\b(exchange|swap)\b",),
    ),
    "post": (
        (
            r"\bposted\b",
            rf"\bposting\b{_W}{{0,20}}\b(done|complete)\b",
            rf"\bbooked\b(?!{_W}{{0,20}}\bdraft)",
            rf"\bon the books\b(?!{_W}{{0,20}}\bdraft)",
        ),
        (r"\bpost\b",),
    ),
    "write-off": (
        (
            r"\b(wrote|written|writing)\b-? ?off\b",
            rf"\b(wrote|written)\b{_W}{{0,60}}?\boff\b",
            rf"\bwrite-?off\b{_W}{{0,20}}\b(is|has been|was) (done|complete|posted|recorded)\b",
            rf"\bwrite-?off\b{_W}{{0,60}}\b(recorded|booked|posted)\b",
            rf"\b(moved|charged|transferred|booked|posted|expensed|reclassified)\b{_W}{{0,60}}"
            r"\bbad debts?\b",
        ),
        (rf"\b(write|writing)\b{_W}{{0,60}}?\boff\b",),
    ),
    "refund": (
        (
            r"\brefunded\b",
            rf"\brefund\b{_W}{{0,30}}\b(has been|was|is) (issued|processed|made|sent|done|"
            r"complete)\b",
            r"\bpaid back\b",
        ),
        (r"\brefund\b", r"\bpay back\b"),
    ),
    "refund-both": (
        (
            rf"\b(refunded|reversed|returned|credited)\b{_W}{{0,40}}\b(both|each of the|all two|"
            r"two charges|two payments|each charge|each payment)\b",
            rf"\b(both|each|two)( of)?( the| your)?{_W}{{0,20}}?\b(charges?|payments?|"
            rf"transactions?)\b{_W}{{0,50}}\b(refunded|reversed|returned|credited)\b",
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
_DOING = r"\b(?:i|we)(?:['\u2019](?:m|re)|\s+am|\s+are)\s+(?:(?:now|just|already)\s+)?"
"""The agent as subject of a present progressive (``I'm cancelling order #7 now``): what it
says it is doing now is claimed (round 11's R3)."""
_PROGRESSIVE: dict[str, tuple[str, ...]] = {
    "cancel": (rf"{_DOING}cancell?ing\b",),
    "refund": (
        rf"{_DOING}(?:refunding|(?:issuing|processing)\s+(?:(?:a|the|your|full)\s+){{0,2}}"
        r"refund\b(?!\s+request))",
    ),
    "address-change": (
        rf"{_DOING}(?:changing|updating|amending|correcting|redirecting)\b{_W}{{0,40}}"
        r"(?<!mail )\baddress",
    ),
    "exchange": (rf"{_DOING}(?:exchanging|swapping)\b",),
}
for _a, _more in _PROGRESSIVE.items():
    ACTIONS[_a] = ((*ACTIONS[_a][0], *_more), ACTIONS[_a][1])
ACTIONS.update(EXTRA_ACTIONS)
for _a, _more in EXTRA_CLAIMS.items():
    ACTIONS[_a] = ((*ACTIONS[_a][0], *_more), ACTIONS[_a][1])
"""Each action's forms: those that claim it, and base forms that only deny it."""

_NOUNS: dict[str, str] = {
    "cancel": r"cancell?ation|request to cancel",
    "address-change": r"address (?:change|update)|request to change the address",
    "exchange": r"exchange|swap|request to exchange",
    "post": r"posting",
    "write-off": r"write-?off",
    "refund": r"refund|request for a refund",
    "refund-both": r"refunds",
}
"""Each action's nouns: with a word of completion after them (`_DONE`) they claim it
(``Your request to cancel order #7 has been completed``, ``your refund went through``)."""
_NOUNS.update(EXTRA_NOUNS)
_DONE = (
    r"(?:(?:has been|have been|was|were|is|are) (?:now )?(?:completed?|processed|done|carried "
    r"out|fulfilled|finali[sz]ed|confirmed|approved)|went through|is through)"
)
_DONE_BEFORE = (
    r"\b(?:issued|processed|put through|completed|finali[sz]ed|carried out|approved|actioned|"
    r"made)\s+(?:(?:the|a|an|your|full|complete|partial|whole|entire)\s+){0,3}"
)
"""A done-word before the noun (``I've issued a full refund``, ``I've processed the
cancellation``): the noun then claims unless a word of a request or a rule follows it
(`_NOT_DONE_NOUN`: ``processed your refund request``)."""
_NOT_DONE_NOUN = (
    r"(?!\s+(?:request|policy|policies|window|rules?|terms|limit|options?|form|fee|deadline|"
    r"process))"
)
_STATES: dict[str, tuple[str, ...]] = {
    "cancel": (
        rf"\b(ships?|shipping|go(?:es)? out|be delivered|arrives?){_W}{{0,20}}\bas "
        r"(planned|scheduled|normal|usual|originally planned)\b",
        r"\bwill still (ship|go out|be delivered|arrive)\b",
    ),
    "address-change": (
        rf"\b(ships?|go(?:es)?|be (?:delivered|sent|shipped)|arrives?|deliver){_W}{{0,30}}\b(the|"
        r"your) (old|original|previous|current|existing|same|former|usual) ((delivery |shipping )?"
        r"address|one)\b",
        rf"\b(ships?|go(?:es)?|be (?:delivered|sent|shipped)|arrives?|deliver){_W}{{0,30}}\bthe "
        r"address (on file|we have|already on the order)\b",
    ),
    "exchange": (
        r"\b(is|are) (now |still )?on hold\b",
        r"\border it again\b",
        r"\b(is|are) (currently |still )?out of stock\b",
    ),
    "post": (
        r"\b(left|kept|saved|stays?|remains?|still)( it| the bill)? (as |in )?(a )?draft\b",
        r"\bunposted\b",
    ),
    "write-off": (
        r"\b(stays?|remains?|left|kept) open\b",
        r"\b(goes|go|sent|passed|referred|handed) (on )?to collections\b",
    ),
}
"""Outcome states that say an action was not taken without its verb (``will ship as
planned``, ``left as a draft``, ``stays open``): read as denials, unless negated."""

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
_FRAME = re.compile(
    r"\b(?:i|we)(?:\s+(?:can|could|would|will|want(?:ed)? to|wish to|(?:would |)like to|"
    r"(?:am|are) (?:happy|pleased|glad|delighted) to)|['\u2019](?:d|ll)(?: like to)?|"
    r"['\u2019](?:m|re) (?:happy|pleased|glad|delighted) to)\s+(?:(?:now|just|also|happily|"
    r"gladly)\s+)?(?:confirm|let you know|tell you|inform you|assure you|advise(?: you)?|"
    r"report|say|share|update you)\b"
    r"|\byou(?:\s+(?:will|may|might|would)|['\u2019](?:ll|d))\s+be\s+(?:pleased|glad|happy|"
    r"relieved|delighted)\s+to\s+(?:know|hear|learn|see)\b"
    r"|\b(?:please|kindly)\s+(?:note|be advised|be aware|know)\b"
)
"""A frame of saying whose modal or request word governs the saying, not what is said (``I
can confirm that order #7 has been cancelled``, ``I'd like to let you know that…``,
``Please note that…``, ``You'll be glad to hear that…``): blanked before the hedges are
read, so what follows it claims as it would alone (round 11's R1). Negations in it still
stand (``I can't confirm…``: ``can't`` is not ``can`` + space)."""
_AFTER_REQUEST = re.compile(
    r"\s*(?:for|about)?\s*(?:has|have|had|was|were|is|are)\s+(?:now\s+)?(?:been\s+)?$"
)
"""What stands between a request word and the form in ``what you asked for has been
cancelled``: the request word belongs to a relative clause (round 11's R9)."""
_THINK = re.compile(r"\b(think|believe|recall|remember|know|see|expect|say|confirm)\b")
_ELIDED = re.compile(
    r"(?:^|\b(?:which|and|so|as)\s+)(?:i|we)\s*(?:did|have|had|['\u2019]ve)(?:\s+(?:now|"
    r"already|just))?(?:\s+done)?(?:\s+(?:it|so|that|this|exactly that))?(?:\s+(?:now|"
    r"already|for you))?\s*$"
)
"""A clause that only says the agent did what was just named (``You asked me to cancel
order #7, which I did``; ``… and I have``): the action named in the request before it, in
the same sentence, is claimed (round 11's R3)."""
_DONE_ABLE = re.compile(r"\b(?:was|were|been|managed)\s+(?:able\s+)?to\s+$")
_CHECKED = re.compile(
    r"(?:^|\s)(?:[-*]\s*)?(?:\[[x\u2713\u2714]\]|[\u2705\u2714\u2611\u2713](?:\ufe0f)?)\s*$"
)
"""A ticked box or a check mark just before the form (``- [x] Cancel #7``, ``✅ Cancel
#7``), wherever the clause began: a reading joins lines, so a list item after a text with
no stop ends the clause before it."""
_DONE_KEY = re.compile(
    r"(?:^|\s)(?<!\bbe )(?<!\bnot )(?<!\bnothing )(?:[-*]\s*)?(?:done|completed?|"
    r"finished|actioned)\s*[\u2705\u2714\u2611]?\s*$"
)
"""A key of completion ending the clause (``Done: cancel #7``, ``Completed - refund #7``;
not ``to be done:``, ``not done:``): the base form that leads the clause after it is
claimed, as after a ticked box."""
_VALUE_YES = re.compile(
    r"^\s*(?:done|completed?|yes|confirmed|processed|\u2705|\u2714|\u2611)\s*"
    r"(?:[\u2705\u2714\u2611(]|$)"
)
_VALUE_NO = re.compile(
    r"^\s*(?:no|none|not yet|not done|pending|n/a|false|\u274c|\u2717)\s*(?:[\u274c\u2717(]|$)"
)
"""A key's value (``Posted: no (awaiting approval)``, ``Cancellation: done``): the whole
clause after a colon or question mark, or its first word before a check mark or a
parenthesis, after a short key (up to eight words)."""
_GENERIC = re.compile(
    r"^\s*(?:all\s+|any\s+)?\w+ed\s+(?:orders|items|bills|invoices|charges|payments|products|"
    r"purchases)\b"
)
"""A rule about every record (``Cancelled orders are refunded in full``): states nothing."""
_SPACED = re.compile(r"\b[a-z](?:[-\s\u00b7.][a-z]){4,}\b|(?<=[a-z])\u00b7(?=[a-z])")
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


_Compiled = tuple[list[re.Pattern[str]], list[re.Pattern[str]], list[re.Pattern[str]]]


def _compiled() -> dict[str, _Compiled]:
    out: dict[str, _Compiled] = {}
    for a, (claims, bases) in ACTIONS.items():
        more = (
            [
                rf"\b(?:{_NOUNS[a]})\b{_W}{{0,40}}\b{_DONE}\b",
                rf"{_DONE_BEFORE}(?:{_NOUNS[a]})\b{_NOT_DONE_NOUN}",
            ]
            if a in _NOUNS
            else []
        )
        out[a] = (
            [re.compile(p) for p in (*claims, *more)],
            [re.compile(p) for p in bases],
            [re.compile(p) for p in _STATES.get(a, ())],
        )
    return out


_PATTERNS = _compiled()


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


def decisions(text: str, actions: tuple[str, ...] | None = None) -> list[Decision]:
    """Every claim and denial of ``actions`` (default: all of `ACTIONS`) in ``text``.

    Returns them in order of the clauses (and, within one, of the actions); a clause that
    claims and denies one action (``not cancelled but cancelled``) gives both. Unknown
    actions raise KeyError.
    """
    wanted = tuple(ACTIONS) if actions is None else actions
    out: list[Decision] = []
    readings = reading_texts(text)
    for reading in list(readings):
        joined = _SPACED.sub(lambda m: re.sub(r"[-\s\u00b7.]", "", m.group(0)), reading)
        if joined != reading:
            readings.append(joined)
    for reading in readings:
        live = _live(reading, wanted)
        if not live:
            continue
        carried = ""  # a dangling negation or modal of an earlier clause of the sentence
        unread: list[str] = []  # actions named, hedged, in the sentence's last clause with one
        clauses = _clauses(reading)
        for i, (clause, sep) in enumerate(clauses):
            shown = f"{carried} ... {clause.strip()}" if carried else clause.strip()
            keyed = sep.strip()[:1] in (":", "?") and len(clause.split()) <= 8
            value = clauses[i + 1][0] if keyed and i + 1 < len(clauses) else ""
            ticked = i > 0 and _ticks(*clauses[i - 1])
            found = False
            elided = bool(_ELIDED.search(clause.strip()))
            hedged: list[str] = []
            for action in live:
                got = _read(clause, carried, action, value, ticked=ticked)
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
            if _SENTENCE_BREAK.search(sep):
                unread = []
            if found or _SENTENCE_BREAK.search(sep):
                carried = ""
            elif _DANGLING_NEGATION.search(clause) or _DANGLING_HEDGE.search(clause.strip()):
                carried = clause.strip()
    return out


def _ticks(clause: str, sep: str) -> bool:
    """Whether ``clause`` (with the break ``sep`` after it) is a key of completion whose
    value is the next clause (`_DONE_KEY`: ``Done: cancel #7``, ``Completed - refund it``)."""
    return sep.strip()[:1] in (":", "-", "\u2013", "\u2014") and bool(_DONE_KEY.search(clause))


def _read(
    clause: str, carried: str, action: str, value: str = "", *, ticked: bool = False
) -> list[bool] | None:
    """The readings (True: claim, False: denial) of ``action`` in one clause; None where no
    form of it stands there. ``value``: the clause after a colon, read as the key's value
    (``Posted: no``, ``Cancellation of order #7: done``). ``ticked``: the clause is the value
    of a key of completion (`_ticks`): a form leading it is claimed, as after ``- [x]``."""
    claims, bases, states = _PATTERNS[action]
    generic = bool(_GENERIC.search(clause))
    read: list[tuple[bool, tuple[int, int], str]] = []
    seen = False
    context = f"{carried} {clause}"
    unframed = _FRAME.sub(lambda m: " " * len(m.group(0)), context)
    for patterns, kind in ((claims, "claim"), (bases, "base"), (states, "state")):
        for pattern in patterns:
            for m in pattern.finditer(clause):
                seen = True
                before, at = clause[: m.start()], len(carried) + 1 + m.start()
                negated = (
                    _scoped(_NEGATION, context, at, action)
                    or _NEGATION.search(m.group(0))
                    or _NO_BEFORE.search(before)
                )
                if kind == "state":
                    if not negated:
                        read.append((False, m.span(), kind))
                elif negated:
                    read.append((False, m.span(), kind))
                elif generic:
                    continue
                elif (
                    _CHECKED.search(before)
                    or (ticked and not before.strip())
                    or (
                        (kind == "claim" or _DONE_ABLE.search(before))
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
    states_at = [span for done, span, kind in read if kind == "state"]
    return [
        done
        for done, (s0, s1), _ in read
        if not done or not any(s0 < t1 and t0 < s1 for t0, t1 in states_at)
    ]


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
    **EXTRA_SENTENCES,
}


def decision_sentence(action: str, *, done: bool, about: str | None = None) -> str:
    """A plain sentence claiming ``action`` done (``done``) or saying it was not, about
    ``#about`` when given (else "It"): what the ship gate's ``claim`` mutants write, so a
    `DecisionMatch` is never vacuous. Raises KeyError for an unknown action."""
    it = f"#{about}" if about is not None else "It"
    return _CLAIM_SENTENCES[action].format(it=it, **{"not": "" if done else " not"})
