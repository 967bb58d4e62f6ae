"""The texts the helpdesk reply checks read: the agent's replies on the variant's ticket, every
free text it wrote in the episode, its escalation reasons, and the money it moved (moved out
of `_replies`); `texts_read_check`, the check that reads each text with a SQL function.
"""

from __future__ import annotations

from typing import Any

from mcpgym_grading import SqlCheck
from mcpgym_helpdesk.families._store import SNAPSHOT_TIME

AGENT_BODY = (
    "mcpgym_unquoted(ticket_messages.body, (SELECT group_concat(c.body, char(10)) "
    "FROM ticket_messages c WHERE c.ticket_id = ticket_messages.ticket_id "
    "AND c.author = 'customer'))"
)
"""SQL expression over a ``ticket_messages`` row: its body without the customer's own words
quoted back in it (``> …`` lines, ``You wrote: "…"``; `mcpgym_grading._quoted`): they are
not the agent's claims or facts, and credit none (round 11's R7). Quoted text that is not
the customer's stays and is read as the agent's."""

AGENT_REPLIES_SQL = (
    f"SELECT {AGENT_BODY} AS body FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author = 'agent' ORDER BY id"
)
"""The agent's replies to the customer on the variant's ticket (notes are not replies), each
read without the customer's words it quotes (`AGENT_BODY`)."""

AGENT_TEXTS_SQL = (
    f"SELECT {AGENT_BODY} AS body FROM ticket_messages WHERE author IN ('agent', 'note') "
    f"AND created_at > '{SNAPSHOT_TIME}' "
    "UNION ALL SELECT json_extract(a.detail, '$.reason') FROM audit_log a "
    f"WHERE a.at > '{SNAPSHOT_TIME}' AND a.actor = 'agent' AND NOT (a.action = 'refund.create' "
    "AND EXISTS (SELECT 1 FROM audit_log c, json_each(c.detail, '$.refund_ids') r "
    "WHERE c.action = 'order.cancel' AND r.value = a.entity_id))"
)
"""Every free text the agent wrote in the episode: its replies and internal notes (without the
customer's words they quote, `AGENT_BODY`), and the
reason of each write that takes one (a refund, a cancellation, a return, an exchange, an
escalation: the audit trail records each as written). A refund a cancellation made
(`cancel_order` refunds what the order was charged) is left out: its reason is the system's
copy of the cancellation's, prefixed ``order cancelled:``, which the cancellation's own row
gives as written; read twice, that prefix would be read as the agent's claim about the next
order the reason names (stop 25's trial: ``customer request; order #X has shipped and cannot
be cancelled`` failed the claims-only check)."""

ESCALATION_REASONS_SQL = (
    "SELECT json_extract(detail, '$.reason') FROM audit_log "
    f"WHERE at > '{SNAPSHOT_TIME}' AND actor = 'agent' AND action = 'ticket.escalate' ORDER BY id"
)
"""The reasons of the agent's escalations (what the team reads before it acts)."""

_DONE_ON = " UNION ALL ".join(
    (
        "SELECT 'refund' AS w, order_id AS o FROM refunds",
        "SELECT 'refund', order_id FROM store_credit_ledger WHERE amount_cents > 0 "
        "AND order_id IS NOT NULL",
        "SELECT 'cancel', id FROM orders WHERE status = 'cancelled'",
        "SELECT 'return', order_id FROM returns",
        "SELECT 'exchange', order_id FROM exchanges",
        "SELECT 'exchange', replacement_order_id FROM exchanges",
        "SELECT 'address-change', entity_id FROM audit_log WHERE action = "
        "'order.update_address' AND actor = 'agent'",
    )
)
_ACTIONS_OF = {
    # a cancellation releases or refunds what the order was charged
    "cancel": ("cancel", "refund", "refund-both", "card-refund"),
    "refund": ("refund", "refund-both", "card-refund", "store-credit"),
    "return": ("return",),
    "exchange": ("exchange", "replacement"),
    "address-change": ("address-change",),
}


def records_sql(actions: tuple[str, ...]) -> str:
    """SQL: ``(action, order number)`` rows, each action of ``actions`` (the decision
    reader's, `_reply_decisions.HELPDESK_ACTIONS`) taken and each order it was taken on, in
    the episode or before it (`DecisionMatch.records`; ``Order #7 was refunded last month``
    in a note is true): a refund (to the card or as store credit) and a
    cancellation (it refunds or releases the charge) on the order refunded or cancelled, a
    return on the returned order, an exchange or replacement on the exchanged order and its
    replacement order, an address change on the order changed. An escalation and a contact
    update are of no order: not bound. Beside them, ``(NULL, order number)`` for every order on
    file (`mcpgym_grading._decision_records.on_file`): a number named without an id's cue
    binds only where it is an order (``partially_refunded, 4200, 105624`` lists cents).
    """
    kinds = " UNION ALL ".join(
        f"SELECT '{w}' AS w, '{a}' AS a"
        for w, acts in _ACTIONS_OF.items()
        for a in acts
        if a in actions
    )
    return (
        f"SELECT DISTINCT k.a, CAST(d.o AS TEXT) FROM ({_DONE_ON}) d JOIN ({kinds}) k ON k.w = d.w "
        "UNION ALL SELECT NULL, CAST(id AS TEXT) FROM orders"
    )


MOVED_CENTS_SQL = (
    f"SELECT amount_cents FROM refunds WHERE created_at > '{SNAPSHOT_TIME}' "
    "UNION SELECT amount_cents FROM store_credit_ledger "
    f"WHERE created_at > '{SNAPSHOT_TIME}' AND amount_cents > 0"
)
"""The money the episode moved (refunds, store credit granted): a text may state it."""


def texts_read_check(
    values: str,
    reading: str,
    *,
    texts_sql: str,
    name: str,
    description: str,
    weight: float = 1,
    required: bool = True,
    **kw: Any,
) -> SqlCheck:
    """A `SqlCheck` (required by default) that ``reading`` finds nothing in the texts
    ``texts_sql`` selects (one column, named ``t(body)``).

    ``values``: the common table expressions (``name AS (SELECT ...), ...``) that hold what
    the texts are read against (the value roles of `_facts`, the phrases of `_words`, as
    JSON). ``reading``: a SELECT of one column ``x`` over ``t`` and ``values``, NULL for a
    text read as fine. The check expects no row of ``x`` that is not NULL. ``kw``: more
    `SqlCheck` fields (``bands``...)."""
    return SqlCheck(
        name=name,
        description=description,
        sql=f"WITH {values}, t(body) AS ({texts_sql}) SELECT x FROM ({reading}) "
        "WHERE x IS NOT NULL",
        expected=[],
        weight=float(weight),
        required=required,
        **kw,
    )
