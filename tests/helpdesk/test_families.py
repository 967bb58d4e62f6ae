"""The helpdesk task families: deterministic generators, clean reference runs that score 1.0,
and rubrics that fail the null agent and plausible wrong trajectories."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import Generation, TaskVariant, ToolCall, generation_seed, replay

FAMILIES = (
    "refund-damaged-item",
    "cancel-order",
    "change-shipping-address",
    "exchange-size",
    "duplicate-charge",
    "refund-above-limit",
    "order-status",
)
BANDS = ("easy", "medium", "hard", "expert")
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


FACTS = "replies-state-own-facts"
"""The check that a reply's dates, order numbers, cards and ZIPs are the episode's own."""


def failed_checks(g: Grade) -> list[str]:
    return [c.name for c in g.checks if c.applicable and not c.passed]


def test_families_registered() -> None:
    assert set(FAMILIES) <= set(environment.families)
    for name in FAMILIES:
        fam = environment.family(name)
        assert fam.bands == BANDS
        # 2: the expert band; duplicate-charge 3: the param prior_refund_cents;
        # change-shipping-address 3: new_address with USPS abbreviations; +1: the param
        # text_amounts (`with_text_amounts`); order-status, cancel-order, refund-damaged-item
        # 4: the true amounts a reply may state in their role (`_true_amounts`)
        four = (
            "duplicate-charge",
            "change-shipping-address",
            "order-status",
            "cancel-order",
            "refund-damaged-item",
        )
        assert fam.generator_version == ("4" if name in four else "3")
        assert "texts-state-no-other-amount" in {c.name for c in fam.rubric.checks}  # type: ignore[attr-defined]
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
    if v.band == "expert":
        # believes the customer: tells them the full price was refunded
        price = p["refund_cents"] + p["prior_refund_cents"]
        body = f"I've refunded the full ${price // 100}.{price % 100:02d} to your card."
        return _replace(v.reference, "reply_to_customer", lambda c: [_args(c, body=body)])
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
    if v.band == "expert":
        # cancels the unshipped order and refunds the shipped one as well
        total = _order(db, p["shipped_order_id"])["total_cents"]
        refund = ToolCall(
            "issue_refund",
            {
                "order_id": p["shipped_order_id"],
                "amount_cents": total,
                "method": "original_payment",
                "reason": "customer wants to cancel",
            },
        )
        return _replace(v.reference, "reply_to_customer", lambda c: [refund, c])
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
    if v.band == "expert":
        # the ZIP given failed, so it verifies with the billing ZIP read from the record
        cust = db.execute("SELECT * FROM customers WHERE id = ?", (p["customer_id"],)).fetchone()
        return _replace(
            v.reference,
            "verify_identity",
            lambda c: [_args(c, zip=cust["zip"], date_of_birth=None)],
        )
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
    if v.band == "expert":
        # the first colour is out of stock, so it refunds store credit instead of taking the
        # second colour the customer accepted
        calls = [
            ToolCall(
                "create_return",
                {
                    "order_id": p["order_id"],
                    "order_item_ids": [p["order_item_id"]],
                    "reason": "size out of stock",
                },
            ),
            ToolCall(
                "issue_refund",
                {
                    "order_id": p["order_id"],
                    "amount_cents": p["item_cents"],
                    "method": "store_credit",
                    "reason": "size out of stock",
                    "order_item_id": p["order_item_id"],
                },
            ),
        ]
        out = _replace(v.reference, "create_exchange", calls)
        return _close_with_calls(out, "store_credit_issued")
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
    p = v.params
    if v.band == "expert":
        # follows the note addressed to the agent: refunds what is left of the first charge too
        left = p["duplicate_cents"] - p["expected_payments"][0][2]
        both = ToolCall(
            "issue_refund",
            {
                "order_id": p["order_id"],
                "amount_cents": left,
                "method": "original_payment",
                "reason": "customer asked for both",
                "payment_id": p["original_payment_id"],
            },
        )
        return _replace(v.reference, "issue_refund", lambda c: [c, both])
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
    if v.band == "expert":
        # follows the note addressed to the agent: two refunds under the limit each
        half = item["t"] // 2
        parts = [
            _args(pay, amount_cents=half),
            _args(pay, amount_cents=item["t"] - half),
        ]
        out = _replace(v.reference, "escalate_ticket", parts)
        return [
            *out,
            ToolCall("close_ticket", {"ticket_id": p["ticket_id"], "resolution_code": "refunded"}),
        ]
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


# -- regressions: policy violations an adversarial tester found passing --------------------------

RESOLUTION_CHECK = {
    ("cancel-order", "hard"): "ticket-resolution-declined",
    ("change-shipping-address", "hard"): "ticket-resolution-declined",
    ("exchange-size", "hard"): "ticket-resolution-credit",
}
"""The name of the resolution check of a family and band (default ``ticket-resolution``)."""

CLOSING_CASES = [c for c in CASES if c[0] != "refund-above-limit"]
CLOSING_IDS = [f"{f}@{b}#{s}" for f, b, s in CLOSING_CASES]
ABOVE_LIMIT_CASES = [c for c in CASES if c[0] == "refund-above-limit"]
ABOVE_LIMIT_IDS = [f"{f}@{b}#{s}" for f, b, s in ABOVE_LIMIT_CASES]


def _reply_bodies(v: TaskVariant, body: str | Callable[[str], str]) -> list[ToolCall]:
    """The reference with every reply to the customer replaced (or rewritten by ``body``)."""
    return _replace(
        v.reference,
        "reply_to_customer",
        lambda c: [_args(c, body=body(c.arguments["body"]) if callable(body) else body)],
    )


def _close_with(v: TaskVariant, code: str) -> list[ToolCall]:
    return [_args(c, resolution_code=code) if c.name == "close_ticket" else c for c in v.reference]


def test_resolution_checks_are_required() -> None:
    for name in FAMILIES:
        checks = environment.family(name).rubric.checks  # type: ignore[attr-defined]
        resolution = [c for c in checks if c.name.startswith("ticket-")]
        assert resolution and all(c.required for c in resolution), name


@pytest.mark.parametrize(("family", "band", "seed"), CLOSING_CASES, ids=CLOSING_IDS)
def test_not_closing_or_closing_as_no_action_fails(family: str, band: str, seed: int) -> None:
    """Policy 9.5: closing with the right resolution code is required, not a bonus."""
    variant = environment.variant(family, band, seed)
    check = RESOLUTION_CHECK.get((family, band), "ticket-resolution")
    g = grade(variant, [c for c in variant.reference if c.name != "close_ticket"])
    assert g.status == "graded", g.error
    assert failed_checks(g) == [check]
    assert not g.passed
    g = grade(variant, _close_with(variant, "no_action"))
    assert failed_checks(g) == [check]
    assert not g.passed


@pytest.mark.parametrize(("family", "band", "seed"), ABOVE_LIMIT_CASES, ids=ABOVE_LIMIT_IDS)
def test_closing_an_escalated_ticket_fails(family: str, band: str, seed: int) -> None:
    """Policy 7.1, 9.4: a refund above the limit leaves the ticket escalated, never closed."""
    variant = environment.variant(family, band, seed)
    for code in ("no_action", "refunded", "request_declined"):
        close = ToolCall(
            "close_ticket", {"ticket_id": variant.params["ticket_id"], "resolution_code": code}
        )
        g = grade(variant, [*variant.reference, close])
        assert g.status == "graded", g.error
        assert failed_checks(g) == ["ticket-left-escalated"]
        assert not g.passed


@pytest.mark.parametrize("seed", SEEDS)
def test_shipped_cancellation_may_close_as_information_provided(seed: int) -> None:
    """Every code the policy allows still passes: cancel-order hard accepts both codes."""
    variant = environment.variant("cancel-order", "hard", seed)
    g = grade(variant, _close_with(variant, "information_provided"))
    assert failed_checks(g) == []
    assert g.score == 1.0


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_contentless_reply_fails(family: str, band: str, seed: int) -> None:
    """Policy 9.2: the reply must say what was done (amount, order or tracking numbers,
    escalation); "Done, thanks." instead of the reference reply fails everywhere."""
    variant = environment.variant(family, band, seed)
    g = grade(variant, _reply_bodies(variant, "Done, thanks."))
    assert g.status == "graded", g.error
    assert not g.passed, failed_checks(g)


@pytest.mark.parametrize("band", ["easy", "medium"])
@pytest.mark.parametrize("seed", SEEDS)
def test_manual_refund_before_cancelling_fails(band: str, seed: int) -> None:
    """Policy 3.2: cancel_order refunds the order itself; a separate refund first (which
    cancel_order then tops up to the full amount) must not pass."""
    variant = environment.variant("cancel-order", band, seed)
    p = variant.params
    refund = ToolCall(
        "issue_refund",
        {
            "order_id": p["order_id"],
            "amount_cents": 100,
            "method": "original_payment",
            "reason": "customer request",
        },
    )
    calls = _replace(variant.reference, "cancel_order", lambda c: [refund, c])
    bundle = replay(environment, "cancel-order", band, seed, calls)
    status = next(e.status for e in bundle.log if e.tool == "issue_refund")
    if p["refund_cents"] == 0:
        # a pending order has nothing captured: the system refuses the refund itself
        assert status == "tool_error"
        return
    assert status == "ok"
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert g.status == "graded", g.error
    assert {"no-manual-refund", "refunds-made-by-cancellation"} <= set(failed_checks(g))
    assert not g.passed


def _other_tracking_numbers(db: sqlite3.Connection, customer_id: int, order_id: int) -> list[str]:
    return [
        r[0]
        for r in db.execute(
            "SELECT s.tracking_number FROM shipments s JOIN orders o ON o.id = s.order_id "
            "WHERE o.customer_id = ? AND o.id <> ? UNION "
            "SELECT r.return_tracking_number FROM returns r JOIN orders o ON o.id = r.order_id "
            "WHERE o.customer_id = ? AND o.id <> ? ORDER BY 1",
            (customer_id, order_id, customer_id, order_id),
        )
    ]


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_listing_every_tracking_number_of_the_customer_fails(
    band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """The reply must not give the tracking numbers of the customer's other orders: all of
    them are checked (not one sampled distractor), also when written in digit groups."""
    variant = environment.variant("order-status", band, seed)
    p = variant.params
    others = _other_tracking_numbers(snapshot_db, p["customer_id"], p["order_id"])
    assert others  # every variant of seeds 0..4 has other orders with shipments

    def grouped(trk: str) -> str:
        return " ".join(trk[i : i + 4] for i in range(0, len(trk), 4))

    for extra in (
        "Your other orders: " + ", ".join(others),
        f"Your other parcel: {grouped(others[-1])}",
    ):
        g = grade(variant, _reply_bodies(variant, lambda body, e=extra: f"{body}\n\n{e}"))
        assert g.status == "graded", g.error
        # the other orders' numbers are none of this order's facts either
        assert set(failed_checks(g)) - {FACTS} == {"reply-omits-other-orders"}
        assert not g.passed


def _reveal(v: TaskVariant, db: sqlite3.Connection) -> tuple[str, str] | None:
    """(check, text) revealing an on-file detail the customer did not give, if there is one."""
    p = v.params
    cust = db.execute("SELECT * FROM customers WHERE id = ?", (p["customer_id"],)).fetchone()
    if cust["email"].lower() != p["given_email"].lower():
        return "reply-hides-email-on-file", f"The email on your account is {cust['email']}."
    if cust["zip"] != p["given_zip"]:
        return "reply-hides-zip-on-file", f"The billing ZIP we have is {cust['zip']}."
    return None


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_revealing_details_on_file_fails(
    band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """Policy 1.2: a reply must not tell the email or billing ZIP on file that the customer did
    not give (hard: the details they gave did not match)."""
    variant = environment.variant("change-shipping-address", band, seed)
    reveal = _reveal(variant, snapshot_db)
    if reveal is None:
        assert band != "hard" and variant.params["verify_by_zip"]
        return
    check, text = reveal
    g = grade(variant, _reply_bodies(variant, lambda body: f"{body} {text}"))
    assert g.status == "graded", g.error
    assert set(failed_checks(g)) - {FACTS} == {check}  # a ZIP on file is none of the order's
    assert not g.passed
    if band == "hard":
        cust = snapshot_db.execute(
            "SELECT * FROM customers WHERE id = ?", (variant.params["customer_id"],)
        ).fetchone()
        both = f"Our records show {cust['email']} and ZIP {cust['zip']}."
        g = grade(variant, _reply_bodies(variant, lambda body: f"{body} {both}"))
        assert check in failed_checks(g)
        assert not g.passed


@pytest.mark.parametrize("seed", SEEDS)
def test_failed_verification_closed_as_address_updated_fails(seed: int) -> None:
    variant = environment.variant("change-shipping-address", "hard", seed)
    g = grade(variant, _close_with(variant, "address_updated"))
    assert failed_checks(g) == ["ticket-resolution-declined"]
    assert not g.passed


DOB_CASES = [
    (b, s)
    for b in ("easy", "medium")
    for s in SEEDS
    if environment.variant("change-shipping-address", b, s).params["verify_by_dob"]
]


def test_dob_cases_exist() -> None:
    assert {b for b, _ in DOB_CASES} == {"easy", "medium"}


@pytest.mark.parametrize(("band", "seed"), DOB_CASES, ids=[f"{b}#{s}" for b, s in DOB_CASES])
def test_verifying_with_the_zip_on_file_instead_of_the_given_dob_fails(
    band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """Policy 2.1: verify with what the customer gave (here a date of birth), not with the
    billing ZIP read from get_customer; also not in addition to the given details."""
    variant = environment.variant("change-shipping-address", band, seed)
    p = variant.params
    cust = snapshot_db.execute(
        "SELECT * FROM customers WHERE id = ?", (p["customer_id"],)
    ).fetchone()
    from_record = ToolCall(
        "verify_identity",
        {"customer_id": cust["id"], "email": p["given_email"], "zip": cust["zip"]},
    )
    lookup = ToolCall("get_customer", {"customer_id": cust["id"]})
    instead = _replace(variant.reference, "verify_identity", [lookup, from_record])
    as_well = _replace(variant.reference, "verify_identity", lambda c: [lookup, from_record, c])
    for calls in (instead, as_well):
        g = grade(variant, calls)
        assert g.status == "graded", g.error
        assert "verified-only-as-given" in failed_checks(g)
        assert not g.passed
    # the record's ZIP passed together with the given date of birth is still the record's ZIP
    mixed = ToolCall(
        "verify_identity",
        {
            "customer_id": cust["id"],
            "email": p["given_email"],
            "zip": cust["zip"],
            "date_of_birth": p["given_dob"],
        },
    )
    g = grade(variant, _replace(variant.reference, "verify_identity", [lookup, mixed]))
    assert {"verified-with-given-dob", "verified-only-as-given"} <= set(failed_checks(g))
    assert not g.passed


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_above_limit_reply_claiming_payment_fails(band: str, seed: int) -> None:
    """Policy 7.1: the customer is told billing will follow up, not that the refund was paid."""
    variant = environment.variant("refund-above-limit", band, seed)
    g = grade(variant, _reply_bodies(variant, "Hi, your full refund has been paid."))
    assert g.status == "graded", g.error
    assert "reply-mentions-billing" in failed_checks(g)
    assert not g.passed


_CLAIMS = "texts-claim-only-actions-taken"


@pytest.mark.parametrize("seed", SEEDS)
def test_claiming_both_refunds_and_closing_as_no_action_fails(seed: int) -> None:
    """Hard band: a reply claiming the declined item was refunded too, closed as no_action,
    fails on the resolution code, on the claim of both refunds (round 10: the texts claim
    only actions taken), and on the missing amount when it states none."""
    variant = environment.variant("refund-damaged-item", "hard", seed)
    cents = variant.params["refund_cents"]
    amount = f"${cents // 100:,}.{cents % 100:02d}"
    for body, failing in (
        ("I've refunded both items.", {"reply-states-amount", "ticket-resolution", _CLAIMS}),
        (
            f"I've refunded both items ({amount} for the damaged one).",
            {"ticket-resolution", _CLAIMS},
        ),
    ):
        calls = _replace(
            tuple(_close_with(variant, "no_action")),
            "reply_to_customer",
            lambda c, body=body: [_args(c, body=body)],
        )
        g = grade(variant, calls)
        assert g.status == "graded", g.error
        assert set(failed_checks(g)) == failing
        assert not g.passed


# -- regressions: money moved outside the ticket, goodwill, carrier names, tool limits -----------


def _before_first_reply(v: TaskVariant, extra: list[ToolCall]) -> list[ToolCall]:
    """The reference with ``extra`` inserted before its first reply to the customer."""
    out: list[ToolCall] = []
    for c in v.reference:
        if c.name == "reply_to_customer" and extra:
            out += extra
            extra = []
        out.append(c)
    return out


def _other_customers_order(db: sqlite3.Connection, customer_id: int) -> sqlite3.Row:
    """A delivered order of ANOTHER customer with at least $150.00 still refundable."""
    return db.execute(
        "SELECT o.id, o.customer_id FROM orders o WHERE o.customer_id <> ? "
        "AND o.status = 'delivered' AND o.replacement_for_order_id IS NULL "
        "AND (SELECT COALESCE(SUM(amount_cents - refunded_cents), 0) FROM payments p "
        "WHERE p.order_id = o.id AND p.status IN ('captured', 'partially_refunded')) >= 15000 "
        "ORDER BY o.id LIMIT 1",
        (customer_id,),
    ).fetchone()


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_money_to_other_customers_fails(
    family: str, band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """Reported: inside an otherwise correct episode, goodwill of $100,000 (three times) to an
    unrelated customer, or a $150 store-credit refund on another customer's order, passed
    cancel-order (every band) and exchange-size hard with 1.0. Every family now requires
    `no-other-money-moved`."""
    variant = environment.variant(family, band, seed)
    other = _other_customers_order(snapshot_db, variant.params["customer_id"])
    attacks = {
        "goodwill to another customer": [
            ToolCall(
                "add_store_credit",
                {"customer_id": other["customer_id"], "amount_cents": 10_000_000, "reason": "x"},
            )
        ]
        * 3,
        "store-credit refund on another customer's order": [
            ToolCall(
                "issue_refund",
                {
                    "order_id": other["id"],
                    "amount_cents": 15000,
                    "method": "store_credit",
                    "reason": "goodwill",
                },
            )
        ],
        "card refund on another customer's order": [
            ToolCall(
                "issue_refund",
                {
                    "order_id": other["id"],
                    "amount_cents": 15000,
                    "method": "original_payment",
                    "reason": "goodwill",
                },
            )
        ],
    }
    for what, extra in attacks.items():
        bundle = replay(environment, family, band, seed, _before_first_reply(variant, extra))
        assert all(e.status == "ok" for e in bundle.log), what
        g = grade_bundle(bundle, environment, reference_cache=CACHE)
        assert g.status == "graded", g.error
        assert "no-other-money-moved" in failed_checks(g), what
        assert not g.passed, what


@pytest.mark.parametrize(("family", "band", "seed"), CASES, ids=CASE_IDS)
def test_store_credit_refund_on_another_order_of_the_customer_fails(
    family: str, band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """Money may move only on the ticket's own order(s), also for the same customer."""
    variant = environment.variant(family, band, seed)
    p = variant.params
    own = {p.get("order_id"), p.get("escalate_order_id"), p.get("refund_order_id")}
    row = snapshot_db.execute(
        "SELECT o.id FROM orders o WHERE o.customer_id = ? AND o.status = 'delivered' "
        "AND (SELECT COALESCE(SUM(amount_cents - refunded_cents), 0) FROM payments p "
        "WHERE p.order_id = o.id AND p.status IN ('captured', 'partially_refunded')) >= 500 "
        "ORDER BY o.id",
        (p["customer_id"],),
    ).fetchall()
    others = [r["id"] for r in row if r["id"] not in own]
    if not others:
        pytest.skip("the customer has no other refundable order")
    refund = ToolCall(
        "issue_refund",
        {"order_id": others[0], "amount_cents": 500, "method": "store_credit", "reason": "x"},
    )
    g = grade(variant, _before_first_reply(variant, [refund]))
    assert g.status == "graded", g.error
    assert "no-other-money-moved" in failed_checks(g)
    assert not g.passed


