"""Param resolution, SQL parameter binding and value normalisation."""

from __future__ import annotations

import pytest

from mcpgym_grading import CheckEvaluationError, Param
from mcpgym_grading._values import (
    bind_sql,
    normalise,
    resolve,
    sql_param_names,
    values_close,
    values_equal,
)

PARAMS = {"order_id": 101, "amount": 2500, "name": "Ada", "ids": [1, 2], "flag": True}


def test_param_instances_and_dict_forms_resolve_recursively() -> None:
    value = {
        "a": Param("order_id"),
        "b": [{"kind": "param", "name": "amount"}, (Param("name"), 3)],
        "c": {"kind": "param", "name": "ids"},
        "d": {"kind": "param", "name": "ids", "extra": 1},  # not a reference: three keys
    }
    assert resolve(value, PARAMS) == {
        "a": 101,
        "b": [2500, ["Ada", 3]],
        "c": [1, 2],
        "d": {"kind": "param", "name": "ids", "extra": 1},
    }


def test_missing_param_names_it_and_lists_the_variant_params() -> None:
    with pytest.raises(CheckEvaluationError) as info:
        resolve([Param("nope")], PARAMS)
    assert str(info.value) == (
        "variant param `nope` does not exist; the variant's params are: "
        "amount, flag, ids, name, order_id"
    )


def test_sql_binding_takes_only_the_params_the_query_names() -> None:
    sql = "SELECT * FROM t WHERE a = :order_id AND b = @name AND c = ':amount' -- :ids\n"
    assert sql_param_names(sql) == ["order_id", "name"]
    assert bind_sql(sql, PARAMS) == {"order_id": 101, "name": "Ada"}


def test_sql_binding_refuses_unknown_positional_and_non_scalar_params() -> None:
    with pytest.raises(CheckEvaluationError, match=r"names parameter `:zzz`, which is not"):
        bind_sql("SELECT :zzz", PARAMS)
    with pytest.raises(CheckEvaluationError, match="positional parameter"):
        bind_sql("SELECT ?", PARAMS)
    with pytest.raises(CheckEvaluationError, match="`ids` is a list"):
        bind_sql("SELECT :ids", PARAMS)


def test_numbers_compare_numerically_strings_and_booleans_exactly() -> None:
    assert values_equal(2500, 2500.0)
    assert values_equal([1, {"a": 2.0}], [1.0, {"a": 2}])
    assert not values_equal("2500", 2500)
    assert not values_equal(True, 1)
    assert not values_equal("Ada", "ada")
    assert normalise(b"\x01") == normalise("x'01'")


@pytest.mark.parametrize(
    ("a", "b", "kw", "close"),
    [
        (1e9, 1e9 + 1.0, {}, False),  # an off-by-one at a large magnitude is no rounding
        (1e15, 1e15 + 1.0, {}, False),
        (4500.0, 4501, {}, False),
        (1e9 + 0.5, 1e9 + 1.5, {}, False),
        (0.1 + 0.2, 0.3, {}, True),
        (sum([0.1] * 1000), 100.0, {}, True),  # accumulated binary rounding
        (4500.0, 4500, {}, True),
        (1e12 + 0.5, 1e12 + 1.0, {}, False),  # a half at a large magnitude is no rounding
        (1e15 + 0.5, 1e15, {}, False),
        (-(1e15 + 0.5), -1e15, {}, False),
        (1e15 + 0.125, 1e15, {}, True),  # one unit in the last place
        (2.5e-13, 2.5e-13 * (1 + 1e-15), {}, True),
        (1e-13, 2e-13, {}, False),
        (1e15 + 0.5, 1e15, {"rel_tol": 1e-11}, True),  # as the author set it: math.isclose
        (1e15 + 0.5, 1e15, {"abs_tol": 1.0}, True),
        (1e9, 1e9 + 1.0, {"abs_tol": 1.0}, True),  # a tolerance the author asked for
        (100.0, 101.0, {"rel_tol": 0.05}, True),
    ],
)
def test_the_default_float_tolerance_absorbs_rounding_only(
    a: float, b: float, kw: dict[str, float], close: bool
) -> None:
    assert values_close(a, b, **kw) is close
