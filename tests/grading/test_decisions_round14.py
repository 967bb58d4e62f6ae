"""Round 14 (adv/round14rub/claims14.py): an affirmation after the sentence that names an
action claims it (``You asked me to cancel order #7. Done.``), a customer's quote the agent
affirms is read as the agent's words, and refund-both's base form claims nothing without a
word of two charges (a ticked ``Refund order #7``)."""

from __future__ import annotations

import pytest

from mcpgym_grading._decisions import decisions
from mcpgym_grading._quoted import unquoted


def _read(text: str) -> set[tuple[str, bool | None]]:
    return {(d.action, d.done) for d in decisions(text)}


@pytest.mark.parametrize(
    "text",
    [
        "Please cancel order #7, I don't need it after all. Done.",
        "You asked me to cancel order #7. Done, that's handled.",
        "Please cancel order #7.\n\nYes: all taken care of now.",
        "Wondering whether order #7 was cancelled? It was.",
        "You asked me to cancel order #7. Consider it done.",
    ],
)
def test_an_affirmation_after_the_request_claims_it(text: str) -> None:
    assert ("cancel", True) in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "You asked me to cancel order #7. I'm sorry, I can't: it has shipped.",
        "You asked me to cancel order #7. Sure, but only once it is delivered.",
        "Would you like me to cancel order #7? Just reply and it's done.",
        "If you want, I can cancel order #7. Done deal?",
        "I couldn't cancel order #7. Done: the tracking number is below.",
    ],
)
def test_no_affirmation_no_claim(text: str) -> None:
    assert ("cancel", True) not in _read(text)


CUSTOMER = "Hi,\n\nPlease cancel order #100494, I don't need it after all.\n\nBest,\nAlex"


@pytest.mark.parametrize(
    "reply",
    [
        'You wrote: "Please cancel order #100494, I don\'t need it after all." Done.',
        "> Please cancel order #100494, I don't need it after all.\n\nDone, that's handled.",
        "As you asked (\"Please cancel order #100494, I don't need it after all.\"), it's done.",
    ],
)
def test_an_affirmed_quote_is_the_agents_claim(reply: str) -> None:
    kept = unquoted(reply, CUSTOMER)
    assert "#100494" in kept
    assert ("cancel", True) in _read(kept)


@pytest.mark.parametrize(
    "reply",
    [
        'You wrote: "Please cancel order #100494, I don\'t need it after all." Sorry, no.',
        "> Please cancel order #100494, I don't need it after all.\n\nSorry, it has shipped.",
    ],
)
def test_a_quote_answered_otherwise_is_still_dropped(reply: str) -> None:
    assert "#100494" not in unquoted(reply, CUSTOMER)


@pytest.mark.parametrize(
    "text", ["- [x] Refund order #7", "\u2705 Refund order #7", "Done: refund order #7"]
)
def test_a_ticked_refund_of_one_order_is_no_refund_of_both(text: str) -> None:
    assert _read(text) == {("refund", True)}


def test_a_ticked_refund_of_both_charges_still_claims_both() -> None:
    assert ("refund-both", True) in _read("- [x] Refund both charges on order #7")
