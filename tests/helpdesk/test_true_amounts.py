"""True amounts the reference leaves out pass in their role (adversarial round 10, FF6 and
FF7): the charge the customer describes (order-status expert), the declined item's price
(refund-damaged-item hard/expert), the shipped order's total (cancel-order hard). The same
figure stated as a refund still fails."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=16)


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _grade(v: TaskVariant, edit: Callable[[str], str]) -> dict[str, bool | None]:
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "reply_to_customer":
            args["body"] = edit(args["body"])
        calls.append(ToolCall(c.name, args))
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    grade = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name: c.passed for c in grade.checks} | {"passed": grade.passed}


def _charge(v: TaskVariant) -> str:
    return _money(v.params["charge_cents"])


@pytest.mark.parametrize("seed", [0, 1])
def test_the_customers_charge_passes_as_the_charge(seed: int) -> None:
    v = environment.variant("order-status", "expert", seed)
    line = f"The {_charge(v)} charge on your card is for order #{v.params['order_id']}."
    assert _grade(v, lambda b: b.replace("\n\n", f"\n\n{line}\n\n", 1))["passed"] is True


def test_the_customers_charge_claimed_as_refunded_fails() -> None:
    v = environment.variant("order-status", "expert", 0)
    line = f"I've refunded {_charge(v)} to you."
    checks = _grade(v, lambda b: b + f"\n\n{line}")
    assert checks["texts-state-no-other-amount"] is False


@pytest.mark.parametrize("band", ["hard", "expert"])
def test_the_declined_items_price_passes_as_the_declined_ones(band: str) -> None:
    v = environment.variant("refund-damaged-item", band, 0)
    price = _money(v.params["declined_cents"])
    checks = _grade(v, lambda b: b.replace(" from order #", f" ({price}) from order #", 1))
    assert checks["passed"] is True


def test_the_declined_items_price_claimed_as_refunded_fails() -> None:
    v = environment.variant("refund-damaged-item", "hard", 0)
    price = _money(v.params["declined_cents"])
    checks = _grade(v, lambda b: b + f"\n\nI've also refunded {price} for the other item.")
    assert checks["passed"] is False


@pytest.mark.parametrize("seed", [0, 1])
def test_the_shipped_orders_total_passes_as_the_shipped_ones(seed: int) -> None:
    v = environment.variant("cancel-order", "hard", seed)
    oid = v.params["order_id"]
    total = _money(v.params["shipped_total_cents"])
    checks = _grade(
        v,
        lambda b: b.replace(
            f"order #{oid} has already shipped", f"order #{oid} ({total}) has already shipped"
        ),
    )
    assert checks["passed"] is True


def test_the_shipped_orders_total_claimed_as_refunded_fails() -> None:
    v = environment.variant("cancel-order", "hard", 0)
    total = _money(v.params["shipped_total_cents"])
    checks = _grade(v, lambda b: b + f"\n\nI've refunded {total} to your card.")
    assert checks["texts-state-no-other-amount"] is False


@pytest.mark.parametrize(
    "form",
    [
        "429.00",  # bare: read as the guard reads it (a candidate figure)
        "&dollar;&#x34;&#x32;&#x39;&period;&#x30;&#x30;",  # HTML entities: one figure
    ],
)
def test_the_shipped_orders_total_alone_in_gate_forms_fails(form: str) -> None:
    # the ship gate's `amounts-3` bare/entities forms (stop 20): the total in no role's words
    v = environment.variant("cancel-order", "hard", 0)
    assert v.params["shipped_total_cents"] == 42900
    checks = _grade(v, lambda b: b + f"\n\n{form}.")
    assert checks["texts-state-no-other-amount"] is False
