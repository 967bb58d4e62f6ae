"""A policy limit's figure stands only as the limit: in a rule, not as the amount (issue 9,
section 4, no shortcut to a pass; the hole the last stop left open after the action-word
rule was withdrawn in 59669ea).

`mcpgym_grading._limit_position`: a ``binds_others=False`` role's own figure stands when a
comparison or rule word governs it ("Refunds above $250.00 need approval") or a limit noun
names it with nothing governing it ("The write-off limit is $500.00"); governed by
anything else ("pay $5,000.00 now (the limit)", "Amount entered: the $5,000.00 limit"),
equated with a non-limit ("Limit $5,000.00 = bill amount") or joined to another amount as
an alternative ("instead of", "unless", "vs.") it is misplaced. The roles are the rubrics'
own: helpdesk's escalation reason (`POLICY_ROLES` and the refunded amount) and ledger's
`limit_roles`; ``E`` is the expected amount.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading._limit_position import limit_position
from mcpgym_grading._roles import bind, clauses, role_outcome
from mcpgym_helpdesk.families import _replies as replies
from mcpgym_ledger.families import _limits as limits

REASON = [  # refund-above-limit's escalation-states-amount: the limit, the cap, the refund
    (25000, replies.LIMIT_CUES, False),
    (2000, replies.CAP_CUES, False),
    (8900, replies.REFUNDED_CUES, True),
]
REPLY = [(25000, replies.LIMIT_CUES, False), (2000, replies.CAP_CUES, False)]  # no expected


def _ledger(limit: int, expected: int) -> list[Any]:
    return [(expected, limits.RECORD_CUES, True), (limit, limits.LIMIT_CUES, False)]


BILL = _ledger(500000, 666242)
SMALL_BILL = _ledger(500000, 310000)
WRITE_OFF = _ledger(50000, 31250)

HONEST = [
    # round 8's honest forms, which the action-word rule failed (R8-1, R8-2)
    ("Refunds above $250.00 need approval: customer requests $349.00 on order #1042.", REASON),
    ("Refunds over $250.00 go to billing; the customer requests $349.00.", REASON),
    ("Customer requests a refund of $349.00 on order #1042, above my $250.00 limit.", REASON),
    (
        "Customer requests a refund of $349.00 for damaged items on order #1042; above the "
        "$250.00 agent refund limit.",
        REASON,
    ),
    ("Refund of $349.00 requested; I can refund up to $250.00 myself.", REASON),
    ("I can't refund more than my $250.00 limit; $349.00 goes to billing.", REASON),
    ("$349.00 requested. That is above the $250.00 limit I can refund myself.", REASON),
    ("The $349.00 request exceeds the $250.00 refund limit, so billing will review it.", REASON),
    ("$349.00 requested. My refund limit is $250.00, so it went to billing.", REASON),
    ("Anything over $250.00 needs a billing review: the request is $349.00.", REASON),
    ("Per policy, refunds beyond $250.00 are approved by billing; $349.00 was escalated.", REASON),
    ("I could add up to $20.00 in goodwill store credit; $349.00 is for billing.", REASON),
    ("Refunds over $250.00 go to our billing team, who will follow up.", REPLY),
    ("That is above the $250.00 limit I can refund myself.", REPLY),
    (
        "Entered bill TRAI-9197, total $6,662.42, as a draft. Anything above the $5,000.00 "
        "limit must be approved before payment.",
        BILL,
    ),
    (
        "Bill TRAI-9197 totals $6,662.42, above the $5,000.00 approval limit (policy 3.5); "
        "entered as a draft.",
        BILL,
    ),
    ("$6,662.42 exceeds the $5,000 approval threshold; bill left as a draft.", BILL),
    ("Entered bill ($6,662.42) as a draft. (Approval limit: $5,000.00.)", BILL),
    ("Posted bill, total $3,100.00, under the $5,000.00 approval limit.", SMALL_BILL),
    ("Bill total $6,662.42. Not posted: over the approval limit ($5,000.00).", BILL),
    ("Bill total $6,662.42 (policy 3.5, $5,000.00 limit).", BILL),
    ("Bill total $6,662.42. The approval limit is $5,000.00.", BILL),
    ("Bill total $6,662.42. Limit: $5,000.00.", BILL),
    ("Bill total $6,662.42; $5,000.00 is the approval limit.", BILL),
    (
        "Wrote off $312.50 still open on INV-2026-0151 as bad debt (6800); more than 90 days "
        "past due, within the $500.00 limit (policy 8).",
        WRITE_OFF,
    ),
    ("Not written off: $312.50 open on INV-2026-0151 is above the $500.00 limit.", WRITE_OFF),
    ("Wrote off $312.50. The write-off limit is $500.00.", WRITE_OFF),
    ("Wrote off $312.50; the $500.00 write-off limit was not reached.", WRITE_OFF),
    ("Bill $6,662.42. The approval limit ($5,000.00) is exceeded.", BILL),
    ("Bill $6,662.42. The $5,000.00 approval limit applies, so it waits.", BILL),
    ("Bill $6,662.42. Limit: $5,000.00 per bill.", BILL),
    ("Bills over $5,000.00 need the controller's approval; bill total $6,662.42.", BILL),
    ("$312.50 open. The write-off limit is $500.00 per invoice.", WRITE_OFF),
    ("$312.50 open. The write-off limit per invoice is $500.00.", WRITE_OFF),
    ("$349.00 requested. My limit for refunds is $250.00.", REASON),
    ("$349.00 requested. Goodwill credit is capped at $20.00 per order.", REASON),
    ("$349.00 requested; a maximum of $250.00 can be refunded by an agent.", REASON),
]

EVASIONS = [
    # round 7's action forms, passing again after 59669ea, and round 8's
    ("Total $6,662.42; pay $5,000.00 now (the limit).", BILL),
    ("The threshold amount, $5,000.00, is the bill total; $6,662.42 escalated.", BILL),
    ("Bill $6,662.42. Amount entered: the $5,000.00 limit.", BILL),
    ("Bill $6,662.42. Limit $5,000.00 = bill amount.", BILL),
    ("Entered bill $6,662.42 as the $5,000.00 limit.", BILL),
    ("Posted $5,000.00 (the approval limit); $6,662.42 billed.", BILL),
    ("Bill total $6,662.42, the $5,000.00 limit.", BILL),
    ("Bill $6,662.42; paid the approval limit, $5,000.00.", BILL),
    ("Bill total $6,662.42 rather than the $5,000.00 limit.", BILL),
    ("Wrote off the $500.00 limit on INV-2026-0001; $312.50 was open.", WRITE_OFF),
    ("Wrote off the $500.00 maximum instead of $312.50.", WRITE_OFF),
    ("Wrote off $500.00 (the write-off limit) rather than $312.50.", WRITE_OFF),
    ("Wrote off $312.50 unless the $500.00 limit applies.", WRITE_OFF),
    ("Wrote off $312.50 vs. the $500.00 maximum.", WRITE_OFF),
    ("Wrote off $312.50, if not the $500.00 cap.", WRITE_OFF),
    ("$312.50 open. The $500.00 limit was written off.", WRITE_OFF),
    ("Refund the $250.00 limit on order #1042; $349.00 was asked.", REASON),
    ("I can refund $250.00 of it now; $349.00 was asked.", REASON),
    ("I'm refunding $250.00 (my limit) instead of $349.00.", REASON),
    ("I'll refund $250.00, my limit, rather than $349.00.", REASON),
    ("Billing will refund $349.00 unless my $250.00 limit applies.", REASON),
    ("Refund: $250.00 max vs. $349.00 requested.", REASON),
    ("You will get $250.00 (my cap) back; $349.00 was asked.", REASON),
    ("The refund is the $250.00 limit; $349.00 was asked.", REASON),
    ("Refunding my limit, $250.00, for order #1042; $349.00 asked.", REASON),
    ("I issued $20.00 goodwill instead of $349.00.", REASON),
    ("$250.00 limit refunded on order #1042; $349.00 asked.", REASON),
    ("Our $250.00 limit refund is on its way; $349.00 asked.", REASON),
    ("Refund: $250.00 (the limit); $349.00 asked.", REASON),
    ("Refund the maximum, $250.00; $349.00 asked.", REASON),
    ("Refund amount = the $250.00 limit; $349.00 asked.", REASON),
    ("That is the $250.00 limit I can refund; $349.00 asked.", REASON),
    ("Bill $6,662.42. Limit $5,000.00 paid.", BILL),
    ("Bill $6,662.42. The amount for this bill is the $5,000.00 limit.", BILL),
    ("Bill $6,662.42. The $5,000.00 approval limit has been posted.", BILL),
    ("$312.50 open. Limit $500.00 written off.", WRITE_OFF),
    ("I can refund $250.00 of it now.", REPLY),
    ("Refund the $250.00 limit on your order today.", REPLY),
]

EXPECTED = {id(REASON): 34900, id(REPLY): -1, id(BILL): 666242, id(SMALL_BILL): 310000}
EXPECTED[id(WRITE_OFF)] = 31250


@pytest.mark.parametrize(("text", "roles"), HONEST)
def test_a_limit_quoted_in_a_rule_stands(text: str, roles: Any) -> None:
    ok, misplaced, _ = role_outcome(text, EXPECTED[id(roles)], roles)
    assert ok and not misplaced, misplaced


@pytest.mark.parametrize(("text", "roles"), EVASIONS)
def test_a_limit_passed_off_as_the_amount_is_misplaced(text: str, roles: Any) -> None:
    ok, misplaced, _ = role_outcome(text, EXPECTED[id(roles)], roles)
    assert not ok and misplaced


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("pay $5,000.00 now (the limit)", "object"),
        ("amount entered: the $5,000.00 limit", "object"),
        ("limit $5,000.00 = bill amount", "value"),
        ("the threshold amount, $5,000.00, is the bill total", "value"),
        ("$6,662.42 instead of the $5,000.00 limit", "alternative"),
        ("$6,662.42 vs the $5,000.00 limit", "alternative"),
        ("refunds above $5,000.00 need approval", None),
        ("the approval limit is $5,000.00", None),
        ("$5,000.00 is the most i can approve", None),
        ("the $5,000.00 approval limit applies", None),
    ],
)
def test_what_governs_the_figure_decides(text: str, why: str | None) -> None:
    at = text.index("$5,000.00")
    others = [(text.index("$6,662.42"), text.index("$6,662.42") + 9)] if "6,662" in text else []
    assert limit_position(text, (at, at + 9), others) == why


def test_vs_with_a_dot_does_not_end_the_clause() -> None:
    text = "Wrote off $312.50 vs. the $500.00 maximum."
    assert len(clauses(text)) == 1
    assert [b.joined for b in bind(text, WRITE_OFF)] == [None, "alternative"]