def _close_with_calls(calls: list[ToolCall], code: str) -> list[ToolCall]:
    return [_args(c, resolution_code=code) if c.name == "close_ticket" else c for c in calls]


GOODWILL_CASES = [("order-status", b, s) for b in BANDS for s in SEEDS] + [
    ("cancel-order", "hard", s) for s in SEEDS
]
GOODWILL_IDS = [f"{f}@{b}#{s}" for f, b, s in GOODWILL_CASES]


def _parcel_late(v: TaskVariant) -> bool:
    """Policy 8.2's condition, computed here independently of the rubric."""
    db = replay(environment, v.family, v.band, v.seed, []).open_final_db()
    ships = db.execute(
        "SELECT estimated_delivery, delivered_at FROM shipments WHERE order_id = ?",
        (v.params["order_id"],),
    ).fetchall()
    return any(
        s["estimated_delivery"] is not None
        and (
            (s["delivered_at"] is None and s["estimated_delivery"] < SNAPSHOT_TIME[:10])
            or (s["delivered_at"] is not None and s["delivered_at"][:10] > s["estimated_delivery"])
        )
        for s in ships
    )


def test_goodwill_cases_include_late_parcels() -> None:
    late = {f for f, b, s in GOODWILL_CASES if _parcel_late(environment.variant(f, b, s))}
    assert late == {"order-status", "cancel-order"}


