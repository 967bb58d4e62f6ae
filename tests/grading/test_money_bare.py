"""Which bare numbers a money check reads (issue 9 §4, "contains is not states", round 3).

Two opposite kinds: a shotgun of candidate amounts written as bare numbers in a list, a
table cell or after a label was not read (the reply passed); and every bare two-decimal
number of an honest reply was read as an amount (``section 4.12``, a time ``10.30``, a
size), as was a waived fee ``($0.00)`` and a check-writer's ``and 00/100`` (the reply
failed). The rule (`mcpgym_grading._money_bare`): a bare number is an amount when its value
is a candidate the check knows or its context makes it one.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading import AnswerMatch
from mcpgym_grading._money import money_mentions

from .episodes import grade_check

RIGHT = 4500
CANDIDATES = [539, 795, 9000, 5900]
"""The other amounts of the customer's orders (a rubric's `forbidden_sql`); 9000 and 5900
are whole dollars (``90``, ``59``)."""


def states(text: str, **kw: Any) -> bool | None:
    check = AnswerMatch(
        name="a",
        expected=RIGHT,
        normalize="money",
        mode="states",
        forbidden=kw.pop("forbidden", CANDIDATES),
        **kw,
    )
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        # bulleted lists: whole numbers, candidates or not, under a line naming alternatives
        "We refunded $45.\nOther options:\n- 5\n- 7",
        "We refunded $45.\nOther options:\n- 90\n- 59",
        "We refunded $45.\nAlternatives:\n* 12\n* 20",
        "Refund options:\n- $45\n- 90\n- 12",
        "Refund:\n1. $45.00\n2. 12",
        # table cells: a column with an amount, or a money header, or a candidate value
        "| Refund | $45 |\n| Alt | 12 |",
        "| Item | Refund |\n|---|---|\n| Boot | $45.00 |\n| Alt | 12 |",
        "| Item | Price |\n|---|---|\n| Boot | 13 |\n\nWe refunded $45.00.",
        "We refunded $45.00.\n| 90 |",
        # after a money label
        "We refunded $45.00. Total: 12",
        "We refunded $45.00. Amount: 13",
        "We refunded $45.00. Price: 59",
        '{"refund": "$45.00", "alt_price": 12}',
        "refund = [45.00, 12, 13]",
        # a candidate whole-dollar value as a bare number, anywhere it is a plain number
        "We refunded $45.00 (x2 = 90).",
        "We refunded $45.00, or was it 59?",
        "```\nrefund: 45.00\nalt: 90\n```",
        # a series with an amount
        "We refunded $45.00 -> 12.",
        "We refunded $45.00 (or maybe 12).",
        "We refunded $45.00 vs 12.50.",
        # after a hedge word
        "We refunded $45. Alternatively 7 or 11.",
        "We refunded $45. Other options: 7; 11",
        "We refunded $45.\nOther options:\n- seven\n- eleven",
        "We refunded $45.00. Perhaps 12?",
    ],
)
def test_bare_candidate_amounts_are_read(text: str) -> None:
    """Each states a second amount as a bare number: the check fails (before: it passed)."""
    assert states(text) is False


@pytest.mark.parametrize(
    "text",
    [
        "We refunded $45.00. This follows section 4.12 of our policy.",
        "We refunded $45.00. Our courier calls at 10.30 tomorrow.",
        "We refunded $45.00; pickup 10.30.",
        "We refunded $45.00 for the boots in size 10.50.",
        "We refunded $45.00, boots size 10.50, as agreed.",
        "We refunded $45.00. The item was rated 4.50 stars.",
        "We refunded $45.00 for SKU 10.25-B.",
        "We refunded $45.00. There is no restocking fee ($0.00).",
        "We refunded $45.00; restocking fee $0.",
        "We refunded $45.00.\nReturn shipping: $0.00 (free).",
        "We refunded $45.00 (Forty-five and 00/100 dollars).",
        "We refunded Forty-five and 00/100 dollars.",
        "| Qty | Price |\n|---|---|\n| 2 | $45.00 |",
        "We refunded $45.00 for the Trailhead 59 Dome Tent.",
        "We refunded $45.00 for 2 boots; it shows in 5-10 business days.",
        "We refunded $45.00.\n1. Keep the item.\n2. No return needed.",
        "We refunded $45.00 on order #100473, card ending 7333, ticket T-1042.",
        "We refunded $45.00 on 06/15/2026 by 5:30 pm.",
        "We refunded $45.00, 3 to 5 business days.",
        "We refunded $45.00 (item 2 of 3).",
        "We refunded $45.00; see also section 4.12.",
        "We refunded $45.00. Reference: 100473. Ticket 4521 is closed.",
        "Hi Olivia,\n\nWe refunded $45.00.\n\n- Order: #100473\n- Card: ending 7333\n- Items: 1",
    ],
)
def test_honest_replies_state_the_amount(text: str) -> None:
    """No second amount is stated: the check passes (before: a bare number, a waived fee
    or the check-writer's cents was read as one and the reply failed)."""
    assert states(text) is True


@pytest.mark.parametrize(
    "text",
    [
        "We refunded $45.00 or $0.00.",
        "We refunded $45.00 or $0.00 fee.",
        "We refunded $45.00, and there is no fee ($0.00).",
        "We refunded $45.00 (or 45 and 01/100 dollars).",
    ],
)
def test_a_hedge_with_zero_or_a_near_miss_still_fails(text: str) -> None:
    """A zero amount is waived only alone in its clause with a fee word: beside another
    amount it competes (a hedge, or conservatively an honest clause that holds both)."""
    assert states(text) is False


def test_a_bare_whole_number_never_states_the_expected_amount() -> None:
    """``Refunded 45`` is read as an amount (it competes) but does not state $45.00."""
    assert states("Refunded 45") is False
    assert states("Refunded 45.00") is True  # two decimals: as before
    check = AnswerMatch(name="a", expected=RIGHT, normalize="money")
    assert grade_check(check, [], answer="Refunded 45").passed is False


def test_only_a_candidate_value_is_read_bare_in_plain_prose() -> None:
    """Without a context, a bare number is an amount only when the check knows its value."""
    text = "We refunded $45.00. It could also be 7.95."
    assert [int(m.cents) for m in money_mentions(text, bare=True)] == [4500]
    found = money_mentions(text, bare=True, candidates=[795])
    assert [int(m.cents) for m in found] == [4500, 795]
    assert states(text) is False
    assert states(text, forbidden=[539]) is True


def test_a_waived_fee_is_marked() -> None:
    found = money_mentions("Refund $45.00. There is no restocking fee ($0.00).", bare=True)
    assert [(int(m.cents), m.waived) for m in found] == [(4500, False), (0, True)]
    found = money_mentions("Refund $45.00 or $0.00", bare=True)
    assert [(int(m.cents), m.waived) for m in found] == [(4500, False), (0, False)]
