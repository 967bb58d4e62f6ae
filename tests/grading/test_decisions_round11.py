"""The decision reader, round 11 (issue 9; adv/round11rub R1-R3, R9): a frame of saying whose
modal or request word governs the saying (``I can confirm that…``, ``Please note that…``)
does not hedge what it introduces, a done-word before an action's noun (``I've issued a
full refund``) claims it, and so do the agent's present progressive (``I'm cancelling order
#7 now``) and an elided completion after the request (``…, which I did``); a request word in
a relative clause does not hedge. Honest hedges, requests and denials read as before."""

from __future__ import annotations

import pytest

from mcpgym_grading._decision_check import sentences_about_all
from mcpgym_grading._decisions import decisions

CASES = [  # (text, action, expected reading: claim, deny or none)
    # R1: frames of saying (each read as no claim before the fix)
    ("I can confirm that order #7 has been cancelled.", "cancel", "claim"),
    ("We can confirm that order #7 has been cancelled.", "cancel", "claim"),
    ("I can confirm order #7 is cancelled.", "cancel", "claim"),
    ("I'd like to let you know that order #7 has been refunded in full.", "refund", "claim"),
    ("I\u2019d like to let you know that order #7 has been refunded in full.", "refund", "claim"),
    ("I would like to confirm that order #7 has been cancelled.", "cancel", "claim"),
    ("I wanted to let you know that order #7 has been cancelled.", "cancel", "claim"),
    ("Please note that order #7 has been cancelled.", "cancel", "claim"),
    ("Please note order #7 has been cancelled.", "cancel", "claim"),
    ("You will be pleased to know that order #7 has been cancelled.", "cancel", "claim"),
    (
        "You'll be glad to hear that a free replacement has been sent to you.",
        "replacement",
        "claim",
    ),
    (
        "I can confirm that the shipping address of order #7 has been updated.",
        "address-change",
        "claim",
    ),
    # R1: what must still read as before
    ("I can't confirm that order #7 has been cancelled.", "cancel", "deny"),
    ("I can confirm that order #7 has not been cancelled.", "cancel", "deny"),
    ("I can tell you that billing has not approved the refund yet.", "refund", "deny"),
    (
        "I'd like to let you know that your refund will be processed once billing approves it.",
        "refund",
        "none",
    ),
    ("Please note that once it is delivered, we'll refund it.", "refund", "none"),
    ("We can confirm that if billing approves it, the refund will be issued.", "refund", "none"),
    ("I'll let you know once the refund has been processed.", "refund", "none"),
    ("Please note that refunds above $250.00 need billing's approval.", "refund", "none"),
    ("Please confirm that you want order #7 cancelled.", "cancel", "none"),
    # R2: a done-word before the noun (each read as no claim before the fix)
    ("I've issued a full refund for order #7.", "refund", "claim"),
    ("I've processed your refund for order #7.", "refund", "claim"),
    ("I've put through a full refund for order #7.", "refund", "claim"),
    ("I've approved a full refund for order #7.", "refund", "claim"),
    ("Your refund for order #7 has been approved.", "refund", "claim"),
    ("I've processed the cancellation of order #7.", "cancel", "claim"),
    ("Your cancellation of order #7 is confirmed.", "cancel", "claim"),
    ("I've processed the address change for order #7.", "address-change", "claim"),
    ("I've processed the write-off of INV-1.", "write-off", "claim"),
    # R2: what must still read as before
    ("I have not issued a refund for order #7.", "refund", "deny"),
    ("No refund has been issued.", "refund", "deny"),
    ("I've processed your refund request and passed it to billing.", "refund", "none"),
    ("I can confirm your refund request has been passed to billing.", "refund", "none"),
    ("I've processed the cancellation request, but order #7 had shipped.", "cancel", "none"),
    # R3: the agent's present progressive, and an elided completion after the request
    ("I'm cancelling order #7 for you right now.", "cancel", "claim"),
    ("I’m refunding order #7 to your card right now.", "refund", "claim"),
    ("We are issuing a full refund for order #7 today.", "refund", "claim"),
    ("I'm updating the shipping address of order #7 now.", "address-change", "claim"),
    ("I'm exchanging it for the L right now.", "exchange", "claim"),
    ("You asked me to cancel order #7, which I did.", "cancel", "claim"),
    ("You asked me to refund order #7 and I have.", "refund", "claim"),
    ("You asked me to change the address of order #7, and I did.", "address-change", "claim"),
    # R3: what must still read as before
    ("We are processing your refund request now.", "refund", "none"),
    ("You asked me to cancel order #7, which I have not done.", "cancel", "none"),
    ("You asked me to cancel order #7. I did check it.", "cancel", "none"),
    ("If you want me to cancel it, I will.", "cancel", "none"),
    ("You asked me to cancel it and I have checked: it shipped.", "cancel", "none"),
    ("I can't cancel order #7, and I have passed it on.", "cancel", "deny"),
    # R9: a request word in a relative clause before the verb does not hedge it
    ("Everything you asked for has been cancelled.", "cancel", "claim"),
    ("What you requested was refunded.", "refund", "claim"),
    ("The order you asked about was cancelled.", "cancel", "claim"),
    ("You asked for it to be cancelled.", "cancel", "none"),
    ("You asked if it was cancelled.", "cancel", "none"),
    ("The refund you asked for has been passed to billing.", "refund", "none"),
]


@pytest.mark.parametrize(("text", "action", "expected"), CASES)
def test_frames_of_saying_and_done_words_before_nouns_read_right(
    text: str, action: str, expected: str
) -> None:
    got = {"claim" if d.done else "deny" for d in decisions(text, (action,))}
    assert got == (set() if expected == "none" else {expected}), got


@pytest.mark.parametrize(
    ("text", "collective"),
    [
        ("I've cancelled your orders as requested.", True),
        ("Everything you asked for has been refunded.", True),
        ("I have not touched your other orders.", False),
        ("I cancelled one of your orders.", False),
    ],
)
def test_a_claim_over_every_order_is_about_each(text: str, collective: bool) -> None:
    """R9: "your orders" and "everything" name every record at once (a claim there is a
    claim about each order); "your other orders" and "one of your orders" do not."""
    assert bool(sentences_about_all(text, "100545")) is collective
