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
    r"could|may|might|should|must|needs?|requires?|pending|awaiting|to be|approv\w*|"
    r"escalat\w*|request\w*|asked)\b)[^;:!?\n])"
)
"""A character inside one clause that starts no hedge, request or escalation word: the gap
of a form whose noun comes first and whose done-word closes it (``Bad-debt expense …
booked``), so that ``Bad-debt expense for INV-… needs approval before it is booked`` is
no form of it (a hedge between the two would not stand *before* the form; round 18's
FF18a). A negation may stand in the gap: the form is then denied (`_decisions._read`)."""
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
_NOT_TEAM = r"(?!\s+(?:team|clerk|department|dept|group|owner|admin|manager|staff|review)\b)"
_NOT_DRAFT = rf"(?!{_W}{{0,30}}\b(?:draft|unposted)\b)"

SYNONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    "refund": (
        (r"\breimbursed\b", "reimbursed you in full for {it}"),
        (r"\brepaid\b", "repaid the full amount of {it}"),
        (r"\bcompensated\b", "compensated you for the full cost of {it}"),
        (r"\b(?:been|i|we|ve|have) paid (?:you )?(?:back )?in full\b", "paid you in full for {it}"),
        (
            rf"\bmoney\b{_W}{{0,50}}\b(?:on (?:its|the) way back|sent back|returned)\b",
            "sent your money for {it} on its way back to you",
        ),
        (
            rf"\brefund\b{_W}{{0,40}}\b(?:went out|has gone out|was sent( out)?|is on its way)\b",
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
            r"(?:books|ledger|receivables|accounts receivable|sales ledger)\b",
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
            rf"\b(?:recogni[sz]ed|provided for|charged|absorbed|booked|posted|expensed|took|taken)"
            rf"\b{_W}{{0,50}}\b{BAD_DEBT}",
            "recognised the full balance of {it} as bad debt",
        ),
        (
            rf"\b(?:inv-\d+(?:-\d+)?|receivables?)\b{_W}{{0,30}}?\b(?:expensed|impaired)\b",
            "expensed {it} in full",
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
        # draft there
        (
            r"\b(?:went|gone|got|gotten|made it|moved|transferred|carried|pushed|flowed|sent|"
            r"passed|entered|brought|taken|put|added)\b"
            rf"{UNHEDGED}{{0,30}}?\b(?:to|into|onto|in|on)\s+{_GL}\b{_NOT_TEAM}{_NOT_DRAFT}",
            "pushed {it} through to the general ledger",
        ),
        (
            r"\b(?:appears?|appeared|shows?(?: up)?|showed(?: up)?|showing|reflected|visible|"
            rf"included|present|listed)\s+(?:(?:now|already)\s+)?(?:in|on)\s+{_GL}\b{_NOT_TEAM}"
            rf"{_NOT_DRAFT}",
            "made sure {it} now appears in the general ledger",
        ),
    ),
    "reverse": (
        (r"\bbacked out\b", "backed out the entry of {it}"),
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
