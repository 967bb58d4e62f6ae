"""Grading-test helpers: the toy environment's ``refund`` family (`tests.toyenv`) graded by
the rubric or check under test.

``make_env`` builds it on the snapshot package the ``toy_snapshot`` fixture installs once per
session (`PACKAGE`); the facts the tests rely on are in `tests.toyenv`'s docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcpgym_grading import Check, CheckResult, Grade, ReferenceCache, Rubric, grade_bundle
from mcpgym_server import (
    Environment,
    EpisodeBundle,
    EpisodeManager,
    EpisodeStore,
    MemoryEpisodeStore,
)
from tests import toyenv
from tests.toyenv import ORDER_IDS, REFUND_RUBRIC, TRACKING

__all__ = [
    "DEFAULT_RUBRIC",
    "ORDER_IDS",
    "PACKAGE",
    "TRACKING",
    "grade_check",
    "grade_rubric",
    "make_env",
    "reference_calls",
    "run_episode",
]

PACKAGE = "mcpgym_toy_grading"
"""Import name of the session's snapshot package (installed by ``tests/grading/conftest.py``)."""

DEFAULT_RUBRIC = REFUND_RUBRIC


def make_env(
    rubric: Any = DEFAULT_RUBRIC, *, name: str = "toy", broken_reference: bool = False
) -> Environment:
    """A fresh toy environment with only the ``refund`` family, graded by ``rubric``."""
    return toyenv.make_env(
        PACKAGE,
        families=("refund",),
        name=name,
        version="1.0.0",
        rubric=rubric,
        broken_reference=broken_reference,
    )


Calls = Sequence[tuple[str, dict[str, Any]]]


def run_episode(
    env: Environment,
    calls: Calls,
    *,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
    store: EpisodeStore | None = None,
) -> EpisodeBundle:
    """Run ``calls`` in a fresh ``refund`` episode, seal it and return its bundle.

    With ``submit`` the episode ends through ``submit`` (with ``answer``); otherwise
    it is sealed with termination ``ended``.
    """
    manager = EpisodeManager(env, store if store is not None else MemoryEpisodeStore())
    ep = manager.open("refund", band, seed)
    for tool, args in calls:
        manager.call(ep.id, tool, args)
    if submit:
        manager.call(ep.id, "submit", {} if answer is None else {"answer": answer})
    else:
        manager.seal(ep.id, "ended")
    return manager.store.read(ep.id)


def reference_calls(
    env: Environment, *, band: str = "easy", seed: int = 0
) -> list[tuple[str, dict[str, Any]]]:
    """The variant's reference solution as ``(tool, arguments)`` pairs."""
    variant = env.variant("refund", band, seed)
    return [(c.name, dict(c.arguments)) for c in variant.reference]


def grade_rubric(
    rubric: Rubric,
    calls: Calls,
    *,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
) -> Grade:
    """Run ``calls`` in a toy environment graded by ``rubric`` and return the grade."""
    env = make_env(rubric)
    bundle = run_episode(env, calls, band=band, seed=seed, answer=answer, submit=submit)
    return grade_bundle(bundle, env, reference_cache=ReferenceCache())


def grade_check(
    check: Check,
    calls: Calls,
    *,
    volatile_columns: dict[str, tuple[str, ...]] | None = None,
    band: str = "easy",
    seed: int = 0,
    answer: str | None = None,
    submit: bool = True,
) -> CheckResult:
    """Grade one check over an episode running ``calls``; return its result."""
    rubric = Rubric(checks=(check,), volatile_columns=volatile_columns or {})
    grade = grade_rubric(rubric, calls, band=band, seed=seed, answer=answer, submit=submit)
    (result,) = grade.checks
    if result.error is not None:
        assert grade.status == "error"
        assert grade.error == f"check `{check.name}`: {result.error}"
    return result
