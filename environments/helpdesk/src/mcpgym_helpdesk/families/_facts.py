"""The facts a reply states that are not amounts, each one of the episode's own
(`mcpgym_grading._value_roles`, through the SQL function ``mcpgym_misstated``).

A reply can keep every amount, carrier and tracking number right and still tell the
customer a wrong fact: another estimated delivery date, another order number, another card's
last four digits, another ZIP for the new address. Each such value is a *value role* read
from the final state (the order's number, its parcels' dates, its card's last four): a
value of a role's shape that is none of the roles' values (an order number that is not the
order's, a date before the record's or bound to the delivery words) fails the check, as
does a role's value beside another role's words (the declined order's number beside the
refund's). Only a value bound to a role's words is read (`mcpgym_grading._value_roles.
SQL_MISSTATED`): every role has its cues (an order's number beside ``order``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mcpgym_grading import SqlCheck
from mcpgym_helpdesk.families._reply_sql import AGENT_BODY, texts_read_check
from mcpgym_helpdesk.families._store import TODAY_DATE

ORDER_CUES = ("order", "order number", "order no", "order #")
"""An order's number (``order #100510``)."""

TRACKING_CUES = ("tracking", "tracking number", "tracking no", "tracking #", "parcel")
"""A parcel's tracking number (``tracking number 1ZR4E9170335758782``)."""
CARD_CUES = ("ending in", "ending", "card", "last four", "last 4")
"""A card's last four digits."""

ETA_CUES = (
    "estimated",
    "estimated delivery",
    "deliver*",
    "arriv*",
    "eta",
    "expected",
    "expect*",
    "due",
    "by",
    "reach*",
    "get to you",
    "with you",
    "land*",
    "show up",
    "turn up",
)
"""An estimated delivery date's words (``reach you``, ``be with you``: round 18's F18b)."""

DELIVERED_CUES = ("delivered", "deliver*", "arriv*", "received")
"""A delivered order's delivery date (the declined item's, outside the return window)."""

REFUNDED_CUES = ("refunded", "i've refunded", "have refunded", "already refunded")
"""The order whose item was refunded."""

DECLINED_CUES = ("can't", "cannot", "can not", "unable", "couldn't", "declin*")
"""The order whose item could not be refunded (not ``outside``: the gate's leak of the
declined reason ``outside_window`` beside an item id bound it, stop 21)."""

ESCALATED_CUES = ("request*", "requests a refund", "asks", "escalat*", "above", "over", "exceeds")
"""The order whose refund request is passed to billing (refund-above-limit)."""

REPLIES_SQL = (
    f"SELECT {AGENT_BODY} AS body FROM ticket_messages "
    "WHERE ticket_id = :ticket_id AND author IN ('agent', 'note')"
)
"""The agent's messages on the ticket: its replies and its internal notes (staff act on a
note's facts, policy 9.3: a note naming another of the customer's orders as the one cancelled
misleads them as a reply would; round 11's R5), each without the customer's words it quotes
(`AGENT_BODY`)."""

ESCALATION_REASONS_SQL = "SELECT reason FROM escalations WHERE ticket_id = :ticket_id"
"""The reasons the ticket was escalated with (the team acts on them)."""

NEW_ADDRESS_CUES = (
    "ship to",
    "ships to",
    "now ship",
    "deliver* to",
    "address",
    "new address",
    "send to",
    "sent to",
    "going to",
    "goes to",
    "headed to",
)
"""The ZIP of the address an order now ships to (change-shipping-address)."""

GIVEN_ZIP_CUES = ("billing", "verif*", "you gave", "you sent", "on file", "match*", "confirm*")
"""The billing ZIP the customer gave to verify their identity."""

CARD_SQL = (
    "SELECT 'ending in ' || card_last4 FROM payments "
    "WHERE order_id = {order} AND card_last4 IS NOT NULL "
    "UNION ALL SELECT '*' || card_last4 FROM payments "
    "WHERE order_id = {order} AND card_last4 IS NOT NULL"
)
"""The last four digits of an order's card as a reply writes them, ``ending in 2466``
(``{order}``: a SQL expression of its id): the kind is ``ending in`` and four digits, so a
house number (``3787 Dogwood Lane``) or a digit group is no card; and ``*`` and four digits
(``your card *5502``, round 18's F18c: another card's ``*5503`` beside ``card`` passed)."""


