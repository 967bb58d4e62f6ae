"""Shared pieces of the helpdesk task families, built on the author kit.

The generic parts come from the kit: row queries, seeded picks, id allocation and setup
statements (`mcpgym_server.authoring`: `fetch_rows`, `fetch_one`, `pick`, `pick_where`,
`Scenario`, `reference_call`) and the recurring checks (`mcpgym_grading.kit`: `reply_sent`,
`record_state`, `rows_untouched`, `nothing_else_changed`, `rows_written_sum`). What is here is
particular to the store: its clock and policy figures, the SQL conditions that make a scenario
unambiguous, the ticket builder, customer wording, and the helpdesk check bundles
(`ticket_state`, `reply_mentions_money`, `money_moved_only_as_allowed`, ...). The short names
the families use (`rows`, `one`, `call`, `money`, `no_collateral`) are thin wrappers.

Generators only read the snapshot through `Generation.db` and only draw from `Generation.rng`;
every query here orders its rows by id so that choices are stable.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from mcpgym_grading import (
    AnswerMatch,
    NoCollateralChanges,
    Param,
    SqlCheck,
    nothing_else_changed,
    record_state,
    rows_untouched,
    rows_written_sum,
    sql_in_list,
)
from mcpgym_grading import reply_sent as _kit_reply_sent
from mcpgym_server import Scenario as _KitScenario
from mcpgym_server import ToolCall, fetch_one, fetch_rows, format_cents, reference_call
from mcpgym_server import max_id as max_id  # re-exported for the families
from mcpgym_server import pick as pick
from mcpgym_server import pick_where as pick_where

SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
"""The store's "now": snapshot rows are older, rows written in an episode are newer."""

TODAY = datetime(2026, 6, 15, 9, 0, tzinfo=UTC)

IN_WINDOW_SINCE = "2026-05-20"
"""Orders delivered on or after this day are clearly inside the 30-day return window
(day 30 is 2026-05-16; a few days of margin keep the variants unambiguous)."""

OUT_OF_WINDOW_BEFORE = "2026-05-10"
"""Orders delivered before this day are clearly outside the 30-day return window."""

REFUND_LIMIT_CENTS = 25000
"""Policy 7.1: an agent may pay out at most $250.00 per refund request."""

GOODWILL_CAP_CENTS = 2000
"""Policy 8.2: goodwill store credit is at most $20.00 per order, once per order."""

TODAY_DATE = "2026-06-15"
"""The store's date (``estimated_delivery`` is a date): a parcel not delivered by the end of
an earlier day is late."""

BANDS: tuple[Any, ...] = ("easy", "medium", "hard", "expert")

VOLATILE_COLUMNS: dict[str, tuple[str, ...]] = {
    "tickets": ("updated_at", "closed_at"),
    "orders": ("placed_at", "updated_at", "cancelled_at"),
    "refunds": ("created_at",),
    "store_credit_ledger": ("created_at",),
    "returns": ("created_at",),
    "exchanges": ("created_at",),
    "escalations": ("created_at",),
    "identity_verifications": ("verified_at",),
    "ticket_messages": ("created_at",),
    "audit_log": ("at",),
}
"""Timestamps written from the virtual clock: they depend on how many calls the agent made."""

ALWAYS_EXCEPT = ("audit_log", "ticket_messages", "identity_verifications", "tickets")
"""Tables every family leaves out of `NoCollateralChanges`: the audit trail, the conversation
(replies and notes are free text), verifications (an agent may verify when it need not) and
tickets (the target ticket is checked explicitly, the others by `other_tickets_untouched`)."""

AGENT_REPLIES_SQL = (
    "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id AND author = 'agent' ORDER BY id"
)
"""The agent's replies to the customer on the variant's ticket (notes are not replies)."""


# -- formatting ------------------------------------------------------------------------------


def money(cents: int) -> str:
    """``12345 -> "$123.45"`` (the kit's `format_cents`)."""
    return format_cents(cents)


