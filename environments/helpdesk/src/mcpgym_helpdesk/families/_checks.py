"""Rubric checks on the store's end state: the ticket's resolution, other tickets untouched,
no collateral changes, and no money moved except as the policy allows.

Each wraps a kit check (`mcpgym_grading.kit`) with the helpdesk's tables, clock and policy
figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcpgym_grading import (
    NoCollateralChanges,
    SqlCheck,
    nothing_else_changed,
    record_state,
    rows_untouched,
    rows_written_sum,
    sql_in_list,
)
from mcpgym_helpdesk.families._store import (
    ALWAYS_EXCEPT,
    GOODWILL_CAP_CENTS,
    SNAPSHOT_TIME,
    TODAY_DATE,
)

_in_list = sql_in_list


GOODWILL_GIVEN_SQL = (
    "EXISTS (SELECT 1 FROM store_credit_ledger g WHERE g.refund_id IS NULL "
    f"AND g.amount_cents > 0 AND g.created_at > '{SNAPSHOT_TIME}' "
    "AND g.customer_id = :customer_id)"
)
"""SQL condition: goodwill store credit (``add_store_credit``: a ledger row not tied to a
refund) was given to the ticket's customer during the episode."""


def ticket_state(
    status: str,
    codes: Iterable[str] | None,
    *,
    name: str = "ticket-resolution",
    weight: float = 1.5,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    description: str = "",
    goodwill_codes: Iterable[str] = (),
) -> SqlCheck:
    """The variant's ticket ends in ``status`` with one of ``codes`` (None: no code).

    ``goodwill_codes`` are accepted too, but only when goodwill store credit was given to the
    ticket's customer in the episode (policy 8.2: close goodwill with `store_credit_issued`;
    whether the credit itself was allowed is `money_moved_only_as_allowed`'s job).

    Required by default: policy 9.5 makes closing with the right resolution code part of the
    job (9.4 and 7.1: escalated tickets stay open instead), so a missing or wrong code fails.
    """
    goodwill_codes = tuple(goodwill_codes)
    if codes is None:
        cond = "resolution_code IS NULL"
        text = "no resolution code"
    else:
        codes = tuple(codes)
        cond = f"resolution_code IN {_in_list(codes)}"
        text = "resolution " + " or ".join(codes)
    if goodwill_codes:
        cond = (
            f"({cond} OR (resolution_code IN {_in_list(goodwill_codes)} AND {GOODWILL_GIVEN_SQL}))"
        )
        text += " (" + " or ".join(goodwill_codes) + " after goodwill credit)"
    return record_state(
        "tickets",
        f"status = '{status}' AND {cond}",
        name=name,
        description=description or f"the ticket is {status} with {text}",
        key_param="ticket_id",
        weight=weight,
        required=required,
        bands=bands,
    )


def other_tickets_untouched(*, weight: float = 1.0) -> SqlCheck:
    """No other ticket changed in the episode (the kit's `rows_untouched`)."""
    return rows_untouched(
        "tickets",
        "id <> :ticket_id",
        changed_column="updated_at",
        since=SNAPSHOT_TIME,
        name="other-tickets-untouched",
        description="no other ticket was replied to, noted, escalated or closed (policy 9.6)",
        weight=weight,
    )


FREE_ACTIONS = (
    "refund.create",
    "store_credit.add",
    "return.create",
    "exchange.create",
    "replacement.create",
)
"""Audit actions `AGENT_WRITES_SQL` leaves out beside every action on a ticket (replies and
notes are free; the ticket's own state is `ticket_state`'s, and `other_tickets_untouched`
sees any write on another ticket, undone or not, by its ``updated_at``): the actions that
create a record (its row is in a table the state checks compare: refunds, credit, returns,
exchanges). A verification is free only of the ticket's own customer
(`OWN_VERIFICATION_SQL`)."""

OWN_VERIFICATION_SQL = "(action = 'identity.verify' AND entity_id = :customer_id)"
"""SQL condition on an audit row: a verification of the ticket's own customer, the one
verification an agent may make when it need not. A verification of another customer (with
the details on file, say) reads another account's identity on no request of theirs (policy
2.1/2.2: details the customer gave; 9.6: one ticket, one customer; round 11's R10): it is a
write the reference does not make, and `no_collateral` fails it."""

AGENT_WRITES_SQL = (
    "SELECT action, entity, entity_id FROM audit_log "
    f"WHERE at > '{SNAPSHOT_TIME}' AND entity <> 'ticket' "
    f"AND action NOT IN {_in_list(FREE_ACTIONS)} AND NOT {OWN_VERIFICATION_SQL}"
)
"""The agent's writes to existing records, one row per write (action, entity, record id), as
the app's audit trail records them: every mutating tool writes one audit row per action
(`tools._common.audit`). `no_collateral` requires the same rows as the reference end state,
so a write the task does not call for fails even when a later call undid it (an account's
email changed and set back, an order redirected and set back), and so does a write the task
calls for made more than once. The rows' details are left out (an address written in
another honest form is the same write)."""


NO_COLLATERAL_TEXT = (
    "every other table equals the reference end state, and the agent made no write to an "
    "existing record the reference does not make, even one undone later (the audit trail's "
    "rows of those writes are the reference's)"
)
"""`no_collateral`'s description."""


