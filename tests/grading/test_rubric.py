"""Rubric types: Param spelling, validation, digests."""

from __future__ import annotations

import pydantic
import pytest

from mcpgym_grading import AnswerMatch, Param, Rubric, SqlCheck, ToolCalled


def test_param_can_be_written_positionally_or_by_keyword() -> None:
    assert Param("order_id") == Param(name="order_id")
    assert Param("order_id").model_dump() == {"kind": "param", "name": "order_id"}


def test_param_and_its_json_form_give_the_same_digest() -> None:
    a = Rubric(checks=(SqlCheck(name="x", sql="SELECT 1", expected=Param("n")),))
    b = Rubric(
        checks=(SqlCheck(name="x", sql="SELECT 1", expected={"kind": "param", "name": "n"}),)
    )
    assert a.digest() == b.digest()
    assert Rubric.model_validate_json(a.canonical_json()).digest() == a.digest()


def test_unknown_band_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match="unknown band"):
        ToolCalled(name="x", tool="t", bands=("eassy",))


def test_sql_answer_source_needs_sql() -> None:
    with pytest.raises(pydantic.ValidationError, match="source 'sql' needs `sql`"):
        AnswerMatch(name="x", source="sql", expected="a")


def test_duplicate_check_names_are_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match="duplicated"):
        Rubric(checks=(ToolCalled(name="x", tool="a"), ToolCalled(name="x", tool="b")))
