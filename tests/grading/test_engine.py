"""grade_bundle: scoring, applicability, error status, determinism, locks, references."""

from __future__ import annotations

import pytest

from mcpgym_grading import (
    BundleMismatchError,
    LockMismatchError,
    Param,
    ReferenceCache,
    Rubric,
    SqlCheck,
    StateMatchesReference,
    ToolCalled,
    ToolNotCalled,
    grade_bundle,
)
from mcpgym_server import EnvironmentDefinitionError, compute_lock

from .episodes import DEFAULT_RUBRIC, grade_rubric, make_env, reference_calls, run_episode

LOOKUP = ("get_order", {"order_id": 101})
REFUND = ("refund", {"order_id": 101, "amount_cents": 2500})
PASS = ToolCalled(name="pass", tool="get_order")
FAIL = ToolCalled(name="fail", tool="send_message")


@pytest.mark.parametrize("band", ["easy", "hard"])
def test_reference_run_scores_one_and_passes(band: str) -> None:
    env = make_env()
    variant = env.variant("refund", band, 0)
    bundle = run_episode(env, reference_calls(env, band=band), band=band, answer=variant.answer)
    grade = grade_bundle(bundle, env, reference_cache=ReferenceCache())
    assert (grade.status, grade.score, grade.passed, grade.error) == ("graded", 1.0, True, None)
    assert [c.name for c in grade.checks if not c.applicable] == (
        ["customer-told"] if band == "easy" else []
    )
    assert grade.variant_id == f"toy/refund@{band}#0"
    assert grade.lock == compute_lock(env) == bundle.meta.lock
    assert grade.rubric_digest == DEFAULT_RUBRIC.digest()
    steps = {"easy": 3, "hard": 4}[band]  # reference calls + submit
    assert (grade.termination, grade.steps, grade.internal_errors) == ("submitted", steps, 0)


def test_score_is_the_weighted_share_of_passed_applicable_checks() -> None:
    rubric = Rubric(
        checks=(
            PASS.model_copy(update={"weight": 2.0}),
            ToolCalled(name="pass2", tool="get_order", weight=1.0),
            FAIL,
        ),
        threshold=0.75,
    )
    grade = grade_rubric(rubric, [LOOKUP])
    assert (grade.score, grade.passed) == (0.75, True)
    stricter = grade_rubric(rubric.model_copy(update={"threshold": 0.8}), [LOOKUP])
    assert (stricter.score, stricter.passed) == (0.75, False)


def test_a_failed_required_check_fails_the_grade_whatever_the_score() -> None:
    rubric = Rubric(
        checks=(
            PASS.model_copy(update={"weight": 9.0}),
            FAIL.model_copy(update={"required": True}),
        ),
        threshold=0.5,
    )
    grade = grade_rubric(rubric, [LOOKUP])
    assert (grade.score, grade.passed) == (0.9, False)


def test_checks_outside_their_band_or_when_do_not_count() -> None:
    rubric = Rubric(
        checks=(
            PASS,
            FAIL.model_copy(update={"name": "hard-only", "bands": ("hard",)}),
            FAIL.model_copy(update={"name": "notify-only", "when": "notify"}),
        )
    )
    grade = grade_rubric(rubric, [LOOKUP])
    assert (grade.score, grade.passed) == (1.0, True)
    skipped = {c.name: (c.applicable, c.passed, c.detail) for c in grade.checks[1:]}
    assert skipped == {
        "hard-only": (
            False,
            None,
            {"expected": None, "found": None, "skipped": "band `easy` is not one of ['hard']"},
        ),
        "notify-only": (
            False,
            None,
            {"expected": None, "found": None, "skipped": "variant param `notify` is false"},
        ),
    }
    hard = grade_rubric(rubric, [LOOKUP], band="hard")
    assert (hard.score, [c.applicable for c in hard.checks]) == (1 / 3, [True, True, True])


def test_a_rubric_with_no_applicable_check_is_an_error_not_a_pass() -> None:
    rubric = Rubric(checks=(FAIL.model_copy(update={"bands": ("hard",)}),))
    grade = grade_rubric(rubric, [])
    assert (grade.status, grade.score, grade.passed) == ("error", None, False)
    assert "no weighted check applies to band `easy`" in (grade.error or "")


def test_when_naming_a_missing_param_is_an_evaluation_error() -> None:
    rubric = Rubric(checks=(PASS.model_copy(update={"when": "notfy"}),))
    grade = grade_rubric(rubric, [LOOKUP])
    assert grade.status == "error"
    assert grade.error == (
        "check `pass`: variant param `notfy` does not exist; the variant's params are: "
        "amount_cents, customer, listing, notify, order_id, tracking"
    )


