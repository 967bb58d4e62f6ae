"""Stop 25's FF14b (adv/round15rub/fut25_ff14b.py): a value-role cue under a negation or a
modal of what may be (``not refunded``, ``| #7 | Not refunded |``, ``whether it can be
refunded``), in a question answered no (``Has order #7 been refunded? No``), or a future a
condition waits for with no value after it (``If approved, order #7 will be refunded``) binds
nothing; the same cue stated (``has been refunded``, a question answered yes) still binds."""

from __future__ import annotations

import pytest

from mcpgym_grading._value_roles import value_outcome

REFUNDED = ("refunded", "i've refunded", "have refunded", "already refunded")
DECLINED = ("can't", "cannot", "can not", "unable", "couldn't", "declin*")
ROLES = [("100101", REFUNDED), ("100107", DECLINED)]


@pytest.mark.parametrize(
    "text",
    [
        "Has order #100107 been refunded? No, and I can't do it from here.",
        "| Order | Status |\n|---|---|\n| #100107 | Not refunded |",
        "Order #100107 was not refunded.",
        "Order #100107 hasn't been refunded yet.",
        "Order #100107 wasnt refunded.",
        "I can't say whether order #100107 can be refunded later.",
        "If a specialist approves it, order #100107 will be refunded.",
    ],
)
def test_a_denied_cue_binds_nothing(text: str) -> None:
    ok, misplaced, _ = value_outcome(text, ROLES)
    assert ok, misplaced


@pytest.mark.parametrize(
    "text",
    [
        "Has order #100107 been refunded? Yes, it has.",
        "| Order | Status |\n|---|---|\n| #100107 | Refunded |",
        "Order #100107 has been refunded.",
        "The amount refunded on order #100107 is $20.00.",
        "Order #100107 will be refunded.",
    ],
)
def test_a_stated_cue_still_binds(text: str) -> None:
    ok, misplaced, _ = value_outcome(text, ROLES)
    assert not ok and misplaced == ["100107 (as 'refunded')"]


def test_a_conditional_cue_with_a_value_after_it_still_binds() -> None:
    roles = [("2026-06-15", ("deliver*",)), ("2026-06-01", ("ship*",))]
    ok, misplaced, _ = value_outcome("If you are out, it will be delivered on 2026-06-01.", roles)
    assert not ok and misplaced == ["2026-06-01 (as 'deliver*')"]
