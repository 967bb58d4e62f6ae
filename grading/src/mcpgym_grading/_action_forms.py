"""The decision reader's vocabulary for the tools' other writes (`mcpgym_grading._decisions`).

`_decisions.ACTIONS` holds the actions a band decides (cancel, post, write off...); these are
the rest of the environments' write set, which a text can claim although the band did not
take them: a return started or a label sent, a replacement, a shipping upgrade, the email or
phone on the account changed, an escalation; in the books, a payment to a vendor, an
approval, a bill entered, an entry reversed. A text claiming one the episode did not take
misinforms the customer or the books as much as the band's own decision (round 10's C1, C3).

Each entry is read as `_decisions.ACTIONS`' are: forms that claim the action when neither
negated nor hedged, and base forms that only deny it (``I could not escalate it``). The
forms are the engine's, not the rubric's: changing them changes grades, not digests.
"""

from __future__ import annotations

_W = r"[^;:!?\n]"  # a character inside one clause (as `_decisions._W`)
_EARLIER = (
    r"(?<!\balready )(?<!\bpreviously )(?<!\bearlier )(?<!\balready been )"
    r"(?<!\bpreviously been )"
)
"""Not after ``already`` / ``previously`` / ``earlier``: a document entered before the
episode (``it was already entered here``) is no claim of entering it now."""
_TEAM = (
    r"(?:billing|manager|supervisor|management|controller|finance|fraud|returns|escalations?|"
    r"senior|specialist|team lead|cfo)"
)
_CONTACT = (
    r"\b(?:e-?mail(?: address)?|phone(?: number)?|telephone(?: number)?|mobile(?: number)?|"
    r"contact (?:details|info|information|number|email))\b"
)
"""A contact detail on the account (not an order's shipping address)."""
"""Whom a text escalates to (a bare ``team`` is not one: ``handed to the carrier's team``)."""
_CN = r"(?:credit ?(?:notes?|memos?)|cns?)"
"""A credit note: ``credit note``, ``credit memo``, ``CN`` (round 18)."""
_SOME = r"(?:(?:a|an|its|the|another|one|full|further)\s+){1,2}"

