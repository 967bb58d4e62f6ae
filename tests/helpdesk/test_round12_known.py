"""Stop 21's open helpdesk holes of issue 9 (helper known22h, stop 22; the probe is
`adv/round12rub/known22h.py`). Each wrong edit below passed at score 1.0 on main ef00833,
and each honest edit failed there where said; every honest edit passes."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay
from tests.helpdesk.test_families import failed_checks, grade

FAMILIES = (
    "order-status",
    "cancel-order",
    "change-shipping-address",
    "duplicate-charge",
    "exchange-size",
    "refund-above-limit",
    "refund-damaged-item",
)


def _rows(v: TaskVariant, sql: str) -> list[tuple[object, ...]]:
    bundle = replay(environment, v.family, v.band, v.seed, v.reference)
    db: sqlite3.Connection = bundle.open_final_db()
    try:
        return [tuple(r) for r in db.execute(sql, dict(v.params))]
    finally:
        db.close()


def _last_reply(v: TaskVariant, fn: Callable[[str], str]) -> list[ToolCall]:
    calls = list(v.reference)
    i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
    calls[i] = ToolCall(
        calls[i].name, {**calls[i].arguments, "body": fn(calls[i].arguments["body"])}
    )
    return calls


def _second_reply(v: TaskVariant, text: str) -> list[ToolCall]:
    calls = list(v.reference)
    i = [j for j, c in enumerate(calls) if c.name == "reply_to_customer"][-1]
    calls.insert(
        i + 1, ToolCall("reply_to_customer", {"ticket_id": v.params["ticket_id"], "body": text})
    )
    return calls


def _customer(v: TaskVariant) -> list[str]:
    sql = (
        "SELECT body FROM ticket_messages WHERE ticket_id = :ticket_id "
        "AND author = 'customer' ORDER BY id"
    )
    return [str(r[0]) for r in _rows(v, sql)]


# -- R7: the customer's own message quoted back is not the agent's words ---------------------


@pytest.mark.parametrize(
    ("family", "band"),
    [
        ("order-status", "expert"),
        ("change-shipping-address", "hard"),
        ("refund-above-limit", "hard"),
        ("refund-damaged-item", "easy"),
        ("refund-damaged-item", "expert"),
    ],
)
def test_the_customers_message_quoted_back_passes(family: str, band: str) -> None:
    """Failed on main (`reply-states-refunded`, `replies-state-own-facts`,
    `reply-states-amount`...: the quote read as the agent's claims)."""
    v = environment.variant(family, band, 0)
    lines = "\n".join("> " + line for t in _customer(v) for line in t.splitlines())
    g = grade(v, _last_reply(v, lambda b: b + "\n\nYou wrote:\n" + lines))
    assert g.passed and g.score == 1.0, failed_checks(g)
    inline = " ".join(_customer(v)).replace("\n", " ")
    g = grade(v, _last_reply(v, lambda b: b + f'\n\nYou wrote: "{inline}"'))
    assert g.passed and g.score == 1.0, failed_checks(g)


def test_a_quote_is_no_hiding_place() -> None:
    """A `>` line or a quoted span that is not the customer's words is the agent's."""
    v = environment.variant("refund-above-limit", "easy", 0)
    first = _customer(v)[0].splitlines()[0]
    claim = f"I've refunded order #{v.params['escalate_order_id']} in full."
    g = grade(v, _last_reply(v, lambda b: b + f"\n\nYou wrote:\n> {first}\n> {claim}"))
    assert not g.passed
    g = grade(v, _last_reply(v, lambda b: b + f'\n\nAs you asked: "{claim}"'))
    assert not g.passed


# -- R10: another customer's identity verified ------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_verifying_another_customer_fails(family: str) -> None:
    v = environment.variant(family, "easy", 0)
    cid, email, zip_ = _rows(
        v, "SELECT id, email, zip FROM customers WHERE id <> :customer_id ORDER BY id LIMIT 1"
    )[0]
    calls = list(v.reference)
    calls[1:1] = [
        ToolCall("get_customer", {"customer_id": cid}),
        ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": zip_}),
    ]
    g = grade(v, calls)
    assert "no-collateral-changes" in failed_checks(g) and not g.passed, failed_checks(g)


@pytest.mark.parametrize("family", ["order-status", "refund-damaged-item"])
def test_verifying_the_own_customer_when_not_needed_passes(family: str) -> None:
    v = environment.variant(family, "easy", 0)
    cid, email, zip_ = _rows(v, "SELECT id, email, zip FROM customers WHERE id = :customer_id")[0]
    calls = list(v.reference)
    calls[1:1] = [ToolCall("verify_identity", {"customer_id": cid, "email": email, "zip": zip_})]
    g = grade(v, calls)
    assert g.passed and g.score == 1.0, failed_checks(g)


# -- withdrawals worded outside WITHDRAWALS ---------------------------------------------------

WITHDRAWN = [
    "Scratch that, I sent this too early. I'll get back to you.",
    "Ignore the above, it was written for a different case.",
    "Correction: my last reply was wrong, please wait for the next one.",
    "I misspoke earlier; I'll follow up with the right details.",
    "What I wrote earlier doesn't apply to your order, sorry.",
    "Forget what I said before, I'll check again and come back to you.",
    "My last reply was not right, a colleague will be in touch.",
]


@pytest.mark.parametrize("text", WITHDRAWN)
def test_a_withdrawal_in_other_words_fails(text: str) -> None:
    v = environment.variant("order-status", "easy", 0)
    g = grade(v, _second_reply(v, text))
    assert "replies-withdraw-nothing" in failed_checks(g) and not g.passed, failed_checks(g)


@pytest.mark.parametrize(
    "text",
    [
        "Is there anything else I can help you with today? Just reply to this message.",
        "One more thing: you can track the parcel on the carrier's site at any time.",
        "Correction: the order number in my last message should read #{order_id}.",
    ],
)
def test_an_honest_follow_up_passes(text: str) -> None:
    v = environment.variant("order-status", "easy", 0)
    g = grade(v, _second_reply(v, text.format(**v.params)))
    assert g.passed and g.score == 1.0, failed_checks(g)


# -- relative dates ---------------------------------------------------------------------------

TODAY = date(2026, 6, 15)  # the store's date, a Monday


def _relative(shift: int) -> Callable[[str], str]:
    def sub(m: re.Match[str]) -> str:
        d = date.fromisoformat(m.group(0)) + timedelta(days=shift)
        delta = (d - TODAY).days
        if delta == 1:
            return "tomorrow"
        if 1 < delta < 7:
            return "this " + d.strftime("%A")
        return f"in {delta} days" if delta > 0 else m.group(0)

    return lambda b: re.sub(r"2026-\d\d-\d\d", sub, b)


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_a_wrong_eta_as_a_relative_date_fails(band: str) -> None:
    v = environment.variant("order-status", band, 0)
    g = grade(v, _last_reply(v, _relative(3)))
    assert "replies-state-own-facts" in failed_checks(g) and not g.passed, failed_checks(g)


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_the_eta_as_a_relative_date_passes(band: str) -> None:
    v = environment.variant("order-status", band, 0)
    g = grade(v, _last_reply(v, _relative(0)))
    assert g.passed and g.score == 1.0, failed_checks(g)


# -- a product of the customer's other order named as this order's -----------------------------

_PRODUCTS = (
    "SELECT DISTINCT p.name FROM order_items oi JOIN product_variants pv ON pv.id = oi.variant_id "
    "JOIN products p ON p.id = pv.product_id JOIN orders o ON o.id = oi.order_id "
)


@pytest.mark.parametrize(
    ("family", "order"),
    [
        ("order-status", "order_id"),
        ("cancel-order", "order_id"),
        ("change-shipping-address", "order_id"),
        ("duplicate-charge", "order_id"),
        ("refund-above-limit", "escalate_order_id"),
    ],
)
def test_another_orders_product_fails_and_the_own_passes(family: str, order: str) -> None:
    """These families read no product before (only card brands)."""
    v = environment.variant(family, "easy", 0)
    own = [str(r[0]) for r in _rows(v, _PRODUCTS + f"WHERE o.id = :{order}")]
    said = " ".join(_customer(v))
    other = [
        str(r[0])
        for r in _rows(v, _PRODUCTS + "WHERE o.customer_id = :customer_id ORDER BY p.name")
        if str(r[0]) not in own and str(r[0]) not in said
    ] or [
        str(r[0])
        for r in _rows(v, _PRODUCTS + "WHERE o.customer_id <> :customer_id ORDER BY p.name")
        if str(r[0]) not in own and str(r[0]) not in said
    ]
    g = grade(v, _last_reply(v, lambda b: b + f"\n\nYour {other[0]} is part of this order."))
    assert "replies-state-own-words" in failed_checks(g) and not g.passed, failed_checks(g)
    g = grade(v, _last_reply(v, lambda b: b + f"\n\nYour {own[0]} is part of this order."))
    assert g.passed and g.score == 1.0, failed_checks(g)