TRACKING_ON_FILE_SQL = (
    "SELECT tracking_number FROM shipments UNION SELECT return_tracking_number FROM returns"
)
"""Every tracking number the store holds (any order's, any customer's, a return's): the ids
on file that `replies_state_own_facts`'s ``known_sql`` leaves to the checks refusing other
records' values, where an id of ten digits or more of a role's kind that none of them holds
fails (round 17's N17o: the right number with its last digit changed, in a link or bare)."""


def role(value_sql: str, cues: Sequence[str] = ()) -> str:
    """One role's rows for `replies_state_own_facts`: the values ``value_sql`` selects (one
    column), each with ``cues`` (none: the role only closes its values' kind)."""
    quoted = json.dumps(list(cues)).replace("'", "''")
    return f"SELECT r.*, '{quoted}' FROM ({value_sql}) AS r"


def replies_state_own_facts(
    *roles: str,
    texts_sql: str = REPLIES_SQL,
    name: str = "replies-state-own-facts",
    description: str = "every date, order number, card's last four digits and ZIP a reply or "
    "internal note states is the episode's own, in its role (a wrong fact other than an amount "
    "misleads the customer or the staff; policy 9.2, 9.3)",
    known_sql: str | None = None,
    **kw: Any,
) -> SqlCheck:
    """No reply or internal note on the ticket states a value outside its role
    (``mcpgym_misstated``): ``roles`` are `role` selections on the final state, each row
    ``(value, cues)``; ``known_sql`` (one column, `TRACKING_ON_FILE_SQL`): the ids on file,
    where an id of ten digits or more of a role's kind that no role and none of them holds
    fails wherever it stands, bound or not (None: not read);
    ``texts_sql`` selects the texts read (one column; `ESCALATION_REASONS_SQL` for the
    reasons billing acts on). A date said relative to the store's today (``next Tuesday``,
    ``tomorrow``, ``in 3 days``) is read as the ISO date it names (``mcpgym_dated``).
    Required: a wrong date, order number or card tells the customer (or the team) a false
    fact (policy 9.2). ``kw``: as `texts_read_check`'s."""
    union = " UNION ALL ".join(roles)
    known = ", j.known" if known_sql else ""
    return texts_read_check(
        "rr(v, c) AS ("
        + union
        + "), "
        + (f"kn(k) AS ({known_sql}), " if known_sql else "")
        + "j AS (SELECT json_group_array(json_array(CAST(v AS TEXT), json(c))) AS roles"
        + (", (SELECT json_group_array(k) FROM kn WHERE k IS NOT NULL) AS known" * bool(known_sql))
        + " FROM rr WHERE v IS NOT NULL)",
        "SELECT mcpgym_misstated("
        f"mcpgym_dated(t.body, '{TODAY_DATE}', j.roles), j.roles{known}) AS x FROM t, j",
        texts_sql=texts_sql,
        name=name,
        description=description,
        **kw,
    )


DELIVERED_CLAIMS = (
    "was delivered",
    "has been delivered",
    "have been delivered",
    "it's been delivered",
    "it got delivered",
    "got delivered",
    "delivered yesterday",
    "delivered today",
    "delivered this morning",
    "delivered earlier",
    "shows as delivered",
    "marked as delivered",
    "status delivered",
    "status is delivered",
    "already delivered",
    "already arrived",
    "has arrived",
    "was left at",
    "left at your",
    "has been dropped off",
    "was dropped off",
)
"""Words that say a parcel has been delivered (whole tokens: ``hasn't been delivered`` and
``will be delivered`` are none of them)."""


def undelivered_claims_sql(order: str = ":order_id") -> str:
    """SQL: `DELIVERED_CLAIMS` where no shipment of the order ``order`` (a SQL expression of
    its id) is delivered, else nothing (what a reply must not say of a parcel on its way)."""
    values = ", ".join("('" + c.replace("'", "''") + "')" for c in DELIVERED_CLAIMS)
    return (
        f"SELECT column1 FROM (VALUES {values}) WHERE NOT EXISTS (SELECT 1 FROM shipments "
        f"WHERE order_id = {order} AND (status = 'delivered' OR delivered_at IS NOT NULL))"
    )