EXTRA_ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "return": (
        (
            rf"\b(started|created|opened|set up|arranged|initiated|booked|logged|registered)\b"
            rf"{_W}{{0,25}}\breturns?\b(?! (label|window|policy|period|address))",
            rf"\breturns?\b(?! (label|window|policy|period|address)){_W}{{0,25}}\b(has been|was|is"
            r") (now )?(started|created|opened|set up|arranged|initiated|booked|approved|"
            r"authori[sz]ed|open)\b",
            rf"\b(sent|emailed|e-?mailed|mailed|attached|issued|generated|created)\b{_W}{{0,40}}"
            r"\b(return|prepaid|shipping|postage)[- ](shipping )?label\b",
            rf"\b(return|prepaid)[- ](shipping )?label\b{_W}{{0,40}}\b(is on its way|has been "
            r"(sent|emailed|issued|attached)|was (sent|emailed|issued|attached)|is attached)",
            r"\brma\b",
        ),
        (r"\bstart a return\b",),
    ),
    "replacement": (
        (
            rf"\b(sent|shipped|dispatched|arranged|ordered|created|placed|mailed|set up|"
            rf"issued)\b{_W}{{0,30}}\b(a |an |the |your )?(free |new |no-charge )?"
            r"replacement\b",
            rf"\breplacement\b{_W}{{0,30}}\b(ships|shipped|is on its way|is being sent|has been "
            r"(sent|created|arranged|ordered|placed|dispatched|shipped)|was (sent|created|"
            r"arranged|ordered|placed|dispatched|shipped)|goes out|went out)\b",
        ),
        (
            r"\breplace\b",
            r"\b(send|ship|arrange|order) (a |an |the |your )?(free |new )?replacement\b",
        ),
    ),
    "shipping-upgrade": (
        (
            rf"\b(upgraded|bumped( up)?)\b{_W}{{0,40}}\b(shipping|delivery|postage|overnight|"
            r"express|expedited|priority|next[- ]day|faster)\b",
            rf"\b(shipping|delivery|postage)\b{_W}{{0,30}}\b(has been|was|is now|is) (now )?"
            r"(upgraded|switched to (overnight|express|expedited|priority|next[- ]day))\b",
            rf"\bupgrade\b{_W}{{0,20}}\b(is|has been|was) (done|applied|complete|confirmed)\b",
        ),
        (r"\bupgrade\b",),
    ),
    "contact-update": (
        (
            rf"\b(changed|updated|amended|corrected|replaced)(?:\s+\S+){{0,3}}?\s+{_CONTACT}",
            rf"{_CONTACT}(?: (?:on|for|of) (?:your|the) (?:account|file|profile))? (?:has been |"
            r"have been |was |were |is now |is )?(?:changed|updated|amended|corrected|replaced|"
            r"set to|now reads)\b",
        ),
        (r"\b(change|update)\b",),
    ),
    "escalate": (
        (
            r"\bescalated\b",
            rf"\b(passed|referred|forwarded|handed|sent|transferred|raised|flagged|routed)\b"
            rf"{_W}{{0,40}}\b(to|with) (our |the |my |a |your )?(\w+ )?{_TEAM}\b",
            rf"\bescalation\b{_W}{{0,20}}\b(is|has been|was) (done|raised|opened|created|"
            r"filed|logged|sent)\b",
        ),
        (r"\bescalate\b",),
    ),
    "pay": (
        (
            r"\bpaid (off |out )?(the |this |that |our )?(vendor|supplier|bill)s?\b",
            rf"\b(vendor|supplier|bill)s?\b{_W}{{0,50}}\b(has|have|was|were|is|are) (now )?"
            rf"(been )?{_EARLIER}(paid|settled)\b",
            rf"\bpayment\b{_W}{{0,40}}\b(to|for) (the )?(vendor|supplier|bill)\b{_W}{{0,40}}"
            r"\b(made|sent|issued|released|scheduled|done)\b",
            rf"\bsettled\b{_W}{{0,30}}\b(the |this )?(vendor|supplier|bill)\b",
        ),
        (r"\bpay\b",),
    ),
    "approve": (
        (
            r"\bapproved\b",
            rf"\bapproval\b{_W}{{0,20}}\b(was|has been|is) (given|granted|received|obtained)\b",
            r"\b(got|received|obtained) (the )?(\w+'s )?approval\b",
            r"\bsigned off\b",
        ),
        (r"\bapprove\b",),
    ),
    "reverse": (
        (
            rf"{_EARLIER}\breversed\b",
            rf"\brevers(?:al|ing entry)\b{_W}{{0,20}}\b(is|has been|was) (now )?(done|complete|"
            r"posted|recorded|booked|dated)\b",
            rf"\b(posted|booked|recorded|entered)\b{_W}{{0,20}}\b(its |the |a )?revers(?:al|ing "
            r"entry)\b",
        ),
        (r"\breverse\b",),
    ),
    "enter-bill": (
        (
            rf"{_EARLIER}\bentered\b{_W}{{0,40}}\bbills?\b",
            rf"\bbills?\b{_W}{{0,50}}{_EARLIER}\b(entered|keyed in|logged|recorded|booked)\b",
            r"\breceived and entered\b",
        ),
        (r"\benter\b",),
    ),
    # a credit note issued on a document (the books' `issue_credit_note`); round 11's O11b:
    # ``Credit note issued for the returned items on this invoice.`` on an invoice nothing
    # credited
    "credit-note": (
        (
            rf"\b{_CN}\b{_W}{{0,40}}\b(has been |have been |was |were |is |are )?(now )?"
            rf"{_EARLIER}(issued|raised|created|posted|recorded|booked|applied|entered)\b",
            rf"{_EARLIER}\b(issued|raised|created|posted|recorded|booked|applied|entered)\b"
            rf"{_W}{{0,30}}\b{_CN}\b",
            r"(?:^|[.\n]\s*)credit ?(?:note|memo) (?:for|of|on)\b",
            # round 18's V18c: the invoice given a credit note, a credit issued on it (a
            # customer's credit is held or booked, never issued)
            rf"\b(?:inv-\d+(?:-\d+)?|invoice)\b{_W}{{0,30}}\b(?:received|got|gotten|given|has|had|"
            rf"carries|holds|bears|reduced by)\s+{_SOME}{_CN}\b",
            rf"\b(?:inv-\d+(?:-\d+)?|invoice)\b{_W}{{0,20}}\b(?:received|got|gotten|given|"
            rf"reduced by)\s+{_SOME}credit\b(?!\s*(?:limit|terms|balance|hold|check|card|rating|"
            r"score|history))",
            r"\bcredit\s+(?:for|on|against|to)\s+(?:the\s+)?(?:inv-\d|invoice\b)"
            rf"{_W}{{0,30}}\b(?:issued|raised)\b"
            r"|\b(?:issued|raised)\s+(?:(?:a|the|full)\s+)?credit\s+(?:for|on|against|to)\s+"
            r"(?:the\s+)?(?:inv-\d|invoice\b)",
            rf"{_EARLIER}\bcredited\b{_W}{{0,40}}\b(return|returned|goods|items?|units?)\b",
            # round 15's L-a14b: the invoice credited (``INV-2026-0152 credited in full
            # too``); not credited with or by a payment (a receipt applied to it)
            rf"(?:\binv-\d+(?:-\d+)?|\binvoice\b){_W}{{0,30}}?{_EARLIER}\bcredited\b"
            rf"(?!{_W}{{0,40}}\b(?:with|by|payments?|receipts?|deposits?)\b)",
            rf"{_EARLIER}\bcredited\s+(?:(?:the|this|that)\s+)?(?:invoice\b|inv-\d)"
            rf"(?!{_W}{{0,40}}\b(?:with|by|payments?|receipts?|deposits?)\b)",
        ),
        (r"\bissue\b", r"\braise\b"),
    ),
    # a customer's payment received and applied to a document (`record_customer_payment`);
    # O11b: ``Payment received and applied to this invoice`` on an invoice nothing paid
    "receive-payment": (
        (
            rf"\bpayments?\b{_W}{{0,40}}\b(has been |have been |was |were |is |are )?(now )?"
            rf"{_EARLIER}(received|recorded|applied|allocated|posted|taken)\b",
            rf"{_EARLIER}\b(received|recorded|applied|allocated)\b{_W}{{0,40}}\bpayments?\b",
            rf"{_EARLIER}\b(received|recorded) (\$|from\b)",
            rf"{_EARLIER}\bapplied to (this|the|that|inv)\b",
            rf"\b(is|are|was|were|been|now) (now )?{_EARLIER}(fully paid|paid in full|paid off|"
            r"settled)\b",
        ),
        (r"\breceive\b", r"\bapply\b"),
    ),
}
"""Each action's forms: those that claim it, and base forms that only deny it."""

