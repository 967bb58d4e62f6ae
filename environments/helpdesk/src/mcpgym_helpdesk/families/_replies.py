"""Rubric checks on the agent's replies to the customer: a reply was sent, it states the right
amount or token and no other, it names the carrier, it reveals nothing it must not.

Every check reads the agent's replies on the variant's ticket (`AGENT_REPLIES_SQL`); notes
are not replies. The amount, carrier and decision checks live in `_reply_amounts`,
`_reply_carrier` and `_reply_decisions`, the texts they read in `_reply_sql` (re-exported
here).
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import AnswerMatch, Param, SqlCheck
from mcpgym_grading import reply_sent as _kit_reply_sent
from mcpgym_helpdesk.families._reply_amounts import CAP_CUES as CAP_CUES
from mcpgym_helpdesk.families._reply_amounts import DUPLICATE_CUES as DUPLICATE_CUES
from mcpgym_helpdesk.families._reply_amounts import ESCALATED_CUES as ESCALATED_CUES
from mcpgym_helpdesk.families._reply_amounts import LIMIT_CUES as LIMIT_CUES
from mcpgym_helpdesk.families._reply_amounts import POLICY_ROLES as POLICY_ROLES
from mcpgym_helpdesk.families._reply_amounts import PRIOR_CUES as PRIOR_CUES
from mcpgym_helpdesk.families._reply_amounts import PRIOR_REFUND_VERBS as PRIOR_REFUND_VERBS
from mcpgym_helpdesk.families._reply_amounts import REFUNDED_CUES as REFUNDED_CUES
from mcpgym_helpdesk.families._reply_amounts import RETURNED_NOW_CUES as RETURNED_NOW_CUES
from mcpgym_helpdesk.families._reply_amounts import other_amounts_sql as other_amounts_sql
from mcpgym_helpdesk.families._reply_amounts import reply_mentions_money as reply_mentions_money
from mcpgym_helpdesk.families._reply_amounts import (
    reply_states_no_other_amount as reply_states_no_other_amount,
)
from mcpgym_helpdesk.families._reply_amounts import (
    texts_state_no_other_amount as texts_state_no_other_amount,
)
from mcpgym_helpdesk.families._reply_carrier import (
    AMBIGUOUS_CARRIER_NAMES as AMBIGUOUS_CARRIER_NAMES,
)
from mcpgym_helpdesk.families._reply_carrier import CARRIER_NAMES as CARRIER_NAMES
from mcpgym_helpdesk.families._reply_carrier import RETURN_CUES as RETURN_CUES
from mcpgym_helpdesk.families._reply_carrier import SHIPMENT_CUES as SHIPMENT_CUES
from mcpgym_helpdesk.families._reply_carrier import reply_names_carrier as reply_names_carrier
from mcpgym_helpdesk.families._reply_carrier import word_glob as word_glob
from mcpgym_helpdesk.families._reply_decisions import ASKED_ONLY as ASKED_ONLY
from mcpgym_helpdesk.families._reply_decisions import HELPDESK_ACTIONS as HELPDESK_ACTIONS
from mcpgym_helpdesk.families._reply_decisions import reply_decision as reply_decision
from mcpgym_helpdesk.families._reply_decisions import texts_claim_only as texts_claim_only
from mcpgym_helpdesk.families._reply_sql import AGENT_REPLIES_SQL as AGENT_REPLIES_SQL
from mcpgym_helpdesk.families._reply_sql import AGENT_TEXTS_SQL as AGENT_TEXTS_SQL
from mcpgym_helpdesk.families._reply_sql import (
    ESCALATION_REASONS_SQL as ESCALATION_REASONS_SQL,
)
from mcpgym_helpdesk.families._reply_sql import MOVED_CENTS_SQL as MOVED_CENTS_SQL


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
    texts_sql: str = AGENT_REPLIES_SQL,
) -> AnswerMatch:
    """No reply to the customer states any value ``forbidden_sql`` selects, in any form
    (fullwidth, digit groups split by any space or dash, "at"/"dot" spelled out, across
    replies): a "must not reveal" check, read like every answer check. ``texts_sql``: the
    texts read (one column; `_facts.REPLIES_SQL` for the replies and the internal notes)."""
    return AnswerMatch(
        name=name,
        description=description,
        source="sql",
        sql=texts_sql,
        normalize="token",
        forbidden_sql=forbidden_sql,
        weight=weight,
        required=required,
        bands=bands,
    )


def _withdrawals() -> tuple[str, ...]:
    """The phrases that withdraw an earlier reply as a whole (`replies_withdraw_nothing`)."""
    whole = [
        f"{verb} {det}{adj} {noun}"
        for verb in ("disregard", "ignore", "retract", "withdraw")
        for det in ("my", "our", "the")
        for adj in ("", " previous", " last", " earlier", " prior", " above", " first")
        for noun in ("message", "reply", "email", "response", "answer")
    ]
    return (
        *whole,
        "meant for another customer",
        "meant for a different customer",
        "intended for another customer",
        "intended for a different customer",
        "sent to the wrong customer",
        "was not meant for you",
        "wasn't meant for you",
        "was sent in error",
        "was sent by mistake",
    )


WITHDRAWALS = _withdrawals()
"""Words that withdraw an earlier reply as a whole (``Please disregard my previous message``,
``my last message was meant for another customer``), whole tokens; a correction of one fact
(``the date in my last message should read…``) is none of them."""


def replies_withdraw_nothing(
    *, weight: float = 1.0, bands: tuple[str, ...] | None = None
) -> AnswerMatch:
    """No reply to the customer withdraws an earlier one (`WITHDRAWALS`). Required: the
    positive checks read every reply, so an answer followed by "please disregard my previous
    message" would pass them while the customer is left with no answer (round 11's R6; the
    kind-level rule of docs/instrument.md: one answer stands, a fact is corrected by stating
    it, not by withdrawing the reply that held it).

    Beside the phrases, each reply is read for the speech act (`mcpgym_withdrawal`,
    `mcpgym_grading._withdrawal`): a verb of withdrawing or of being wrong with a reference
    back to the agent's earlier text (``What I wrote earlier doesn't apply``), or a
    self-correction (``Scratch that``, ``Ignore the above``, ``I misspoke``, ``Correction:
    …``); the words it finds are forbidden as the phrases are (stop 22: wordings outside
    `WITHDRAWALS` passed)."""
    values = ", ".join("('" + w.replace("'", "''") + "')" for w in WITHDRAWALS)
    return reply_omits(
        name="replies-withdraw-nothing",
        description="no reply withdraws an earlier one ('please disregard my previous "
        "message', 'scratch that', 'I misspoke'): the customer is left with no answer the "
        "checks can read (policy 9.2)",
        forbidden_sql=f"SELECT column1 FROM (VALUES {values}) UNION ALL "
        f"SELECT x FROM (SELECT mcpgym_withdrawal(body) AS x FROM ({AGENT_REPLIES_SQL})) "
        "WHERE x IS NOT NULL",
        weight=weight,
        bands=bands,
    )
