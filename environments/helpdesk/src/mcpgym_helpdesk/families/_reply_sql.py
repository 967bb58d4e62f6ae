"""The texts the helpdesk reply checks read: the agent's replies on the variant's ticket, every
free text it wrote in the episode, its escalation reasons, and the money it moved (moved out
of `_replies`).
"""

from __future__ import annotations

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
    "UNION ALL SELECT json_extract(detail, '$.reason') FROM audit_log "
    f"WHERE at > '{SNAPSHOT_TIME}' AND actor = 'agent'"
)
"""Every free text the agent wrote in the episode: its replies and internal notes (without the
customer's words they quote, `AGENT_BODY`), and the
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
