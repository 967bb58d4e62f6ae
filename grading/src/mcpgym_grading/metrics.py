"""Summaries over many grades: mean score, pass rate, counts, per (task, band).

Grades with status ``error`` (a check could not be evaluated) are counted but left
out of the mean score and the pass rate: they measure the instrument, not the agent.
Graded episodes in which a tool failed inside the environment (``internal_errors``)
stay in the score, because an agent can provoke such failures with its input and
would otherwise erase its own failures; they are counted apart so they get fixed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from mcpgym_grading.grade import Grade


class GradeStats(BaseModel):
    """Statistics over a set of grades.

    Attributes:
        count: all grades. scored: grades counted in the score (status ``graded``).
        errors: grades with status ``error``. internal_errors: scored grades of episodes
            in which some tool failed inside the environment.
        passed: scored grades that passed.
        mean_score: mean score of the scored grades (``None`` when none).
        stderr: standard error of that mean (``None`` below two scored grades).
        pass_rate: ``passed / scored`` (``None`` when none).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    count: int
    scored: int
    errors: int
    internal_errors: int
    passed: int
    mean_score: float | None
    stderr: float | None
    pass_rate: float | None


class GroupStats(GradeStats):
    """`GradeStats` of one (task, band) group."""

    task: str
    band: str


class Summary(BaseModel):
    """Overall statistics and per (task, band) groups (sorted by task, then band order)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    overall: GradeStats
    groups: tuple[GroupStats, ...]


def is_scored(grade: Grade) -> bool:
    """Whether a grade counts towards model scores (status ``graded``)."""
    return grade.status == "graded"


def stats(grades: Iterable[Grade]) -> GradeStats:
    """`GradeStats` over ``grades`` (any iterable; an empty one gives zero counts)."""
    items = list(grades)
    scored = [g for g in items if is_scored(g)]
    scores = [g.score for g in scored if g.score is not None]
    passed = sum(1 for g in scored if g.passed)
    mean = math.fsum(scores) / len(scores) if scores else None
    stderr = None
    if mean is not None and len(scores) > 1:
        var = math.fsum((s - mean) ** 2 for s in scores) / (len(scores) - 1)
        stderr = math.sqrt(var / len(scores))
    return GradeStats(
        count=len(items),
        scored=len(scored),
        errors=sum(1 for g in items if g.status == "error"),
        internal_errors=sum(1 for g in scored if g.internal_errors > 0),
        passed=passed,
        mean_score=mean,
        stderr=stderr,
        pass_rate=passed / len(scored) if scored else None,
    )


_BAND_ORDER = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}


def by_task_band(grades: Iterable[Grade]) -> dict[tuple[str, str], list[Grade]]:
    """Grades grouped by ``(task, band)``, keys sorted by task then band difficulty."""
    groups: dict[tuple[str, str], list[Grade]] = {}
    for g in grades:
        groups.setdefault((g.task, g.band), []).append(g)
    keys = sorted(groups, key=lambda k: (k[0], _BAND_ORDER.get(k[1], 99), k[1]))
    return {k: groups[k] for k in keys}


def summarize_grades(grades: Iterable[Grade]) -> Summary:
    """Overall `GradeStats` plus one `GroupStats` per (task, band)."""
    items = list(grades)
    return Summary(
        overall=stats(items),
        groups=tuple(
            GroupStats(task=task, band=band, **stats(group).model_dump())
            for (task, band), group in by_task_band(items).items()
        ),
    )
