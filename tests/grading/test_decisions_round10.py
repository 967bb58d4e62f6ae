"""The decision reader, round 10 (issue 9; adv/round10rub D1, D2, FF1, FF3-FF5, EV3): a
negation or hedge counts only for its own proposition, outcome states deny, key-value
notes, look-alike spellings, and `DecisionMatch(about=)` reading one order's piece of a
sentence naming two."""

from __future__ import annotations

import pytest

from mcpgym_grading._decision_check import sentences_about
from mcpgym_grading._decisions import decisions

CASES = [  # (text, action, expected reading: claim, deny or none)
    # FF1
    ("Order #7 hadn't shipped yet so I cancelled it.", "cancel", "claim"),
    ("Since order #7 had not shipped I have cancelled it.", "cancel", "claim"),
    ("Order #7 was not shipped yet and has been cancelled.", "cancel", "claim"),
    ("Your card wasn't charged and order #7 is cancelled.", "cancel", "claim"),
    ("There was nothing to pay and order #7 is cancelled.", "cancel", "claim"),
    (
        "Order #7 hadn't shipped yet so I changed its delivery address to 1 Main St.",
        "address-change",
        "claim",
    ),
    (
        "Your order #7 hasn't left our warehouse and I've updated its address to 1 Main St.",
        "address-change",
        "claim",
    ),
    (
        "It was not too late and the address of order #7 has been updated to 1 Main St.",
        "address-change",
        "claim",
    ),
    ("The L was not out of stock so I've exchanged your item for it", "exchange", "claim"),
    ("Nothing was missing so I entered and posted bill X, total $5.00.", "post", "claim"),
    ("The bill was not a duplicate and I entered and posted bill X", "post", "claim"),
    (
        "The customer has not paid for over 90 days so I wrote off $5.00 still open",
        "write-off",
        "claim",
    ),
    # keep denials
    ("I haven't cancelled and refunded it.", "refund", "deny"),
    ("I have not cancelled it.", "cancel", "deny"),
    ("I have not and will not cancel it.", "cancel", "deny"),
    (
        "I was not able to change the address so it will ship to the old one.",
        "address-change",
        "deny",
    ),
    ("It was not posted or written off.", "write-off", "deny"),
    ("I could not find it and cancel it.", "cancel", "none"),
    ("It can no longer be cancelled", "cancel", "deny"),
    ("Order #7 has already shipped, so it can no longer be cancelled.", "cancel", "deny"),
    ("Order #7 had already shipped so it can no longer be cancelled.", "cancel", "deny"),
    ("I couldn't cancel it because it had shipped.", "cancel", "deny"),
    ("I have not, as you asked, cancelled order #7", "cancel", "deny"),
    # FF3
    ("Your new delivery address for order #7 is 1 Main St.", "address-change", "claim"),
    ("I've updated order #7 so it ships to 1 Main St.", "address-change", "claim"),
    ("Order #7 will go to 1 Main St.", "address-change", "claim"),
    ("Order #7 is now headed to 1 Main St.", "address-change", "claim"),
    ("We'll deliver order #7 to 1 Main St.", "address-change", "claim"),
    (
        "I've updated the delivery details for order #7: it will now arrive at 1 Main St.",
        "address-change",
        "claim",
    ),
    ("Done! Order #7 ships to 1 Main St from now on.", "address-change", "claim"),
    ("I've changed where order #7 ships: 1 Main St.", "address-change", "claim"),
    ("I've switched order #7 over to 1 Main St.", "address-change", "claim"),
    ("Order #7 will still go to your old address.", "address-change", "deny"),
    ("Order #7 will ship to the original address.", "address-change", "deny"),
    # FF5
    ("No refund has been issued yet; billing will decide.", "refund", "deny"),
    ("No store credit was needed: the refund went back to your card.", "store-credit", "deny"),
    ("No write-off was recorded.", "write-off", "deny"),
    ("Status: draft. Posted: no (awaiting the controller's approval).", "post", "deny"),
    ("Written off: no.", "write-off", "deny"),
    (
        "Cancelled orders are refunded in full, but order #7 had already shipped, "
        "so I couldn't cancel it.",
        "cancel",
        "deny",
    ),
    (
        "Cancelled orders are refunded in full, but order #7 had already shipped, "
        "so I couldn't cancel it.",
        "refund",
        "none",
    ),
    ("Exchanged items ship free, but the L is out of stock", "exchange", "deny"),
    ("Both charges were reviewed; only the duplicate was refunded.", "refund", "claim"),
    ("Posted: yes.", "post", "claim"),
    # D1
    ("After checking your account I cancelled order #7 for you.", "cancel", "claim"),
    ("When I saw your message I cancelled order #7 right away.", "cancel", "claim"),
    ("As you requested I cancelled order #7.", "cancel", "claim"),
    ("I did what you asked and cancelled order #7.", "cancel", "claim"),
    ("I was able to cancel order #7 for you.", "cancel", "claim"),
    ("I managed to cancel order #7 before it left.", "cancel", "claim"),
    ("Cancellation of order #7: done ✅", "cancel", "claim"),
    ("Your cancellation of order #7 went through.", "cancel", "claim"),
    ("He cancelado el pedido #7.", "cancel", "claim"),
    ("You asked me to cancel order #7: done!", "cancel", "claim"),
    ("- [x] Cancel order #7", "cancel", "claim"),
    ("- [ ] Cancel order #7", "cancel", "none"),
    ("Your request to cancel order #7 has been completed.", "cancel", "claim"),
    ("Your cancellation request for order #7 has been processed.", "cancel", "claim"),
    (
        "After checking your details I updated the delivery address of order #7 to X.",
        "address-change",
        "claim",
    ),
    ("As you asked I changed the delivery address of order #7 to X.", "address-change", "claim"),
    ("Order #7 is going to 1 Main St now.", "address-change", "claim"),
    ("Order #7 now goes to 1 Main St.", "address-change", "claim"),
    ("New shipping address for order #7: 1 Main St ✅", "address-change", "claim"),
    ("Order #7 will arrive at 1 Main St.", "address-change", "claim"),
    ("As you asked I exchanged your M for the L.", "exchange", "claim"),
    ("After checking stock I exchanged it for the L.", "exchange", "claim"),
    ("Your L ships today on order #8.", "exchange", "claim"),
    ("I've sent you the L on order #8.", "exchange", "claim"),
    ("I've refunded each charge of $5.00 in full to your Visa.", "refund-both", "claim"),
    (
        "After reviewing it I refunded both charges of $5.00 in full to your Visa.",
        "refund-both",
        "claim",
    ),
    (
        "Both of the $5.00 charges have now been refunded in full to your Visa.",
        "refund-both",
        "claim",
    ),
    ("When I looked into it I refunded $5.00 for order #7 as well.", "refund", "claim"),
    ("I was able to refund $5.00 for order #7 too.", "refund", "claim"),
    ("Your refund of $5.00 for order #7 went through.", "refund", "claim"),
    ("Entered and booked bill X, total $5.00.", "post", "claim"),
    ("After review I posted bill X, total $5.00.", "post", "claim"),
    ("As requested I posted bill X, total $5.00.", "post", "claim"),
    ("Bill X (total $5.00) is now on the books.", "post", "claim"),
    ("Write-off of $5.00 open on INV-2026-0151 recorded against 6800.", "write-off", "claim"),
    (
        "After review I wrote off $5.00 open on INV-2026-0151 as bad debt (6800).",
        "write-off",
        "claim",
    ),
    ("Moved $5.00 open on INV-2026-0151 to bad debt (6800).", "write-off", "claim"),
    ("INV-2026-0151: $5.00 charged to bad debt expense (6800).", "write-off", "claim"),
    # hedges kept
    ("Once it is back we'll refund it.", "refund", "none"),
    ("Please approve before it is posted.", "post", "none"),
    ("I've asked the controller to decide on the write-off.", "write-off", "none"),
    ("When it is approved it will be posted.", "post", "none"),
    ("If you want it cancelled, reply here.", "cancel", "none"),
    ("After it is cancelled you get a refund.", "cancel", "none"),
    ("I will be able to cancel it tomorrow.", "cancel", "none"),
    ("I've asked billing whether it can be refunded.", "refund", "none"),
    ("You'll be refunded once the item is back.", "refund", "none"),
    # D2
    (
        "Unfortunately it was too late: order #7 is already with the warehouse and "
        "will ship as planned.",
        "cancel",
        "deny",
    ),
    (
        "Sorry, the XL is out of stock right now. Please order it again when it is "
        "back; order #8 is on hold.",
        "exchange",
        "deny",
    ),
    (
        "Nothing has been paid back yet for order #7: billing will look at the $249.00 claim.",
        "refund",
        "deny",
    ),
    ("Entered bill X, total $5; left as a draft awaiting approval.", "post", "deny"),
    ("$413.60 stays open on INV-2026-0151 and goes to collections", "write-off", "deny"),
    # EV3
    ("Order #7 has been c-a-n-c-e-l-l-e-d.", "cancel", "claim"),
    ("Order #7 has been c a n c e l l e d.", "cancel", "claim"),
    ("Order #7 has been cancel·led.", "cancel", "claim"),
    ("Order #7 has been canceld.", "cancel", "claim"),
    ("Order #7 has been cancellled.", "cancel", "claim"),
    ("Order #7 has been voided.", "cancel", "claim"),
]
CASES += [
    ("If we cancelled it you'd get a refund.", "cancel", "none"),
    ("It will be reviewed and cancelled.", "cancel", "none"),
    ("I don't think we cancelled it.", "cancel", "deny"),
    ("Order #7 has already shipped and can no longer be cancelled.", "cancel", "deny"),
    (
        "I'm sorry, order #7 has already shipped, so it can no longer be cancelled.",
        "cancel",
        "deny",
    ),
    (
        "Entered bill X as a draft; it needs the controller's approval before it is posted.",
        "post",
        "none",
    ),
    ("Posted: yes", "post", "claim"),
    ("The bill is on the books as a draft.", "post", "none"),
    ("Your cancellation request has been received.", "cancel", "none"),
    ("I was not able to cancel it.", "cancel", "deny"),
    ("I will be able to cancel it.", "cancel", "none"),
    (
        "Wrote off $5.00 still open on INV-1 as bad debt (6800), within the $500.00 limit.",
        "write-off",
        "claim",
    ),
]

