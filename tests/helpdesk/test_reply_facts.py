"""Facts a reply or escalation reason states beside its amounts (`families/_facts.py`;
issue 9, round 10's F1, F2, F4): each must be the episode's own. Every edit below passed at
score 1.0 before: the amounts stayed right and nothing read the other values."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall
from tests.helpdesk.test_families import failed_checks, grade

FACTS = "replies-state-own-facts"


def _edit(v: TaskVariant, tool: str, key: str, fn: Callable[[str], str]) -> list[ToolCall]:
    return [
        ToolCall(c.name, {**c.arguments, key: fn(c.arguments[key])}) if c.name == tool else c
        for c in v.reference
    ]


def _fails(v: TaskVariant, calls: list[ToolCall], check: str) -> None:
    g = grade(v, calls)
    assert g.status == "graded", g.error
    assert check in failed_checks(g) and not g.passed


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_order_status_wrong_eta_order_or_delivery_fails(band: str) -> None:
    v = environment.variant("order-status", band, 0)
    order = v.params["order_id"]
    _fails(
        v,
        _edit(v, "reply_to_customer", "body", lambda b: re.sub(r"2026-\d\d-\d\d", "2026-09-30", b)),
        FACTS,
    )
    _fails(
        v, _edit(v, "reply_to_customer", "body", lambda b: b.replace(f"#{order}", "#100001")), FACTS
    )
    _fails(
        v,
        _edit(v, "reply_to_customer", "body", lambda b: b + " It was delivered yesterday."),
        "reply-claims-no-delivery",
    )


@pytest.mark.parametrize(
    "extra",
    [
        " It hasn't been delivered yet; it will be delivered soon.",
        " Placed on June 2, 2026; expected 12 June.",
        " Tracking: 9405 5932 3632 2621.",
    ],
)
def test_order_status_honest_forms_pass(extra: str) -> None:
    v = environment.variant("order-status", "easy", 0)
    g = grade(v, _edit(v, "reply_to_customer", "body", lambda b: b + extra))
    assert g.passed, failed_checks(g)


def test_wrong_card_and_order_fail_in_duplicate_charge() -> None:
    v = environment.variant("duplicate-charge", "easy", 0)
    body = next(c.arguments["body"] for c in v.reference if c.name == "reply_to_customer")
    last4 = re.search(r"ending in (\d{4})", body)
    assert last4
    _fails(v, _edit(v, "reply_to_customer", "body", lambda b: b.replace(last4[1], "1111")), FACTS)
    order = v.params["order_id"]
    _fails(
        v, _edit(v, "reply_to_customer", "body", lambda b: b.replace(f"#{order}", "#100001")), FACTS
    )


def test_a_wrong_zip_fails() -> None:
    v = environment.variant("change-shipping-address", "easy", 0)
    _fails(
        v,
        _edit(v, "reply_to_customer", "body", lambda b: re.sub(r"\d{5}\.$", "10001.", b)),
        FACTS,
    )


def test_refunded_and_declined_orders_swapped_fail() -> None:
    v = environment.variant("refund-damaged-item", "hard", 0)
    a, b = str(v.params["order_id"]), str(v.params["declined_order_id"])
    swap = lambda t: t.replace(a, "\0").replace(b, a).replace("\0", b)  # noqa: E731
    _fails(v, _edit(v, "reply_to_customer", "body", swap), FACTS)


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_escalation_reason_names_the_escalated_order(band: str) -> None:
    v = environment.variant("refund-above-limit", band, 0)
    order = v.params["escalate_order_id"]
    _fails(
        v,
        _edit(v, "escalate_ticket", "reason", lambda r: r.replace(f"#{order}", f"#{order + 1}")),
        "escalation-states-own-facts",
    )
    if v.params["refund_order_id"]:
        other = v.params["refund_order_id"]
        _fails(
            v,
            _edit(v, "escalate_ticket", "reason", lambda r: r.replace(str(order), str(other))),
            "escalation-states-own-facts",
        )
