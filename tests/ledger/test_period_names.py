"""`note-names-the-period` reads every period a note names (issue 9, "shotgun answers").

A note naming other months beside April names no period, whatever the form the months
are written in (numbers, dates in either order, period codes, quarters, halves); the
reference's note and honest rephrasings of it still pass. Before the period reader, a
hand list of month names and ``2026-MM`` forms missed every numeric and period-code form.
"""

from __future__ import annotations

import pytest

from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_ledger import environment
from mcpgym_server import TaskVariant, ToolCall, replay

CACHE = ReferenceCache(maxsize=64)
CHECK = "note-names-the-period"

OTHER_MONTHS = [
    "06/2026",
    "6/2026",
    "06/26",
    "6/26",
    "06.2026",
    "06-2026",
    "30/06/2026",
    "6/30/2026",
    "2026-6",
    "2026 M06",
    "Q2 2026",
    "H1 2026",
    "FY26 P6",
    "period 6",
    "P06",
    "2026/06",
    "202606",
    "2026-06-30",
    "June '26",
    "jun26",
    "Q1, Q2, Q3 or Q4 2026",
    "month 1, 2, 3, 6, 7, 8, 9, 10, 11 or 12",
    "every month of 2026",
    "any month from January through December 2026",
    "the second quarter",
    "periods 1-3",
    "FY2026",
    "April 2025",
    "Ｑ２ ２０２６",  # fullwidth
    "<!-- 06/2026 -->",  # in the source only
]


def _note_calls(v: TaskVariant, body: str | None = None, extra: str = "") -> list[ToolCall]:
    out = []
    for c in v.reference:
        args = dict(c.arguments)
        if c.name == "add_note":
            args["body"] = (body if body is not None else args["body"]) + extra
        out.append(ToolCall(c.name, args))
    return out


def _passes(v: TaskVariant, calls: list[ToolCall]) -> bool:
    bundle = replay(environment, v.family, v.band, v.seed, calls)
    grade = grade_bundle(bundle, environment, reference_cache=CACHE)
    return next(c for c in grade.checks if c.name == CHECK).passed is True


@pytest.mark.parametrize("band", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("seed", [0, 3])
def test_the_reference_note_names_the_period(band: str, seed: int) -> None:
    v = environment.variant("closed-period-posting", band, seed)
    assert _passes(v, list(v.reference))


@pytest.mark.parametrize("other", OTHER_MONTHS)
def test_a_note_naming_another_month_in_any_form_names_none(other: str) -> None:
    """The reference note plus ``(or X)`` where X names a month but April and May (before:
    every numeric and period-code form passed)."""
    v = environment.variant("closed-period-posting", "easy", 1)
    assert not _passes(v, _note_calls(v, extra=f" (or {other})"))


@pytest.mark.parametrize(
    "body",
    [
        "Belongs to April 2026 (a closed period); posted on 2026-05-01, the first day of the "
        "earliest open period.",
        "Period: 2026-04 (closed). Posted 1 May 2026 as policy 2.2 asks.",
        "This posting belongs to the April period (04/2026), which is closed, so it is dated "
        "May 1, 2026 instead.",
        "Belongs to P4 of FY2026 (April); posted in May, the open period.",
        "Requested for {asked}; April is closed, so it was posted on 05/01/2026. It belongs to "
        "April.",
        "Asked for {us}: April 2026 is closed; posted 5/1/2026 (policy 2.2), belongs to Apr.",
        "April is closed: this belongs to April and may be reviewed when May closes.",
    ],
)
def test_honest_notes_still_name_the_period(body: str) -> None:
    v = environment.variant("closed-period-posting", "easy", 1)
    asked = str(v.params["issue_date"])
    y, m, d = asked.split("-")
    text = body.format(asked=asked, us=f"{int(m)}/{int(d)}/{y}")
    assert _passes(v, _note_calls(v, body=text))


def test_a_note_without_the_period_fails() -> None:
    v = environment.variant("closed-period-posting", "easy", 1)
    assert not _passes(v, _note_calls(v, body="Posted on 2026-05-01, the first open day."))
