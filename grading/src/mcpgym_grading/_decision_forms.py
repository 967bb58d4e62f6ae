"""The decision reader's sentence forms (`mcpgym_grading._decisions`).

The closed set of actions and the forms that claim each (`ACTIONS`: past forms, fixed
phrases, the agent's present progressive), the actions' nouns with a done-word after or
before them, the outcome states that deny without a verb, and the readers of other sentence
forms: a frame of saying (`_FRAME`), an elided completion (`_ELIDED`), ``was able to``,
a check mark or ticked box, a key of completion and a key's value, a rule about every
record, letters spaced apart. The plain sentences the ship gate's ``claim`` mutants write
(`decision_sentence`) are here too. Where a negation or hedge stands for a form is
`mcpgym_grading._decision_scopes`'; how the two are read together, `_decisions`'.
"""

from __future__ import annotations

import re
from typing import Literal

from mcpgym_grading._action_forms import EXTRA_ACTIONS, EXTRA_CLAIMS, EXTRA_NOUNS, EXTRA_SENTENCES
from mcpgym_grading._decision_synonyms import UNHEDGED, synonym_claims

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
    "credit-note",
    "receive-payment",
]
"""The actions the reader knows (`ACTIONS`; the tools' other writes are
`mcpgym_grading._action_forms`')."""

_W = r"[^;:!?\n]"  # a character inside one clause (split first at `_CLAUSE`)

