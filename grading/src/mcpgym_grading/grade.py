"""The grade of one sealed episode: per-check results and a weighted score.

A grade is a pure function of the bundle and the locked environment: grading the
same bundle twice gives equal `Grade` objects (there are no timestamps in it).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcpgym_server.bundles import TerminationReason

GradeStatus = Literal["graded", "error"]
"""``graded``: every applicable check was evaluated. ``error``: at least one could not be."""


class CheckResult(BaseModel):
    """The outcome of one rubric check.

    Attributes:
        name, kind, weight, required: copied from the check.
        applicable: whether the check applied to this variant (``bands`` and ``when``).
        passed: the outcome; ``None`` when not applicable or when it could not be evaluated.
        detail: JSON with at least ``"expected"`` and ``"found"`` (``None`` when
            unknown); state comparisons add ``"diff"``, skipped checks ``"skipped"``.
        error: why the check could not be evaluated (then the grade's status is ``error``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    kind: str
    weight: float
    required: bool
    applicable: bool
    passed: bool | None
    detail: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None


class Grade(BaseModel):
    """The grade of one sealed episode.

    Attributes:
        episode_id, env, env_version, task, band, seed, variant_id: what was graded.
        lock: the lock of the environment that graded it: the lock the episode ran on
            (they must be equal unless `grade_bundle` was called with ``check_lock=False``).
        rubric_digest: digest of the rubric that was applied.
        status: ``graded`` or ``error`` (a check could not be evaluated; see ``error``).
        error: the evaluation errors, each naming its check (``None`` when graded).
        score: weighted score in [0, 1] (sum of weights of passed applicable checks over
            the sum of applicable weights; 1.0 when no check applies); ``None`` on error.
        passed: every applicable required check passed and ``score >= threshold``;
            always ``False`` on error.
        threshold: the rubric's pass threshold.
        checks: one result per rubric check, in rubric order.
        termination, steps: from the bundle.
        internal_errors: tool calls that failed inside the environment. The grade is
            computed and scored as usual (an agent can provoke such failures); they are
            reported so the environment gets fixed.
        unlocked: the episode was served in development mode (``--unlocked``).
        signature: ``verified``: the bundle's signature verified with the grading service's
            bundle key (it is as the environment server sealed it); ``unchecked``: the
            service has no bundle key, so nothing proves the bundle was not edited.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    episode_id: str
    env: str
    env_version: str
    task: str
    band: str
    seed: int
    variant_id: str
    lock: str
    rubric_digest: str
    status: GradeStatus
    error: str | None = None
    score: float | None = Field(default=None, ge=0, le=1)
    passed: bool
    threshold: float
    checks: tuple[CheckResult, ...]
    termination: TerminationReason
    steps: int
    internal_errors: int
    unlocked: bool = False
    signature: Literal["verified", "unchecked"] = "unchecked"
