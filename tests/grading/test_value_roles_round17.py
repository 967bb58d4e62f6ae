"""`_value_roles` at round 17 (helper adv27l, FF17a): an amount in words whose whole dollars
have four digits (``one thousand and six dollars``, which the money reader writes ``1006
dollars``) was read as another account code of the note's roles, so an honest
correct-misposted-entry note failed `note-values-in-role`. A number before a currency word
is an amount; another account, bare or bound to a role's words, is still read."""

from __future__ import annotations

import pytest

from mcpgym_grading._value_roles import value_outcome

ROLES = [
    ("2026-06-15", ("revers*", "posted")),
    ("6500", ("correct", "corrected to", "posted again")),
    ("6400", ("wrong*", "coded to")),
    ("1000", ("bank", "card")),
]
NOTE = (
    "Reversed on 2026-06-15 and posted again with the $1,006.95 for software add-on licence "
    "on 6500 Software Subscriptions."
)


@pytest.mark.parametrize(
    "extra",
    [
        "That is one thousand and six dollars and ninety-five cents.",
        "That is 1006 dollars and 95 cents.",
        "In all: two thousand and forty USD.",
    ],
)
def test_an_amount_in_words_is_no_account(extra: str) -> None:
    ok, misplaced, detail = value_outcome(f"{NOTE} {extra}", ROLES)
    assert ok, (misplaced, detail)


@pytest.mark.parametrize(
    "extra",
    [
        "Corrected to 6900.",  # another account bound to the right account's words
        "Account 6900 as well.",  # another account unbound
        "Posted again on 6400.",  # the wrong account in the right one's role
    ],
)
def test_another_account_is_still_read(extra: str) -> None:
    assert not value_outcome(f"{NOTE} {extra}", ROLES)[0]


def test_a_space_separated_list_holding_the_value_is_no_grouped_number() -> None:
    """M17: a memo stuffed with every expense account, one space apart, was read as one
    number written in groups (a tracking number), so none of its accounts was read."""
    assert not value_outcome(f"{NOTE} [6000 6100 6200 6300 6400 6500 6600 6900]", ROLES)[0]
    # a number in groups that holds none of the roles' values is still one number
    assert value_outcome(f"{NOTE} Tracking 9405 5932 3632.", ROLES)[0]