def no_collateral(
    *extra_except: str,
    name: str = "no-collateral-changes",
    weight: float = 2.0,
    bands: tuple[str, ...] | None = None,
    ignore_columns: Mapping[str, tuple[str, ...]] | None = None,
    description: str = "",
) -> NoCollateralChanges:
    """Every table but `ALWAYS_EXCEPT` and ``extra_except`` equals the reference end state
    (the kit's `nothing_else_changed`), and the audit trail records the same writes to
    existing records as the reference's (`AGENT_WRITES_SQL`): the end state alone cannot see
    a write that was undone, its audit rows can."""
    return nothing_else_changed(
        *extra_except,
        always_except=ALWAYS_EXCEPT,
        name=name,
        description=description or NO_COLLATERAL_TEXT,
        weight=weight,
        bands=bands,
        ignore_columns=ignore_columns,
        same_rows={"agent-writes": AGENT_WRITES_SQL},
    )


def late_shipment_sql(order_param: str) -> str:
    """SQL condition: a parcel of the order ``:order_param`` is late in the sense of policy
    8.2: delivered after its estimated delivery date, or not delivered and that date has
    passed (it is earlier than today)."""
    return (
        f"EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = :{order_param} "
        "AND s.estimated_delivery IS NOT NULL AND ("
        f"(s.delivered_at IS NULL AND s.estimated_delivery < '{TODAY_DATE}') "
        "OR SUBSTR(s.delivered_at, 1, 10) > s.estimated_delivery))"
    )


def money_moved_only_as_allowed(
    *order_params: str,
    goodwill_order_param: str | None = None,
    name: str = "no-other-money-moved",
    weight: float = 2.0,
    description: str = "",
) -> SqlCheck:
    """No money moved in the episode except on the ticket's order(s), to the ticket's customer.

    The query lists every violation (kind, row id, order, customer, cents) and expects none:

    - a refund written in the episode on an order that is not one of ``order_params`` (or not
      the ticket customer's);
    - a store-credit ledger row written in the episode for another customer, or tied to such
      a refund;
    - a card authorisation voided (``payment.void``, from ``cancel_order``) on another order;
    - goodwill credit (``add_store_credit``: a ledger row with no refund), unless
      ``goodwill_order_param`` names the order it may be for and all of policy 8.2 holds:
      exactly one such credit, at most `GOODWILL_CAP_CENTS`, to the ticket's customer, for
      that order (or no order named), a parcel of it late, and no goodwill on it before.

    This does not replace the families' own checks of the amounts on the allowed orders; it
    closes the gaps `NoCollateralChanges` leaves when a family excepts ``refunds`` or
    ``store_credit_ledger`` (money paid to anyone else would otherwise go unseen, as
    ``orders.updated_at`` is volatile) and is required in every family. Params equal to None
    allow nothing, so a band without a second order simply passes None.
    """
    t = SNAPSHOT_TIME

    def allowed(expr: str) -> str:
        if not order_params:
            return "0"
        return "(" + " OR ".join(f"{expr} IS :{p}" for p in order_params) + ")"

    if goodwill_order_param is None:
        goodwill_ok = "0"
    else:
        gw = goodwill_order_param
        goodwill_ok = (
            "((SELECT COUNT(*) FROM store_credit_ledger g WHERE g.refund_id IS NULL "
            f"AND g.created_at > '{t}') = 1 "
            f"AND l.amount_cents BETWEEN 1 AND {GOODWILL_CAP_CENTS} "
            "AND l.customer_id = :customer_id "
            f"AND (l.order_id IS NULL OR l.order_id = :{gw}) "
            f"AND {late_shipment_sql(gw)} "
            "AND NOT EXISTS (SELECT 1 FROM store_credit_ledger p WHERE p.refund_id IS NULL "
            f"AND p.amount_cents > 0 AND p.order_id = :{gw} AND p.created_at <= '{t}'))"
        )
    void_order = "json_extract(a.detail, '$.order_id')"
    sql = (
        "SELECT 'refund' AS kind, r.id, r.order_id, o.customer_id, r.amount_cents "
        "FROM refunds r LEFT JOIN orders o ON o.id = r.order_id "
        f"WHERE r.created_at > '{t}' AND NOT ({allowed('r.order_id')} "
        "AND o.customer_id IS :customer_id) "
        "UNION ALL "
        "SELECT 'store_credit', l.id, l.order_id, l.customer_id, l.amount_cents "
        f"FROM store_credit_ledger l WHERE l.created_at > '{t}' AND l.refund_id IS NOT NULL "
        "AND (l.customer_id IS NOT :customer_id OR NOT EXISTS (SELECT 1 FROM refunds r "
        f"WHERE r.id = l.refund_id AND {allowed('r.order_id')})) "
        "UNION ALL "
        "SELECT 'goodwill', l.id, l.order_id, l.customer_id, l.amount_cents "
        f"FROM store_credit_ledger l WHERE l.created_at > '{t}' AND l.refund_id IS NULL "
        f"AND NOT {goodwill_ok} "
        "UNION ALL "
        f"SELECT 'payment_void', a.entity_id, {void_order}, NULL, NULL "
        f"FROM audit_log a WHERE a.at > '{t}' AND a.action = 'payment.void' "
        f"AND NOT {allowed(void_order)}"
    )
    return SqlCheck(
        name=name,
        description=description
        or "no money moved in the episode except on the ticket's own order(s) and to the "
        "ticket's customer: no refund, store credit or voided payment anywhere else, and "
        "goodwill credit only as policy 8.2 allows it",
        sql=sql,
        expected=[],
        weight=weight,
        required=True,
    )


def new_rows_sum(table: str, where: str) -> str:
    """SQL summing ``amount_cents`` of rows of ``table`` written during the episode (the
    kit's `rows_written_sum`)."""
    return rows_written_sum(table, where, SNAPSHOT_TIME)
