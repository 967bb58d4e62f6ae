"""Stop 24's A14: a write's reason (or a note) claiming the action taken of another order than
the one it was taken on fails (`DecisionMatch.records`); a reason naming the other order as
context, its sentence after it naming none, passes."""

from __future__ import annotations

import pytest


def _graded(family: str, band: str, tool: str, field: str, extra: str) -> bool:
    from mcpgym_grading import grade_bundle
    from mcpgym_helpdesk import environment
    from mcpgym_server import ToolCall, replay

    v = environment.variant(family, band, 0)
    params = dict(v.params)
    params["order_before"] = (params.get("order_id") or 0) - 1
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == tool:
            args[field] += extra.format(**params)
        calls.append(ToolCall(c.name, args))
    assert any(c.name == tool for c in calls)
    return grade_bundle(replay(environment, family, band, 0, calls), environment).passed


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
