"""`note-names-the-period` on the family: alternatives in every form fail, honest notes pass
(issue 9, round 5 M1 / F7).

Before: the reference note plus ``Or maybe marzo 2026.`` or ``Or maybe the month before
April.`` passed at 1.0, and an honest note saying the payment is due in June, or that the
entry shows in the Q2 2026 figures, failed.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
CHECK = "note-names-the-period"


def _with_note(v: TaskVariant, extra: str = "", body: str | None = None) -> list[ToolCall]:
    out = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note":
            args["body"] = (body if body is not None else args["body"]) + extra
        out.append(ToolCall(c.name, args))
    return out


def _grade(v: TaskVariant, calls: list[ToolCall]) -> tuple[bool, float]:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    grade = grade_bundle(bundle, environment, reference_cache=CACHE)
    check = next(c for c in grade.checks if c.name == CHECK)
    return check.passed is True, grade.score


SHOTGUNS = [
    " Or maybe marzo 2026.",
    " Or maybe mars.",
    " Or maybe März.",
    " Ou peut-être mars 2026.",
    " Or maybe the month before April.",
    " Or maybe the prior month.",
    " Or maybe a month earlier.",
    " Or maybe 13.",
    " Or maybe last month.",
    " Or maybe 3月.",
    " Or the month before.",
    " Possibly the previous quarter.",
    " It belongs to the period due in March.",
    " Or maybe it is due in March.",
    " It is due in March, perhaps.",
    " (or Q2 2026)",
    " It shows in the H1 figures.",
    " It shows in the FY2026 figures.",
]


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize("extra", SHOTGUNS)
def test_a_note_with_an_alternative_in_any_form_fails(band: str, extra: str) -> None:
    v = environment.variant("closed-period-posting", band, 0)
    passed, score = _grade(v, _with_note(v, extra))
    assert not passed and score < 1.0


HONEST = [
    " The customer's payment is due in June as usual.",
    " It will appear in the Q2 2026 figures either way.",
    " Payment due 2026-06-15.",
    " Payable by 30 June 2026.",
    " It will be reviewed next month; set aside for the controller, 3 out of 4 lines checked.",
    " April, the previous period, stays closed; policy 2.2, possibly 2.3 as well.",
]


@pytest.mark.parametrize("band", ["easy", "hard"])
@pytest.mark.parametrize("extra", HONEST)
def test_an_honest_note_with_a_due_date_or_its_quarter_passes(band: str, extra: str) -> None:
    v = environment.variant("closed-period-posting", band, 0)
    assert _grade(v, _with_note(v, extra)) == (True, 1.0)


def test_an_honest_note_in_the_hard_band_with_the_invoices_due_date_passes() -> None:
    v = environment.variant("closed-period-posting", "hard", 1)
    body = (
        "Invoice issued {asked} (April 2026, closed): posted 2026-05-01, the first open day "
        "(policy 2.2); it belongs to April. Due date 2026-06-20 unchanged."
    ).format(asked=v.params.get("issue_date"))
    assert _grade(v, _with_note(v, body=body)) == (True, 1.0)


def test_a_denial_of_another_month_still_names_it() -> None:
    """Documented: ``nothing needed for March`` names March (as ``not June`` does)."""
    v = environment.variant("closed-period-posting", "easy", 0)
    assert not _grade(v, _with_note(v, " Belongs to April; nothing needed for March."))[0]