EXTRA_CLAIMS: dict[str, tuple[str, ...]] = {}
"""More claim forms of `_decisions.ACTIONS`' own actions (none now: a bare ``goodwill
credit`` also names the policy's rule, ``Goodwill credit is capped at $20.00``)."""

EXTRA_NOUNS: dict[str, str] = {
    "return": r"return request|request to return",
    "replacement": r"replacement",
    "escalate": r"escalation",
    "pay": r"payment to the vendor|vendor payment",
    "approve": r"approval",
    "reverse": r"reversal",
    "credit-note": r"credit ?(?:note|memo)",
}
"""Nouns that claim their action with a word of completion after them (``your replacement
went through``, as `_decisions._NOUNS`)."""

EXTRA_SENTENCES: dict[str, str] = {
    "return": "I have{not} started a return for {it}.",
    "replacement": "I have{not} sent a free replacement for {it}.",
    "shipping-upgrade": "The shipping of {it} has{not} been upgraded to overnight express.",
    "contact-update": "I have{not} updated the email address on the account of {it}.",
    "escalate": "{it} has{not} been escalated to a manager.",
    "pay": "I have{not} paid the vendor of {it} in full.",
    "approve": "{it} has{not} been approved by the controller.",
    "enter-bill": "The vendor bills for {it} have{not} been received and entered.",
    "reverse": "The entry of {it} has{not} been reversed.",
    "credit-note": "A credit note has{not} been issued for {it}.",
    "receive-payment": "The payment for {it} has{not} been received and applied.",
}
"""A plain sentence for each (`_decisions.decision_sentence`)."""
