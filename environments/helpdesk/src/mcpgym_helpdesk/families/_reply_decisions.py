"""Decision checks on the agent's texts: a reply states the decision taken, and no text
claims an action the band did not take (moved out of `_replies`, which re-exports them).
"""

from __future__ import annotations

from collections.abc import Mapping

from mcpgym_grading import (
    DECISION_ACTIONS,
    DecisionMatch,
    Param,
    claims_only_taken,
    states_decision,
)
from mcpgym_helpdesk.families._reply_sql import AGENT_REPLIES_SQL, AGENT_TEXTS_SQL, records_sql


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
    return states_decision(
        name=name,
        lead="the reply states the decision taken (policy 9.2): it "
        + (f"(each sentence naming {about}) " if about else ""),
        sql=AGENT_REPLIES_SQL,
        bands=bands,
        claimed=claimed,
        not_claimed=not_claimed,
        not_denied=not_denied,
        about=Param(about) if about else None,
        weight=weight,
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
"""The actions a helpdesk text can claim, named one by one (the tools' write set), in the
decision reader's order. Named, not derived: an action the reader learns for another
environment (the books' `credit-note`, say, which read a helpdesk agent's honest "the $X we
credited you" as a credit note never issued) is not read here until it is added."""
_unknown = set(HELPDESK_ACTIONS) - set(DECISION_ACTIONS)
if _unknown:  # pragma: no cover - a rename in the reader
    raise ImportError(f"helpdesk actions the decision reader does not know: {sorted(_unknown)}")


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
    customer (policy 9.2), a note claiming one misinforms the staff. An action the band
    took, claimed of another order than the ones it was taken on (``order #<declined>
    refunded in full too`` in a refund's reason), is such a claim too (`records_sql`, stop
    24's A14)."""
    unknown = {a for done in taken.values() for a in done} - set(HELPDESK_ACTIONS)
    if unknown:
        raise ValueError(f"unknown action(s) {sorted(unknown)}")
    read = [a for a in HELPDESK_ACTIONS if a not in ASKED_ONLY or a in asked]
    return claims_only_taken(
        # an action of a band outside the read set (asked only elsewhere) is not read anyway
        {
            b: tuple(a for a in done if a not in ASKED_ONLY or a in asked)
            for b, done in taken.items()
        },
        read,
        name=name,
        sql=AGENT_TEXTS_SQL,
        records=records_sql(tuple(read)),
        description="no reply, internal note or reason the agent wrote claims an action the "
        "episode did not take ({actions}), nor one it took of another order than the ones it "
        "took it on (a sentence naming the order); conditional, future, requested and denied "
        "forms state nothing (policy 9.2)",
    )
