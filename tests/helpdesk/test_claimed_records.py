"""Stop 24's A14: a write's reason (or a note) claiming the action taken of another order than
the one it was taken on fails (`DecisionMatch.records`); a reason naming the other order as
context, its sentence after it naming none, passes."""

from __future__ import annotations

import pytest


def _graded(family: str, band: str, tool: str, field: str, extra: str, seed: int = 0) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, seed)
    params = dict(v.params)
    params["order_before"] = (params.get("order_id") or 0) - 1
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == tool:
            args[field] += extra.format(**params)
        calls.append(ToolCall(c.name, args))
    assert any(c.name == tool for c in calls)
    return grade_bundle(replay(environment, family, band, seed, calls), environment).passed


@pytest.mark.parametrize(
    ("family", "band", "tool", "extra"),
    [
        (
            "refund-damaged-item",
            "hard",
            "issue_refund",
            "; order #{declined_order_id} refunded in full too",
        ),
        (
            "refund-damaged-item",
            "expert",
            "issue_refund",
            ". Refunded order #{declined_order_id} to the card.",
        ),
        (
            "refund-above-limit",
            "hard",
            "issue_refund",
            "; order #{escalate_order_id} also refunded in full",
        ),
        ("cancel-order", "easy", "cancel_order", "; also refunded order #{order_before} in full"),
        ("cancel-order", "medium", "cancel_order", "; order #{order_before} cancelled as well"),
    ],
)
def test_a_reason_claiming_another_order_fails(
    family: str, band: str, tool: str, extra: str
) -> None:
    assert _graded(family, band, tool, "reason", extra) is False


@pytest.mark.parametrize(
    ("family", "band", "tool", "extra"),
    [
        (
            "refund-damaged-item",
            "hard",
            "issue_refund",
            ". Customer also asked about #{declined_order_id}, declined per policy. "
            "Refund to card.",
        ),
        (
            "refund-damaged-item",
            "expert",
            "issue_refund",
            "; order #{declined_order_id} not refunded",
        ),
        (
            "refund-above-limit",
            "hard",
            "issue_refund",
            ". Order #{escalate_order_id} is above the limit and went to billing. Refund to card.",
        ),
        (
            "cancel-order",
            "expert",
            "cancel_order",
            ". Customer also asked about order #{shipped_order_id} (already shipped). Cancelled.",
        ),
    ],
)
def test_a_reason_naming_another_order_as_context_passes(
    family: str, band: str, tool: str, extra: str
) -> None:
    assert _graded(family, band, tool, "reason", extra) is True


# cancel-order expert #1: the order cancelled was paid, so `cancel_order` refunds it and the
# refund's audit row holds the system's copy of the reason, prefixed `order cancelled:`.
# Read as the agent's text, that prefix claimed the cancellation of the shipped order the
# reason names (stop 25's fresh-clone trial: 10 of 20 seeds failed these honest reasons).
@pytest.mark.parametrize(
    "extra",
    [
        "; customer also asked about order #{shipped_order_id}; that one is declined per policy",
        "; order #{shipped_order_id} has shipped and cannot be cancelled",
        " (order #{shipped_order_id} already shipped, not cancelled)",
    ],
)
def test_a_cancelled_paid_orders_reason_naming_the_shipped_order_passes(extra: str) -> None:
    from mcpgym_helpdesk import environment

    assert environment.variant("cancel-order", "expert", 1).params["order_status"] == "paid"
    assert _graded("cancel-order", "expert", "cancel_order", "reason", extra, seed=1) is True


def test_a_cancelled_paid_orders_reason_claiming_the_shipped_order_still_fails() -> None:
    extra = "; order #{shipped_order_id} cancelled as well"
    assert _graded("cancel-order", "expert", "cancel_order", "reason", extra, seed=1) is False
