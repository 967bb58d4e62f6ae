"""Evaluation of `ToolArgumentsOnly`: every call of a tool, refused ones included, used only
allowed values.

`mcpgym_grading._checks` reads successful calls only (`CheckContext.calls`); a refused call
writes nothing to the sandbox, so the framework's tool-call log is the one place it shows.
"""

from __future__ import annotations

from typing import Any, cast

from mcpgym_grading._checks import MAX_FOUND_ROWS, CheckContext, Outcome, _arguments
from mcpgym_grading._values import resolve, values_equal
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import ToolArgumentsOnly
from mcpgym_server import InvalidArgumentsError
from mcpgym_server.bundles import to_jsonable

_ABSENT = object()


def _same(a: Any, b: Any) -> bool:
    """Equal as `values_equal`, texts stripped and casefolded; None and absent alike."""
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return values_equal(a, b)


def _allowed_values(check: ToolArgumentsOnly, ctx: CheckContext) -> dict[str, list[Any]]:
    _arguments(ctx, check.tool, check.allowed, "allowed")  # names only arguments it takes
    out: dict[str, list[Any]] = {}
    for key, raw in check.allowed.items():
        if not isinstance(raw, list | tuple):
            raise CheckEvaluationError(f"`allowed[{key!r}]` must be a list of values")
        values: list[Any] = []
        for v in cast("list[Any] | tuple[Any, ...]", raw):
            r = resolve(v, ctx.params)
            values += list(cast("list[Any]", r)) if isinstance(r, list) else [r]
        out[key] = values
    return out


def eval_tool_arguments_only(check: ToolArgumentsOnly, ctx: CheckContext) -> Outcome:
    """See `ToolArgumentsOnly`: reads every log entry of the tool, whatever its status."""
    select = _arguments(ctx, check.tool, check.arguments)
    allowed = _allowed_values(check, ctx)
    spec = ctx.env.tools[check.tool]
    offending: list[dict[str, Any]] = []
    read = 0
    for entry in ctx.bundle.log:
        if entry.tool != check.tool:
            continue
        if entry.arguments_capped is not None:
            read += 1
            offending.append({"step": entry.step, "status": entry.status, "capped": True})
            continue
        args: Any = entry.arguments or {}
        if isinstance(args, dict):
            try:
                args = to_jsonable(spec.validate(cast("dict[str, Any]", args)))
            except (InvalidArgumentsError, TypeError):
                args = entry.arguments or {}
        if not isinstance(args, dict):
            continue
        got = cast("dict[str, Any]", args)
        if not all(k in got and values_equal(v, got[k]) for k, v in select.items()):
            continue
        read += 1
        bad = {
            k: got.get(k)
            for k, values in allowed.items()
            if not any(
                _same(got.get(k), v) or (v is None and got.get(k) in (None, _ABSENT))
                for v in values
            )
        }
        if bad:
            offending.append({"step": entry.step, "status": entry.status, "arguments": bad})
    return Outcome(
        not offending,
        {
            "expected": {"tool": check.tool, "arguments": select, "allowed": allowed},
            "found": {"calls_read": read, "offending": offending[:MAX_FOUND_ROWS]},
        },
    )
