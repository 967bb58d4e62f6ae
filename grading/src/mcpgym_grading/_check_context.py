"""What every check evaluator reads and returns: the `CheckContext` of one sealed episode,
its successful `Call`s, the `Outcome`, and the grade's SQL reads (`_run_sql`, `_sql_texts`).
Moved out of `mcpgym_grading._checks`, which re-exports these names.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, cast

from mcpgym_grading import _sqlmemo
from mcpgym_grading._values import bind_sql
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import Rubric
from mcpgym_server import Environment, InvalidArgumentsError, TaskVariant
from mcpgym_server.bundles import EpisodeBundle, to_jsonable

MAX_FOUND_ROWS = 50
"""SQL results longer than this are truncated in a check's ``detail``."""

MAX_FOUND_TEXT = 2000
"""Texts longer than this are truncated in a check's ``detail``."""


class Outcome(NamedTuple):
    """What an evaluator returns: pass/fail and the JSON detail."""

    passed: bool
    detail: dict[str, Any]


class Call(NamedTuple):
    """A successful tool call: step, tool name and the arguments the tool received.

    ``capped``: the log kept only the head of the arguments (they were over the server's
    log value cap, see `mcpgym_server._logcap`): ``arguments`` is that text, and the
    arguments are unknown. Such a call never matches expected arguments, and counts as a
    possible match where a check forbids a call.
    """

    step: int
    tool: str
    arguments: Any
    capped: bool = False


@dataclass
class CheckContext:
    """Everything a check may read: the bundle, its variant and the reference end state.

    Attributes:
        reference_db: returns the reference end state (built on first use).
            Raises `CheckEvaluationError` when the reference cannot be built.
    """

    bundle: EpisodeBundle
    env: Environment
    variant: TaskVariant
    rubric: Rubric
    final_db: sqlite3.Connection
    reference_db: Callable[[], sqlite3.Connection]
    sql_results: dict[str, tuple[tuple[str, ...] | None, tuple[tuple[Any, ...], ...]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """This grade's query results by SQL text (`_run_sql`): several checks of a rubric read
    the same texts or lists (the agent's replies, a forbidden list), and the final database
    is read-only (``PRAGMA query_only``) for the whole grade, so each query runs once."""

    @property
    def params(self) -> Mapping[str, Any]:
        """The variant params."""
        return self.variant.params

    @cached_property
    def calls(self) -> list[Call]:
        """Successful (status ``ok``) calls in log order, arguments as the tool received them."""
        out: list[Call] = []
        for entry in self.bundle.log:
            if entry.status != "ok":
                continue
            if entry.arguments_capped is not None:
                out.append(Call(entry.step, entry.tool, entry.arguments, capped=True))
                continue
            args: Any = entry.arguments
            spec = self.env.tools.get(entry.tool)
            if spec is not None and (args is None or isinstance(args, dict)):
                try:
                    args = to_jsonable(spec.validate(cast("dict[str, Any] | None", args)))
                except (InvalidArgumentsError, TypeError):
                    args = entry.arguments
            out.append(Call(entry.step, entry.tool, args))
        return out


def _truncate_text(text: str) -> str:
    if len(text) <= MAX_FOUND_TEXT:
        return text
    return text[:MAX_FOUND_TEXT] + f"... ({len(text) - MAX_FOUND_TEXT} more characters)"


def _run_sql(ctx: CheckContext, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """``sql`` (bound to the variant's params) on the final database: its column names and
    rows, lists of the caller's own. Run once per grade (`CheckContext.sql_results`); a
    failing query is not remembered (it fails again where it is read again). A context
    without ``sql_results`` (a stand-in with the fields a check reads) runs it each time.

    Raises:
        CheckEvaluationError: the statement returns no columns.
        sqlite3.Error: the query fails.
    """
    results: dict[str, Any] | None = getattr(ctx, "sql_results", None)
    known = None if results is None else results.get(sql)
    if known is None:
        columns, rows = _sqlmemo.query(ctx.final_db, sql, bind_sql(sql, ctx.params))
        known = (columns, tuple(rows))
        if results is not None:
            results[sql] = known
    columns, rows = known
    if columns is None:
        raise CheckEvaluationError("the SQL statement returns no columns; use a SELECT")
    return list(columns), list(rows)


def _sql_texts(ctx: CheckContext, sql: str) -> list[str]:
    _, rows = _run_sql(ctx, sql)
    parts: list[str] = []
    for row in rows:
        for value in row:
            if value is None:
                continue
            if isinstance(value, bytes):
                parts.append(value.decode("utf-8", errors="replace"))
            else:
                parts.append(str(value))
    return parts
