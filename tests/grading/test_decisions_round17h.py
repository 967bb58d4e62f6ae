"""Round 17 (adv/round17rub/fresh17h.py, helper adv27h): claims of an action in forms the
decision reader did not read on main fb0151c, where each wrong text passed at 1.0 on
helpdesk (cancel-order hard, refund-above-limit, refund-damaged-item hard/expert,
duplicate-charge): the future perfect (31/42 episodes), the noun said to exist on the record
(42/42), the gerund with a word of success (42/42), the card credited (24/24 on
refund-above-limit), a participle of another language after an English key (36/42), the
original charge refunded or the refund doubled (24/24 each on duplicate-charge); and an
honest `Only one of the two charges was refunded` read as both refunded (0/24). The
controls pass on both."""

from __future__ import annotations

import pytest

from mcpgym_grading._decisions import claims, decisions


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("By the time you read this, order #7 will have been cancelled.", "cancel"),
        ("By the time you read this, order #7 will have been refunded.", "refund"),
        ("Order #7 will have already been refunded by tomorrow.", "refund"),
        ("There is now a cancellation on order #7.", "cancel"),
        ("There's now a refund on order #7.", "refund"),
        ("There has been a full refund for order #7.", "refund"),
        ("Cancelling order #7 went fine.", "cancel"),
        ("Refunding order #7 went smoothly.", "refund"),
        ("The refund for order #7 was successful.", "refund"),
        ("I've credited your card for order #7.", "refund"),
        ("I've credited your Visa card for order #7.", "card-refund"),
        ("Order #7 - reembolsado.", "refund"),
        ("Order #7: remboursée.", "refund"),
        ("Order #7 - annulée.", "cancel"),
        ("Order #7 - storniert.", "cancel"),
        ("I've refunded the original charge too.", "refund-both"),
        ("The original charge has also been refunded.", "refund-both"),
        ("I refunded the duplicate charge twice, to be safe.", "refund-both"),
        ("I refunded 200% of the duplicate charge.", "refund-both"),
    ],
)
def test_round17_a_claim_in_another_form(text: str, action: str) -> None:
    assert claims(text, action)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Only one of the two charges was refunded: the duplicate.", "refund-both"),
        ("I refunded the duplicate of the original charge.", "refund-both"),
        ("I refunded 100% of the duplicate charge; the original charge stands.", "refund-both"),
        ("There's no refund on order #7.", "refund"),
        ("There will be a refund on order #7 once billing approves it.", "refund"),
        ("Refunding order #7 was not possible.", "refund"),
        ("Order #7 could not be cancelled by us, as it has shipped.", "cancel"),
        ("I've credited your account with store credit.", "card-refund"),
        ("You were charged twice; I refunded the duplicate.", "refund-both"),
    ],
)
def test_round17_honest_forms_claim_nothing(text: str, action: str) -> None:
    assert not claims(text, action)


def test_round17_a_denied_future_perfect_is_denied() -> None:
    read = decisions("Order #7 will not have been refunded by then.", ("refund",))
    assert not any(d.done for d in read)