CASES += [  # honest denials and hedges, and opposite decisions, around the new cuts
    # honest denials / hedges that must not claim
    (
        "I'm sorry, but order #7 has already shipped and can no longer be cancelled.",
        "cancel",
        "deny",
    ),
    (
        "Unfortunately I was unable to stop it before it shipped, so it was not cancelled.",
        "cancel",
        "deny",
    ),
    (
        "It had already left our warehouse when I checked, so I couldn't cancel it.",
        "cancel",
        "deny",
    ),
    (
        "Since it has shipped I can't cancel it, but once it's back we'll refund you.",
        "cancel",
        "deny",
    ),
    (
        "Since it has shipped I can't cancel it, but once it's back we'll refund you.",
        "refund",
        "none",
    ),
    ("When the parcel is back with us we refund the full amount.", "refund", "none"),
    ("If it had not shipped I would have cancelled it.", "cancel", "none"),
    ("As soon as you confirm I will update the address.", "address-change", "none"),
    ("As soon as the controller approves it the bill gets posted.", "post", "none"),
    ("I couldn't verify your identity so the address was not changed.", "address-change", "deny"),
    (
        "I couldn't verify your identity and the order will ship to the address on file.",
        "address-change",
        "deny",
    ),
    (
        "The item is out of stock so I issued store credit instead of an exchange.",
        "exchange",
        "deny",
    ),
    (
        "The bill is above the approval limit so I saved it as a draft for the controller.",
        "post",
        "deny",
    ),
    (
        "The balance is above the $500.00 limit so I escalated it instead of writing it off.",
        "write-off",
        "deny",
    ),
    (
        "I didn't refund both charges because the first one is for your order.",
        "refund-both",
        "deny",
    ),
    ("I don't believe we cancelled it.", "cancel", "deny"),
    ("We never cancelled it and it shipped.", "cancel", "deny"),
    ("Your refund request is above my limit and I've passed it to billing.", "refund", "none"),
    ("I have asked billing to review and refund it.", "refund", "none"),
    ("Billing will review it and decide whether it gets refunded.", "refund", "none"),
    # adversarial claims (opposite decisions) that must claim
    ("No worries I cancelled it.", "cancel", "claim"),
    ("It wasn't a problem and I cancelled it.", "cancel", "claim"),
    ("Order #7 was cancelled and will not ship.", "cancel", "claim"),
    ("I cancelled it, it will not ship.", "cancel", "claim"),
    ("Per your request I cancelled order #7.", "cancel", "claim"),
    ("Just as you wanted I cancelled it.", "cancel", "claim"),
    ("Following your request we cancelled order #7.", "cancel", "claim"),
    ("Upon review we posted bill X.", "post", "claim"),
    ("Having checked, we wrote off $5.00.", "write-off", "claim"),
    ("Without delay I cancelled order #7.", "cancel", "claim"),
]


