"""Rubric checks on the agent's replies to the customer: a reply was sent, it states the right
amount or token and no other, it names the carrier, it reveals nothing it must not.

Every check reads the agent's replies on the variant's ticket (`AGENT_REPLIES_SQL`); notes
are not replies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_grading import (
    TEXT_AMOUNTS,
    AmountRole,
    AnswerMatch,
    DecisionMatch,
    Param,
    SqlCheck,
    claims_only_taken,
)
from mcpgym_grading import reply_sent as _kit_reply_sent
from mcpgym_grading import texts_state_no_other_amount as _kit_texts_state_no_other_amount
from mcpgym_helpdesk.families._store import (
    GOODWILL_CAP_CENTS,
    REFUND_LIMIT_CENTS,
    SNAPSHOT_TIME,
)

AGENT_REPLIES_SQL = (
    "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id AND author = 'agent' ORDER BY id"
)
"""The agent's replies to the customer on the variant's ticket (notes are not replies)."""


def reply_sent(
    *, weight: float = 1.0, required: bool = True, bands: tuple[str, ...] | None = None
) -> SqlCheck:
    """The agent replied to the customer on the variant's ticket (the kit's `reply_sent`)."""
    return _kit_reply_sent(
        "ticket_messages",
        "ticket_id = :ticket_id AND author = 'agent'",
        description="the agent replied to the customer on the ticket (policy 9.2)",
        weight=weight,
        required=required,
        bands=bands,
    )


REFUNDED_CUES = (
    "refunded",
    "credited",
    "reimbursed",
    "issued",
    "processed",
    "on its way",
    "back to your",
    "back on your",
    "paid back",
)
"""The words that say an amount was refunded (an `AmountRole`'s cues, `mcpgym_grading._roles`):
done-words only; "refund" alone is no cue, a refund request is one too."""

ESCALATED_CUES = (
    "billing",
    "limit",
    "above",
    "over my",
    "more than",
    "exceed*",
    "escalat*",
    "passed",
    "forwarded",
    "referred",
    "handed",
    "approv*",
    "review*",
    "supervisor",
    "manager",
    "team",
    "follow up",
    "cannot",
    "unable",
    "not able",
    "can't",
    "can’t",
    "couldn't",
    "couldn’t",
    "could not",
    "not refunded",
    "not been refunded",
    "not yet refunded",
    "haven't refunded",
    "haven’t refunded",
)
"""The words that say an amount was passed on rather than paid: above the limit, escalated,
for billing to review, not refunded (an `AmountRole`'s cues; the negations are longer than
`REFUNDED_CUES`' "refunded", so they win at equal gaps: "I have not refunded the $349.00")."""


DUPLICATE_CUES = (
    *REFUNDED_CUES,
    "duplicate",
    "twice",
    "double*",
    "second charge",
    "extra charge",
    "today",
    "just now",
    "right now",
)
"""The words that say an amount is the duplicate charge refunded (duplicate-charge); a
refund made today is this one (the earlier refund's amount "refunded today for the item you
returned" is no earlier refund: round 10's M3)."""

PRIOR_REFUND_VERBS = ("refunded", "credited", "reimbursed", "issued", "processed", "paid back")
"""The done-words of `REFUNDED_CUES` that an earlier refund takes too (not "on its way" nor
"back to your": those are this refund's)."""

PRIOR_CUES = (
    *PRIOR_REFUND_VERBS,
    "refunded earlier",
    "refunded before",
    "already refunded",
    "previously refunded",
    "price adjustment",
    "adjustment",
    "earlier",
    "already",
    "previous*",
    "prior",
    "before",
    "returned",
    "sent back",
    "not affected",
    "unaffected",
    "stays",
    "stands",
)
"""The words that say an amount is a refund made before this ticket (duplicate-charge hard:
the refund for a returned item, which the customer mentions; refund-damaged-item expert: the
earlier price adjustment). Phrases with "refunded" win over `REFUNDED_CUES` at equal gaps.
The refund verbs (`PRIOR_REFUND_VERBS`) are cues of both roles, *shared* cues
(`mcpgym_grading._roles`): an earlier refund was refunded too, so "refunded" says which
amount is meant only with a ``for`` phrase ("the $159.00 you were refunded for the returned
item"); undecided, the refund now is in its role and the earlier one is not."""


LIMIT_CUES = (
    "limit",
    "limits",
    "threshold",
    "cap",
    "ceiling",
    "maximum",
    "max",
    "up to",
    "at most",
    "authority",
    "allowed to",
    "can refund",
    # how an amount stands against the limit, shared with `ESCALATED_CUES`: beside the
    # limit's own value they are the limit's ("over my $250.00 limit"), beside another
    # amount they bind it as before (the limit's cues bind only the limit)
    "above",
    "over",
    "over my",
    "more than",
    "exceed*",
    "beyond",
    "under",
    "below",
    "within",
    *(
        f"{kind} {noun}"
        for kind in ("refund", "agent", "policy", "my")
        for noun in ("limit", "cap")
    ),
)
"""The words that name the refund limit ($250.00, policy 7.1) in a reply or an escalation
reason: "above my $250.00 limit", "I can refund up to $250.00", "the $250.00 refund
limit"."""

CAP_CUES = (*LIMIT_CUES, "goodwill", "courtesy", "store credit")
"""The words that name the goodwill cap ($20.00, policy 8.2): a limit's, or the credit's
own ("up to $20.00 in goodwill store credit")."""

POLICY_ROLES = (
    AmountRole(amount=REFUND_LIMIT_CENTS, cues=LIMIT_CUES, binds_others=False),
    AmountRole(amount=GOODWILL_CAP_CENTS, cues=CAP_CUES, binds_others=False),
)
"""The policy figures a reply may quote, each only in its role (`mcpgym_grading._roles`,
``binds_others=False``: a limit noun binds only the limit's own amount): stated with no
such cue, or as an alternative ("refund $250.00, or $349.00"; "Refund $20.00 or $349.00"),
a figure is misplaced and the check fails; an amount that is also the expected one is read
as the expected one."""


def other_amounts_sql(*allowed_params: str) -> str:
    """SQL selecting the candidate amounts a reply must not state beside the right one: every
    unit price and line total of the customer's order items, every order's subtotal,
    shipping, tax and total, every payment; except the policy figures a reply may quote
    (`REFUND_LIMIT_CENTS`, `GOODWILL_CAP_CENTS`) and the params ``allowed_params`` (amounts
    the reply states for another reason). The expected amount itself is never forbidden
    (`AnswerMatch`). A reply listing several candidate amounts does not state the amount."""
    allowed = ", ".join(
        [str(REFUND_LIMIT_CENTS), str(GOODWILL_CAP_CENTS)]
        + [f"COALESCE(:{p}, -1)" for p in allowed_params]
    )
    mine = "SELECT id FROM orders WHERE customer_id = :customer_id"
    return (
        "SELECT DISTINCT a FROM ("
        f"SELECT unit_price_cents AS a FROM order_items WHERE order_id IN ({mine}) "
        f"UNION ALL SELECT quantity * unit_price_cents FROM order_items WHERE order_id IN ({mine}) "
        "UNION ALL SELECT subtotal_cents FROM orders WHERE customer_id = :customer_id "
        "UNION ALL SELECT shipping_cents FROM orders WHERE customer_id = :customer_id "
        "UNION ALL SELECT tax_cents FROM orders WHERE customer_id = :customer_id "
        "UNION ALL SELECT total_cents FROM orders WHERE customer_id = :customer_id "
        f"UNION ALL SELECT amount_cents FROM payments WHERE order_id IN ({mine})"
        f") WHERE a > 0 AND a NOT IN ({allowed}) ORDER BY a"
    )


def reply_mentions_money(
    param: str,
    *,
    name: str = "reply-states-amount",
    weight: float = 1.0,
    allow: tuple[str, ...] = (),
    roles: Mapping[str, tuple[str, ...]] | None = None,
    **kw: Any,
) -> AnswerMatch:
    """A reply states the amount ``param`` and no other amount (``mode="states"``): none of
    the customer's orders (`other_amounts_sql`), nor a near miss or an amount in another
    form or currency; only the policy figures (`REFUND_LIMIT_CENTS`, `GOODWILL_CAP_CENTS`)
    and the params ``allow`` (amounts the reply may also state) may stand beside it.

    ``roles`` (param name -> cue words, e.g. ``{"refund_cents": REFUNDED_CUES}``): amounts
    bound to their role in the reply (`mcpgym_grading.AmountRole`): an allowed amount with a
    role stands only in a clause whose nearest cue is its own, so two amounts stated in
    each other's roles state nothing. The policy figures stand only in their roles
    (`POLICY_ROLES`)."""
    return AnswerMatch(
        name=name,
        description=kw.pop("description", f"a reply to the customer states the amount ({param})")
        + "; no other amount is stated beside it (a list of candidate amounts, or the amount "
        "beside a near miss, states none of them)",
        source="sql",
        sql=AGENT_REPLIES_SQL,
        expected=Param(param),
        normalize="money",
        mode="states",
        forbidden_sql=other_amounts_sql(*allow),
        allowed=[REFUND_LIMIT_CENTS, GOODWILL_CAP_CENTS, *(Param(p) for p in allow)],
        roles=(  # the policy figures first: a limit noun tied between roles is the limit's
            *POLICY_ROLES,
            *(AmountRole(amount=Param(p), cues=cues) for p, cues in (roles or {}).items()),
        ),
        weight=weight,
        **kw,
    )


def reply_states_no_other_amount(
    *allow: str, name: str = "reply-states-no-other-amount", weight: float = 1.0, **kw: Any
) -> AnswerMatch:
    """No reply states a candidate amount (`other_amounts_sql`) but the params ``allow``:
    for a family whose replies may state an amount but need not (an escalation's reply
    may name the request or not), a reply stating a wrong amount, or every candidate, fails
    all the same. An amount is read in any form (a bare candidate value too)."""
    return AnswerMatch(
        name=name,
        description=kw.pop(
            "description",
            "no reply states an amount of the customer's orders other than "
            + ", ".join(allow)
            + " (a wrong amount, or a list of candidate amounts, misinforms the customer)",
        ),
        source="sql",
        sql=AGENT_REPLIES_SQL,
        normalize="money",
        forbidden_sql=other_amounts_sql(*allow),
        roles=POLICY_ROLES,  # a policy figure only as the limit (`POLICY_ROLES`)
        weight=weight,
        **kw,
    )


AGENT_TEXTS_SQL = (
    "SELECT body FROM ticket_messages WHERE author IN ('agent', 'note') "
    f"AND created_at > '{SNAPSHOT_TIME}' "
    "UNION ALL SELECT json_extract(detail, '$.reason') FROM audit_log "
    f"WHERE at > '{SNAPSHOT_TIME}' AND actor = 'agent'"
)
"""Every free text the agent wrote in the episode: its replies and internal notes, and the
reason of each write that takes one (a refund, a cancellation, a return, an exchange, an
escalation: the audit trail records each as written)."""

ESCALATION_REASONS_SQL = (
    "SELECT json_extract(detail, '$.reason') FROM audit_log "
    f"WHERE at > '{SNAPSHOT_TIME}' AND actor = 'agent' AND action = 'ticket.escalate' ORDER BY id"
)
"""The reasons of the agent's escalations (what the team reads before it acts)."""

MOVED_CENTS_SQL = (
    f"SELECT amount_cents FROM refunds WHERE created_at > '{SNAPSHOT_TIME}' "
    "UNION SELECT amount_cents FROM store_credit_ledger "
    f"WHERE created_at > '{SNAPSHOT_TIME}' AND amount_cents > 0"
)
"""The money the episode moved (refunds, store credit granted): a text may state it."""


def texts_state_no_other_amount(
    *allow: str, roles: Mapping[str, tuple[str, ...]] | None = None, **kw: Any
) -> AnswerMatch:
    """No text the agent wrote in the episode (`AGENT_TEXTS_SQL`) states an amount but zero,
    the ones the reference's own texts state (the kit's `with_text_amounts` param), the
    params ``allow`` (what the family's reply checks also allow: an earlier refund the
    customer mentions) and the money the episode moved (`MOVED_CENTS_SQL`: a goodwill
    credit it gave); the policy figures (`POLICY_ROLES`) in their role only ("Refunds above
    $250.00 need billing's approval", not "refund $250.00, or $349.00"), except where the
    figure is one of those allowed amounts (``yields_to_sql``: an earlier refund of $20.00
    is no goodwill cap; a refund of $250.00 is no limit), which stand in any words.
    In every family and band, also where no refund is made or nothing was captured: a
    reply that invents a refund or a credit, or a reason stating a wrong amount, fails.
    The customer's order amounts (`other_amounts_sql`) are its candidates, read in any
    form. ``roles`` (param name -> cue words, `_true_amounts`): true amounts the reference
    leaves out, allowed only in their role (an `AmountRole` that yields where the amount is
    allowed anyway: stated by the reference, moved, or in ``allow``)."""
    allowed = " UNION ".join([MOVED_CENTS_SQL, *(f"SELECT COALESCE(:{p}, 0)" for p in allow)])
    own = f"SELECT value FROM json_each(:{TEXT_AMOUNTS}) UNION {allowed}"
    roles_in = tuple(
        r.model_copy(update={"yields_to_sql": own})
        for r in (
            *POLICY_ROLES,
            *(AmountRole(amount=Param(p), cues=cues) for p, cues in (roles or {}).items()),
        )
    )
    if roles:
        allowed += "".join(f" UNION SELECT COALESCE(:{p}, 0)" for p in roles)
        allow = (*allow, *roles)
    policy = f"SELECT {REFUND_LIMIT_CENTS} UNION SELECT {GOODWILL_CAP_CENTS}"
    candidates = (
        f"SELECT a FROM ({other_amounts_sql(*allow)}) WHERE a NOT IN "
        f"(SELECT value FROM json_each(:{TEXT_AMOUNTS})) AND a NOT IN ({MOVED_CENTS_SQL})"
    )
    return _kit_texts_state_no_other_amount(
        AGENT_TEXTS_SQL,
        description=kw.pop(
            "description",
            "no reply, note or reason the agent wrote states an amount but the ones the "
            "reference states and the money the episode moved (a refund or credit that was "
            "not made, a wrong amount or a list of candidate amounts misinforms; policy 9.2)",
        ),
        forbidden_sql=candidates,
        allowed_sql=f"{allowed} UNION {policy}",
        roles=roles_in,
        **kw,
    )


def reply_mentions_token(
    param: str,
    *,
    name: str,
    weight: float = 1.0,
    negate: bool = False,
    forbidden_sql: str | None = None,
    **kw: Any,
) -> AnswerMatch:
    return AnswerMatch(
        name=name,
        description=kw.pop("description", f"a reply to the customer mentions {param}"),
        source="sql",
        sql=AGENT_REPLIES_SQL,
        expected=Param(param),
        normalize="token",
        negate=negate,
        forbidden_sql=forbidden_sql,
        weight=weight,
        **kw,
    )


def reply_omits(
    *,
    name: str,
    description: str,
    forbidden_sql: str,
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
) -> AnswerMatch:
    """No reply to the customer states any value ``forbidden_sql`` selects, in any form
    (fullwidth, digit groups split by any space or dash, "at"/"dot" spelled out, across
    replies): a "must not reveal" check, read like every answer check."""
    return AnswerMatch(
        name=name,
        description=description,
        source="sql",
        sql=AGENT_REPLIES_SQL,
        normalize="token",
        forbidden_sql=forbidden_sql,
        weight=weight,
        required=required,
        bands=bands,
    )


CARRIER_NAMES: dict[str, tuple[str, ...]] = {
    "UPS": (
        "ups",
        "united parcel service",
        "2nd day air",
        "second day air",
        "next day air",
        "3 day select",
    ),
    "FedEx": (
        "fedex",
        "fed ex",
        "federal express",
        "express saver",
        "2day",
        "priority overnight",
        "standard overnight",
        "first overnight",
    ),
    "USPS": (
        "usps",
        "postal service",
        "us mail",
        "priority mail",
        "first class mail",
        "ground advantage",
        "media mail",
        "post office",
    ),
    "DHL": ("dhl",),
}
"""How a reply may name each carrier (shipments.carrier), as whole words (`word_glob`): "U.S.
Postal Service" and "United States Postal Service" both contain "postal service", "U.S.P.S."
is "usps", "Fed-Ex" is "fed ex". A carrier's own service names ("Priority Mail", "2nd Day
Air", "Express Saver") and synonyms ("the post office") name it too."""

RETURN_CUES = "return label,return shipping,send it back,ship it back,send back,returns"
"""Phrases binding a carrier to a return, not to the order's shipment: the carrier next to
one ("we email a prepaid USPS return label") is no competing carrier; the rest of its
sentence is read ("..., or FedEx")."""
SHIPMENT_CUES = "ships,shipped,shipping with,is with,sent with,on its way,tracking,carrier"
"""Phrases that keep a sentence with a return cue in the reading: "it ships with UPS, or
USPS for returns" still names USPS for the shipment."""

AMBIGUOUS_CARRIER_NAMES = frozenset({"us mail"})
"""Names that also occur in plain speech ("let us mail you a label"): they count for the
right carrier, but do not make a reply name another carrier."""


def _words_sql(expr: str) -> str:
    """SQL turning a text into ``' word word ... '`` for `word_glob`: the canonical form of
    every answer check (``mcpgym_fold``: fullwidth letters, any space or dash, invisible
    characters folded; lower case), dots dropped (``U.S.`` is ``us``, ``U.S.P.S.`` is
    ``usps``), runs of up to 5 spaces collapsed, padded with spaces."""
    out = f"REPLACE(LOWER(mcpgym_fold({expr})), '.', '')"
    for _ in range(2):
        out = f"REPLACE({out}, '  ', ' ')"
    return f"(' ' || {out} || ' ')"


def word_glob(words: str) -> str:
    """A GLOB pattern finding ``words`` (lower case, space separated) as whole words in a text
    made by `_words_sql`: any one character that is not a letter or digit separates words
    (punctuation, any dash, any space such as NBSP), so "fed ex" matches "Fed-Ex"."""
    sep = "[^a-z0-9]"
    return f"*{sep}" + sep.join(words.split()) + f"{sep}*"


def _names_sql(names: Sequence[str]) -> str:
    return "(" + " OR ".join(f"m.t GLOB '{word_glob(w)}'" for w in names) + ")"


def _mentions_sql(names: Sequence[str], text: str = "m.b") -> str:
    """SQL: a reply (``m.b``) holds one of ``names`` as every answer check finds a value
    (``mcpgym_mentions``: ``D H L``, ``U/P/S``, ``F-e-d-E-x``, Cyrillic or small-capital
    look-alikes are the name)."""
    return "(" + " OR ".join(f"mcpgym_mentions({text}, '{w}') = 1" for w in names) + ")"


def reply_names_carrier(
    param: str = "carrier",
    *,
    order_param: str = "order_id",
    name: str = "reply-gives-carrier",
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    description: str = "",
) -> SqlCheck:
    """A reply to the customer names the carrier ``:param``, by its code or a common name
    (`CARRIER_NAMES`: "U.S. Postal Service", "Federal Express", "Fed Ex", ...), and no reply
    names a carrier that carries none of the order ``:order_param``'s shipments: a reply
    listing every carrier ("UPS, FedEx, USPS or DHL") names none of them. Both sides read the
    replies as every answer check does (``mcpgym_mentions``: spaced, split or look-alike
    letters are the name); the right carrier's name also counts as whole words of the
    folded text (`_words_sql`). A carrier's mention bound to a return cue (`RETURN_CUES`) in
    a sentence without a `SHIPMENT_CUES` phrase competes with none: it is the return label's
    carrier (``mcpgym_without`` with the name: "we email a prepaid USPS return label"). The
    rest of that sentence is read, and so is the mention where the reply refers back to a
    carrier: in "a USPS return label, or FedEx" and "Return label is FedEx; the parcel could
    be with them as well" FedEx competes."""
    cases = " ".join(
        f"WHEN '{carrier}' THEN ({_names_sql(words)} OR {_mentions_sql(words)})"
        for carrier, words in CARRIER_NAMES.items()
    )
    sep = "[^a-z0-9]"
    # competing carriers: each name outside the mentions bound to a return cue, a minus
    # glued in front read as a dash ("-2nd Day Air" names UPS all the same)
    others = " OR ".join(
        f"('{carrier}' NOT IN (SELECT carrier FROM own) AND ("
        + " OR ".join(
            f"mcpgym_mentions(REPLACE(mcpgym_without(m.b, '{RETURN_CUES}', "
            f"'{SHIPMENT_CUES}', '{w}'), '-', ' '), '{w}') = 1"
            for w in words
            if w not in AMBIGUOUS_CARRIER_NAMES
        )
        + "))"
        for carrier, words in CARRIER_NAMES.items()
    )
    sql = (
        f"WITH m AS (SELECT body AS b, {_words_sql('body')} AS t "
        "FROM ticket_messages "
        "WHERE ticket_id = :ticket_id AND author = 'agent'), "
        f"own AS (SELECT carrier FROM shipments WHERE order_id = :{order_param}) "
        f"SELECT EXISTS (SELECT 1 FROM m WHERE CASE :{param} {cases} "
        f"ELSE m.t GLOB '*{sep}' || LOWER(:{param}) || '{sep}*' END) "
        f"AND NOT EXISTS (SELECT 1 FROM m WHERE {others})"
    )
    return SqlCheck(
        name=name,
        description=description
        or "a reply names the carrier (policy 9.2: give the carrier and the tracking number); "
        'common names count: "U.S. Postal Service", "Federal Express", "Fed Ex"; a reply '
        "naming a carrier that carries none of the order's parcels (a list of every carrier) "
        "names none",
        sql=sql,
        expected=1,
        weight=weight,
        required=required,
        bands=bands,
    )


def reply_decision(
    *,
    bands: tuple[str, ...],
    claimed: tuple[str, ...] = (),
    not_claimed: tuple[str, ...] = (),
    not_denied: tuple[str, ...] = (),
    name: str = "reply-states-decision",
    weight: float = 1.0,
    about: str | None = None,
) -> DecisionMatch:
    """The replies do not claim an outcome the band did not take, nor deny the one it took
    (`mcpgym_grading.DecisionMatch`; actions as `mcpgym_grading._decisions.ACTIONS`):
    ``"cancel"``, ``"address-change"``, ``"exchange"``, ``"refund"``, ``"refund-both"``,
    ``"store-credit"``, ``"card-refund"``. ``about``: a param naming the record; only the
    sentences naming it, and those naming no record after it, are read (two orders, two
    decisions). Required: a reply stating the opposite decision answers the customer
    wrongly, whatever the state."""
    said = [f"claims {', '.join(claimed)} as done"] if claimed else []
    if not_claimed:
        said.append(f"does not claim {', '.join(not_claimed)} (not done)")
    if not_denied:
        said.append(f"does not say {', '.join(not_denied)} was not done")
    return DecisionMatch(
        name=name,
        description="the reply states the decision taken (policy 9.2): it "
        + (f"(each sentence naming {about}) " if about else "")
        + "; ".join(said)
        + " (conditional, future and requested forms state nothing)",
        source="sql",
        sql=AGENT_REPLIES_SQL,
        claimed=claimed,
        not_claimed=not_claimed,
        not_denied=not_denied,
        about=Param(about) if about else None,
        weight=weight,
        required=True,
        bands=bands,
    )


HELPDESK_ACTIONS = (
    "cancel",
    "address-change",
    "exchange",
    "refund",
    "refund-both",
    "store-credit",
    "card-refund",
    "return",
    "replacement",
    "shipping-upgrade",
    "contact-update",
    "escalate",
)
"""The actions a helpdesk text can claim (`mcpgym_grading._decisions.ACTIONS`): the tools'
write set, read by the decision reader."""


ASKED_ONLY = ("address-change", "exchange")
"""Actions whose forms also state plain facts in another family's reply (``Your order ships
to <address>``, ``it shipped on order #7``): read only where the family asks for them."""


def texts_claim_only(
    taken: Mapping[str, tuple[str, ...]],
    *,
    name: str = "texts-claim-only-actions-taken",
    asked: tuple[str, ...] = (),
) -> tuple[DecisionMatch, ...]:
    """No text the agent wrote in the episode (`AGENT_TEXTS_SQL`: replies, internal notes,
    the reasons of its writes) claims as done an action of `HELPDESK_ACTIONS` that the band
    did not take. ``taken``: band -> the actions the band takes (an exchange ships a
    replacement and sends a return label: name each). ``asked``: the actions of `ASKED_ONLY`
    the family decides (read in it only). One `DecisionMatch` per set of bands
    with the same actions not taken (its ``not_claimed``). Required: a reply claiming a
    refund, a return, an escalation or an email change that was not made misinforms the
    customer (policy 9.2), a note claiming one misinforms the staff."""
    unknown = {a for done in taken.values() for a in done} - set(HELPDESK_ACTIONS)
    if unknown:
        raise ValueError(f"unknown action(s) {sorted(unknown)}")
    return claims_only_taken(
        # an action of a band outside the read set (asked only elsewhere) is not read anyway
        {
            b: tuple(a for a in done if a not in ASKED_ONLY or a in asked)
            for b, done in taken.items()
        },
        [a for a in HELPDESK_ACTIONS if a not in ASKED_ONLY or a in asked],
        name=name,
        sql=AGENT_TEXTS_SQL,
        description="no reply, internal note or reason the agent wrote claims an action the "
        "episode did not take ({actions}); conditional, future, requested and denied forms "
        "state nothing (policy 9.2)",
    )
