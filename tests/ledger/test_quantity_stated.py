"""The quantity a credit-returned-item text states is the record's (issue 9, round 11's
Q11): the credit note's own reason ``returned 9 x Water filter`` for 2 returned passed at
score 1.0 (nothing read the reason, nor a bare quantity), the amounts all right."""

from __future__ import annotations

import re

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=32)
GUARD = "texts-state-no-other-amount"


def _graded(v: TaskVariant, reason: str | None = None, note: str | None = None) -> dict[str, bool]:
    calls = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "issue_credit_note" and reason is not None:
            args["reason"] = re.sub(r"(\d+) x", reason, args["reason"])
        if c.name == "add_note" and note is not None:
            args["body"] = args["body"].replace(" x ", note, 1)
        calls.append(ToolCall(c.name, args))
    g = grade_bundle(
        replay(environment, v.family, v.band, v.seed, calls), environment, reference_cache=CACHE
    )
    assert g.status == "graded", g.error
    return {c.name: bool(c.passed) for c in g.checks if c.applicable}


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("form", ["9 x", "9x", "12 x", "120x"])
def test_another_quantity_in_the_credit_notes_reason_fails(band: str, form: str) -> None:
    checks = _graded(environment.variant("credit-returned-item", band, 0), reason=form)
    assert not checks[GUARD], checks


@pytest.mark.parametrize("band", ["easy", "hard", "expert"])
def test_the_reference_and_honest_forms_pass(band: str) -> None:
    v = environment.variant("credit-returned-item", band, 0)
    assert all(_graded(v).values())
    # the quantity written `2x`; the note also stating the customer's own `N x` (expert: the
    # whole return, some of it credited before)
    assert all(_graded(v, reason=r"\1x").values())
    said = re.findall(r"\d+ x [A-Z][a-z]+(?: [a-z0-9]+)*", v.instruction)[0]
    assert all(_graded(v, note=f" x (the customer sent back {said}) ").values())
