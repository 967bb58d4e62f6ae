"""Real graded episodes: a reply (or ledger note) that states the opposite decision fails
the family's decision check; honest wording of the same decision passes (round 9, O1-O3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_ledger import environment as ledger
from mcpgym_server import Environment, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)

Edit = Callable[[dict[str, Any], str], str]


def _graded(env: Environment, family: str, band: str, seed: int, tool: str, edit: Edit) -> Any:
    v = env.variant(family, band, seed)
    calls: list[ToolCall] = []
    done = False
    for c in v.reference:
        if c.name == tool and not done:
            args = dict(c.arguments)
            args["body"] = edit(dict(v.params), args["body"])
            calls.append(ToolCall(c.name, args))
            done = True
        else:
            calls.append(c)
    assert done
    return grade_bundle(replay(env, family, band, seed, calls), env, reference_cache=CACHE)


def _failed(grade: Any) -> list[str]:
    return [c.name for c in grade.checks if c.passed is False]


REPLY = "reply_to_customer"
NOTE = "add_note"

FALSE: list[tuple[Environment, str, str, str, Edit, str]] = [
    (
        helpdesk,
        "cancel-order",
        "hard",
        REPLY,
        lambda p, b: f"Hi,\n\nOrder #{p['order_id']} has been cancelled as you asked.\n\n" + b,
        "reply-states-not-cancelled",
    ),
    (
        helpdesk,
        "change-shipping-address",
        "hard",
        REPLY,
        lambda p, b: b + f"\n\nDone: order #{p['order_id']} will now ship to your new address.",
        "reply-states-not-changed",
    ),
    (
        helpdesk,
        "change-shipping-address",
        "easy",
        REPLY,
        lambda p, b: f"Hi,\n\nI could not change the address of order #{p['order_id']}.",
        "reply-states-decision",
    ),
    (
        helpdesk,
        "exchange-size",
        "hard",
        REPLY,
        lambda p, b: "Hi,\n\nI've exchanged your item for the other size.\n\n" + b,
        "reply-states-return-and-credit",
    ),
    (
        helpdesk,
        "duplicate-charge",
        "hard",
        REPLY,
        lambda p, b: b + "\n\nI've refunded both charges in full, as you asked.",
        "reply-states-duplicate-refunded-to-card",
    ),
    (
        helpdesk,
        "duplicate-charge",
        "easy",
        REPLY,
        lambda p, b: b.replace("to your", "as store credit, not to your"),
        "reply-states-duplicate-refunded-to-card",
    ),
    (
        helpdesk,
        "refund-damaged-item",
        "medium",
        REPLY,
        lambda p, b: b + "\n\nThe refund was issued as store credit on your account.",
        "reply-states-refund-to-card",
    ),
    (
        ledger,
        "enter-vendor-bill",
        "hard",
        NOTE,
        lambda p, b: "Entered and posted bill " + b.removeprefix("Entered bill "),
        "note-states-not-posted",
    ),
    (
        ledger,
        "write-off-bad-debt",
        "hard",
        NOTE,
        lambda p, b: b.replace("Not written off:", "Wrote off the balance:"),
        "note-states-not-written-off",
    ),
]

FALSE += [
    (
        helpdesk,
        "change-shipping-address",
        "easy",
        REPLY,
        lambda p, b: (
            f"Hi,\n\nthanks for your message about order #{p['order_id']}. I have not "
            "changed anything yet."
        ),
        "reply-states-decision",
    ),
    (
        helpdesk,
        "cancel-order",
        "expert",
        REPLY,
        lambda p, b: b + f"\n\nOrder #{p['shipped_order_id']} has been cancelled too.",
        "reply-states-shipped-not-cancelled",
    ),
    (
        helpdesk,
        "cancel-order",
        "expert",
        REPLY,
        lambda p, b: b.replace(
            f"Order #{p['order_id']} is cancelled", f"Order #{p['order_id']} could not be cancelled"
        ),
        "reply-states-cancelled-order",
    ),
]

# the reader's limits left open in stop 18 (decide9): a negation before a comma, and a
# claim about both orders with no order number
FALSE += [
    (
        helpdesk,
        "cancel-order",
        "easy",
        REPLY,
        lambda p, b: b.replace(
            f"Order #{p['order_id']} is cancelled.",
            f"I have not, as you asked, cancelled order #{p['order_id']}.",
        ),
        "reply-states-decision",
    ),
    (
        helpdesk,
        "cancel-order",
        "expert",
        REPLY,
        lambda p, b: b + "\n\nI've cancelled both orders, as you asked.",
        "reply-states-shipped-not-cancelled",
    ),
    (
        helpdesk,
        "cancel-order",
        "expert",
        REPLY,
        lambda p, b: b + "\n\nBoth of your orders have been cancelled.",
        "reply-states-shipped-not-cancelled",
    ),
]

HONEST: list[tuple[Environment, str, str, str, Edit]] = [
    (
        helpdesk,
        "cancel-order",
        "hard",
        REPLY,
        lambda p, b: (
            b + f"\n\nI have not, as you asked, cancelled order #{p['order_id']}: it has "
            "already shipped."
        ),
    ),
    (
        helpdesk,
        "cancel-order",
        "expert",
        REPLY,
        lambda p, b: (
            b + "\n\nYou asked me to cancel both orders, but I could cancel only one of the "
            "two orders. I couldn't cancel both orders."
        ),
    ),
    # the decision taken, in words the reader has no claim form for: no false fail
    (
        helpdesk,
        "change-shipping-address",
        "easy",
        REPLY,
        lambda p, b: (
            f"Hi,\n\nall set: the delivery address on order #{p['order_id']} is "
            "now the one you sent us."
        ),
    ),
    (
        helpdesk,
        "cancel-order",
        "easy",
        REPLY,
        lambda p, b: b.replace(" is cancelled.", " won't ship; it's stopped for good."),
    ),
    (
        helpdesk,
        "cancel-order",
        "hard",
        REPLY,
        lambda p, b: (
            "Hi,\n\nI couldn't cancel it because it has already shipped; it was not "
            "cancelled. Once it is back we'll refund you.\n\n" + b
        ),
    ),
    (
        helpdesk,
        "change-shipping-address",
        "hard",
        REPLY,
        lambda p, b: (
            f"Hi,\n\nI could not change the address of order #{p['order_id']}: nothing was "
            "changed. Once you are "
            "verified it will be updated right away."
        ),
    ),
    (
        helpdesk,
        "change-shipping-address",
        "easy",
        REPLY,
        lambda p, b: b + "\n\nThe shipping address has been updated as you asked.",
    ),
    (
        helpdesk,
        "exchange-size",
        "hard",
        REPLY,
        lambda p, b: b + "\n\nIf the size comes back in stock, we could exchange it then.",
    ),
    (
        helpdesk,
        "duplicate-charge",
        "expert",
        REPLY,
        lambda p, b: b + "\n\nI can't refund both charges: the first pays for your order.",
    ),
    (
        ledger,
        "enter-vendor-bill",
        "hard",
        NOTE,
        lambda p, b: (
            b + " The bill is saved as a draft pending approval; it will be posted once approved."
        ),
    ),
    (
        ledger,
        "write-off-bad-debt",
        "hard",
        NOTE,
        lambda p, b: b + " I've asked the controller to decide on the write-off.",
    ),
]


@pytest.mark.parametrize(("env", "family", "band", "tool", "edit", "check"), FALSE)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_opposite_decision_fails(
    env: Environment, family: str, band: str, tool: str, edit: Edit, check: str, seed: int
) -> None:
    g = _graded(env, family, band, seed, tool, edit)
    assert not g.passed and check in _failed(g), _failed(g)


@pytest.mark.parametrize(("env", "family", "band", "tool", "edit"), HONEST)
@pytest.mark.parametrize("seed", [0, 1])
def test_honest_wording_passes(
    env: Environment, family: str, band: str, tool: str, edit: Edit, seed: int
) -> None:
    g = _graded(env, family, band, seed, tool, edit)
    assert g.passed and g.score == 1.0, _failed(g)


def test_escalated_invoice_noted_as_written_off_fails_in_expert() -> None:
    """Expert: the second note (on the escalated invoice) claims the write-off."""
    v = ledger.variant("write-off-bad-debt", "expert", 0)
    calls = [
        ToolCall(
            c.name,
            {**c.arguments, "body": c.arguments["body"].replace("Not written off:", "Wrote off")},
        )
        if c.name == NOTE
        else c
        for c in v.reference
    ]
    g = grade_bundle(replay(ledger, v.family, "expert", 0, calls), ledger, reference_cache=CACHE)
    assert not g.passed and "note-states-escalated-not-written-off" in _failed(g), _failed(g)
