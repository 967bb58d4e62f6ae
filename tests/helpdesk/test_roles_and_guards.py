"""Issue 9 section 4, round 4 on helpdesk's rubrics: a team shotgun, swapped amounts and soft
guards do not pass; honest replies naming a second true figure in its role still pass (the
inputs of adv/round4 helpdesk_team_shotgun, helpdesk_swapped_amounts, fp_money_context,
soft_guards)."""

from __future__ import annotations

import pytest

from mcpgym_grading import Grade, ReferenceCache, grade_bundle
from mcpgym_helpdesk import environment
from mcpgym_helpdesk.families._wording import money
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
BANDS = ("easy", "medium", "hard", "expert")


def grade(variant: TaskVariant, calls: list[ToolCall]) -> Grade:
    bundle = replay(environment, variant.family, variant.band, variant.seed, calls)
    return grade_bundle(bundle, environment, reference_cache=CACHE)


def failed(g: Grade) -> list[str]:
    return [c.name for c in g.checks if c.passed is False]


def edited(variant: TaskVariant, tool: str, key: str, edit) -> list[ToolCall]:  # noqa: ANN001
    """The reference with ``edit(text)`` applied to argument ``key`` of every ``tool`` call."""
    return [
        ToolCall(c.name, {**c.arguments, key: edit(c.arguments[key])}) if c.name == tool else c
        for c in variant.reference
    ]


def swap(text: str, a: str, b: str) -> str:
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


# ---- refund-above-limit: the escalation is to billing, once --------------------------------


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize(
    "teams", [("returns", "fraud", "management"), ("fraud",), ("billing",)], ids=str
)
def test_escalating_to_more_teams_or_twice_fails(band: str, teams: tuple[str, ...]) -> None:
    variant = environment.variant("refund-above-limit", band, 0)
    calls: list[ToolCall] = []
    for c in variant.reference:
        calls.append(c)
        if c.name == "escalate_ticket":
            calls += [ToolCall(c.name, {**c.arguments, "team": t}) for t in teams]
    g = grade(variant, calls)
    assert not g.passed, (teams, g.score)
    assert "escalated-to-billing" in failed(g)


@pytest.mark.parametrize("band", BANDS)
def test_refund_above_limit_reference_passes(band: str) -> None:
    for seed in range(2):
        variant = environment.variant("refund-above-limit", band, seed)
        g = grade(variant, list(variant.reference))
        assert g.passed and g.score == 1.0, (seed, failed(g))


# ---- refund-above-limit hard/expert: each amount in its role ------------------------------


@pytest.mark.parametrize("band", ("hard", "expert"))
@pytest.mark.parametrize("seed", range(2))
def test_swapped_amounts_in_the_reply_fail(band: str, seed: int) -> None:
    variant = environment.variant("refund-above-limit", band, seed)
    small, big = money(variant.params["refund_cents"]), money(variant.params["escalate_cents"])
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: swap(t, small, big)))
    assert not g.passed
    assert "reply-states-refund-amount" in failed(g)


@pytest.mark.parametrize("band", ("hard", "expert"))
def test_swapped_amounts_in_the_escalation_reason_fail(band: str) -> None:
    variant = environment.variant("refund-above-limit", band, 0)
    small, big = money(variant.params["refund_cents"]), money(variant.params["escalate_cents"])
    g = grade(variant, edited(variant, "escalate_ticket", "reason", lambda t: swap(t, small, big)))
    assert not g.passed
    assert "escalation-states-amount" in failed(g)
    listed = edited(variant, "escalate_ticket", "reason", lambda t: f"{t} Amounts: {small}, {big}.")
    assert not grade(variant, listed).passed


HONEST_REPLIES = (
    "Hi,\n\nI've issued a refund of {small} for the cook set to your card. The other item "
    "({big}) is above my $250.00 refund limit, so I've escalated it to billing.",
    "Hi,\n\n{small} has been refunded to your card. Your {big} refund for the other item is more "
    "than I can approve myself; our billing team will follow up within 2 business days.",
    "Hi,\n\nI refunded {small} for the first item, and passed your {big} request for the second "
    "one to billing, who will follow up.",
    "Hi,\n\nGood news: your refund of {small} is on its way. For the second item, {big} is over "
    "my limit; I've sent it to our billing team, who will follow up.",
    "Hi,\n\nI can't refund the {big} for the second item myself as it's above my limit, so "
    "billing will review it and follow up. The first item is a different story: I've refunded "
    "the {small} to your card.",
    "Hi,\n\nThe refund for the first item ({small}) has been processed to your card. The {big} "
    "for the second needs approval from our billing team, who will follow up with you.",
    # round 5, F3: ", so" cuts the clause; "couldn't" / "not refunded" are the escalation's
    "Hi,\n\nI've issued a refund of {small}. I couldn't refund the {big} on the other order "
    "myself, so I've asked our billing team to do it.",
    "Hi,\n\nI've refunded {small} for the first item. I have not refunded the {big} for the "
    "other: it is above my limit, so I've passed it to our billing team.",
)


