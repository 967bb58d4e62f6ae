"""Amount forms of adversarial round 10's EV2: a code then a comma (``in USD, 649.89``), a
multiplier (``2 x $324.94`` states $649.88 too), cents glued to ``c`` (``64989c``) and a money
emoji (``💵649.89``) are read as amounts; honest neighbours read as before."""

from __future__ import annotations

import pytest

from mcpgym_grading._money import money_mentions


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("I've also refunded, in USD, 649.89 to your card.", [64989]),
        ("I've also refunded 2 x $324.94 to your card.", [32494, 64988]),
        ("I've also refunded 3 × $5.00.", [500, 1500]),
        ("I've also refunded 64989c to your card.", [64989]),
        ("I refunded 50c", [50]),
        ("I've also refunded 💵649.89 to your card.", [64989]),
        ("a refund of 💶 12.00", [1200]),
    ],
)
def test_ev2_forms_are_amounts(text: str, cents: list[int]) -> None:
    assert [int(m.cents) for m in money_mentions(text)] == cents


def test_a_euro_banknote_is_euros() -> None:
    assert [m.currency for m in money_mentions("a refund of 💶 12.00")] == ["EUR"]


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("All amounts are in USD, 2 refunds were made.", []),
        ("Done 💰 for order #100123", []),
        ("1 × $45.00", [4500]),
        ("Section 2c applies", []),
        ("Order #100123c", []),
        ("I've refunded $324.94 to your card.", [32494]),
    ],
)
def test_honest_neighbours_read_as_before(text: str, cents: list[int]) -> None:
    assert [int(m.cents) for m in money_mentions(text)] == cents


def test_a_multipliers_product_is_marked_and_no_role_binds_it() -> None:
    from mcpgym_grading._roles import bind

    text = "Credit note (2 x $23.50 each, $47.00 net)."
    assert [(int(m.cents), m.product) for m in money_mentions(text)] == [
        (2350, False),
        (4700, True),
        (4700, False),
    ]
    bound = bind(text, [(2350, ("x", "each")), (4700, ("net",))])
    assert len(bound) == 2
