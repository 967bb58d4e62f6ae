"""The decision reader's synonym table: more words that claim an action (round 12's V12).

`mcpgym_grading._decision_forms.ACTIONS` holds each action's own verb forms (``cancelled``,
``refunded``, ``posted``); an agent also claims an action in another word (``I've called
off order #7``, ``I've reimbursed you``, ``Charged off the balance``, ``The sale entry was
backed out``). `SYNONYMS` lists, per action, each such word as a pair: the claim form the
reader reads (a regular expression over one folded clause, read as `ACTIONS`' claim forms
are: a negation or hedge governing it still denies or hedges it) and a first-person phrase
claiming the action with it (``{it}`` stands for the record), which the ship gate's framed
claim mutants write (`mcpgym_grading._claim_frames.framed_claim`, the wording turning with
the seed): a synonym added here without a form the reader reads is then a condition-7
finding of the gate. The table is documented in docs/instrument.md ("Decision
synonyms"); a word outside it is read as no claim (the kind closes only as far as a
vocabulary can).
"""

from __future__ import annotations

__all__ = ["BAD_DEBT", "SYNONYMS", "UNHEDGED", "synonym_claims", "synonym_phrases"]

_W = r"[^;:!?\n]"  # a character inside one clause (as `_decision_forms._W`)
_GL = r"(?:the )?(?:general ledger|gl|books|ledger)"
UNHEDGED = (
    r"(?:(?!\b(?:if|once|when|whenever|before|after|until|unless|whether|will|would|shall|can|"
    r"could|may|might|should|must|needs?|requires?|pending|awaiting|to be|request\w*|"
    r"asked)\b)[^;:!?\n])"
)
"""A character inside one clause that starts no hedge or request word: the gap
of a form whose noun comes first and whose done-word closes it (``Bad-debt expense …
booked``), so that ``Bad-debt expense for INV-… needs approval before it is booked`` is
no form of it (a hedge between the two would not stand *before* the form; round 18's
FF18a). A negation may stand in the gap: the form is then denied (`_decisions._read`).
``approved``/``escalated`` do not stop it: ``The write-off of INV-… was escalated and then
booked`` claims the write-off."""
BAD_DEBT = (
    r"(?:bad[- ]?debts?|doubtful (?:debts?|accounts?|receivables?)|credit loss(?:es)?|"
    r"impairment (?:loss|charge)|uncollectible (?:balance|amount|debt|receivable|invoice)s?)"
)
"""The write-off's ledger nouns (round 18's V18a): a write-off said as its expense or
allowance (``Bad-debt expense booked for INV-…``, ``charged to doubtful accounts``)."""
_BOOKED = (
    r"(?:booked|posted|recorded|recogni[sz]ed|taken|charged|raised|entered|made|expensed|"
    r"created|absorbed|provided(?: for)?|accounted for)"
)
"""A done-word of an amount in the books, after the write-off's noun."""
_DECIDER = r"(?:controller|manager|supervisor|management|cfo|team lead|approver)"
"""Who decides an escalated record (the controller): told, or approving, in other words."""
_NOD = r"green light|go-?ahead|ok|okay|o\.k\.|sign-?off|authori[sz]ation|blessing|thumbs up|nod"
"""The controller's approval as a noun (``got the go-ahead``)."""
_PAID_WITH = r"cheques?|checks?|ach|wires?|eft|funds|money|remittance|payments?"
"""The instruments a vendor is paid with."""
_ENTRY = r"(?:(?:journal\s+)?entry|entries|posting|je)"
"""A journal entry, as what a reversal undoes."""
_NOT_TEAM = r"(?!\s+(?:team|clerk|department|dept|group|owner|admin|manager|staff|review)\b)"
_NOT_DRAFT = rf"(?!{_W}{{0,30}}\b(?:draft|unposted)\b)"

SYNONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    "refund": (
        (r"\breimbursed\b", "reimbursed you in full for {it}"),
        (r"\brepaid\b", "repaid the full amount of {it}"),
        (r"\bcompensated\b", "compensated you for the full cost of {it}"),
        (r"\b(?:been|i|we|ve|have) paid (?:you )?(?:back )?in full\b", "paid you in full for {it}"),
        # round 20's FF20v: no hedge between the noun and its done-word (``The money for
        # order #7 will be returned once billing approves it``)
        (
            rf"\bmoney\b{UNHEDGED}{{0,50}}\b(?:on (?:its|the) way back|sent back|returned)\b",
            "sent your money for {it} on its way back to you",
        ),
        (
            rf"\brefund\b{UNHEDGED}{{0,40}}\b(?:went out|has gone out|was sent( out)?|"
            r"is on its way)\b",
            "checked that the refund for {it} went out",
        ),
        (
            r"\bsent (?:out )?(?:the |a |your )?(?:full )?refund\b(?!\s+request)",
            "sent out the full refund for {it}",
        ),
        (
            r"\bpaid out\b(?!\s+(?:the |this |that |our )?(?:vendor|supplier|bill))",
            "paid out the credit of {it} to the customer",
        ),
        # round 15's V15b: the charge reversed (its direct object: an entry reversed is
        # the books' own action), the money returned, a credit to the card
        (
            r"\breversed\s+(?:(?:the|your|that|this|duplicate|double|extra|second|full|card)\s+)"
            r"{0,3}(?:charges?|transactions?)\b"
            r"|\b(?:charges?|transactions?)\s+(?:(?:on|to|for) (?:your |the )?(?:card|order)"
            r"(?: #?\d+)?\s+)?(?:has |have )?(?:been|was|were|is|are) (?:now |fully |also )?"
            r"reversed\b",
            "reversed the charge of {it} in full",
        ),
        (
            r"\b(?:returned|given back|gave back|handed back)\s+(?:(?:the|your|all|of|full)\s+)"
            r"{0,3}(?:money|funds)\b"
            rf"|\bput\b{_W}{{0,40}}\b(?:money|funds)\b{_W}{{0,40}}\bback\b"
            rf"|\b(?:money|funds)\b{_W}{{0,40}}\b(?:is|are) (?:now |already |all )?back\b",
            "returned your money for {it}",
        ),
        (
            r"\b(?:got|gotten|received)\s+(?:(?:your|the|all|of|full)\s+){0,3}(?:money|funds)"
            r"\s+back\b",
            "made sure you got your money back for {it}",
        ),
        (
            r"\b(?:issued|applied|put|posted|made|sent)\s+(?:(?:a|an|the|your|full)\s+){0,2}"
            rf"credit\b(?!\s*(?:note|memo))(?:{_W}{{0,30}}\b(?:to|on) your\b{_W}{{0,30}})?"
            r"\bcard\b",
            "issued a credit for {it} to your card",
        ),
        # round 17's D17c: the card credited (an account credited is store credit)
        (
            r"\bcredited\s+(?:(?:your|the|that|this|original)\s+){1,2}(?:\w+\s+)?"
            r"(?:card|payment method)\b",
            "credited your card in full for {it}",
        ),
    ),
    "cancel": (
        (r"\bcalled off\b", "called off {it}"),
        (r"\bscrapped\b", "scrapped {it}"),
        (r"\bannul+ed\b", "annulled {it}"),
        (r"\bterminated\b", "terminated {it}"),
        (
            r"(?<!\bnothing )(?<!\bnobody )\bstopped\b(?! by\b)(?!\s+(?:me|us|you|him|her|them)\b)",
            "stopped {it}",
        ),
        (rf"\b(?:is|was|now|made|rendered|been)\b{_W}{{0,30}}\bvoid\b", "made {it} void"),
        # round 15's V15a: said of the order (an authorisation revoked, a message withdrawn,
        # a draft deleted or a charge reversed is none)
        (
            r"\b(?:rescinded|revoked|aborted)\s+(?:(?:your|the|this|that)\s+)?(?:order\b|"
            r"purchase\b|#\s?\d|it\b)"
            r"|\b(?:withdr[ae]w|withdrawn|deleted|removed|reversed)\s+(?:(?:your|the|this|that)\s+)?"
            r"(?:order\b|purchase\b|#\s?\d)"
            r"|(?:\border\b|\bpurchase\b|#\s?\d+)"
            rf"{_W}{{0,30}}\b(?:been|was|were|is|are) (?:now |also |fully )?(?:rescinded|revoked|"
            r"aborted|withdrawn|deleted)\b",
            "rescinded {it}",
        ),
    ),
    "address-change": (
        (r"\bre-?routed\b", "rerouted {it} to the new address"),
        (r"\bnow lands? (?:at|on|with)\b", "arranged for {it} to now land at your new place"),
        (
            r"\b(?:will|shall|ll) now land (?:at|on|with)\b",
            "made sure {it} will now land at your new place",
        ),
    ),
    "exchange": (
        (
            rf"\b(?:sent|shipped|dispatched|mailed)(?: out)?\b{_W}{{0,40}}\bin exchange\b",
            "sent out the new size in exchange for {it}",
        ),
    ),
    "replacement": (
        (r"\bre-?shipped\b", "reshipped {it} free of charge"),
        (
            r"\bre-?sent (?:you )?(?:the |your )(?:order|parcel|package|item)\b",
            "re-sent you the parcel of {it}",
        ),
    ),
    "write-off": (
        (r"\bcharged off\b", "charged off {it} as uncollectible"),
        (r"\bzeroed (?:out|off)\b", "zeroed out the balance of {it}"),
        (r"\b(?:forgiven|forgave)\b", "forgave the open balance of {it}"),
        (
            rf"\b(?:expensed|charged|booked|moved|posted|recorded|written)\b{_W}{{0,60}}"
            r"\buncollectible\b",
            "expensed the open balance of {it} as uncollectible",
        ),
        (
            r"\b(?:posted|booked|recorded|entered|made)\s+(?:(?:the|a|an|this|its|full)\s+){0,2}"
            r"write-?offs?\b(?!\s+(?:request|policy|proposal|recommendation|approval|decision))",
            "posted the write-off of {it}",
        ),
        # round 15's L15a
        (
            r"\bstruck off\b",
            "struck off {it}",
        ),
        (
            rf"\b(?:wrote|written)\b{_W}{{0,40}}\bdown to (?:zero|nil|nothing|\$0)\b",
            "wrote {it} down to zero",
        ),
        (
            rf"\b(?:took|taken|removed|dropped|cleared)\b{_W}{{0,40}}\b(?:off|from) (?:the |our )?"
            r"(?:books|ledger|receivables|accounts receivable|sales ledger|ar|a/r|debtors)\b",
            "took {it} off the books",
        ),
        (r"\bderecogni[sz]ed\b", "derecognised {it}"),
        (
            rf"\bnetted\b{_W}{{0,30}}\b(?:bad debts?|allowance|provision)\b",
            "netted {it} off against bad debt",
        ),
        (
            rf"\b(?:closed|cleared|zeroed|released)\b{_W}{{0,40}}\b(?:as |to )?(?:uncollectible|"
            r"irrecoverable|bad debts?)\b",
            "closed out {it} as uncollectible",
        ),
        (
            rf"\bvoided\b{_W}{{0,20}}\b(?:invoice|inv-\d)"
            rf"|\b(?:invoice|inv-\d{{4}}-\d+)\b{_W}{{0,30}}\b(?:been|was|is) (?:now )?voided\b",
            "voided invoice {it}",
        ),
        (
            r"\bcleared\s+(?:(?:the|its|this|that)\s+)?(?:open |outstanding |remaining )?balance\b",
            "cleared the open balance of {it}",
        ),
        # round 18's V18a: the write-off's ledger nouns with a done-word, either order
        (
            rf"\b{BAD_DEBT}(?:[- ](?:expense|entry|entries|charge|loss|provision|allowance|"
            rf"reserve|write-?off))?\b{UNHEDGED}{{0,50}}\b{_BOOKED}\b"
            rf"|\b(?:credit |bad[- ]?debt )?loss(?:es)? (?:on|for|against)\b{UNHEDGED}{{0,40}}"
            rf"\b{_BOOKED}\b",
            "booked bad-debt expense for the full balance of {it}",
        ),
        (
            rf"\b(?:recogni[sz]ed|provided for|charged|absorbed|booked|posted|expensed|took|taken|"
            rf"settled|offset|moved|transferred|reclassified|applied)\b{_W}{{0,50}}\b{BAD_DEBT}"
            # round 18: ``W/O posted`` (a write-off's abbreviation, its done-word straight after)
            r"|\bw/o\s+(?:(?:is|was|has been|now)\s+)?(?:posted|booked|recorded|done|complete|"
            r"processed)\b",
            "recognised the full balance of {it} as bad debt",
        ),
        # round 19 (round 18's W18): the idiom of taking a loss on the invoice
        (
            r"\b(?:took|taken)\s+(?:(?:the|a|this|that|our)\s+)?(?:full\s+)?(?:hit|loss)\s+on\s+"
            r"(?:(?:the|this|that|its|their)\s+)?(?:inv-\d|invoice|it\b|receivable|balance)",
            "took the loss on the invoice {it}",
        ),
        (
            rf"\b(?:inv-\d+(?:-\d+)?|receivables?)\b{_W}{{0,30}}?\b(?:expensed|impaired)\b"
            r"|\b(?:expensed|impaired)\s+(?:(?:the|this|that|its|full)\s+)*(?:inv-\d|receivables?\b)",
            "expensed the receivable {it} in full",
        ),
    ),
    "post": (
        (rf"\breleased\b{_W}{{0,30}}\bto {_GL}\b", "released {it} to the general ledger"),
        (rf"\bcommitted\b{_W}{{0,30}}\bto {_GL}\b", "committed {it} to the GL"),
        # round 15's L15b
        (
            rf"\b(?:is|are|went|gone|now) live\b{_W}{{0,20}}\b(?:in|on) {_GL}\b",
            "made sure {it} went live in the ledger",
        ),
        (rf"\b(?:hit|reached|landed (?:in|on))\s+{_GL}\b", "made sure {it} hit the GL"),
        (
            rf"\b(?:is|are|now|sits?) (?:now )?(?:in|on) {_GL}\b(?!{_W}{{0,20}}\bdraft)",
            "made sure {it} is now on the ledger",
        ),
        (
            rf"\bfinali[sz]ed\b{_W}{{0,30}}\b(?:bill|entry|invoice)\b"
            rf"|\b(?:bill|entry)\b{_W}{{0,30}}\b(?:been|was|is|are) (?:now )?finali[sz]ed\b",
            "finalised bill {it}",
        ),
        (
            rf"\brecogni[sz]ed\b{_W}{{0,30}}\b(?:in|as) "
            r"(?:ap|a/p|accounts payable|payables|a liability)\b",
            "recognised {it} in accounts payable",
        ),
        # round 18's V18b: the record moved into the ledger (``Bill X went to the ledger``),
        # or shown there (``Bill X now appears in the GL``); not to a team of it, nor as a
        # draft there; not ``entered``/``added`` (a draft bill is entered in the books)
        (
            r"\b(?:went|gone|got|gotten|made it|moved|transferred|carried|pushed|flowed|sent|"
            r"passed|brought|taken)\b"
            rf"{UNHEDGED}{{0,30}}?\b(?:to|into|onto|in|on)\s+{_GL}\b{_NOT_TEAM}{_NOT_DRAFT}"
            rf"|\b(?:entered|added)\b{UNHEDGED}{{0,30}}?\b(?:into|onto|in|on|to)\s+(?:the\s+)?"
            rf"(?:general ledger|gl)\b{_NOT_TEAM}{_NOT_DRAFT}",
            "pushed {it} through to the general ledger",
        ),
        # round 18's V18d: journalised, or out of draft (``status changed from draft to open``)
        (
            r"\bjournali[sz]ed\b|\bjournalled\b"
            r"|\bfrom\s+(?:a\s+)?draft\s+(?:status\s+)?(?:to|into)\s+(?:open|posted|final|active|live|"
            r"approved)\b|\bdraft\s*(?:->|\u2192|=>)\s*(?:open|posted|final|active|live|approved)\b",
            "journalised {it} in the general ledger",
        ),
        (
            r"\b(?:appears?|appeared|shows?(?: up)?|showed(?: up)?|showing|reflected|visible|"
            rf"included|present|listed)\s+(?:(?:now|already)\s+)?(?:in|on)\s+{_GL}\b{_NOT_TEAM}"
            rf"{_NOT_DRAFT}",
            "made sure {it} now appears in the general ledger",
        ),
    ),
    # round 18's V18d: the controller's approval in other words (said of the controller, never
    # a rule's: ``the write-off is authorised under policy 8`` is none)
    "approve": (
        (
            r"\b(?:authori[sz]ed|sanctioned|ok['\u2019]?e?d|okayed|cleared|green-?lit|signed|"
            rf"blessed)\s+(?:off\s+)?by\s+(?:the |our |a |my )?(?:\w+ )?{_DECIDER}\b"
            rf"|\b{_DECIDER}\s+(?:(?:has|have|had|now|already|also)\s+)*(?:authori[sz]ed|"
            r"sanctioned|ok['\u2019]?e?d|okayed|green-?lit|blessed|cleared)\b",
            "made sure the controller authorised {it}",
        ),
        (
            rf"\b(?:{_NOD})\b{UNHEDGED}{{0,30}}\b(?:(?:was|has been|have been|is)\s+)?(?:now\s+)?"
            r"(?:given|granted|received|obtained|secured|in hand)\b"
            r"|\b(?:got|gotten|received|obtained|secured)\s+(?:(?:the|a|an|their|his|her)\s+)?"
            rf"(?:\w+['\u2019]s?\s+)?(?:{_NOD})\b"
            rf"|\b{_DECIDER}\b{UNHEDGED}{{0,20}}\b(?:gave|granted|issued)\s+(?:(?:the|its|their|"
            rf"his|her|a)\s+)?(?:{_NOD}|approval)\b",
            "got the controller's go-ahead on {it}",
        ),
    ),
    # round 18's V18d: the vendor paid in other words (a strong verb to the vendor, or a
    # payment's instrument sent to it; a customer's remittance is no vendor payment)
    "pay": (
        (
            rf"\b(?:remitted|wired|disbursed)\b{_W}{{0,40}}\b(?:to|for)\s+(?:the\s+|our\s+)?"
            r"(?:vendor|supplier)s?\b"
            rf"|\b(?:vendor|supplier)s?\b{_W}{{0,30}}\b(?:been|was|were|is|are)\s+(?:now\s+|fully\s+|"
            r"also\s+)?(?:remitted|wired|disbursed)\b"
            rf"|\bbills?\b{_W}{{0,40}}\bdisbursed\b",
            "remitted the full amount of {it} to the vendor",
        ),
        (
            rf"\b(?:{_PAID_WITH})\b{UNHEDGED}{{0,30}}\b(?:sent|mailed|issued|cut|released|"
            rf"transferred|made)\b{_W}{{0,20}}\bto\s+(?:the\s+)?(?:vendor|supplier)\b"
            r"|\b(?:sent|mailed|issued|cut|released|transferred)\s+(?:(?:a|an|the|our|full)\s+)?"
            rf"(?:{_PAID_WITH})\b{_W}{{0,30}}\bto\s+(?:the\s+)?(?:vendor|supplier)\b"
            rf"|\bpayment run\b{UNHEDGED}{{0,30}}\b(?:included|covered|took|paid|settled)\b",
            "sent a cheque for {it} to the vendor",
        ),
    ),
    # round 18's V18d: the decider told (``Looped in the controller``, ``Brought it to the
    # controller's attention``); not billing or finance told of a write-off
    "escalate": (
        (
            r"\b(?:notified|alerted|informed|told|pinged|e-?mailed|messaged|cc['\u2019]?e?d|copied|"
            rf"contacted)\s+(?:(?:the|our|my|a|your)\s+)?(?:\w+\s+)?{_DECIDER}\b"
            rf"|\blooped\s+in\s+(?:(?:the|our|my|a)\s+)?(?:\w+\s+)?{_DECIDER}\b"
            rf"|\b{_DECIDER}\b{UNHEDGED}{{0,20}}\blooped\s+in\b"
            rf"|\b{_DECIDER}\b{UNHEDGED}{{0,20}}\b(?:been|was|were|is)\s+(?:now\s+)?(?:notified|"
            r"alerted|informed|told|pinged|e-?mailed|copied|cc['\u2019]?e?d|contacted)\b",
            "looped in the controller on {it}",
        ),
        (
            r"\b(?:brought|put|placed|left|added|submitted|queued|sent|passed|given)\b"
            rf"{_W}{{0,40}}\b(?:to|on|for|in|into)\s+(?:the\s+)?(?:\w+\s+)?{_DECIDER}['\u2019]?s?\s+"
            r"(?:attention|desk|queue|review|decision|sign-?off|inbox)\b"
            rf"|\b(?:kicked|bumped|sent|passed|pushed|moved)\b{_W}{{0,30}}\bupstairs\b",
            "brought {it} to the controller's attention",
        ),
    ),
    "reverse": (
        (r"\bbacked out\b", "backed out the entry of {it}"),
        # round 18's V18d: an entry voided, nullified, undone (not ``cancelled``: a request
        # is), or a mirror entry posted
        (
            rf"\b{_ENTRY}\b{_W}{{0,30}}\b(?:(?:been|was|were|is|are)\s+)?(?:now\s+)?(?:voided|"
            r"nullified|negated|annulled|undone|neutrali[sz]ed)\b"
            r"|\b(?:voided|nullified|negated|annulled|undid|neutrali[sz]ed|offset)\s+"
            rf"(?:(?:the|this|that|its|original|april|may|wrong|posted|earlier|first)\s+){{0,3}}"
            rf"{_ENTRY}\b",
            "voided the original entry of {it}",
        ),
        (
            r"\b(?:mirror|opposite|offsetting|equal and opposite|inverse|storno)\s+(?:journal\s+)?"
            rf"(?:entry|posting)\b{UNHEDGED}{{0,40}}\b(?:posted|booked|recorded|made|entered|done)\b"
            r"|\b(?:posted|booked|recorded|made|entered|with)\s+(?:(?:a|an|the)\s+)?(?:mirror|"
            r"opposite|offsetting|equal and opposite|inverse|storno)\s+(?:journal\s+)?"
            r"(?:entry|posting)\b"
            rf"|\bstorno\b{UNHEDGED}{{0,30}}\b(?:booked|posted|recorded|made|done)\b",
            "posted a mirror entry for {it}",
        ),
        (r"\bunwound\b", "unwound the entry of {it}"),
        (
            rf"\b(?:recorded|posted|booked|made|entered)\b{_W}{{0,20}}\bcontra entry\b"
            rf"|\bcontra entry\b{_W}{{0,60}}\b(?:recorded|posted|booked|made|entered)\b",
            "recorded a contra entry for {it}",
        ),
    ),
}
"""Each action's synonyms: ``(claim form, first-person phrase)``."""


def synonym_claims() -> dict[str, tuple[str, ...]]:
    """The claim forms of `SYNONYMS`, by action (regular expressions over a folded clause)."""
    return {a: tuple(form for form, _ in pairs) for a, pairs in SYNONYMS.items()}


def synonym_phrases(action: str) -> tuple[str, ...]:
    """The first-person phrases of ``action``'s synonyms (``{it}`` for the record), ``()``
    for an action with none."""
    return tuple(phrase for _, phrase in SYNONYMS.get(action, ()))
