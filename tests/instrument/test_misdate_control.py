"""The gate's ``misdate-text-i`` control mutants (round 19, helper adv29l): the ledger's
`texts-state-posting-months` is failed by a control run that writes a wrong month, not by an
episode that writes no text (round 18 failed that one to keep the check out of condition 4's
vacuous list; an empty episode states no month)."""

from __future__ import annotations

import pytest

from mcpgym_clients.instrument.controls import misdate_month, mutants
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import ToolCall, replay

CACHE = ReferenceCache(maxsize=16)
CHECK = "texts-state-posting-months"
FAMILIES = sorted(
    name
    for name, fam in environment.families.items()
    if any(c.name == CHECK for c in getattr(fam.rubric, "checks", ()))
)


def test_the_month_is_the_one_before_the_tasks_earliest_date() -> None:
    v = environment.variant("accrue-expense", "easy", 0)
    assert misdate_month(v) == "April 2026"  # the accrual on 2026-05-31


def _failed(family: str, band: str, calls: list[tuple[str, dict]]) -> set[str]:
    tool_calls = [ToolCall(n, a) for n, a in calls if n != "submit"]
    bundle = replay(environment, family, band, 0, tool_calls)
    g = grade_bundle(bundle, environment, reference_cache=CACHE)
    return {c.name for c in g.checks if c.applicable and c.passed is False}


@pytest.mark.parametrize("family", FAMILIES)
def test_a_misdate_control_fails_the_posting_months_check(family: str) -> None:
    assert len(FAMILIES) == 7
    v = environment.variant(family, "easy", 0)
    found = [(label, calls) for label, calls in mutants(environment, v) if "misdate" in label]
    assert found
    assert any(CHECK in _failed(family, "easy", calls) for _, calls in found)


def test_no_text_fails_nothing_of_the_posting_months_check() -> None:
    v = environment.variant("credit-returned-item", "easy", 0)
    calls = [(c.name, dict(c.arguments)) for c in v.reference if c.name != "add_note"]
    assert CHECK not in _failed("credit-returned-item", "easy", calls)
