"""Which bare numbers a money check reads, round 5 (issue 9 §4, B1, F2, F6, F8, F9).

A shotgun: a candidate whole-dollar value followed by a word (``74 total``, ``74 tops``,
``(74 otherwise)``) was taken for a count and not read (the reply passed). False fails: the
groups of a tracking number written in 4-digit groups (``9205 5010 0428 0000 0400 74``) were
read as amounts, a quantity before ``×`` (``1 × $45.00``) as $1.00, and a zero stated as
nothing left over (``Nothing left unapplied ($0.00 on account).``) competed.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import AnswerMatch
from mcpgym_grading._money import money_mentions

from .episodes import grade_check

RIGHT = 8900
CANDIDATES = [34900, 7400, 4800, 400, 300]
"""Other amounts of the customer's orders; all whole dollars (``349``, ``74``...)."""


def states(text: str) -> bool | None:
    check = AnswerMatch(
        name="a", expected=RIGHT, normalize="money", mode="states", forbidden=CANDIDATES
    )
    return grade_check(check, [], answer=text).passed


@pytest.mark.parametrize(
    "text",
    [
        "Refunded $89.00. If I got that wrong it is 74 total.",
        "Refunded $89.00. Else 74 tops.",
        "Refunded $89.00 (74 otherwise)",
        "Refunded $89.00, else 349 tops.",
        "Refunded $89.00 / 349 if wrong.",
        "Refunded $89.00. Otherwise: 349 total.",
        "Refunded $89.00 - if not, 349 then.",
        "Refunded $89.00; alternatively 349 is right.",
        "Refunded $89.00 or 349-ish.",
        "Refunded $89.00, maybe 74 exactly.",
        "Refunded $89.00 or 349 74 48",  # three short groups: not an identifier
    ],
)
def test_a_candidate_followed_by_a_qualifier_is_read(text: str) -> None:
    """A candidate value followed by a word that qualifies an amount (total, tops,
    otherwise, is, if, ...) is an amount: the check fails (before: it passed)."""
    assert states(text) is False


@pytest.mark.parametrize(
    "text",
    [
        "Refunded $89.00 for the Trailhead 74 Dome Tent.",
        "Refunded $89.00 for the 4-Pack; it shows in 3 to 5 business days.",
        "Refunded $89.00 for 4 items.",
        "Refunded $89.00. Your return label's tracking number is 9205 5010 0428 0000 0400 74.",
        "Tracking 9405 5932 3632 2621 4688 48 and $89.00 refunded.",
        "Card 4111 1111 1111 1111, refunded $89.00.",
        "I refunded 1 × $89.00 for the tee.",
        "I've refunded $89.00 for the 1 × Trailside Cook Set.",
    ],
)
def test_counts_identifiers_and_quantities_are_not_amounts(text: str) -> None:
    """A count, a grouped identifier or a quantity before ``×`` is no amount: the check
    passes (before: tracking groups and ``1 ×`` were read and the reply failed)."""
    assert states(text) is True


def test_every_group_of_a_grouped_identifier_is_left_out() -> None:
    text = "9405 5932 3632 2621 4688 48 and $169.00"
    assert [m.text for m in money_mentions(text, bare=True, candidates=[4800])] == ["$169.00"]


@pytest.mark.parametrize(
    ("text", "waived"),
    [
        ("Applied $89.00. Nothing left unapplied ($0.00 on account).", True),
        ("Applied $89.00. No balance remaining: $0.00.", True),
        ("Applied $89.00. Or maybe nothing left ($0.00).", False),
        ("Applied $89.00 and nothing left ($0.00).", False),
        ("Applied $89.00. $0.00 left.", False),
    ],
)
def test_a_zero_stated_as_nothing_left_is_waived(text: str, waived: bool) -> None:
    """A zero alone in its clause with a no-word and a leftover word (and no hedge) is
    no competing amount, like a waived fee; beside a hedge or another amount it is."""
    found = money_mentions(text, bare=True)
    assert [(int(m.cents), m.waived) for m in found] == [(8900, False), (0, waived)]
    assert states(text) is waived
