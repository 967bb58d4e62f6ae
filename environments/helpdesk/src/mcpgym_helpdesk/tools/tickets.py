"""Ticket tools: read tickets, internal notes, replies, escalation, closing."""

from __future__ import annotations

from typing import Any, Literal

from mcpgym_helpdesk.env import environment
from mcpgym_helpdesk.tools._common import (
    audit,
    insert,
    require_customer,
    require_text,
    require_ticket,
    transaction,
)
from mcpgym_server import Sandbox, ToolError

TICKET_STATUSES = ("open", "pending", "escalated", "closed")
Team = Literal["billing", "returns", "fraud", "management"]
ResolutionCode = Literal[
    "refunded",
    "replaced",
    "exchanged",
    "return_started",
    "store_credit_issued",
    "cancelled",
    "address_updated",
    "account_updated",
    "information_provided",
    "request_declined",
    "no_action",
]


def _require_not_closed(ticket: dict[str, Any], what: str) -> None:
    if ticket["status"] == "closed":
        raise ToolError(
            f"ticket {ticket['id']} is closed (resolution '{ticket['resolution_code']}'); "
            f"cannot {what} a closed ticket"
            + ("; replies must be sent before closing" if what == "reply on" else "")
        )


def _add_message(sb: Sandbox, ticket_id: int, author: str, body: str) -> dict[str, Any]:
    at = sb.clock.iso()
    message_id = insert(
        sb,
        "ticket_messages",
        {"ticket_id": ticket_id, "author": author, "body": body, "created_at": at},
    )
    sb.db.execute("UPDATE tickets SET updated_at = ? WHERE id = ?", (at, ticket_id))
    return {"message_id": message_id, "ticket_id": ticket_id, "author": author, "created_at": at}


@environment.tool(kind="read")
def get_ticket(sb: Sandbox, ticket_id: int) -> dict[str, Any]:
    """Get a ticket with its whole conversation (customer messages, agent replies, internal
    notes) and any escalations.

    Args:
        ticket_id: the ticket number, e.g. 5012.
    """
    t = require_ticket(sb, ticket_id)
    t["messages"] = sb.query(
        "SELECT id, author, body, created_at FROM ticket_messages WHERE ticket_id = ? "
        "ORDER BY created_at, id",
        (ticket_id,),
    )
    t["escalations"] = sb.query(
        "SELECT id, team, reason, status, created_at FROM escalations WHERE ticket_id = ? "
        "ORDER BY id",
        (ticket_id,),
    )
    return t


@environment.tool(kind="read")
def list_tickets(
    sb: Sandbox, status: str | None = None, customer_id: int | None = None
) -> list[dict[str, Any]]:
    """List tickets, newest first (max 100), optionally filtered by status and/or customer.

    Args:
        status: one of open, pending, escalated, closed.
        customer_id: only this customer's tickets.
    """
    where = ["1 = 1"]
    params: list[Any] = []
    if status is not None:
        if status not in TICKET_STATUSES:
            raise ToolError(f"unknown status {status!r}; valid: {', '.join(TICKET_STATUSES)}")
        where.append("status = ?")
        params.append(status)
    if customer_id is not None:
        require_customer(sb, customer_id)
        where.append("customer_id = ?")
        params.append(customer_id)
    return sb.query(
        "SELECT id, customer_id, order_id, subject, channel, status, priority, resolution_code, "
        f"created_at, updated_at FROM tickets WHERE {' AND '.join(where)} "
        "ORDER BY created_at DESC, id DESC LIMIT 100",
        params,
    )


@environment.tool(kind="write")
def add_ticket_note(sb: Sandbox, ticket_id: int, body: str) -> dict[str, Any]:
    """Add an internal note to a ticket (visible to staff only, never to the customer).

    Args:
        ticket_id: the ticket number.
        body: the note text.
    """
    require_ticket(sb, ticket_id)
    body = require_text(body, "body")
    with transaction(sb):
        msg = _add_message(sb, ticket_id, "note", body)
        audit(sb, "ticket.note", "ticket", ticket_id, {"message_id": msg["message_id"]})
    return msg


@environment.tool(kind="write")
def reply_to_customer(sb: Sandbox, ticket_id: int, body: str) -> dict[str, Any]:
    """Send a reply to the customer on a ticket (they receive it by email).

    Say what you did (amounts, order numbers, tracking numbers) or why the request cannot be
    granted. The system refuses replies on closed tickets: reply before closing.

    Args:
        ticket_id: the ticket number.
        body: the message to the customer.
    """
    ticket = require_ticket(sb, ticket_id)
    _require_not_closed(ticket, "reply on")
    body = require_text(body, "body")
    with transaction(sb):
        msg = _add_message(sb, ticket_id, "agent", body)
        audit(sb, "ticket.reply", "ticket", ticket_id, {"message_id": msg["message_id"]})
    return msg


@environment.tool(kind="write")
def escalate_ticket(sb: Sandbox, ticket_id: int, team: Team, reason: str) -> dict[str, Any]:
    """Hand a ticket to a specialist team; its status becomes 'escalated'.

    Use billing for refunds above the agent limit and payment problems, fraud for suspected
    fraud or account takeover, returns for warehouse/return problems, management for
    complaints about staff or requests outside policy. Leave escalated tickets open.

    Args:
        ticket_id: the ticket number.
        team: billing, returns, fraud or management.
        reason: what the team needs to know, e.g. "refund of $312.40 requested for order 100234".
    """
    ticket = require_ticket(sb, ticket_id)
    _require_not_closed(ticket, "escalate")
    reason = require_text(reason, "reason")
    at = sb.clock.iso()
    with transaction(sb):
        escalation_id = insert(
            sb,
            "escalations",
            {"ticket_id": ticket_id, "team": team, "reason": reason, "created_at": at},
        )
        sb.db.execute(
            "UPDATE tickets SET status = 'escalated', updated_at = ? WHERE id = ?", (at, ticket_id)
        )
        audit(
            sb,
            "ticket.escalate",
            "ticket",
            ticket_id,
            {"escalation_id": escalation_id, "reason": reason, "team": team},
        )
    return {
        "escalation_id": escalation_id,
        "ticket_id": ticket_id,
        "team": team,
        "status": "escalated",
    }


@environment.tool(kind="write")
def close_ticket(sb: Sandbox, ticket_id: int, resolution_code: ResolutionCode) -> dict[str, Any]:
    """Close a ticket with a resolution code saying how it was resolved (see the policy).

    Args:
        ticket_id: the ticket number.
        resolution_code: refunded, replaced, exchanged, return_started, store_credit_issued,
            cancelled, address_updated, account_updated, information_provided,
            request_declined or no_action.
    """
    ticket = require_ticket(sb, ticket_id)
    _require_not_closed(ticket, "close")
    at = sb.clock.iso()
    with transaction(sb):
        sb.db.execute(
            "UPDATE tickets SET status = 'closed', resolution_code = ?, closed_at = ?, "
            "updated_at = ? WHERE id = ?",
            (resolution_code, at, at, ticket_id),
        )
        audit(
            sb,
            "ticket.close",
            "ticket",
            ticket_id,
            {"previous_status": ticket["status"], "resolution_code": resolution_code},
        )
    return {
        "ticket_id": ticket_id,
        "status": "closed",
        "resolution_code": resolution_code,
        "closed_at": at,
    }