def test_an_unevaluable_check_makes_the_grade_an_error_but_others_still_run() -> None:
    rubric = Rubric(
        checks=(
            PASS,
            SqlCheck(name="broken", sql="SELECT nope FROM orders", expected=Param("order_id")),
            SqlCheck(name="broken2", sql="SELECT 1 FROM nowhere", expected=1),
        )
    )
    grade = grade_rubric(rubric, [LOOKUP])
    assert (grade.status, grade.score, grade.passed) == ("error", None, False)
    assert grade.error == (
        "check `broken`: SQL error: no such column: nope; "
        "check `broken2`: SQL error: no such table: nowhere"
    )
    assert grade.checks[0].passed is True
    assert grade.checks[1].detail == {"expected": 101, "found": None}


def test_grading_is_deterministic() -> None:
    env = make_env()
    calls = [LOOKUP, LOOKUP, ("refund", {"order_id": 101, "amount_cents": 2400})]
    bundle = run_episode(env, calls, answer="refunded $24")
    first = grade_bundle(bundle, env, reference_cache=ReferenceCache())
    cache = ReferenceCache()
    second = grade_bundle(bundle, env, reference_cache=cache)
    third = grade_bundle(bundle, env, reference_cache=cache)
    assert first == second == third
    assert first.model_dump_json() == third.model_dump_json()
    assert first.passed is False


def test_reference_is_built_only_when_needed_and_cached_per_variant() -> None:
    env = make_env(Rubric(checks=(PASS,)))
    cache = ReferenceCache()
    grade_bundle(run_episode(env, [LOOKUP]), env, reference_cache=cache)
    assert len(cache) == 0
    env = make_env(Rubric(checks=(StateMatchesReference(name="s", tables=("orders",)),)))
    for _ in range(2):
        grade_bundle(run_episode(env, [REFUND]), env, reference_cache=cache)
    assert len(cache) == 1
    grade_bundle(run_episode(env, [REFUND], seed=1), env, reference_cache=cache)
    assert len(cache) == 2


def test_a_failing_reference_solution_errors_the_checks_that_need_it() -> None:
    rubric = Rubric(checks=(PASS, StateMatchesReference(name="s", tables=("orders",))))
    env = make_env(rubric, broken_reference=True)
    grade = grade_bundle(run_episode(env, [LOOKUP]), env, reference_cache=ReferenceCache())
    assert grade.status == "error"
    assert grade.error == (
        "check `s`: the reference solution of toy/refund@easy#0 fails at step 3 "
        "(tool `refund`, tool_error): order 999 not found"
    )


def test_environment_internal_errors_are_graded_and_counted() -> None:
    grade = grade_rubric(Rubric(checks=(PASS,)), [LOOKUP, ("crash", {})])
    assert (grade.status, grade.score, grade.internal_errors) == ("graded", 1.0, 1)


def test_unsubmitted_episode_keeps_its_termination() -> None:
    grade = grade_rubric(Rubric(checks=(PASS,)), [LOOKUP], submit=False)
    assert (grade.termination, grade.steps) == ("ended", 1)


def test_a_changed_instrument_refuses_to_grade() -> None:
    env = make_env()
    bundle = run_episode(env, [LOOKUP])
    changed = make_env(Rubric(checks=(PASS,)))
    with pytest.raises(LockMismatchError) as info:
        grade_bundle(bundle, changed)
    assert (info.value.bundle_lock, info.value.installed_lock) == (
        compute_lock(env),
        compute_lock(changed),
    )
    unchecked = grade_bundle(bundle, changed, check_lock=False, reference_cache=ReferenceCache())
    assert (unchecked.lock, unchecked.score) == (compute_lock(changed), 1.0)


def test_a_bundle_of_another_environment_is_refused() -> None:
    bundle = run_episode(make_env(), [LOOKUP])
    with pytest.raises(BundleMismatchError, match="ran in environment `toy`, not `other`"):
        grade_bundle(bundle, make_env(name="other"), check_lock=False)


def test_a_rubric_that_is_not_a_rubric_is_an_environment_definition_error() -> None:
    class Opaque:
        def digest(self) -> str:
            return "0" * 64

    env = make_env(Opaque())
    with pytest.raises(EnvironmentDefinitionError, match="needs an mcpgym_grading.Rubric"):
        grade_bundle(run_episode(env, [LOOKUP]), env)


def test_tool_not_called_default_rubric_catches_damage() -> None:
    rubric = Rubric(
        checks=(ToolNotCalled(name="no-delete", tool="delete_customer", required=True),)
    )
    grade = grade_rubric(rubric, [("delete_customer", {"customer_id": 1})])
    assert (grade.score, grade.passed) == (0.0, False)


def test_a_check_that_raises_unexpectedly_makes_an_error_grade(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mcpgym_grading import engine

    def explode(check: object, ctx: object) -> object:
        raise ValueError("grader bug")

    monkeypatch.setitem(engine.EVALUATORS, ToolCalled, explode)
    grade = grade_rubric(Rubric(checks=(FAIL,)), [])
    assert (grade.status, grade.score, grade.passed) == ("error", None, False)
    assert grade.error == "check `fail`: the check raised ValueError: grader bug"
    assert "grader bug" in caplog.text