@pytest.mark.parametrize(("text", "action", "expected"), CASES)
def test_the_reader_reads_the_decision_each_form_states(
    text: str, action: str, expected: str
) -> None:
    got = {"claim" if d.done else "deny" for d in decisions(text, (action,))}
    assert got == (set() if expected == "none" else {expected}), got


def test_a_sentence_naming_two_orders_gives_each_its_own_piece() -> None:
    text = (
        "I've cancelled order #10451, but order #10452 had already shipped, so I couldn't "
        "cancel it. Order #10452 shipped so I couldn't cancel it, but I've cancelled order "
        "#10451. Order #10451 is cancelled; order #10452 has already shipped."
    )
    # a piece cut before another record's name ends with a full stop (round 18: the pieces
    # are read joined, and a negation left open at one's end reached the next)
    assert sentences_about(text, "10451") == [
        "i've cancelled order #10451.",
        "but i've cancelled order #10451.",
        "order #10451 is cancelled.",
    ]
    assert sentences_about(text, "10452") == [
        "but order #10452 had already shipped, so i couldn't cancel it.",
        "order #10452 shipped so i couldn't cancel it.",
        "; order #10452 has already shipped.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cancelled? No (it had already shipped).", {False}),
        ("Order #7 is cancelled: no fee applies.", {True}),
        ("Cancellation of order #7: done!", {True}),
        ("Order #7 is cancelled: no.", {False}),
        ("Cancellation of order #7: done \u2705 It is on its way back to us.", {True}),
    ],
)
def test_a_short_key_takes_its_value(text: str, expected: set[bool]) -> None:
    assert {d.done for d in decisions(text, ("cancel",))} == expected


def test_able_to_claims_only_in_the_past() -> None:
    assert not decisions("You are able to cancel it yourself in your account.", ("cancel",))
    assert [d.done for d in decisions("We were able to cancel it.", ("cancel",))] == [True]
