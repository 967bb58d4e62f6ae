"""An answer check's forbidden and allowed values (`_answer_check._listed`): in order,
without repeats (the first of equal values kept), every value a text or a number."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from mcpgym_grading._answer_check import _listed  # noqa: PLC2701
from mcpgym_grading.errors import CheckEvaluationError


class _Text(str):
    __slots__ = ()


def _ctx() -> Any:
    return SimpleNamespace(params={})


def test_values_in_order_without_repeats_the_first_kept() -> None:
    got = _listed([1, "a", 1.0, ["b", "a"], 2.5, _Text("b"), 1], None, _ctx(), "a forbidden")
    assert got == [1, "a", "b", 2.5]
    assert type(got[0]) is int  # 1 and 1.0 are one value: the first is kept


@pytest.mark.parametrize("bad", [True, None, {"x": 1}, b"x"])
def test_a_value_neither_text_nor_number_is_refused_first_in_order(bad: Any) -> None:
    values = ["a", bad, {"y": 2}] if bad is not None else ["a", [bad], {"y": 2}]
    if bad is None:  # None is dropped by flattening: the dict after it is refused
        with pytest.raises(CheckEvaluationError, match=r"got \{'y': 2\}"):
            _listed(values, None, _ctx(), "a forbidden")
        return
    with pytest.raises(CheckEvaluationError, match=f"a forbidden value must be .* got {bad!r}"):
        _listed(values, None, _ctx(), "a forbidden")
