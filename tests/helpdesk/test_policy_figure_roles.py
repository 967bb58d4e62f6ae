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


# The limit passed off as the amount, with no alternative word (issue 9, section 4: the
# hole left open after the action-word rule was withdrawn, 59669ea): the figure in the
# place of the amount refunded fails; quoted in a rule it passes, in every band.
LIMIT_AS_AMOUNT = [
    "Refund the $250.00 limit on order #{oid}; {esc} was asked.",
    "I can refund $250.00 of it now; {esc} was asked on order #{oid}.",
    "Refund $250.00 (my limit) on order #{oid} instead of {esc}.",
    "Refund on order #{oid}: $250.00, my limit, rather than {esc}.",
    "Billing should refund {esc} on order #{oid} unless my $250.00 limit applies.",
    "Refund on order #{oid}: $250.00 max vs. {esc} requested.",
]
LIMIT_IN_A_RULE = [
    "Refunds above $250.00 need approval: customer requests {esc} on order #{oid}.",
    "Refunds over $250.00 go to billing; customer requests {esc} on order #{oid}.",
    "Customer requests {esc} on order #{oid}; my refund limit is $250.00.",
]


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
def test_the_limit_as_the_amount_fails_the_reason_and_in_a_rule_passes(band: str) -> None:
    for seed in (0, 1):
        v = environment.variant(FAM, band, seed)
        fmt = {"esc": _money(v.params["escalate_cents"]), "oid": v.params["escalate_order_id"]}
        for text in LIMIT_AS_AMOUNT:
            g = grade(v, _with_reason(v, text.format(**fmt)))
            assert "escalation-states-amount" in failed_checks(g), (band, seed, text)
        for text in LIMIT_IN_A_RULE:
            g = grade(v, _with_reason(v, text.format(**fmt)))
            assert failed_checks(g) == [], (band, seed, text, failed_checks(g))


def test_the_limit_as_the_amount_fails_the_reply() -> None:
    v = environment.variant(FAM, "easy", 0)
    g = grade(v, _reply_bodies(v, lambda body: f"{body} I can refund $250.00 of it now."))
    assert "reply-states-no-other-amount" in failed_checks(g)
    honest = "Refunds over $250.00 go to our billing team for approval."
    g = grade(v, _reply_bodies(v, lambda body: f"{body} {honest}"))
    assert failed_checks(g) == [], failed_checks(g)


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_a_policy_figure_as_the_refund_fails_refund_damaged_item(band: str) -> None:
    # the refund limit or the goodwill cap stated where the refund goes fails; quoted as
    # the rule it is, it passes (seeds 0 and 1; expert seed 6's $20.00 earlier refund is
    # the test above)
    for seed in (0, 1):
        v = environment.variant("refund-damaged-item", band, seed)
        if v.params["refund_cents"] in (25000, 2000):
            continue  # the figure is the refund itself there
        for added in (
            "That is the $250.00 limit I can refund.",
            "I've also issued the $20.00 goodwill cap.",
            "Refunded: the $250.00 maximum.",
        ):
            g = grade(v, _reply_bodies(v, lambda body, added=added: f"{body} {added}"))
            assert "reply-states-amount" in failed_checks(g), (band, seed, added)


@pytest.mark.parametrize("band", ["easy", "expert"])
def test_a_policy_figure_quoted_as_the_rule_passes_refund_damaged_item(band: str) -> None:
    for seed in (0, 1):
        v = environment.variant("refund-damaged-item", band, seed)
        if v.params["refund_cents"] in (25000, 2000):
            continue  # the figure is the refund itself there
        for added in (
            "Refunds above $250.00 would need billing's approval.",
            "Goodwill credit is capped at $20.00 per order.",
        ):
            g = grade(v, _reply_bodies(v, lambda body, added=added: f"{body} {added}"))
            assert failed_checks(g) == [], (band, seed, added, failed_checks(g))


# The guard `texts-state-no-other-amount` reads the policy figures in their role
# (`POLICY_ROLES`, yielding to the amounts the texts may state otherwise): a rule quoting one
# passes in every family and text; the figure as an amount or an alternative fails.
GUARD = "texts-state-no-other-amount"
RULES = (
    "Refunds above $250.00 would need billing's approval.",
    "Goodwill credit is capped at $20.00 per order.",
)
MISPLACED = (
    "You could get $20.00 or $250.00 back if you prefer.",
    "I've added the $20.00 goodwill cap, or $250.00 if billing agrees.",
    "Refunded: the $250.00 maximum.",
)


@pytest.mark.parametrize("family", ["order-status", "change-shipping-address", "exchange-size"])
def test_the_guard_reads_a_policy_figure_in_its_role(family: str) -> None:
    v = environment.variant(family, "easy", 0)
    for added in RULES:
        g = grade(v, _reply_bodies(v, lambda body, added=added: f"{body} {added}"))
        assert g.status == "graded", g.error
        assert failed_checks(g) == [], (added, failed_checks(g))
    for added in MISPLACED:
        g = grade(v, _reply_bodies(v, lambda body, added=added: f"{body} {added}"))
        assert GUARD in failed_checks(g), (added, failed_checks(g))


def test_a_rule_in_an_internal_note_passes_the_guard() -> None:
    v = environment.variant("refund-damaged-item", "easy", 0)
    ticket = v.params["ticket_id"]
    calls = list(v.reference)
    calls.insert(-1, ToolCall("add_ticket_note", {"ticket_id": ticket, "body": RULES[0]}))
    g = grade(v, calls)
    assert g.status == "graded", g.error
    assert failed_checks(g) == [], failed_checks(g)
