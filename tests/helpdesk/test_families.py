"""The helpdesk task families: deterministic generators, clean reference runs that score 1.0,
and rubrics that fail the null agent and plausible wrong trajectories."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import Generation, ToolCall, replay
from mcpgym_server.tasks import TaskVariant, generation_seed

FAMILIES = (
    "refund-damaged-item",
    "cancel-order",
    "change-shipping-address",
    "exchange-size",
    "duplicate-charge",
    "refund-above-limit",
    "order-status",
)
BANDS = ("easy", "medium", "hard")
SEEDS = range(5)
SNAPSHOT_TIME = "2026-06-15T09:00:00Z"
CASES = [(f, b, s) for f in FAMILIES for b in BANDS for s in SEEDS]
CASE_IDS = [f"{f}@{b}#{s}" for f, b, s in CASES]

CACHE = ReferenceCache(maxsize=1024)


@pytest.fixture(scope="module")
def snapshot_db() -> sqlite3.Connection:
    return environment.snapshot.open_copy(readonly=True)


def grade(variant: TaskVariant, calls: list[ToolCall], answer: str | None = None) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls, answer=answer)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def failed_checks(g: Grade) -> list[str]:
    return [c.name for c in g.checks if c.applicable and not c.passed]


def test_families_registered() -> None:
    assert set(FAMILIES) <= set(environment.families)
    for name in FAMILIES:
        fam = environment.family(name)
        assert fam.bands == BANDS
        assert fam.generator_version == "1"
        names = [c.name for c in fam.rubric.checks]  # type: ignore[attr-defined]
        assert any(c.required for c in fam.rubric.checks)  # type: ignore[attr-defined]
        assert len(names) == len(set(names))


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_generator_is_deterministic(family: str, band: str, seed: int) -> None:
    fam = environment.family(family)

    def generate() -> Any:
        db = environment.snapshot.open_copy(readonly=True)
        try:
            return fam.generator(
                Generation(
                    seed=seed,
                    band=band,  # type: ignore[arg-type]
                    rng=random.Random(generation_seed(family, band, seed)),
                    db=db,
                )
            )
        finally:
            db.close()

    first, second = generate(), generate()
    assert first == second
    variant = environment.variant(family, band, seed)
    assert variant.instruction == first.instruction
    assert list(variant.setup) == list(first.setup)
    assert dict(variant.params) == dict(first.params)
    assert all(c.name != "submit" for c in variant.reference)
    ticket_id = variant.params["ticket_id"]
    assert f"#{ticket_id}" in variant.instruction


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_reference_replays_cleanly_and_scores_full(family: str, band: str, seed: int) -> None:
    variant = environment.variant(family, band, seed)
    bundle = replay(environment, family, band, seed, list(variant.reference), answer=variant.answer)
    bad = [(e.step, e.tool, e.status, e.error) for e in bundle.log if e.status != "ok"]
    assert not bad
    assert len(bundle.log) == len(variant.reference) + 1  # + submit
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert g.status == "graded", g.error
    assert failed_checks(g) == []
    assert g.score == 1.0
    assert g.passed


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_null_agent_fails(family: str, band: str, seed: int) -> None:
    variant = environment.variant(family, band, seed)
    bundle = replay(environment, family, band, seed, [])
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert g.status == "graded", g.error
    assert not g.passed
    # the scenario itself is consistent: an open ticket written after what it is about
    db = bundle.open_final_db()
    ticket = db.execute(
        "SELECT * FROM tickets WHERE id = ?", (variant.params["ticket_id"],)
    ).fetchone()
    assert ticket["status"] == "open"
    assert ticket["created_at"] < SNAPSHOT_TIME
    order_id = variant.params.get("order_id") or variant.params["escalate_order_id"]
    order = db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
    assert order["customer_id"] == ticket["customer_id"] == variant.params["customer_id"]
    assert order["updated_at"] < ticket["created_at"]
    messages = db.execute(
        "SELECT author, created_at FROM ticket_messages WHERE ticket_id = ?", (ticket["id"],)
    ).fetchall()
    assert [m["author"] for m in messages] == ["customer"]


# -- plausible wrong trajectories ---------------------------------------------------------------


def _replace(
    calls: tuple[ToolCall, ...],
    tool: str,
    new: list[ToolCall] | Callable[[ToolCall], list[ToolCall]],
) -> list[ToolCall]:
    out: list[ToolCall] = []
    for c in calls:
        if c.name == tool:
            out += new(c) if callable(new) else new
        else:
            out.append(c)
    return out


def _args(call: ToolCall, **changes: Any) -> ToolCall:
    args = {**call.arguments, **changes}
    return ToolCall(call.name, {k: v for k, v in args.items() if v is not None})


def _order(db: sqlite3.Connection, order_id: int) -> sqlite3.Row:
    return db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()


def wrong_refund_damaged(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    if v.band == "hard":
        # grants the forbidden refund as well
        item = db.execute(
            "SELECT quantity * unit_price_cents AS t FROM order_items WHERE id = ?",
            (p["declined_item_id"],),
        ).fetchone()
        extra = ToolCall(
            "issue_refund",
            {
                "order_id": p["declined_order_id"],
                "amount_cents": item["t"],
                "method": "original_payment",
                "reason": "customer request",
                "order_item_id": p["declined_item_id"],
            },
        )
        return _replace(v.reference, "issue_refund", lambda c: [c, extra])
    # refunds the whole order (shipping and tax included) instead of the item
    total = _order(db, p["order_id"])["total_cents"]
    return _replace(
        v.reference,
        "issue_refund",
        lambda c: [_args(c, amount_cents=total, order_item_id=None)],
    )


def wrong_cancel(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    if v.band == "hard":
        # refunds the shipped, undelivered order in full
        total = _order(db, p["order_id"])["total_cents"]
        refund = ToolCall(
            "issue_refund",
            {
                "order_id": p["order_id"],
                "amount_cents": total,
                "method": "original_payment",
                "reason": "customer wants to cancel",
            },
        )
        return _replace(v.reference, "reply_to_customer", lambda c: [refund, c])
    # tells the customer it is cancelled without cancelling
    return [c for c in v.reference if c.name != "cancel_order"]


def wrong_address(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    if v.band == "hard":
        # verifies with the ZIP on file (not what the customer gave) and changes the address
        cust = db.execute("SELECT * FROM customers WHERE id = ?", (p["customer_id"],)).fetchone()
        street, city, state, zip_, _ = p["new_address"][0]
        calls = [
            ToolCall(
                "verify_identity",
                {"customer_id": cust["id"], "email": cust["email"], "zip": cust["zip"]},
            ),
            ToolCall(
                "update_shipping_address",
                {
                    "order_id": p["order_id"],
                    "line1": street,
                    "city": city,
                    "state": state,
                    "zip": zip_,
                },
            ),
        ]
        out = _replace(v.reference, "reply_to_customer", lambda c: [*calls, c])
        return [
            _args(c, resolution_code="address_updated") if c.name == "close_ticket" else c
            for c in out
        ]
    # changes the address without verifying the customer's identity
    return [c for c in v.reference if c.name != "verify_identity"]


def wrong_exchange(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    if v.band == "hard":
        # refunds to the card instead of store credit
        return _replace(
            v.reference, "issue_refund", lambda c: [_args(c, method="original_payment")]
        )
    # refunds the item instead of exchanging it
    refund = ToolCall(
        "issue_refund",
        {
            "order_id": p["order_id"],
            "amount_cents": p["item_cents"],
            "method": "original_payment",
            "reason": "wrong size",
            "order_item_id": p["order_item_id"],
        },
    )
    out = _replace(v.reference, "create_exchange", [refund])
    return [_args(c, resolution_code="refunded") if c.name == "close_ticket" else c for c in out]


def wrong_duplicate(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    # refunds the amount without naming the duplicate payment: it lands on the original one
    return _replace(v.reference, "issue_refund", lambda c: [_args(c, payment_id=None)])


def wrong_above_limit(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    item = db.execute(
        "SELECT oi.id, oi.quantity * oi.unit_price_cents AS t FROM order_items oi "
        "WHERE oi.order_id = ? ORDER BY t DESC, oi.id LIMIT 1",
        (p["escalate_order_id"],),
    ).fetchone()
    pay = ToolCall(
        "issue_refund",
        {
            "order_id": p["escalate_order_id"],
            "amount_cents": item["t"],
            "method": "original_payment",
            "reason": "damaged",
            "order_item_id": item["id"],
        },
    )
    # pays the refund above the limit instead of escalating, and closes the ticket
    out = _replace(v.reference, "escalate_ticket", [pay])
    return [
        *out,
        ToolCall("close_ticket", {"ticket_id": p["ticket_id"], "resolution_code": "refunded"}),
    ]


def wrong_order_status(v: TaskVariant, db: sqlite3.Connection) -> list[ToolCall]:
    p = v.params
    tracking = p["tracking_number"]
    # a number that shares all but the last digit with the right one
    last = tracking[-1]
    near = tracking[:-1] + ("1" if last != "1" else "2")
    body = f"Your order is on its way with {p['carrier']}, tracking number {near}."
    if p["second_tracking_number"]:
        body = f"Your order is on its way with {p['carrier']}, tracking number {tracking}."
    return _replace(v.reference, "reply_to_customer", lambda c: [_args(c, body=body)])


WRONG: dict[str, Callable[[TaskVariant, sqlite3.Connection], list[ToolCall]]] = {
    "refund-damaged-item": wrong_refund_damaged,
    "cancel-order": wrong_cancel,
    "change-shipping-address": wrong_address,
    "exchange-size": wrong_exchange,
    "duplicate-charge": wrong_duplicate,
    "refund-above-limit": wrong_above_limit,
    "order-status": wrong_order_status,
}


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_wrong_trajectory_fails(
    family: str, band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    variant = environment.variant(family, band, seed)
    calls = WRONG[family](variant, snapshot_db)
    g = grade(variant, calls)
    assert g.status == "graded", g.error
    assert not g.passed, g.checks


def test_distractor_tracking_number_costs_score() -> None:
    variant = next(
        v
        for v in (environment.variant("order-status", "medium", s) for s in range(20))
        if v.params["has_distractor"]
    )
    p = variant.params
    body = (
        f"Your order ships with {p['carrier']}: tracking {p['tracking_number']}. Your other "
        f"order is {p['distractor_tracking_number']}."
    )
    calls = _replace(variant.reference, "reply_to_customer", lambda c: [_args(c, body=body)])
    g = grade(variant, calls)
    assert failed_checks(g) == ["reply-omits-other-orders"]
    assert g.score is not None and g.score < 1.0


def test_changing_address_without_verifying_fails_the_order_check() -> None:
    variant = environment.variant("change-shipping-address", "easy", 0)
    calls = [c for c in variant.reference if c.name != "verify_identity"]
    g = grade(variant, calls)
    assert {"identity-verified-before-change", "verify-before-update"} <= set(failed_checks(g))
    # verifying after the change is still too late
    verify = next(c for c in variant.reference if c.name == "verify_identity")
    late = _replace(tuple(calls), "update_shipping_address", lambda c: [c, verify])
    g = grade(variant, late)
    assert "verify-before-update" in failed_checks(g)
    assert not g.passed


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "refund-above-limit"])
def test_missing_close_alone_still_passes_but_costs_score(family: str, band: str) -> None:
    """The threshold forgives a missing resolution code alone (it still costs score)."""
    variant = environment.variant(family, band, 1)
    calls = [c for c in variant.reference if c.name != "close_ticket"]
    g = grade(variant, calls)
    assert failed_checks(g) in (
        ["ticket-resolution"],
        ["ticket-resolution-declined"],
        ["ticket-resolution-credit"],
    )
    assert g.passed
    assert g.score is not None and g.score < 1.0


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("family", FAMILIES)
def test_benign_extra_calls_keep_full_score(family: str, band: str) -> None:
    """Reading more, an internal note and a second reply do not cost anything."""
    variant = environment.variant(family, band, 2)
    ticket_id = variant.params["ticket_id"]
    extras_before = [
        ToolCall("get_policy", {}),
        ToolCall("get_customer", {"customer_id": variant.params["customer_id"]}),
        ToolCall("list_tickets", {"customer_id": variant.params["customer_id"]}),
    ]
    note = ToolCall("add_ticket_note", {"ticket_id": ticket_id, "body": "handled per policy"})
    again = ToolCall("reply_to_customer", {"ticket_id": ticket_id, "body": "Anything else?"})
    calls = [*extras_before, *variant.reference]
    last_reply = max(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    calls[last_reply + 1 : last_reply + 1] = [note, again]
    g = grade(variant, calls)
    assert g.status == "graded", g.error
    assert failed_checks(g) == []
    assert g.score == 1.0