def day(ts: str | None) -> str:
    """``"2026-05-28T14:03:00Z" -> "May 28"``."""
    if not ts:
        return "recently"
    d = datetime.strptime(ts[:10], "%Y-%m-%d")
    return f"{d:%B} {d.day}"


def iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(ts: str) -> datetime:
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def item_label(item: Mapping[str, Any]) -> str:
    """``"Stormline Rain Jacket (M, Red)"``; sizes of ``One Size`` are left out."""
    if item["size"] == "One Size":
        return f"{item['product_name']} ({item['colour']})"
    return f"{item['product_name']} ({item['size']}, {item['colour']})"


# -- snapshot queries --------------------------------------------------------------------------


def rows(
    db: sqlite3.Connection, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> list[dict[str, Any]]:
    """Run a read query on the snapshot; rows as plain dicts (the kit's `fetch_rows`)."""
    return fetch_rows(db, sql, params)


def one(
    db: sqlite3.Connection, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> dict[str, Any]:
    """The first row of a read query (the kit's `fetch_one`; LookupError when none)."""
    return fetch_one(db, sql, params)


CLEAN_ORDER = """
    o.replacement_for_order_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM returns rt WHERE rt.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM exchanges e WHERE e.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM order_items x WHERE x.order_id = o.id AND x.status <> 'ok')
    AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_id = o.id AND t.status <> 'closed')
    AND NOT EXISTS (SELECT 1 FROM orders ro WHERE ro.replacement_for_order_id = o.id)
"""
"""SQL condition on ``orders o``: an ordinary order nobody has touched after the sale (no refund,
return, exchange, open ticket), so a scenario built on it is unambiguous."""

ONE_CARD_PAYMENT = """
    (SELECT COUNT(*) FROM payments p WHERE p.order_id = o.id) = 1
    AND EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.method = 'card'
                AND p.status = 'captured' AND p.refunded_cents = 0
                AND p.amount_cents = o.total_cents)
"""
"""SQL condition on ``orders o``: paid in full by one captured card payment, nothing refunded."""

CUSTOMER_SANE = """
    NOT EXISTS (SELECT 1 FROM tickets t WHERE t.customer_id = o.customer_id
                AND t.status <> 'closed')
"""
"""SQL condition on ``orders o``: its customer has no ticket open (one conversation at a time)."""


def order_items(db: sqlite3.Connection, order_id: int) -> list[dict[str, Any]]:
    """Items of an order with product name, size, colour, final-sale flag, category, line total."""
    return rows(
        db,
        "SELECT oi.id, oi.order_id, oi.variant_id, oi.quantity, oi.unit_price_cents, oi.status, "
        "oi.quantity * oi.unit_price_cents AS line_total_cents, v.product_id, v.size, v.colour, "
        "p.name AS product_name, p.final_sale, p.category FROM order_items oi "
        "JOIN product_variants v ON v.id = oi.variant_id JOIN products p ON p.id = v.product_id "
        "WHERE oi.order_id = ? ORDER BY oi.id",
        (order_id,),
    )


def customer(db: sqlite3.Connection, customer_id: int) -> dict[str, Any]:
    return one(db, "SELECT * FROM customers WHERE id = ?", (customer_id,))


def customer_orders(db: sqlite3.Connection, customer_id: int) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM orders WHERE customer_id = ? ORDER BY id", (customer_id,))


def product_names_of_customer(db: sqlite3.Connection, customer_id: int) -> list[tuple[int, str]]:
    """(order id, product name) for every item the customer ever ordered."""
    return [
        (r["order_id"], r["name"])
        for r in rows(
            db,
            "SELECT oi.order_id, p.name FROM order_items oi JOIN orders o ON o.id = oi.order_id "
            "JOIN product_variants v ON v.id = oi.variant_id "
            "JOIN products p ON p.id = v.product_id WHERE o.customer_id = ? ORDER BY oi.id",
            (customer_id,),
        )
    ]


def product_unique_for_customer(
    db: sqlite3.Connection, customer_id: int, order_id: int, product_name: str
) -> bool:
    """Whether ``product_name`` appears in no other order of the customer than ``order_id``."""
    return all(
        oid == order_id
        for oid, name in product_names_of_customer(db, customer_id)
        if name == product_name
    )


# -- scenario builder ------------------------------------------------------------------------


class Scenario(_KitScenario):
    """The kit's `Scenario` (setup statements, ids allocated as the tools will) plus the
    helpdesk's ticket builder: `ticket_time` and `ticket`."""

    def ticket_time(self, after: Iterable[str | None] = ()) -> datetime:
        """When the customer wrote: a minute between 2026-06-14 07:00 UTC and 08:55 on the
        snapshot day, and at least a few minutes after every timestamp in ``after`` (the
        events the customer writes about)."""
        lo = datetime(2026, 6, 14, 7, 0, tzinfo=UTC)
        hi = datetime(2026, 6, 15, 8, 55, tzinfo=UTC)
        latest = max((parse_ts(t) for t in after if t), default=None)
        if latest is not None:
            lo = max(lo, latest + timedelta(minutes=5))
            if lo >= hi:
                lo, hi = latest + timedelta(minutes=1), TODAY - timedelta(minutes=1)
        span = int((hi - lo).total_seconds() // 60)
        return lo + timedelta(minutes=self.rng.randrange(0, max(span, 1)))

    def ticket(
        self,
        *,
        customer_id: int,
        order_id: int | None,
        subject: str,
        messages: Sequence[str],
        channel: str = "email",
        priority: str = "normal",
        after: Iterable[str | None] = (),
    ) -> int:
        """Insert an open ticket with the customer's messages; return its id."""
        start = self.ticket_time(after)
        stamps = [iso(start + timedelta(minutes=3 * i)) for i in range(len(messages))]
        ticket_id = self.insert(
            "tickets",
            {
                "customer_id": customer_id,
                "order_id": order_id,
                "subject": subject,
                "channel": channel,
                "status": "open",
                "priority": priority,
                "resolution_code": None,
                "created_at": stamps[0],
                "updated_at": stamps[-1],
                "closed_at": None,
            },
        )
        for body, at in zip(messages, stamps, strict=True):
            self.insert(
                "ticket_messages",
                {"ticket_id": ticket_id, "author": "customer", "body": body, "created_at": at},
            )
        return ticket_id


def instruction(ticket_id: int) -> str:
    """The task text the agent is given: the customer's words are in the ticket itself."""
    return (
        f"Ticket #{ticket_id} is waiting in the support queue. Read it and handle it end to end "
        "as the support policy requires, then call submit."
    )


def greeting(rng: random.Random) -> str:
    return rng.choice(["Hi,", "Hello,", "Hi there,", "Hello support team,", "Hi Ridgeline,"])


def signoff(rng: random.Random, first_name: str, last_name: str) -> str:
    return rng.choice(["Thanks,", "Thank you,", "Best,", "Regards,", "Cheers,"]) + (
        f"\n{first_name} {last_name}" if rng.random() < 0.5 else f"\n{first_name}"
    )


def message(rng: random.Random, cust: Mapping[str, Any], *paragraphs: str) -> str:
    """A customer email: greeting, paragraphs, sign-off."""
    return "\n\n".join(
        [greeting(rng), *paragraphs, signoff(rng, cust["first_name"], cust["last_name"])]
    )


# -- reference calls ------------------------------------------------------------------------


def call(name: str, **arguments: Any) -> ToolCall:
    """One reference call (the kit's `reference_call`)."""
    return reference_call(name, **arguments)


# -- rubric checks ------------------------------------------------------------------------


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
    **kw: Any,
) -> AnswerMatch:
    """A reply states the amount ``param`` and no other amount (``mode="states"``): none of
    the customer's orders (`other_amounts_sql`), nor a near miss or an amount in another
    form or currency; only the policy figures (`REFUND_LIMIT_CENTS`, `GOODWILL_CAP_CENTS`)
    and the params ``allow`` (amounts the reply may also state) may stand beside it."""
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
        weight=weight,
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
    "UPS": ("ups", "united parcel service"),
    "FedEx": ("fedex", "fed ex", "federal express"),
    "USPS": ("usps", "postal service", "us mail"),
    "DHL": ("dhl",),
}
"""How a reply may name each carrier (shipments.carrier), as whole words (`word_glob`): "U.S.
Postal Service" and "United States Postal Service" both contain "postal service", "U.S.P.S."
is "usps", "Fed-Ex" is "fed ex"."""

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
    replies in the same folded form (`_words_sql`)."""
    cases = " ".join(
        f"WHEN '{carrier}' THEN {_names_sql(words)}" for carrier, words in CARRIER_NAMES.items()
    )
    sep = "[^a-z0-9]"
    others = " OR ".join(
        f"('{carrier}' NOT IN (SELECT carrier FROM own) AND "
        f"{_names_sql([w for w in words if w not in AMBIGUOUS_CARRIER_NAMES])})"
        for carrier, words in CARRIER_NAMES.items()
    )
    sql = (
        f"WITH m AS (SELECT {_words_sql('body')} AS t FROM ticket_messages "
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


def no_collateral(
    *extra_except: str,
    name: str = "no-collateral-changes",
    weight: float = 2.0,
    bands: tuple[str, ...] | None = None,
    ignore_columns: Mapping[str, tuple[str, ...]] | None = None,
    description: str = "",
) -> NoCollateralChanges:
    """Every table but `ALWAYS_EXCEPT` and ``extra_except`` equals the reference end state
    (the kit's `nothing_else_changed`)."""
    return nothing_else_changed(
        *extra_except,
        always_except=ALWAYS_EXCEPT,
        name=name,
        description=description,
        weight=weight,
        bands=bands,
        ignore_columns=ignore_columns,
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


DAMAGE: dict[str, tuple[str, ...]] = {
    "tents": (
        "one of the poles was snapped in the bag",
        "the rainfly has a long tear along a seam",
        "the door zipper is broken and won't close",
    ),
    "sleeping-bags": (
        "the zipper is broken",
        "there's a rip in the shell and it's leaking fill",
        "the valve leaks and it won't hold air",
    ),
    "backpacks": (
        "a shoulder strap buckle is cracked",
        "the hip belt stitching has come apart",
        "the main zipper pull snapped off",
    ),
    "footwear": (
        "the sole of the left shoe is coming away",
        "the stitching on the right one is split",
        "an eyelet was ripped out",
    ),
    "jackets": (
        "the main zipper is broken",
        "there's a tear on the left sleeve",
        "the seam tape is peeling off inside",
    ),
    "apparel": (
        "there's a hole in the fabric",
        "a seam is split open",
        "the zipper is broken",
    ),
    "climbing": (
        "a buckle is bent",
        "it arrived with a crack in it",
        "the stitching is frayed",
    ),
    "camp-kitchen": (
        "the igniter doesn't work",
        "it arrived badly dented",
        "the valve leaks",
    ),
    "accessories": (
        "it doesn't work at all",
        "one of the pieces is cracked",
        "the locking mechanism is broken",
    ),
}
"""What a customer says is wrong with a damaged item, by product category."""


def damage(rng: random.Random, category: str) -> str:
    return rng.choice(DAMAGE.get(category, ("it arrived broken",)))


def card_phrase(payment: Mapping[str, Any]) -> str:
    """``"Visa card ending in 4242"``."""
    return f"{payment['card_brand']} card ending in {payment['card_last4']}"
