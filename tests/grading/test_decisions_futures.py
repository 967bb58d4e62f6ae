"""Stop 25 (issue 9 §4): an unconditional future of the action by a third party on the
business's side (``Our billing team will refund order #7 today``) or of a noun of it (``Your
refund will be issued``) is an unsure claim, as the agent's own promise is; a future of
another action (review, decide, contact), a conditional one, a question and a third party's
decision or payment are no claim (`mcpgym_grading._decision_futures`)."""

from __future__ import annotations

import pytest

from mcpgym_grading._decisions import claims, decisions


def _read(text: str, action: str) -> set[bool | None]:
    return {d.done for d in decisions(text, (action,))}


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Our billing team will refund order #7 today.", "refund"),
        ("The warehouse will cancel it now.", "cancel"),
        ("Finance is going to write off INV-2026-0151 this afternoon.", "write-off"),
        ("They'll refund order #7 today.", "refund"),
        ("Billing\u2019s going to refund order #7.", "refund"),
        ("A specialist will refund order #7 within the hour.", "refund"),
        ("Your refund will be issued to your card in 5 days.", "refund"),
        ("A refund will be processed to your card.", "refund"),
        ("The cancellation will go through today.", "cancel"),
        ("Billing will process the refund for order #7 today.", "refund"),
        ("The warehouse will update the delivery address today.", "address-change"),
        ("AP is going to post the bill this afternoon.", "post"),
    ],
)
def test_a_third_party_or_noun_future_is_an_unsure_claim(text: str, action: str) -> None:
    assert None in _read(text, action)
    assert not claims(text, action)  # never a claim where one must stand


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("A specialist will review order #7 within one business day.", "refund"),
        ("Billing will decide whether to refund order #7.", "refund"),
        ("Our billing team will review your request and decide on the refund.", "refund"),
        ("They will contact you about the refund.", "refund"),
        ("Billing will refund order #7 if the request is approved.", "refund"),
        ("Once approved, your refund will be issued to your card.", "refund"),
        ("Will billing refund order #7?", "refund"),
        # unconditional, it is an unsure claim since round 18's D17k (the result told as
        # seen: tests/grading/test_round18h.py); waiting on an approval it claims nothing
        ("Once approved, the refund will show on your statement within 5-10 days.", "refund"),
        ("Your refund request will be processed within 2 business days.", "refund"),
        ("Billing will correct the charge.", "address-change"),
        ("The team will update you by email.", "contact-update"),
        ("You'll return it with the prepaid label.", "return"),
        ("The controller will approve the bill.", "approve"),
        ("The customer says they will pay next week.", "pay"),
        ("AR will issue a reminder to the customer.", "credit-note"),
        ("Billing will refund order #7 today.", "refund-both"),
    ],
)
def test_another_action_a_condition_or_a_decision_is_no_claim(text: str, action: str) -> None:
    assert None not in _read(text, action)
    assert not claims(text, action)
