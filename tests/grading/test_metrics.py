"""Summaries over grades: scored grades only, per (task, band)."""

from __future__ import annotations

import math
from typing import Any

from mcpgym_grading import Grade, GradeStats, stats, summarize_grades


def grade(task: str, band: str, score: float | None, passed: bool, **kw: Any) -> Grade:
    fields: dict[str, Any] = {
        "episode_id": f"ep_{task}_{band}_{score}_{passed}",
        "env": "toy",
        "env_version": "1.0.0",
        "task": task,
        "band": band,
        "seed": 0,
        "variant_id": f"toy/{task}@{band}#0",
        "lock": "l" * 64,
        "rubric_digest": "r" * 64,
        "status": "graded" if score is not None else "error",
        "error": None if score is not None else "check `x`: boom",
        "score": score,
        "passed": passed,
        "threshold": 1.0,
        "checks": (),
        "termination": "submitted",
        "steps": 3,
        "internal_errors": 0,
    }
    fields.update(kw)
    return Grade(**fields)


def test_stats_leave_out_error_grades_but_score_episodes_with_internal_errors() -> None:
    grades = [
        grade("refund", "easy", 1.0, True),
        grade("refund", "easy", 0.5, False),
        grade("refund", "easy", None, False),
        grade("refund", "easy", 0.0, False, internal_errors=2),
    ]
    result = stats(grades)
    assert result.model_dump(exclude={"stderr"}) == {
        "count": 4,
        "scored": 3,
        "errors": 1,
        "internal_errors": 1,
        "passed": 1,
        "mean_score": 0.5,
        "pass_rate": 1 / 3,
    }
    # sample sd of (1.0, 0.5, 0.0) is 0.5; stderr = 0.5 / sqrt(3)
    assert result.stderr is not None and math.isclose(result.stderr, 0.5 / math.sqrt(3))


def test_stats_of_nothing_has_no_means() -> None:
    assert stats([]) == GradeStats(
        count=0,
        scored=0,
        errors=0,
        internal_errors=0,
        passed=0,
        mean_score=None,
        stderr=None,
        pass_rate=None,
    )


def test_summary_groups_by_task_then_band_difficulty() -> None:
    grades = [
        grade("refund", "hard", 0.0, False),
        grade("refund", "easy", 1.0, True),
        grade("address", "medium", 1.0, True),
        grade("refund", "easy", 0.0, False),
    ]
    summary = summarize_grades(grades)
    assert summary.overall.count == 4
    assert [(g.task, g.band, g.count, g.mean_score, g.pass_rate) for g in summary.groups] == [
        ("address", "medium", 1, 1.0, 1.0),
        ("refund", "easy", 2, 0.5, 0.5),
        ("refund", "hard", 1, 0.0, 0.0),
    ]
