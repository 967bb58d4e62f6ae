"""The ship gate's swap mutants (`mcpgym_clients.instrument.swap`) in helpdesk, each failing
on the check that reads the swapped values in their roles:

- exchange-size (`sizes-in-their-roles`): the delivered and the wanted size exchanged in
  the exchange's reason ("size US 11 -> US 12" for a US 12 exchanged for a US 11) or in the
  reply ("your US 12 ships ... send the US 11 back");
- refund-damaged-item hard/expert (`reply-binds-each-order-its-item`): the refunded and the
  declined order numbers exchanged in the reply.

Honest forms (other words, other orders, the reference itself) keep passing."""

from __future__ import annotations

from functools import cache

import pytest

from mcpgym_clients.instrument.adversarial import adversaries
from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall
from tests.helpdesk.test_families import FACTS, _reply_bodies, failed_checks, grade

SIZES = "sizes-in-their-roles"
ORDERS = "reply-binds-each-order-its-item"
DECLINED = "reply-states-declined-not-refunded"
OWN_WORDS = "replies-state-own-words"
CLAIMS = "texts-claim-only-actions-taken"


@cache
def _sizes(band: str, seed: int) -> tuple[TaskVariant, str, str]:
    """The variant, its delivered size and its wanted size."""
    v = environment.variant("exchange-size", band, seed)
    ex = next(c for c in v.reference if c.name in ("create_exchange", "create_return"))
    if ex.name == "create_exchange":
        old = ex.arguments["reason"].split("size ", 1)[1].split(" -> ")[0]
    else:
        body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
        old = body.split("return for the ", 1)[1].split(":", 1)[0]
    return v, old, str(v.params["wanted_size"])


def _swaps(family: str, band: str, seed: int) -> list[tuple[str, list[ToolCall]]]:
    v = environment.variant(family, band, seed)
    return [
        (a.label, [ToolCall(n, args) for n, args in a.calls])
        for a in adversaries(environment, v)
        if a.role == "swap" and a.values[0] != "amount"
    ]


GATE = [
    ("exchange-size", "easy", 1, SIZES),
    ("exchange-size", "medium", 1, SIZES),
    ("exchange-size", "hard", 0, SIZES),
    ("exchange-size", "expert", 1, SIZES),
    ("refund-damaged-item", "hard", 0, ORDERS),
    ("refund-damaged-item", "hard", 1, ORDERS),
    ("refund-damaged-item", "expert", 0, ORDERS),
    ("refund-damaged-item", "expert", 1, ORDERS),
]


@pytest.mark.parametrize(("family", "band", "seed", "check"), GATE)
def test_the_gates_swap_mutants_fail_on_the_role_check(
    family: str, band: str, seed: int, check: str
) -> None:
    v = environment.variant(family, band, seed)
    swaps = _swaps(family, band, seed)
    assert swaps  # passed the gate before (adv/round10gate/swap_mutants.py)
    for label, calls in swaps:
        g = grade(v, calls)
        assert g.status == "graded", g.error
        # swapped order numbers are in the other's role for the facts check too, and the
        # refund sentence then names the declined order (hard: it is not refunded), and each
        # order's product now stands beside the other order's number (stop 23's pairing),
        # and the refund claimed of the declined order is a claim bound to an order it was
        # not taken on (stop 25's `DecisionMatch.records`)
        assert set(failed_checks(g)) - {FACTS, DECLINED, OWN_WORDS, CLAIMS} == {check}, label
        assert not g.passed


EX_CASES = [(b, s) for b in ("easy", "medium", "expert") for s in (0, 1)]


def _exchange_reason(v: TaskVariant, reason: str) -> list[ToolCall]:
    return [
        ToolCall(c.name, {**c.arguments, "reason": reason}) if c.name == "create_exchange" else c
        for c in v.reference
    ]


