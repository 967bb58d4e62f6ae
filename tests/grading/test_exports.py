"""The public surface of mcpgym_grading is curated."""

from __future__ import annotations

import inspect

import mcpgym_grading

EXPECTED = {
    "DecisionMatch",
    "DECISION_ACTIONS",
    "TEXT_AMOUNTS",
    "ToolArgumentsOnly",
    "texts_state_no_other_amount",
    "texts_reveal_none",
    "claims_only_taken",
    "states_decision",
    "with_text_amounts",
    "amounts_stated",
    "disclosure_forbidden",
    "money_moved_only_as_allowed",
    "nothing_else_changed",
    "record_state",
    "register_sql_functions",
    "reply_sent",
    "reply_says",
    "rows_untouched",
    "rows_written_sum",
    "secret_email_parts_sql",
    "sql_in_list",
    "AmountRole",
    "AnswerMatch",
    "BundleMismatchError",
    "CalledBefore",
    "Check",
    "CheckEvaluationError",
    "CheckResult",
    "Grade",
    "GradeStats",
    "GradeStatus",
    "GradingError",
    "GroupStats",
    "Lexicon",
    "LexiconItem",
    "LockMismatchError",
    "MentionMatch",
    "NoCollateralChanges",
    "Param",
    "PeriodReader",
    "ReferenceCache",
    "Rubric",
    "SqlCheck",
    "StateConnection",
    "StateMatchesReference",
    "Summary",
    "TextView",
    "ToolCalled",
    "ToolNotCalled",
    "create_app",
    "fold",
    "grade_bundle",
    "stats",
    "summarize_grades",
}


def test_all_is_exactly_the_public_api() -> None:
    assert set(mcpgym_grading.__all__) == EXPECTED
    assert list(mcpgym_grading.__all__) == sorted(mcpgym_grading.__all__)
    public = {n for n in vars(mcpgym_grading) if not n.startswith("_")}
    submodules = {n for n in public if inspect.ismodule(getattr(mcpgym_grading, n))}
    assert public - submodules == EXPECTED


def test_public_classes_and_functions_have_docstrings() -> None:
    for name in mcpgym_grading.__all__:
        obj = getattr(mcpgym_grading, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), name
