"""Evaluation of each check kind against one sealed episode.

Each evaluator returns an `Outcome` or raises `CheckEvaluationError` (or a
`sqlite3.Error`) when the check cannot be evaluated; the engine turns those into
an errored `CheckResult`.

The shared context, outcome and SQL reads live in `mcpgym_grading._check_context`,
`AnswerMatch`'s evaluation in `mcpgym_grading._answer_check` (re-exported here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, cast

from mcpgym_grading._answer_check import eval_answer_match as eval_answer_match
from mcpgym_grading._check_context import MAX_FOUND_ROWS as MAX_FOUND_ROWS
from mcpgym_grading._check_context import MAX_FOUND_TEXT as MAX_FOUND_TEXT
from mcpgym_grading._check_context import Call as Call
from mcpgym_grading._check_context import CheckContext as CheckContext
from mcpgym_grading._check_context import Outcome as Outcome
from mcpgym_grading._check_context import _run_sql as _run_sql
from mcpgym_grading._check_context import _sql_texts as _sql_texts
from mcpgym_grading._check_context import _truncate_text as _truncate_text
from mcpgym_grading._statediff import compare_queries, compare_tables, table_names
from mcpgym_grading._values import (
    jsonable,
    normalise,
    resolve,
    rows_close,
    values_close,
    values_equal,
)
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import (
    AnswerMatch,
    CalledBefore,
    NoCollateralChanges,
    SqlCheck,
    StateMatchesReference,
    ToolCalled,
    ToolNotCalled,
)


def _sql_value(value: Any) -> Any:
    # SQLite has no booleans: an expected True/False compares as 1/0.
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list):
        return [_sql_value(v) for v in cast("list[Any]", value)]
    return value


def eval_sql(check: SqlCheck, ctx: CheckContext) -> Outcome:
    """See `SqlCheck`."""
    expected = _sql_value(resolve(check.expected, ctx.params))
    if isinstance(expected, dict):
        raise CheckEvaluationError("`expected` must be a scalar or a list of rows, not an object")
    columns, rows = _run_sql(ctx, check.sql)
    found_rows = [[jsonable(v) for v in row] for row in rows]
    if isinstance(expected, list):
        exp_rows = [
            cast("list[Any]", r) if isinstance(r, list) else [r]
            for r in cast("list[Any]", expected)
        ]
        widths = {len(r) for r in exp_rows}
        if len(widths) > 1:
            raise CheckEvaluationError(f"expected rows have different widths: {sorted(widths)}")
        if widths and widths != {len(columns)}:
            raise CheckEvaluationError(
                f"the query returns {len(columns)} column(s) ({', '.join(columns)}) but the "
                f"expected rows have {widths.pop()}"
            )
        got = [normalise(r) for r in found_rows]
        want = [normalise(r) for r in exp_rows]
        passed = got == want if check.ordered else Counter(got) == Counter(want)
        if not passed and (check.rel_tol or check.abs_tol):
            passed = rows_close(
                found_rows,
                exp_rows,
                ordered=check.ordered,
                rel_tol=check.rel_tol,
                abs_tol=check.abs_tol,
            )
        detail: dict[str, Any] = {
            "expected": exp_rows,
            "found": found_rows[:MAX_FOUND_ROWS],
            "columns": columns,
            "ordered": check.ordered,
        }
        if len(found_rows) > MAX_FOUND_ROWS:
            detail["found_rows"] = len(found_rows)
        return Outcome(passed, detail)
    if len(columns) != 1:
        raise CheckEvaluationError(
            f"the query returns {len(columns)} columns ({', '.join(columns)}); a scalar "
            "`expected` needs exactly one"
        )
    if len(found_rows) > 1:
        values = [r[0] for r in found_rows]
        return Outcome(
            False,
            {
                "expected": expected,
                "found": values[:MAX_FOUND_ROWS],
                "found_rows": len(values),
                "reason": "the query returned several rows for a scalar expectation",
            },
        )
    found = found_rows[0][0] if found_rows else None
    passed = values_close(expected, found, rel_tol=check.rel_tol, abs_tol=check.abs_tol)
    return Outcome(passed, {"expected": expected, "found": found})


def _ignore_columns(ctx: CheckContext, own: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
    merged = {t: list(cols) for t, cols in ctx.rubric.volatile_columns.items()}
    for t, cols in own.items():
        merged.setdefault(t, [])
        merged[t].extend(c for c in cols if c not in merged[t])
    return {t: sorted(cols) for t, cols in sorted(merged.items())}


def _state_outcome(
    ctx: CheckContext, tables: set[str], own_ignore: Mapping[str, tuple[str, ...]]
) -> Outcome:
    ignore = _ignore_columns(ctx, own_ignore)
    reference = ctx.reference_db()
    compared, diffs = compare_tables(
        ctx.final_db, reference, tables, ignore, check_ignore_tables=own_ignore.keys()
    )
    return Outcome(
        not diffs,
        {
            "expected": {
                "tables": compared,
                "equal_to": "reference end state",
                "ignored_columns": {t: c for t, c in ignore.items() if t in compared},
            },
            "found": {"differing_tables": sorted(diffs)},
            "diff": diffs,
        },
    )


def eval_state_matches_reference(check: StateMatchesReference, ctx: CheckContext) -> Outcome:
    """See `StateMatchesReference`."""
    if not check.tables:
        raise CheckEvaluationError("`tables` is empty; name the tables to compare")
    return _state_outcome(ctx, set(check.tables), check.ignore_columns)


def eval_no_collateral_changes(check: NoCollateralChanges, ctx: CheckContext) -> Outcome:
    """See `NoCollateralChanges` (``mcpgym_counters`` is part of the state)."""
    reference = ctx.reference_db()
    tables = (table_names(ctx.final_db) | table_names(reference)) - set(check.except_tables)
    outcome = _state_outcome(ctx, tables, check.ignore_columns)
    outcome.detail["expected"]["except_tables"] = sorted(check.except_tables)
    if check.same_rows:
        queries = compare_queries(ctx.final_db, reference, check.same_rows, ctx.params)
        outcome.detail["expected"]["same_rows"] = sorted(check.same_rows)
        outcome.detail["found"]["differing_queries"] = sorted(queries)
        if queries:
            outcome.detail["query_diff"] = queries
            outcome = Outcome(False, outcome.detail)
    return outcome


def _arguments(
    ctx: CheckContext, tool: str, arguments: Mapping[str, Any], what: str = "arguments"
) -> dict[str, Any]:
    spec = ctx.env.tools.get(tool)
    if spec is None:
        raise CheckEvaluationError(
            f"tool `{tool}` is not declared by environment `{ctx.env.name}`; its tools: "
            f"{', '.join(sorted(ctx.env.tools))}"
        )
    fields = spec.args_model.model_fields
    unknown = [k for k in arguments if k not in fields]
    if unknown:
        raise CheckEvaluationError(
            f"`{what}` names argument(s) {', '.join(f'`{k}`' for k in unknown)} that tool "
            f"`{tool}` does not take; its arguments: {', '.join(fields) or '(none)'}"
        )
    return resolve(dict(arguments), ctx.params)


def _matching_steps(ctx: CheckContext, tool: str, expected: Mapping[str, Any]) -> list[int]:
    steps: list[int] = []
    for call in ctx.calls:
        if call.tool != tool:
            continue
        if not expected:
            steps.append(call.step)
            continue
        if call.capped:
            continue  # unknown arguments: never a match (see `_capped_steps`)
        raw: Any = call.arguments
        if not isinstance(raw, dict):
            continue
        args = cast("dict[str, Any]", raw)
        if all(k in args and values_equal(v, args[k]) for k, v in expected.items()):
            steps.append(call.step)
    return steps


def _capped_steps(ctx: CheckContext, tool: str, expected: Mapping[str, Any]) -> list[int]:
    """Steps of ``tool`` whose arguments the log capped, when arguments are expected."""
    if not expected:
        return []  # any call of the tool matches, capped or not
    return [c.step for c in ctx.calls if c.tool == tool and c.capped]


def _note_capped(found: dict[str, Any], capped: list[int], effect: str) -> dict[str, Any]:
    if capped:
        found["capped_steps"] = capped
        found["capped"] = f"arguments over the server's log value cap are unknown: {effect}"
    return found


def eval_tool_called(check: ToolCalled, ctx: CheckContext) -> Outcome:
    """See `ToolCalled` (a call with capped arguments never matches)."""
    expected = _arguments(ctx, check.tool, check.arguments)
    steps = _matching_steps(ctx, check.tool, expected)
    found = {
        "matching_calls": len(steps),
        "steps": steps,
        "calls_of_tool": sum(1 for c in ctx.calls if c.tool == check.tool),
    }
    capped = _capped_steps(ctx, check.tool, expected)
    return Outcome(
        len(steps) >= check.min_times,
        {
            "expected": {"tool": check.tool, "arguments": expected, "min_times": check.min_times},
            "found": _note_capped(found, capped, "those calls are not counted as matches"),
        },
    )


def eval_tool_not_called(check: ToolNotCalled, ctx: CheckContext) -> Outcome:
    """See `ToolNotCalled` (a call with capped arguments counts as a possible match)."""
    expected = _arguments(ctx, check.tool, check.arguments)
    steps = _matching_steps(ctx, check.tool, expected)
    capped = _capped_steps(ctx, check.tool, expected)
    found = {"matching_calls": len(steps), "steps": steps}
    return Outcome(
        not steps and not capped,
        {
            "expected": {"tool": check.tool, "arguments": expected, "max_times": 0},
            "found": _note_capped(found, capped, "each may be the forbidden call"),
        },
    )


def eval_called_before(check: CalledBefore, ctx: CheckContext) -> Outcome:
    """See `CalledBefore`."""
    first_args = _arguments(ctx, check.first, check.first_arguments, "first_arguments")
    then_args = _arguments(ctx, check.then, check.then_arguments, "then_arguments")
    first_steps = _matching_steps(ctx, check.first, first_args)
    # A `then` call with capped arguments may be the one that must come second.
    capped = _capped_steps(ctx, check.then, then_args)
    then_steps = sorted(_matching_steps(ctx, check.then, then_args) + capped)
    first_step = first_steps[0] if first_steps else None
    then_step = then_steps[0] if then_steps else None
    passed = then_step is None or (first_step is not None and first_step < then_step)
    found = {"first_step": first_step, "then_step": then_step}
    return Outcome(
        passed,
        {
            "expected": {
                "first": {"tool": check.first, "arguments": first_args},
                "then": {"tool": check.then, "arguments": then_args},
            },
            "found": _note_capped(found, capped, "each may be the call that must come second"),
        },
    )


EVALUATORS: dict[type[Any], Callable[[Any, CheckContext], Outcome]] = {
    SqlCheck: eval_sql,
    StateMatchesReference: eval_state_matches_reference,
    NoCollateralChanges: eval_no_collateral_changes,
    ToolCalled: eval_tool_called,
    ToolNotCalled: eval_tool_not_called,
    CalledBefore: eval_called_before,
    AnswerMatch: eval_answer_match,
}
"""The evaluator of each check type."""