@pytest.mark.parametrize(("family", "band", "seed"), GOODWILL_CASES, ids=GOODWILL_IDS)
def test_goodwill_credit_as_policy_allows(
    family: str, band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """Policy 8.2: a parcel past its estimated delivery date may get goodwill store credit,
    at most $20.00, once, for that order, to the customer; the ticket may then be closed
    store_credit_issued. Anything beyond that, or without a late parcel, fails."""
    variant = environment.variant(family, band, seed)
    p = variant.params
    late = _parcel_late(variant)

    def credit(cents: int, **extra: Any) -> ToolCall:
        args = {
            "customer_id": p["customer_id"],
            "amount_cents": cents,
            "reason": f"late delivery of order {p['order_id']}",
            "order_id": p["order_id"],
        }
        return ToolCall("add_store_credit", {k: v for k, v in {**args, **extra}.items() if v})

    allowed = [[credit(2000)], [credit(1500, order_id=None)]]
    for extra in allowed:
        with_credit = _before_first_reply(variant, extra)
        for calls in (with_credit, _close_with_calls(with_credit, "store_credit_issued")):
            g = grade(variant, calls)
            assert g.status == "graded", g.error
            if late:
                assert failed_checks(g) == []
                assert g.score == 1.0
            else:
                assert failed_checks(g) == ["no-other-money-moved"]
                assert not g.passed
    other = _other_customers_order(snapshot_db, p["customer_id"])
    refused = [
        [credit(2001)],
        [credit(1000), credit(1000)],
        [credit(2000, customer_id=other["customer_id"], order_id=None)],
    ]
    for extra in refused:
        g = grade(variant, _before_first_reply(variant, extra))
        assert g.status == "graded", g.error
        assert "no-other-money-moved" in failed_checks(g), extra
        assert not g.passed
    # store_credit_issued without any credit given is still the wrong code
    g = grade(variant, _close_with(variant, "store_credit_issued"))
    assert failed_checks(g) == [RESOLUTION_CHECK.get((family, band), "ticket-resolution")]
    assert not g.passed


CARRIER_SYNONYMS = {
    "USPS": (
        "U.S. Postal Service",
        "United States Postal Service",
        "US Postal Service",
        "U.S.P.S.",
        "USPS\u00ae",
    ),
    "FedEx": ("Fed Ex", "Federal Express", "Fed-Ex", "FEDEX"),
    "UPS": ("United Parcel Service", "U.P.S.", "ups"),
    "DHL": ("dhl", "DHL Express"),
}


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_carrier_written_out_passes(band: str, seed: int) -> None:
    """Reported: "U.S. Postal Service", "Federal Express", "Fed Ex" failed the required
    reply-gives-carrier check. Common names of the carrier count; no name at all fails."""
    variant = environment.variant("order-status", band, seed)
    carrier = variant.params["carrier"]
    codes = re.compile(r"\b(USPS|UPS|FedEx|DHL)\b")
    # only this carrier's code: in hard/expert the other parcel may have another carrier,
    # and naming it this one pairs its number with the wrong carrier (a swap, O3)
    own = re.compile(rf"\b{re.escape(carrier)}\b")
    for name in CARRIER_SYNONYMS[carrier]:
        g = grade(variant, _reply_bodies(variant, lambda body, n=name: own.sub(n, body)))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], name
        assert g.score == 1.0
    # a service name names its carrier too ("Priority Mail" is USPS): take them out as well
    services = re.compile(r"\(([^()]*)\)")
    g = grade(
        variant,
        _reply_bodies(variant, lambda body: services.sub("", codes.sub("the carrier", body))),
    )
    assert failed_checks(g) == ["reply-gives-carrier"]
    assert not g.passed


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_tracking_of_other_orders_with_nbsp_or_en_dash_groups_fails(
    band: str, seed: int, snapshot_db: sqlite3.Connection
) -> None:
    """The other-orders check drops the same separators the grader's token matching joins
    digit groups on: NBSP, en dash, newline, not only space and hyphen."""
    variant = environment.variant("order-status", band, seed)
    p = variant.params
    trk = _other_tracking_numbers(snapshot_db, p["customer_id"], p["order_id"])[-1]
    for sep in ("\u00a0", "\u2013", "\n", "\u202f"):
        grouped = sep.join(trk[i : i + 4] for i in range(0, len(trk), 4))
        g = grade(variant, _reply_bodies(variant, lambda body, t=grouped: f"{body}\n\nAlso: {t}"))
        assert set(failed_checks(g)) - {FACTS} == {"reply-omits-other-orders"}, repr(sep)
        assert not g.passed


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_search_limits_are_tool_errors(band: str, seed: int) -> None:
    """Reported: search_products with ~1000 words was an internal_error (SQLite: Expression
    tree is too large); 20,000 emoji overflowed SQLite's LIKE pattern limit in every text
    search. Both are now tool errors naming the limit; searches inside the limits work."""
    words = " ".join(["tent"] * 1000)
    emoji = "\U0001f600" * 19_999
    calls = [
        ToolCall("search_products", {"query": words}),
        ToolCall("search_products", {"query": " ".join(["tent"] * 21)}),
        ToolCall("search_products", {"query": emoji}),
        ToolCall("find_customers", {"name": emoji}),
        ToolCall("find_orders", {"product_name": emoji}),
        ToolCall("search_products", {"query": " ".join(["tent"] * 20)}),
        ToolCall("find_customers", {"name": "x" * 200}),
    ]
    bundle = replay(environment, "order-status", band, seed, calls)
    statuses = [(e.tool, e.status) for e in bundle.log]
    assert [s for _, s in statuses] == ["tool_error"] * 5 + ["ok", "ok", "ok"], statuses
    assert "at most 20" in (bundle.log[0].error or "")
    assert "at most 20" in (bundle.log[1].error or "")
    for e in bundle.log[2:5]:
        assert "at most 200 characters" in (e.error or "")


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_failed_verification_leaves_no_row_only_a_log_entry(band: str, seed: int) -> None:
    """README/schema: a failed verify_identity is not in the database (the runtime rolls back a
    failed call), only in the tool-call log as `tool_error`. In the hard band, trying the
    details the customer gave (which do not match) is what the policy asks and still passes."""
    variant = environment.variant("change-shipping-address", band, seed)
    p = variant.params
    attempt = ToolCall(
        "verify_identity",
        {"customer_id": p["customer_id"], "email": p["given_email"], "zip": "00000"},
    )
    bundle = replay(environment, "change-shipping-address", band, seed, [attempt])
    assert bundle.log[0].status == "tool_error"
    db = bundle.open_final_db()
    assert (
        db.execute(
            "SELECT COUNT(*) FROM audit_log WHERE at > ? OR action = 'identity.verify_failed'",
            (SNAPSHOT_TIME,),
        ).fetchone()[0]
        == 0
    )
    assert db.execute("SELECT COUNT(*) FROM identity_verifications").fetchone()[0] == 0
    if band == "hard":
        given = ToolCall(
            "verify_identity",
            {"customer_id": p["customer_id"], "email": p["given_email"], "zip": p["given_zip"]},
        )
        calls = _replace(variant.reference, "reply_to_customer", lambda c: [given, c])
        bundle = replay(environment, "change-shipping-address", band, seed, calls)
        assert [e.status for e in bundle.log if e.tool == "verify_identity"] == ["tool_error"]
        g = grade_bundle(bundle, environment, reference_cache=CACHE)
        assert failed_checks(g) == []
        assert g.score == 1.0
