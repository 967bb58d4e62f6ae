"""An amount with a minus sign in a ledger text (``-$949.00``: a negative accrual, write-off
or payment) is that negative amount, none the reference states (issue 9, round 11's N11:
every note amount as ``-$X`` passed at 1.0 in 14 of 16 episodes on main ef00833: the money
reader ignores a sign). A dash that is no sign (``Refund - $5.00``, a range) stays as it
was, and the references pass."""

from __future__ import annotations

import re

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=32)
MONEY = re.compile(r"\$([\d,]+\.\d\d)")
FAMILIES = ("accrue-expense", "write-off-bad-debt", "apply-customer-payment", "enter-vendor-bill")


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("family", FAMILIES)
def test_every_note_amount_with_a_minus_sign_fails(family: str, band: str) -> None:
    v = environment.variant(family, band, 0)
    calls = [
        ToolCall(c.name, {**c.arguments, "body": MONEY.sub(r"-$\1", str(c.arguments["body"]))})
        if c.name == "add_note"
        else c
        for c in v.reference
    ]
    assert calls != list(v.reference)
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    failed = [c.name for c in g.checks if c.applicable and not c.passed]
    assert not g.passed and "texts-state-no-other-amount" in failed, failed