@pytest.mark.parametrize("band", ("hard", "expert"))
def test_refund_words_on_the_escalated_amount_fail(band: str) -> None:
    # round 5, R1: "back on your card" on the escalated amount, the refund with no cue
    variant = environment.variant("refund-above-limit", band, 0)
    body = (
        f"Billing reviewed it: {money(variant.params['escalate_cents'])} is back on your card "
        f"today. As for {money(variant.params['refund_cents'])}, that one is pending."
    )
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda _: body))
    assert "reply-states-refund-amount" in failed(g)


@pytest.mark.parametrize("band", ("hard", "expert"))
@pytest.mark.parametrize("template", HONEST_REPLIES)
def test_honest_rephrasings_pass(band: str, template: str) -> None:
    variant = environment.variant("refund-above-limit", band, 1)
    body = template.format(
        small=money(variant.params["refund_cents"]), big=money(variant.params["escalate_cents"])
    )
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda _: body))
    assert g.passed, failed(g)
    assert "reply-states-refund-amount" not in failed(g)


# ---- true context figures: allowed in their role, the candidate answers refused ----------


def prior_refund(variant: TaskVariant) -> int:
    cents = variant.params["prior_refund_cents"]
    assert cents
    return int(cents)


@pytest.mark.parametrize("band", ("hard", "expert"))
@pytest.mark.parametrize(
    "sentence",
    (
        " The earlier refund of {prior} for the item you returned is not affected.",
        " Your previous refund of {prior} for the returned item stays as it is.",
        " The {prior} you were refunded earlier for the returned item is unaffected.",
        # round 5, F4: "refunded" is both amounts' word; the for phrase says which
        " Your first payment stays, since it paid for the order; the {prior} you were refunded"
        " for the returned item was correct and hasn't changed.",
        " You were refunded {prior} for the returned item, and that stands.",
        " The {prior} we credited you for the item you sent back is unchanged.",
    ),
)
def test_duplicate_charge_may_name_the_earlier_refund(band: str, sentence: str) -> None:
    variant = environment.variant("duplicate-charge", band, 0)
    extra = sentence.format(prior=money(prior_refund(variant)))
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: t + extra))
    assert g.passed, failed(g)


@pytest.mark.parametrize("band", ("hard", "expert"))
def test_duplicate_charge_earlier_refund_as_the_refund_fails(band: str) -> None:
    variant = environment.variant("duplicate-charge", band, 0)
    prior, dup = money(prior_refund(variant)), money(variant.params["duplicate_cents"])
    for extra in (
        f" I've refunded {prior} and {dup}.",
        f" Refunded: {prior}.",
        f" I've refunded {prior} for the duplicate charge.",
        f" The {dup} you were refunded for the returned item stands.",
    ):
        g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: t + extra))  # noqa: B023
        assert "reply-states-amount" in failed(g), extra
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: swap(t, dup, prior)))
    assert "reply-states-amount" in failed(g)


def test_refund_damaged_item_swapped_prior_adjustment_fails() -> None:
    variant = environment.variant("refund-damaged-item", "expert", 0)
    prior, refund = money(prior_refund(variant)), money(variant.params["refund_cents"])
    g = grade(
        variant, edited(variant, "reply_to_customer", "body", lambda t: swap(t, refund, prior))
    )
    assert "reply-states-amount" in failed(g)
    assert not g.passed
    honest = f" (Put simply: {prior} was refunded earlier as a price adjustment.)"
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: t + honest))
    assert g.passed, failed(g)


def test_the_whole_order_total_stays_refused() -> None:
    """refund-damaged-item: the order total is the wrong answer this family tempts (refund
    the whole order): a reply naming it, even as context, does not state the refund."""
    variant = environment.variant("refund-damaged-item", "easy", 0)
    bundle = replay(environment, variant.family, variant.band, variant.seed, variant.reference)
    db = bundle.open_final_db()
    try:
        (total,) = db.execute(
            "SELECT total_cents FROM orders WHERE id = ?", (variant.params["order_id"],)
        ).fetchone()
    finally:
        db.close()
    extra = f" Your order came to {money(total)} in all."
    g = grade(variant, edited(variant, "reply_to_customer", "body", lambda t: t + extra))
    assert "reply-states-amount" in failed(g)


# ---- guards whose failure means the task was done wrongly are required -------------------

REQUIRED_GUARDS = {
    "refund-above-limit": (
        "escalated-to-billing",
        "no-other-team",
        "escalation-states-amount",
        "reply-states-no-other-amount",
    ),
    "change-shipping-address": ("not-escalated",),
}


@pytest.mark.parametrize("family", sorted(REQUIRED_GUARDS))
def test_guards_are_required(family: str) -> None:
    checks = {c.name: c for c in environment.families[family].rubric.checks}
    for name in REQUIRED_GUARDS[family]:
        assert checks[name].required, name


def test_escalating_a_hard_address_change_fails() -> None:
    variant = environment.variant("change-shipping-address", "hard", 0)
    ticket = variant.params["ticket_id"]
    escalate = ToolCall(
        "escalate_ticket", {"ticket_id": ticket, "team": "fraud", "reason": "ZIP differs"}
    )
    calls = list(variant.reference)
    at = next(i for i, c in enumerate(calls) if c.name == "reply_to_customer")
    g = grade(variant, [*calls[:at], escalate, *calls[at:]])
    assert "not-escalated" in failed(g)
    assert not g.passed
