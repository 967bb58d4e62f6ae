"""Amount checks on the agent's texts: the cue words of each amount's role, the policy
figures' roles, the candidate amounts a reply must not state, and the money checks built on
them (moved out of `_replies`, which re-exports them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpgym_grading import (
    TEXT_AMOUNTS,
    AmountRole,
    AnswerMatch,
    Param,
)
from mcpgym_grading import texts_state_no_other_amount as _kit_texts_state_no_other_amount
from mcpgym_helpdesk.families._reply_sql import (
    AGENT_REPLIES_SQL,
    AGENT_TEXTS_SQL,
    MOVED_CENTS_SQL,
)
from mcpgym_helpdesk.families._store import (
    GOODWILL_CAP_CENTS,
    REFUND_LIMIT_CENTS,
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

RETURNED_NOW_CUES = ("i've returned", "i have returned", "we've returned", "we have returned")
""""Returned" said of money by the one who refunds it now (``I've returned $X to your
card``): a refund made now. Longer than `PRIOR_CUES`' "returned" (the item the customer
sent back), so it wins at equal gaps (round 12's F12c: refund-damaged-item expert's honest
``I've returned $X`` was read as the earlier refund)."""

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
