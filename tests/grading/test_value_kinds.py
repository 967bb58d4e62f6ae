"""A value role's kind is closed (`_value_roles`; issue 9, round 10's F1, F2, F5).

A note or reply that keeps every amount right and states another date, account, invoice,
order number or card of the same shape passed: only the roles' own values were mentions.
Now a value of a role's shape that is none of the roles' values fails where a role's cue
binds it or where it stands unbound (save a later date, a due date, and a year).
"""

from __future__ import annotations

import json

import pytest

from mcpgym_grading._value_roles import sql_misstated, value_outcome

ROLES = [
    ("2026-05-31", ("accru*",)),
    ("2026-06-01", ("revers*",)),
    ("6600", ("dr", "debit*")),
    ("2100", ("cr", "credit*", "against")),
]
NOTE = (
    "Accrued $1,995.50 of May expenses on 2026-05-31 (6600: $1,995.50) against 2100, "
    "reversed on 2026-06-01."
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("against 2100", "against 2000"),  # another account in a role's words
        ("(6600:", "(6900:"),  # another account, unbound
        ("reversed on 2026-06-01", "reversed on 2026-07-01"),  # a later date in a role
        ("on 2026-05-31", "on 2026-05-30"),  # an earlier date of the record's month
    ],
)
def test_another_value_of_a_roles_kind_fails(old: str, new: str) -> None:
    assert value_outcome(NOTE, ROLES)[0]
    ok, misplaced, _ = value_outcome(NOTE.replace(old, new), ROLES)
    assert not ok and misplaced


def test_a_later_date_unbound_and_a_year_stay_free() -> None:
    assert value_outcome(NOTE + " Review by 2026-09-30. FY 2026.", ROLES)[0]


def test_a_cue_binds_only_values_of_its_roles_kind() -> None:
    # "posted" is the date's cue: it does not make the account beside it misplaced
    roles = [("2026-06-15", ("revers*", "posted")), ("6500", ("right",)), ("6400", ("wrong",))]
    text = "Reversed on 2026-06-15 and re-posted: $1,006.95 now on 6500 Software."
    assert value_outcome(text, roles)[0]
    assert not value_outcome(text.replace("6500", "6000"), roles)[0]


@pytest.mark.parametrize(
    "text",
    [
        "Order #100511 is on its way, estimated delivery 2026-06-15.",  # another order
        "Order #100510 is on its way, estimated delivery 2026-09-30.",  # another ETA
        "Refunded to your card ending in 1111 for order #100510.",  # another card
    ],
)
def test_reply_facts_through_sql(text: str) -> None:
    roles = json.dumps(
        [
            [100510, ["order"]],
            ["2026-06-15", ["estimated", "deliver*"]],
            ["ending in 4613", ["ending in"]],
            [None, ["x"]],
        ]
    )
    honest = "Order #100510 is on its way, estimated delivery 2026-06-15 (card ending in 4613)."
    assert sql_misstated(honest, roles) is None
    assert sql_misstated(text, roles)


def test_swapped_order_numbers_by_role() -> None:
    roles = json.dumps([[100495, ["refunded"]], [100107, ["can't", "cannot"]]])
    honest = "I've refunded $69.00 for order #100495. I can't refund the tent from order #100107."
    assert sql_misstated(honest, roles) is None
    swapped = honest.replace("100495", "X").replace("100107", "100495").replace("X", "100107")
    assert sql_misstated(swapped, roles)


def test_an_unbound_value_is_left_to_the_form_reading_checks() -> None:
    # a bare list of numbers: only its plain form would be read (the gate's condition 7)
    roles = json.dumps([[100510, ["order"]]])
    assert sql_misstated("Order #100510 shipped. 100511, 100512.", roles) is None


def test_malformed_roles_are_an_error() -> None:
    with pytest.raises(ValueError):
        sql_misstated("text", '{"a": 1}')
    assert sql_misstated(None, "[]") is None


def test_a_group_of_a_grouped_number_is_no_card() -> None:
    # a tracking number in groups of four is not a card's last four
    roles = json.dumps([["ending in 4613", ["ending in"]], [100510, ["order"]]])
    assert sql_misstated("Order #100510: tracking 9405 5932 3632 2621 4688 48.", roles) is None
    assert sql_misstated("Refunded to the card ending in 1111.", roles)


def test_a_shotgun_of_dates_beside_the_own_date_fails_through_sql() -> None:
    # stop 25's gate (`dates-i`): the ETA with the day before and after listed beside it
    # passed helpdesk order-status: an unbound earlier date was reported by `value_outcome`
    # and dropped by the SQL function
    roles = json.dumps(
        [["2026-06-05", []], ["2026-06-11", []], ["2026-06-15", ["estimated", "deliver*"]]]
    )
    honest = "Order #100510 shipped on 2026-06-11, estimated delivery 2026-06-15."
    assert sql_misstated(honest, roles) is None
    shotgun = honest + "\n\n2026-06-14, 2026-06-16."
    assert "2026-06-14" in (sql_misstated(shotgun, roles) or "")
    # a date outside the record's span (a date of birth the customer gave) stays free, and
    # so does an unbound date where the text states none of the record's own
    assert sql_misstated(honest + " Your date of birth 1985-08-20 matched.", roles) is None
    assert sql_misstated("We will check what happened on 2026-06-14.", roles) is None
