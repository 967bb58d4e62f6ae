"""refund-above-limit: the policy limit ($250.00) and the goodwill cap ($20.00) are allowed
only in their roles ("above my $250.00 limit"); stated bare or as an alternative to the
amount they fail (adversarial round 6, A1)."""

from __future__ import annotations

import pytest

from mcpgym_helpdesk import environment
from mcpgym_server import TaskVariant, ToolCall
from tests.helpdesk.test_families import _reply_bodies, failed_checks, grade

FAM = "refund-above-limit"


def _money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _with_reason(v: TaskVariant, reason: str) -> list[ToolCall]:
    out = []
    for c in v.reference:
        if c.name == "escalate_ticket":
            c = ToolCall(c.name, {**c.arguments, "reason": reason})
        out.append(c)
    return out


HEDGES = [
    "Please refund $250.00 on order #{oid} (or {esc} if approved in full).",
    "Refund $20.00 or {esc} on order #{oid}.",
    "Refund {esc} or $250.00 on order #{oid}, whichever billing approves.",
]
HONEST = [
    "Customer requests a refund of {esc} on order #{oid}, above my $250.00 limit.",
    "Refund of {esc} requested on order #{oid}; I can refund up to $250.00 myself.",
]


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_a_policy_figure_as_an_alternative_fails_the_reason(band: str) -> None:
    v = environment.variant(FAM, band, 0)
    fmt = {"esc": _money(v.params["escalate_cents"]), "oid": v.params["escalate_order_id"]}
    for text in HEDGES:
        g = grade(v, _with_reason(v, text.format(**fmt)))
        assert g.status == "graded", g.error
        assert "escalation-states-amount" in failed_checks(g), text
    for text in HONEST:
        g = grade(v, _with_reason(v, text.format(**fmt)))
        assert failed_checks(g) == [], (text, failed_checks(g))


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_a_policy_figure_as_an_alternative_fails_the_reply(band: str) -> None:
    v = environment.variant(FAM, band, 0)
    esc = _money(v.params["escalate_cents"])
    hedge = f"Billing will refund {esc}, or $250.00."
    g = grade(v, _reply_bodies(v, lambda body: f"{body} {hedge}"))
    assert g.status == "graded", g.error
    assert "reply-states-no-other-amount" in failed_checks(g)
    honest = "That is above the $250.00 limit I can refund myself."
    g = grade(v, _reply_bodies(v, lambda body: f"{body} {honest}"))
    assert failed_checks(g) == [], failed_checks(g)


def test_an_earlier_refund_equal_to_the_goodwill_cap_is_read_as_the_earlier_refund() -> None:
    # refund-damaged-item expert seed 6: the earlier price adjustment is $20.00, the same
    # figure as the goodwill cap; the reference's reply names it as the earlier refund
    v = environment.variant("refund-damaged-item", "expert", 6)
    assert v.params["prior_refund_cents"] == 2000
    g = grade(v, list(v.reference))
    assert g.status == "graded", g.error
    assert failed_checks(g) == []