@pytest.mark.parametrize(("band", "seed"), EX_CASES)
def test_exchange_sizes_read_in_their_roles(band: str, seed: int) -> None:
    v, old, new = _sizes(band, seed)
    r = v.params["replacement_order_id"]
    honest_reasons = [
        f"too big: {old} -> {new}",
        f"customer wants {new} instead of {old}",
        f"exchange from {old} to {new}",
        f"swap the {old} for a {new}",
    ]
    swapped_reasons = [f"{new} -> {old}", f"customer wants {old} instead of {new}"]
    honest_replies = [
        f"Hi,\n\nYour new {new} ships at no charge on order #{r}. Please send the {old} back "
        "with the prepaid label in the parcel.",
        f"Hi,\n\nI've exchanged the {old} for the {new}: it ships on order #{r}, and the "
        "prepaid return label is in the parcel.",
        f"Hi,\n\nThe {new} is on its way (order #{r}). Once it arrives, return the {old} "
        "with the label in the box.",
    ]
    swapped_replies = [
        f"Hi,\n\nYour {old} ships at no charge on order #{r}. Please send the {new} back "
        "with the prepaid label in the parcel.",
        f"Hi,\n\nI've exchanged the {new} for the {old}; it ships on order #{r}.",
    ]
    for reason in honest_reasons:
        assert SIZES not in failed_checks(grade(v, _exchange_reason(v, reason))), reason
    for reason in swapped_reasons:
        assert SIZES in failed_checks(grade(v, _exchange_reason(v, reason))), reason
    for body in honest_replies:
        assert SIZES not in failed_checks(grade(v, _reply_bodies(v, body))), body
    for body in swapped_replies:
        assert SIZES in failed_checks(grade(v, _reply_bodies(v, body))), body


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exchange_hard_sizes_in_their_roles(seed: int) -> None:
    v, old, new = _sizes("hard", seed)
    body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
    assert failed_checks(grade(v, list(v.reference))) == []
    swapped = body.replace(f"in {new} is out", "in \0 is out").replace(
        f"return for the {old}", f"return for the {new}"
    )
    swapped = swapped.replace("in \0 is out", f"in {old} is out")
    assert SIZES in failed_checks(grade(v, _reply_bodies(v, swapped)))


@cache
def _two_orders(band: str, seed: int) -> tuple[TaskVariant, str, str, str]:
    v = environment.variant("refund-damaged-item", band, seed)
    body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
    return v, str(v.params["order_id"]), str(v.params["declined_order_id"]), body


RDI = [(b, s) for b in ("hard", "expert") for s in (0, 1)]


@pytest.mark.parametrize(("band", "seed"), RDI)
def test_each_order_number_bound_to_its_item(band: str, seed: int) -> None:
    v, o, d, body = _two_orders(band, seed)
    assert o != d
    assert failed_checks(grade(v, list(v.reference))) == []
    refunded = f"${v.params['refund_cents'] / 100:,.2f}"
    honest = [
        f"Hi,\n\nOrder #{o}: I've refunded {refunded} to your card.\n\nOrder #{d}: I can't "
        "refund that one, it is outside our 30-day return window.",
        f"Hi,\n\nI can't refund the item from order #{d}, but I've refunded {refunded} for "
        f"order #{o}.",
        f"Hi,\n\nI refunded {refunded} (order #{o}). Order #{d} was not refunded: it is "
        "outside the return window.",
    ]
    swapped = [
        f"Hi,\n\nOrder #{d}: I've refunded {refunded} to your card.\n\nOrder #{o}: I can't "
        "refund that one, it is outside our 30-day return window.",
        f"Hi,\n\nI refunded {refunded} (order #{d}).",
    ]
    for text in honest:
        g = grade(v, _reply_bodies(v, text))
        assert ORDERS not in failed_checks(g), (text, failed_checks(g))
    for text in swapped:
        assert ORDERS in failed_checks(grade(v, _reply_bodies(v, text))), text


def test_refund_damaged_item_two_items_of_one_order_bind_nothing() -> None:
    # a final-sale item declined on the refunded order itself: no second order number
    for seed in range(40):
        v = environment.variant("refund-damaged-item", "hard", seed)
        if v.params["declined_order_id"] == v.params["order_id"]:
            break
    else:
        pytest.skip("no hard seed under 40 declines an item of the same order")
    assert failed_checks(grade(v, list(v.reference))) == []
