"""SqlCheck: scalar and row expectations on the final database.

Variant easy#0: order 101 (customer 1, 2500 cents) is set to 'damaged'; customer 1
also has order 104 ('shipped').
"""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading import Param, SqlCheck

from .episodes import grade_check

REFUND = ("refund", {"order_id": 101, "amount_cents": 2500})
AMOUNT_SQL = "SELECT amount_cents FROM refunds WHERE order_id = :order_id"


def test_scalar_matches_the_single_value() -> None:
    result = grade_check(
        SqlCheck(name="amt", sql=AMOUNT_SQL, expected=Param("amount_cents")), [REFUND]
    )
    assert (result.passed, result.detail) == (True, {"expected": 2500, "found": 2500})


def test_scalar_mismatch_fails_with_expected_and_found() -> None:
    calls = [("refund", {"order_id": 101, "amount_cents": 2400})]
    result = grade_check(
        SqlCheck(name="amt", sql=AMOUNT_SQL, expected=Param("amount_cents")), calls
    )
    assert (result.passed, result.detail, result.error) == (
        False,
        {"expected": 2500, "found": 2400},
        None,
    )


def test_no_row_compares_as_none() -> None:
    absent = grade_check(SqlCheck(name="none", sql=AMOUNT_SQL, expected=None), [])
    assert (absent.passed, absent.detail) == (True, {"expected": None, "found": None})
    wanted = grade_check(SqlCheck(name="amt", sql=AMOUNT_SQL, expected=2500), [])
    assert (wanted.passed, wanted.detail) == (False, {"expected": 2500, "found": None})


def test_several_rows_for_a_scalar_fail_and_list_the_values() -> None:
    check = SqlCheck(
        name="ids", sql="SELECT id FROM orders WHERE customer_id = 1 ORDER BY id", expected=101
    )
    result = grade_check(check, [])
    assert result.passed is False
    assert result.detail == {
        "expected": 101,
        "found": [101, 104],
        "found_rows": 2,
        "reason": "the query returned several rows for a scalar expectation",
    }


def test_several_columns_for_a_scalar_is_an_evaluation_error() -> None:
    check = SqlCheck(name="wide", sql="SELECT id, status FROM orders WHERE id = 101", expected=101)
    result = grade_check(check, [])
    assert result.passed is None
    assert result.error == (
        "the query returns 2 columns (id, status); a scalar `expected` needs exactly one"
    )


def test_rows_compare_order_insensitively_by_default() -> None:
    check = SqlCheck(
        name="rows",
        sql="SELECT id, status FROM orders WHERE customer_id = 1 ORDER BY id",
        expected=[[104, "shipped"], [Param("order_id"), "damaged"]],
    )
    result = grade_check(check, [])
    assert result.passed is True
    assert result.detail == {
        "expected": [[104, "shipped"], [101, "damaged"]],
        "found": [[101, "damaged"], [104, "shipped"]],
        "columns": ["id", "status"],
        "ordered": False,
    }


@pytest.mark.parametrize(
    ("expected", "passed"),
    [([[101, "damaged"], [104, "shipped"]], True), ([[104, "shipped"], [101, "damaged"]], False)],
)
def test_ordered_rows_compare_in_order(expected: list[Any], passed: bool) -> None:
    check = SqlCheck(
        name="rows",
        sql="SELECT id, status FROM orders WHERE customer_id = 1 ORDER BY id",
        expected=expected,
        ordered=True,
    )
    assert grade_check(check, []).passed is passed


def test_rows_are_a_multiset_so_duplicates_count() -> None:
    check = SqlCheck(name="rows", sql="SELECT customer_id FROM orders", expected=[1, 2, 3])
    result = grade_check(check, [])
    assert result.passed is False
    assert result.detail["found"] == [[1], [2], [3], [1]]


def test_one_column_rows_may_be_written_as_scalars() -> None:
    check = SqlCheck(
        name="rows", sql="SELECT id FROM orders WHERE customer_id = 1", expected=[104, 101]
    )
    assert grade_check(check, []).passed is True


@pytest.mark.parametrize(
    ("sql", "expected", "passed"),
    [
        ("SELECT total_cents / 100.0 FROM orders WHERE id = 101", 25, True),
        ("SELECT total_cents FROM orders WHERE id = 101", 2500.0, True),
        ("SELECT total_cents FROM orders WHERE id = 101", "2500", False),
        ("SELECT status FROM orders WHERE id = 101", "Damaged", False),
        ("SELECT COUNT(*) > 0 FROM orders WHERE status = 'damaged'", True, True),
    ],
)
def test_numbers_compare_numerically_and_strings_exactly(
    sql: str, expected: Any, passed: bool
) -> None:
    assert grade_check(SqlCheck(name="v", sql=sql, expected=expected), []).passed is passed


def test_param_written_as_json_dict_resolves() -> None:
    check = SqlCheck(name="amt", sql=AMOUNT_SQL, expected={"kind": "param", "name": "amount_cents"})
    assert grade_check(check, [REFUND]).passed is True


@pytest.mark.parametrize(
    ("check", "error"),
    [
        (
            SqlCheck(name="e", sql="SELECT x FROM nope", expected=1),
            "SQL error: no such table: nope",
        ),
        (
            SqlCheck(name="e", sql="SELECT :missing", expected=1),
            "SQL names parameter `:missing`, which is not a variant param; the variant's params "
            "are: amount_cents, customer, listing, notify, order_id, tracking",
        ),
        (
            SqlCheck(name="e", sql="SELECT id FROM orders", expected=Param("missing")),
            "variant param `missing` does not exist; the variant's params are: amount_cents, "
            "customer, listing, notify, order_id, tracking",
        ),
        (
            SqlCheck(name="e", sql="SELECT id FROM orders WHERE id = ?", expected=1),
            "SQL uses a positional parameter `?`; name it after a variant param (`:order_id`)",
        ),
        (
            SqlCheck(name="e", sql="SELECT id, status FROM orders", expected=[[1]]),
            "the query returns 2 column(s) (id, status) but the expected rows have 1",
        ),
        (
            SqlCheck(name="e", sql="SELECT id FROM orders", expected=[[1], [1, 2]]),
            "expected rows have different widths: [1, 2]",
        ),
        (
            SqlCheck(name="e", sql="SELECT id FROM orders", expected={"a": 1}),
            "`expected` must be a scalar or a list of rows, not an object",
        ),
        (
            SqlCheck(name="e", sql="DELETE FROM orders", expected=None),
            "SQL error: attempt to write a readonly database",
        ),
    ],
)
def test_checks_that_cannot_be_evaluated_error_the_grade(check: SqlCheck, error: str) -> None:
    result = grade_check(check, [])
    assert (result.applicable, result.passed, result.error) == (True, None, error)
