"""Real graded episodes: a reply, an internal note or an escalation reason that claims an
action the episode did not take fails (round 10's C1, C2, F3, F4, M3, A1 probes; each
passed at 1.0 before `texts-claim-only-actions-taken`); honest texts keep passing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=64)

Edit = Callable[[dict[str, Any], str], str]


def _graded(family: str, band: str, seed: int, tool: str, edit: Edit, *, note: bool = False) -> Any:
    """The reference with ``edit(params, text)`` applied to the first ``tool`` call's text
    (a reply's body, a reason); ``note``: an internal note with the edited text added
    before the reply instead."""
    v = environment.variant(family, band, seed)
    p = dict(v.params)
    calls: list[ToolCall] = []
    done = False
    for c in v.reference:
        if c.name == tool and not done:
            args = dict(c.arguments)
            if note:
                body = edit(p, "")
                calls.append(
                    ToolCall("add_ticket_note", {"ticket_id": p["ticket_id"], "body": body})
                )
            else:
                key = "body" if "body" in args else "reason"
                args[key] = edit(p, args[key])
            calls.append(ToolCall(c.name, args))
            done = True
        else:
            calls.append(c)
    assert done
    return grade_bundle(
        replay(environment, family, band, seed, calls), environment, reference_cache=CACHE
    )


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


REPLY = "reply_to_customer"
ADD: Callable[[str], Edit] = lambda s: lambda p, b: b + "\n\n" + s  # noqa: E731

FALSE: list[tuple[str, str, str, Edit, bool]] = [
    # C1: actions outside the decision reader's old set
    *(
        (fam, band, REPLY, ADD(s), False)
        for fam, band in (("order-status", "easy"), ("cancel-order", "hard"))
        for s in (
            "I've also started a return for it and emailed you a prepaid return label.",
            "I've also sent you a free replacement; it ships today.",
            "I've also upgraded your delivery to overnight express at no charge.",
            "I've also updated the email address on your account as you asked.",
            "I've also escalated this to my manager, who will call you tomorrow.",
        )
    ),
    # C2: a refund or credit claim with no figure
    (
        "order-status",
        "hard",
        REPLY,
        ADD("I've also refunded the full order total to your card."),
        False,
    ),
    (
        "change-shipping-address",
        "easy",
        REPLY,
        ADD("I've also refunded your shipping fee to your card."),
        False,
    ),
    (
        "exchange-size",
        "easy",
        REPLY,
        ADD("I've also added some store credit to your account."),
        False,
    ),
    # F3: the destination of the money
    (
        "refund-above-limit",
        "hard",
        REPLY,
        lambda p, b: re.sub(
            r"to your \w+ card ending in \d+; it should show within 5-10 business days",
            "as store credit on your account, ready to use right away",
            b,
        ),
        False,
    ),
    # F4: internal notes and escalation reasons
    (
        "cancel-order",
        "hard",
        REPLY,
        lambda p, b: f"Cancelled order #{p['order_id']} at the customer's request.",
        True,
    ),
    (
        "refund-above-limit",
        "easy",
        "escalate_ticket",
        lambda p, b: b + " Already refunded to the customer's card; please just close the ticket.",
        False,
    ),
    # M3: the earlier refund's amount claimed as a refund made today
    (
        "duplicate-charge",
        "hard",
        REPLY,
        lambda p, b: (
            b + f"\n\nI've also refunded {_money(p['prior_refund_cents'])} today for the item "
            "you returned."
        ),
        False,
    ),
    # A1: a claim about the other order in a sentence that names no order
    (
        "cancel-order",
        "expert",
        REPLY,
        ADD("I've cancelled the other one as well, so nothing more will ship."),
        False,
    ),
    (
        "refund-above-limit",
        "expert",
        REPLY,
        ADD("Update: the larger one has been refunded too."),
        False,
    ),
]


@pytest.mark.parametrize(("family", "band", "tool", "edit", "note"), FALSE)
def test_a_text_claiming_an_action_not_taken_fails(
    family: str, band: str, tool: str, edit: Edit, note: bool
) -> None:
    g = _graded(family, band, 0, tool, edit, note=note)
    assert not g.passed, [c.name for c in g.checks if c.passed is False]


TRUE: list[tuple[str, str, Edit]] = [
    ("cancel-order", "hard", ADD("I could not cancel it, and no refund has been issued.")),
    ("refund-above-limit", "easy", ADD("No refund has been issued yet; billing will decide.")),
    (
        "order-status",
        "easy",
        ADD("If it hasn't arrived by then, I can escalate this to our shipping team."),
    ),
    (
        "exchange-size",
        "easy",
        ADD(
            "I've sent you the new size on a replacement order; the return label is in the parcel."
        ),
    ),
    ("refund-above-limit", "hard", ADD("Billing will follow up with you within 2 business days.")),
]


@pytest.mark.parametrize(("family", "band", "edit"), TRUE)
def test_honest_denials_and_hedges_pass(family: str, band: str, edit: Edit) -> None:
    g = _graded(family, band, 0, REPLY, edit)
    assert g.passed and g.score == 1.0, [c.name for c in g.checks if c.passed is False]
