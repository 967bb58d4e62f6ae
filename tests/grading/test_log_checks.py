"""ToolCalled, ToolNotCalled and CalledBefore over the tool-call log (status ok only), and
ToolArgumentsOnly (every call, refused ones too)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_grading import CalledBefore, Param, ToolArgumentsOnly, ToolCalled, ToolNotCalled

from .episodes import grade_check

LOOKUP = ("get_order", {"order_id": 101})
REFUND = ("refund", {"order_id": 101, "amount_cents": 2500})


def test_tool_called_with_matching_arguments_passes() -> None:
    check = ToolCalled(name="c", tool="get_order", arguments={"order_id": Param("order_id")})
    result = grade_check(check, [LOOKUP, REFUND])
    assert result.passed is True
    assert result.detail == {
        "expected": {"tool": "get_order", "arguments": {"order_id": 101}, "min_times": 1},
        "found": {"matching_calls": 1, "steps": [1], "calls_of_tool": 1},
    }


def test_tool_called_with_other_arguments_fails() -> None:
    check = ToolCalled(name="c", tool="get_order", arguments={"order_id": 102})
    result = grade_check(check, [LOOKUP])
    assert result.passed is False
    assert result.detail["found"] == {"matching_calls": 0, "steps": [], "calls_of_tool": 1}


@pytest.mark.parametrize("order_id", [101, 101.0, "101"])
def test_arguments_compare_as_the_tool_received_them(order_id: Any) -> None:
    # the tool validated "101" and 101.0 to the integer 101
    check = ToolCalled(name="c", tool="get_order", arguments={"order_id": 101})
    assert grade_check(check, [("get_order", {"order_id": order_id})]).passed is True


def test_defaults_count_as_received_arguments() -> None:
    check = ToolCalled(name="c", tool="refund", arguments={"reason": "damaged"})
    assert grade_check(check, [REFUND]).passed is True


def test_strings_compare_exactly() -> None:
    check = ToolCalled(name="c", tool="send_message", arguments={"body": "hi"})
    assert grade_check(check, [("send_message", {"order_id": 101, "body": "Hi"})]).passed is False


def test_min_times_counts_matching_successful_calls() -> None:
    check = ToolCalled(name="c", tool="get_order", min_times=2)
    once = grade_check(check, [LOOKUP])
    assert (once.passed, once.detail["found"]["matching_calls"]) == (False, 1)
    assert grade_check(check, [LOOKUP, LOOKUP]).passed is True


def test_failed_calls_do_not_count() -> None:
    # order 999 does not exist (tool error); crash is an internal error
    missing = grade_check(
        ToolCalled(name="c", tool="get_order", arguments={"order_id": 999}),
        [("get_order", {"order_id": 999})],
    )
    assert (missing.passed, missing.detail["found"]["calls_of_tool"]) == (False, 0)
    assert grade_check(ToolCalled(name="c", tool="crash"), [("crash", {})]).passed is False
    assert grade_check(ToolNotCalled(name="n", tool="crash"), [("crash", {})]).passed is True


def test_tool_not_called_passes_when_no_call_matches() -> None:
    check = ToolNotCalled(name="n", tool="delete_customer", arguments={"customer_id": 3})
    result = grade_check(check, [("delete_customer", {"customer_id": 2})])
    assert (result.passed, result.detail["found"]) == (True, {"matching_calls": 0, "steps": []})


def test_tool_not_called_fails_naming_the_steps() -> None:
    check = ToolNotCalled(name="n", tool="delete_customer")
    result = grade_check(check, [LOOKUP, ("delete_customer", {"customer_id": 2})])
    assert (result.passed, result.detail["found"]) == (False, {"matching_calls": 1, "steps": [2]})


@pytest.mark.parametrize(
    ("calls", "passed", "found"),
    [
        ([LOOKUP, REFUND], True, {"first_step": 1, "then_step": 2}),
        ([REFUND, LOOKUP], False, {"first_step": 2, "then_step": 1}),
        ([LOOKUP], True, {"first_step": 1, "then_step": None}),
        ([REFUND], False, {"first_step": None, "then_step": 1}),
    ],
)
def test_called_before_compares_first_successful_calls(
    calls: list[tuple[str, dict[str, Any]]], passed: bool, found: dict[str, Any]
) -> None:
    check = CalledBefore(
        name="b", first="get_order", first_arguments={"order_id": Param("order_id")}, then="refund"
    )
    result = grade_check(check, calls)
    assert (result.passed, result.detail["found"]) == (passed, found)


@pytest.mark.parametrize(
    ("check", "error"),
    [
        (
            ToolCalled(name="e", tool="get_ordr"),
            "tool `get_ordr` is not declared by environment `toy`; its tools: crash, "
            "delete_customer, get_order, refund, send_message, submit",
        ),
        (
            ToolNotCalled(name="e", tool="get_order", arguments={"order": 1}),
            "`arguments` names argument(s) `order` that tool `get_order` does not take; its "
            "arguments: order_id",
        ),
        (
            CalledBefore(name="e", first="get_order", then="refund", then_arguments={"x": 1}),
            "`then_arguments` names argument(s) `x` that tool `refund` does not take; its "
            "arguments: order_id, amount_cents, reason",
        ),
        (
            ToolCalled(name="e", tool="get_order", arguments={"order_id": Param("nope")}),
            "variant param `nope` does not exist; the variant's params are: amount_cents, "
            "customer, listing, notify, order_id, tracking",
        ),
    ],
)
def test_unknown_tools_arguments_and_params_are_evaluation_errors(
    check: ToolCalled | ToolNotCalled | CalledBefore, error: str
) -> None:
    assert grade_check(check, [LOOKUP]).error == error


# ToolArgumentsOnly reads every call of the tool, refused ones too (round 9, G3)


def _only(**allowed: Any) -> ToolArgumentsOnly:
    return ToolArgumentsOnly(name="c", tool="get_order", allowed=allowed)


def test_arguments_only_reads_refused_calls() -> None:
    # order 999 does not exist: the tool refuses the call, nothing is written
    result = grade_check(
        _only(order_id=[Param("order_id")]), [LOOKUP, ("get_order", {"order_id": 999})]
    )
    assert result.passed is False
    assert result.detail["found"]["offending"] == [
        {"step": 2, "status": "tool_error", "arguments": {"order_id": 999}}
    ]


def test_arguments_only_passes_the_allowed_values() -> None:
    assert grade_check(_only(order_id=[Param("order_id"), 5]), [LOOKUP, LOOKUP]).passed is True
    assert grade_check(_only(order_id=[101]), []).passed is True


def test_arguments_only_selects_calls_and_casefolds_texts() -> None:
    check = ToolArgumentsOnly(
        name="c",
        tool="send_message",
        arguments={"order_id": 101},
        allowed={"body": ["Hi"]},
    )
    ok = [
        ("send_message", {"order_id": 101, "body": " hi "}),
        ("send_message", {"order_id": 102, "body": "x"}),
    ]
    assert grade_check(check, ok).passed is True
    assert grade_check(check, [("send_message", {"order_id": 101, "body": "ho"})]).passed is False


def test_arguments_only_names_only_arguments_the_tool_takes() -> None:
    result = grade_check(_only(nope=[1]), [LOOKUP])
    assert result.passed is None and result.error is not None