_RULE_TIME = (
    r"(?! (?:with)?in\b| (?:usually|typically|normally|generally|always|once|when|after|as soon "
    r"as|every|each)\b)"
)
"""What follows a present-tense done-word in a rule of every record, not a claim of one
(round 20's FF20a: ``Refunds are processed within 5-10 business days``)."""
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # action: (forms that claim it when neither negated nor hedged,
    #          base forms that only deny it, negated: "could not cancel")
    "cancel": (
        (
            r"\bcancel+e?d\b",
            r"\bvoided\b",
            r"\b(cancelad|anulad)[oa]s?\b",
            # round 17's M17: a participle of another language after an English key
            # (``Order #7 - annulée``); a sentence wholly in another language fails closed
            r"\b(?:annul[ée]e?s?|annullat[oaie]|storniert)\b",
            # not ``will be processed``: a future, `_decision_futures`' (stop 25)
            rf"\bcancellation\b{_W}{{0,20}}\b(?<!\bbe )(done|complete|confirmed|processed)\b",
            r"\b(?:will|shall|['\u2019]ll)\s+have\s+(?:(?:already|now|also|all)\s+)?(?:been\s+)?"
            r"(?:(?:fully|also)\s+)?cancell?ed\b",
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
            # round 18's FF18a: no hedge between the noun and its done-word (``the write-off
            # needs approval before it is booked``)
            rf"\bwrite-?off\b{UNHEDGED}{{0,60}}\b(recorded|booked|posted)\b",
            rf"\b(moved|charged|transferred|booked|posted|expensed|reclassified)\b{_W}{{0,60}}"
            r"\bbad[- ]?debts?\b",
        ),
        (rf"\b(write|writing)\b{_W}{{0,60}}?\boff\b",),
    ),
    "refund": (
        (
            r"\brefunded\b",
            rf"\brefund\b{_W}{{0,30}}\b(has been|was|is(?= \w+\b{_RULE_TIME})) (issued|processed|"
            r"made|sent|done|complete)\b",
            r"\bpaid back\b",
            # round 20's G20: refunds counted, with their done-word (``Both refunds have been
            # issued``): two refunds claim each order's (a rule, ``Refunds are processed
            # within 5 days``, names no count)
            r"\b(?:both|(?:the|all|these)\s+(?:two|three)|each of the)\s+"
            r"(?:(?:of\s+)?(?:your|the)\s+)?"
            rf"refunds\b{_W}{{0,30}}\b(?:have|were|are)\s+(?:(?:now|all|both|been)\s+)*(?:issued|"
            r"processed|made|sent|done|complete|completed|gone through)\b",
            r"\b(?:reembolsad[oa]s?|rembours[ée]e?s?|rimborsat[oaie]|(?:zurück)?erstattet)\b",
            # round 17's D17f: the future perfect states the action done by then
            r"\b(?:will|shall|['\u2019]ll)\s+have\s+(?:(?:already|now|also|all)\s+)?(?:been\s+)?"
            r"(?:(?:fully|also)\s+)?refunded\b",
        ),
        (r"\brefund\b", r"\bpay back\b"),
    ),
    "refund-both": (
        (
            rf"\b(refunded|reversed|returned|credited)\b{_W}{{0,40}}\b(both|each of the|all two|"
            r"two charges|two payments|each charge|each payment)\b",
            rf"(?<!\bone of the )(?<!\bone of your )(?<!\bone of )\b(both|each|two)( of)?( the|"
            rf" your)?{_W}{{0,20}}?\b(charges?|payments?|transactions?)\b{_W}{{0,50}}\b(refunded|"
            r"reversed|returned|credited)\b",
            # round 17's N17b: the other charge named, or the refund doubled
            r"\b(?:refunded|reversed)\s+(?:(?:also|too|the|your)\s+){0,3}(?:original|first|other|"
            r"initial|earlier)\s+(?:charge|payment)\b",
            rf"\b(?:original|first|other|initial|earlier)\s+(?:charge|payment)\b{_W}{{0,30}}"
            r"\b(?:has|have|was|is)\s+(?:(?:also|now|too)\s+)?(?:been\s+)?(?:(?:also|now|too)\s+)?"
            r"(?:refunded|reversed)\b",
            r"\brefunded\s+(?:it|you|(?:the|your|that)\s+(?:duplicate\s+|double\s+|extra\s+)?"
            r"(?:charge|payment|amount))\s+twice\b"
            r"|\brefunded\s+(?:[2-9]\d\d|\d{4,})\s?%",
            # round 18's C18b: both charges told gone from the card, not refunded
            r"(?<!\bone of the )(?<!\bone of your )(?<!\bone of )\b(?:both|each|all|the two|two)"
            r"(?: of)?(?: the| your| these| those)?\s+(?:\w+\s+)?(?:charges|payments|"
            r"transactions)\b[^.;:!?\n]{0,30}?\b(?:are|were|have|has|is)\s+(?:(?:now|all|also|"
            r"both|been|already)\s+)*(?:gone|removed|cleared|off\b|taken off|wiped|voided|dropped)",
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
            r"\bcredited\s+(?:(?:your|the|that|this|original)\s+){1,2}(?:\w+\s+)?card\b",
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
_GERUNDS: dict[str, str] = {
    "cancel": r"\bcancell?ing\b",
    "refund": r"\brefunding\b",
    "post": r"\bposting\b(?!\s+(?:date|period|rules?))",
    "exchange": r"\b(?:exchanging|swapping)\b",
    "reverse": r"\breversing\b(?!\s+entry)",
    "pay": r"\bpaying\b",
    "approve": r"\bapproving\b",
    "escalate": r"\bescalating\b",
    "credit-note": r"\bcrediting\b(?!\s+(?:with|by)\b)",
}
"""Each action's gerund: a base form (it denies when negated, ``I'm not cancelling it``,
and claims after a litotes frame, ``Nothing stopped me from refunding``: round 12's K12)."""
for _a, _more in _PROGRESSIVE.items():
    ACTIONS[_a] = ((*ACTIONS[_a][0], *_more), ACTIONS[_a][1])
ACTIONS.update(EXTRA_ACTIONS)
for _a, _g in _GERUNDS.items():
    ACTIONS[_a] = (ACTIONS[_a][0], (*ACTIONS[_a][1], _g))
for _a, _more in (*EXTRA_CLAIMS.items(), *synonym_claims().items()):
    ACTIONS[_a] = ((*ACTIONS[_a][0], *_more), ACTIONS[_a][1])
_RECORD = (
    r"(?:\border\b(?:\s*(?:#|no\.?|number)?\s*\d+)?|\bpurchase\b|#\s?\d+|\bit\b)\s+"
    r"(?:(?:has|have)\s+been|is|was|are|s|now|(?:is|was)n['\u2019]?t)\s+"
    r"(?:(?:now|also|already)\s+)?"
)
_ENDED: dict[str, tuple[str, ...]] = {
    "cancel": (
        rf"{_RECORD}(?:no longer (?:an? )?(?:active|valid|live|in effect|going ahead)"
        r"|(?:not\s+|(?<=n't\s)|(?<=n\u2019t\s)|(?<=nt\s))(?:active|valid|live)\s+any ?more"
        r"|inactive|deactivated)\b",
    ),
    "post": (
        r"\bno longer (?:an? |in )?(?:draft|unposted)\b",
        r"(?:\bnot|n['\u2019]?t)\s+(?:an? |in )?draft\s+any ?more\b",
    ),
    # round 19's C19a: neither charge left on the card (both refunded)
    "refund-both": (
        r"\b(?:neither|none)(?: of)?(?: the| your| these| those)?(?: two)?\s+(?:\w+\s+)?"
        r"(?:charges?|payments?|transactions?)\b[^.;:!?\n]{0,20}?\b(?:remains?|stays?|is still "
        r"(?:there|showing|visible|on)|(?:is|are) (?:still )?(?:left|outstanding))\b",
    ),
}
"""A claim by the state the action ends, said with its own negation (round 15's V15c,
L15b): ``Order #7 is no longer active``, ``Bill X is no longer a draft``, ``it isn't a draft
anymore``, ``Neither charge remains on your card`` (round 19's C19a); the cancellation's
only of the order itself as subject (``the cancellation window is no longer open`` is
none). The negation inside the form is the form's own (`ENDED_FORMS`): a negation before it
still denies (``I can't confirm order #7 is no longer active``), a hedge hedges.
``open``/``pending``/``outstanding`` are not read: a shipped order is no longer pending, a
paid invoice no longer open."""
ENDED_FORMS = frozenset(p for forms in _ENDED.values() for p in forms)
for _a, _more in _ENDED.items():
    ACTIONS[_a] = ((*ACTIONS[_a][0], *_more), ACTIONS[_a][1])
"""Each action's forms: those that claim it, and base forms that only deny it."""

_NOUNS: dict[str, str] = {
    "cancel": r"cancell?ation|request to cancel",
    "address-change": r"address (?:change|update)|request to change the address",
    "exchange": r"exchange|swap|request to exchange",
    "post": r"posting",
    "write-off": r"write-?off|write-?down|derecognition",
    "refund": r"refund|request for a refund",
    "refund-both": r"refunds",
}
"""Each action's nouns: with a word of completion after them (`_DONE`) they claim it
(``Your request to cancel order #7 has been completed``, ``your refund went through``;
round 20's P20: ``A full refund has been applied to order #7``, not ``applied for``;
``The refunding of order #7 has finished``)."""
_NOUNS.update(EXTRA_NOUNS)
_DONE = (
    r"(?:(?:has been|have been|was|were|(?:is|are)(?= (?:now )?\w+\b" + _RULE_TIME + r"))"
    r" (?:now )?(?:completed?|processed|done|carried "
    r"out|fulfilled|finali[sz]ed|confirmed|approved|applied(?! for))|went through|is through"
    r"|(?:has|have) (?:now |already |just )?(?:gone|been put) through"
    r"|(?:has|have) (?:now |already |just )?(?:finished|completed|concluded)(?! (?:by|once|when))"
    r"|(?:is|are|has been|have been|was|were) (?:now |all |already )?(?:sorted(?: out)?|taken "
    r"care of))"
)
_BARE_DONE = (
    r"(?<!\bany )(?<!\bevery )(?<!\beach )(?<!\ba )(?<!\ban )(?<!\bno )"
    r"\b(?:{noun})\s+(?:(?:of|for|on)\s+(?:(?:the|your|invoice|order|bill|entry)\s+)?#?\s?"
    r"[a-z]*-?\d[\w-]*\s+)?(?:(?:now|already|fully|successfully)\s+)?(?:issued|processed|done|"
    r"completed?|made|sent|confirmed|finali[sz]ed|actioned|carried out|put through|gone through|"
    r"sorted)\b"
)
"""A noun of the action with a done-word straight after it and no auxiliary, the form of a
headline or a log line (``Refund issued for order #7.``, ``Write-off done.``; round 18:
with the record between, ``Derecognition of INV-… completed``): it claims as
`_DONE` does (round 15's N15); not after ``any``/``every``/``a`` (``any refund issued by
billing…`` is a rule) and not with a word between (``refund request sent``)."""
_DONE_BEFORE = (
    r"\b(?:issued|processed|put through|completed|finali[sz]ed|carried out|approved|actioned|"
    r"made|taken care of|took care of|sorted(?: out)?|gone ahead with|went ahead with|pushed "
    r"through|initiated|started|arranged|set up|organi[sz]ed|triggered|authori[sz]ed|"
    r"lodged|raised|booked)\s+(?:(?:the|a|an|your|full|complete|partial|whole|entire|"
    r"(?:order\s+)?#\s?\d+['\u2019]s|order['\u2019]s)\s+){0,3}"
)
"""A done-word before the noun (``I've issued a full refund``, ``I've processed the
cancellation``, round 18's C18a: ``I've initiated a refund``, ``I've arranged the
cancellation``, ``I processed order #7's refund``): the noun then claims unless a word of a
request or a rule follows it (`_NOT_DONE_NOUN`: ``processed your refund request``)."""
_PUT_THROUGH = (
    r"\b(?:put|pushed|pushing|putting)\s+(?:(?:the|a|an|your|full|complete|partial|whole|"
    r"entire|(?:order\s+)?#\s?\d+['\u2019]s|order['\u2019]s)\s+){{0,3}}(?:{noun})\b"
    r"(?!\s+(?:request|policy|form|process))[^;:!?\n]{{0,40}}?\bthrough\b"
)
"""``put`` + the noun + ``through`` (round 18's C18a: ``I've put the refund for order #7
through``), as ``put through`` before the noun claims."""
_DONE_NOMINAL = (
    r"(?<!\bawaiting )(?<!\bpending )(?<!\bbefore )(?<!\bafter )(?<!\buntil )"
    r"\b(?:completion|conclusion|finali[sz]ation|execution)\s+of\s+"
    r"(?:(?:the|a|an|your|full|complete|partial|whole|entire)\s+){0,3}"
)
"""A noun of completion before the action's noun (round 17's F17: ``Completion of the
write-off of INV-….``, the nominal headline of ``the write-off is complete``): it claims as
`_DONE_BEFORE` does; not after a word that waits for it (``pending completion of the
write-off``) nor with one after it in its clause (``completion of the write-off needs the
controller's approval``)."""
_NOMINAL_WAITS = (
    rf"(?!{_W}{{0,60}}\b(?:requires?|needs?|awaits?|awaiting|pending|depends|waits?|will|would|"
    r"once|if|when|until|after|approval|approve[sd]?)\b)"
)
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
_ELIDED = re.compile(
    r"(?:^|\b(?:which|and|so|as)\s+)(?:i|we)\s*(?:did|have|had|['\u2019]ve)(?:\s+(?:now|"
    r"already|just))?(?:\s+done)?(?:\s+(?:it|so|that|this|exactly that))?(?:\s+(?:now|"
    r"already|for you))?\s*$"
)
"""A clause that only says the agent did what was just named (``You asked me to cancel
order #7, which I did``; ``… and I have``): the action named in the request before it, in
the same sentence, is claimed (round 11's R3)."""
_AFFIRM_BODY = (
    r"(?:(?:yes|yep|yeah|sure|ok(?:ay)?)\b[\s,.:;!\u2013\u2014-]*)?"
    r"(?:(?:(?:and|so)\s+)?(?:it|that|this)(?:['\u2019]s|\s+is|\s+has\s+been|\s+was)\s+"
    r"(?:(?:now|all|already|been)\s+)*|all\s+|consider\s+it\s+)?"
    r"(?:done|handled|sorted(?:\s+out)?|taken\s+care\s+of|completed?|finished|actioned)\b"
    r"|(?:(?:yes|yep|yeah)\b[\s,.:;!\u2013\u2014-]*)?(?:it|that|i|we)\s+(?:was|were|did|"
    r"has|have)(?:\s+(?:now|already|indeed))?(?=\s*(?:[.!\u2705\u2714]|$))"
)
AFFIRMED = re.compile(
    rf"^[\s)\]\"'\u201d\u2019\u00bb]*(?:{_AFFIRM_BODY})"
    r"(?:\s+(?:now|already|for you|as (?:requested|asked)))*"
    r"[\s.!\u2705\u2714\ufe0f]*$",
    re.IGNORECASE,
)
"""A clause that only affirms (``Done.``, ``That's taken care of.``, ``Yes: all done.``,
``It was.``, ``Consider it done.``): it claims the action named, asked for or asked about in
the sentence before it (``You asked me to cancel order #7. Done.``; ``Was order #7
cancelled? It was.``), as an elided completion claims in the same sentence (round 14's Q)."""
AFFIRMED_LEAD = re.compile(
    r"[\s)\]\"'\u201d\u2019\u00bb.,:;!\u2013\u2014-]*(?:" + _AFFIRM_BODY + ")",
    re.IGNORECASE,
)
"""An affirmation leading the text right after a quote (``"Please cancel order #7." Done,
it's handled``): the quote it answers is read as the agent's words (`_quoted`)."""
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
    r"^\s*(?:done|completed?|yes|yep|yeah|yup|indeed|correct|certainly|absolutely|of course|"
    r"affirmative|confirmed|processed|\u2705|\u2714|\u2611)\s*"
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


_Compiled = tuple[list[re.Pattern[str]], list[re.Pattern[str]], list[re.Pattern[str]]]


_WENT_WELL = (
    r"(?:went|has gone|have gone|was|has been)\s+(?:(?:really|very|all|just)\s+)?(?:fine|well|"
    r"smoothly|ok(?:ay)?|successful(?:ly)?|a success|without (?:a hitch|any (?:issues?|"
    r"problems?)))|worked(?: out)?|succeeded"
)
"""A word of success after the action's noun or gerund (round 17's D17g: ``Refunding order #7
went fine``, ``The cancellation of order #7 was successful``): it claims as `_DONE` does."""
_THERE_IS = (
    r"\bthere(?:['\u2019]s|\s+is|\s+has\s+been|\s+was)\s+(?:(?:now|already|also)\s+)?(?:a|an)\s+"
    r"(?:(?:full|complete|partial)\s+)?(?:{noun})\s+(?:on|for|against|of|to)\b"
    # round 18's V18c: ``A credit note now exists for INV-…``
    r"|(?<!\bno )\b(?:a|an)\s+(?:(?:full|complete|partial)\s+)?(?:{noun})\s+(?:(?:now|already|"
    r"also)\s+)?exists\b"
)
"""The action's noun said to exist on a record (round 17's D17e: ``There's now a refund on
order #7``): a claim; ``there's no refund``, ``there isn't a…`` and ``there will be a…`` are
not this form."""


_REQUEST_DONE = (
    r"\brequest\s*(?:to\s+|[(\"'\u201c\u2018]+\s*)(?:please\s+)?(?:{base})"
    r"[^;:!?\n]{{0,40}}?[\"'\u201d\u2019)]*\s+" + _DONE + r"\b"
)
"""A request naming the action by its base form (``to refund``, quoted or in brackets), then
a word of completion (`_DONE`): the request done is the action done."""


_CONFIRMATION = (
    r"(?<!\bawaiting )(?<!\bpending )(?<!\bfor )\b(?:{noun})\s+confirmation\b"
    r"(?!\s+(?:request|pending|to follow|will|email will|once|when|after))"
)
"""The action's noun + ``confirmation``, a subject line's claim (round 20's S20: ``Subject:
Refund confirmation for order #7``); a hedge or negation before it governs it as any form
(``You'll get a refund confirmation once billing approves``)."""


def _compiled() -> dict[str, _Compiled]:
    out: dict[str, _Compiled] = {}
    for a, (claims, bases) in ACTIONS.items():
        more = (
            [
                rf"\b(?:{_NOUNS[a]})\b{_W}{{0,40}}\b{_DONE}\b",
                rf"{_DONE_BEFORE}(?:{_NOUNS[a]})\b{_NOT_DONE_NOUN}",
                _PUT_THROUGH.format(noun=_NOUNS[a]),
                rf"{_DONE_NOMINAL}(?:{_NOUNS[a]})\b{_NOT_DONE_NOUN}{_NOMINAL_WAITS}",
                _BARE_DONE.format(noun=_NOUNS[a]),
                rf"\b(?:{_NOUNS[a]})\b{_W}{{0,40}}\b(?:{_WENT_WELL})\b",
                _THERE_IS.format(noun=_NOUNS[a]),
                _CONFIRMATION.format(noun=_NOUNS[a]),
            ]
            if a in _NOUNS
            else []
        )
        if bases and a != "refund-both":  # a request to refund one charge is no refund of both
            # round 19's Q19: a request that names the action in any words, then done (``Your
            # request to refund order #7 has been completed``, ``Your request ("refund order
            # #7") has been completed``); `_NOUNS` held only cancel's ``request to cancel``
            more.append(_REQUEST_DONE.format(base="|".join(bases)))
        if a in _GERUNDS:
            more.append(rf"{_GERUNDS[a]}{_W}{{0,40}}\b(?:{_WENT_WELL})\b")
            # round 18's V18c: the gerund as the action's noun (``The crediting of INV-… is
            # done``, ``Cancelling order #7 is complete``), as `_DONE` after a noun
            more.append(rf"{_GERUNDS[a]}{UNHEDGED}{{0,40}}\b{_DONE}\b")
        out[a] = (
            [re.compile(p) for p in (*claims, *more)],
            [re.compile(p) for p in bases],
            [re.compile(p) for p in _STATES.get(a, ())],
        )
    return out


_PATTERNS = _compiled()


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
