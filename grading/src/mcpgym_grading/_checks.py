"""Evaluation of each check kind against one sealed episode.

Each evaluator returns an `Outcome` or raises `CheckEvaluationError` (or a
`sqlite3.Error`) when the check cannot be evaluated; the engine turns those into
an errored `CheckResult`.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, cast

from mcpgym_grading import _sqlmemo
from mcpgym_grading._decode import markup_source
from mcpgym_grading._email_leak import email_leaked
from mcpgym_grading._money import USD, money_mentions
from mcpgym_grading._roles import AmountRole, resolve_roles, role_outcome
from mcpgym_grading._shown import shown_of, shown_values
from mcpgym_grading._statediff import compare_queries, compare_tables, table_names
from mcpgym_grading._text import TextView, normalise_text, value_within
from mcpgym_grading._values import (
    bind_sql,
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
    Param,
    Rubric,
    SqlCheck,
    StateMatchesReference,
    ToolCalled,
    ToolNotCalled,
)
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


def _sql_value(value: Any) -> Any:
    # SQLite has no booleans: an expected True/False compares as 1/0.
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list):
        return [_sql_value(v) for v in cast("list[Any]", value)]
    return value


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


def _answer_parts(check: AnswerMatch, ctx: CheckContext) -> list[str]:
    if check.source == "submitted":
        return [ctx.bundle.meta.answer or ""]
    if not check.sql:
        raise CheckEvaluationError("source `sql` needs `sql`")
    return _sql_texts(ctx, check.sql)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [x for v in cast("list[Any]", value) for x in _flat(v)]
    return [] if value is None else [value]


def _cents(value: Any, what: str) -> int:
    if isinstance(value, bool) or not (
        isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    ):
        raise CheckEvaluationError(
            f"normalize `money` needs {what} as integer cents, got {value!r}"
        )
    return int(value)


def _listed(value: Any, sql: str | None, ctx: CheckContext, what: str) -> list[Any]:
    values = _flat(resolve(value, ctx.params))
    if sql:
        _, rows = _run_sql(ctx, sql)
        values += [v for row in rows for v in row if v is not None]
    out: list[Any] = []
    seen: set[Any] = set()  # equal values hash equal (1 and 1.0): the first one is kept
    for v in values:
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise CheckEvaluationError(f"{what} value must be a text or number, got {v!r}")
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def _forbidden(check: AnswerMatch, ctx: CheckContext) -> list[Any]:
    if check.forbidden_shown and check.forbidden_sql:  # only what the agent saw (`_shown`)
        shown = shown_of(ctx.bundle, ctx.variant)
        values = _listed(check.forbidden, None, ctx, "a forbidden")
        more = shown_values(
            ctx.final_db, check.forbidden_sql, ctx.params, shown, gate_sql=check.shown_sql
        )
        known = set(values)
        return values + [v for v in more if v not in known]
    return _listed(check.forbidden, check.forbidden_sql, ctx, "a forbidden")


def _roles_in_force(check: AnswerMatch, ctx: CheckContext) -> list[AmountRole | Param]:
    """``check.roles`` less each role whose ``yields_to_sql`` selects its amount (a `Param`
    item, a variant's own roles, is kept as it is)."""
    out: list[AmountRole | Param] = []
    for role in check.roles or ():
        if isinstance(role, AmountRole) and role.yields_to_sql:
            amount = resolve(role.amount, ctx.params)
            yielded = _listed(None, role.yields_to_sql, ctx, "a yielded-to")
            if amount is not None and amount in yielded:
                continue
        out.append(role)
    return out


def _money_outcome(
    check: AnswerMatch, ctx: CheckContext, text: str, expected: Any, forbidden: list[Any]
) -> tuple[bool, list[Any], list[Any], dict[str, Any]]:
    """matched, banned, leaked and the detail of a money check (see `AnswerMatch`)."""
    cents = None if expected is None else _cents(expected, "`expected`")
    allowed = {
        _cents(v, "allowed values")
        for v in _listed(check.allowed, check.allowed_sql, ctx, "an allowed")
    }
    banned = [c for c in (_cents(v, "forbidden values") for v in forbidden) if c != cents]
    # a bare number is an amount when its value is one the check knows, or by its context
    known = {*allowed, *banned, *([] if cents is None else [cents])}
    mentions = money_mentions(text, bare=True, candidates=known)
    source = markup_source(text)
    if source is not None:  # an amount hidden in markup is stated all the same
        mentions += money_mentions(source, bare=True, candidates=known)
    # a zero amount stated as a fee not charged ("no restocking fee ($0.00)") competes
    # with no amount: it is left out (`Mention.waived`)
    mentions = [m for m in mentions if not m.waived]
    if cents is None and check.mode == "states":
        # a guard reads amounts, and a bare whole number (an entry number, a ZIP, an id)
        # states none, whatever candidate it equals; a bare decimal (``536.25``) does
        mentions = [m for m in mentions if not m.whole_bare]
    dollars = [m.cents for m in mentions if m.currency == USD]
    # a bare whole number ("Total: 90") competes with the expected amount, never states it
    # nor does an amount glued to letters ("$45.00ish")
    stating = [m.cents for m in mentions if m.currency == USD and not (m.whole_bare or m.glued)]
    detail: dict[str, Any] = {
        "found": [
            m.whole_cents if m.whole_cents is not None else float(m.cents)
            for m in mentions
            if m.currency == USD
        ]
    }
    foreign = [f"{m.text} ({m.currency})" for m in mentions if m.currency != USD]
    if foreign:
        detail["other_currencies"] = foreign[:MAX_FOUND_ROWS]
    if cents is None:
        matched = True
        if check.mode == "states":  # a guard: no amount but the allowed ones, in any currency
            others = [m for m in mentions if m.currency != USD or m.cents not in allowed]
            matched = not others
            if others:
                detail["not_allowed"] = [f"{m.text} ({m.currency})" for m in others][
                    :MAX_FOUND_ROWS
                ]
            detail["allowed"] = sorted(allowed)
        if check.roles:  # no expected amount: every role-bound amount in its role
            in_role, _, role_detail = role_outcome(
                text, -1, resolve_roles(_roles_in_force(check, ctx), ctx.params, resolve)
            )
            matched, detail = matched and in_role, detail | role_detail
    elif check.mode == "contains":
        matched = cents in stating
    elif check.mode == "equals":
        matched = bool(stating) and not foreign and all(a == cents for a in dollars)
    else:  # states: the expected amount, and nothing but it and the allowed ones
        others = [m for m in mentions if m.currency != USD or m.cents not in allowed | {cents}]
        matched = cents in stating and not others
        if check.roles:  # amounts bound to their role, clause by clause (`_roles`)
            in_role, _, role_detail = role_outcome(
                text, cents, resolve_roles(_roles_in_force(check, ctx), ctx.params, resolve)
            )
            matched, detail = matched and in_role, detail | role_detail
        if others:
            detail["not_allowed"] = [f"{m.text} ({m.currency})" for m in others][:MAX_FOUND_ROWS]
        detail["allowed"] = sorted(allowed)
    # a forbidden amount is stated in whatever currency it is written (`€45` names 4500)
    stated = {m.cents for m in mentions}
    leaked: list[Any] = [c for c in banned if c in stated]
    detail["text"] = _truncate_text(text)
    return matched, banned, leaked, detail


def eval_answer_match(check: AnswerMatch, ctx: CheckContext) -> Outcome:
    """See `AnswerMatch` (a submitted answer the log capped never passes)."""
    expected = resolve(check.expected, ctx.params)
    if expected is None and check.expected is not None:
        raise CheckEvaluationError(
            f"`expected` {check.expected!r} resolves to null for this variant; limit the check "
            "with `bands` or `when`"
        )
    capped = ctx.bundle.meta.answer_capped
    if check.source == "submitted" and capped is not None:
        reason = (
            f"the submitted answer ({capped.bytes} bytes) was over the server's log value "
            "cap; only its head was kept, so it can neither match nor be cleared"
        )
        return Outcome(False, {"expected": expected, "found": None, "reason": reason})
    forbidden = _forbidden(check, ctx)
    if check.forbidden_shown and expected is None and not forbidden:
        # the episode showed the agent none of the guarded values: no text can state one
        return Outcome(True, {"expected": None, "forbidden_checked": 0, "forbidden_found": []})
    parts = _answer_parts(check, ctx)
    text = "\n".join(parts)
    detail: dict[str, Any] = {"expected": expected}
    if check.normalize == "money":
        matched, banned, leaked, more = _money_outcome(check, ctx, text, expected, forbidden)
        detail.update(more)
    else:
        if isinstance(expected, bool) or not (
            expected is None or isinstance(expected, str | int | float)
        ):
            raise CheckEvaluationError(
                f"normalize `{check.normalize}` needs a text or number `expected`, got {expected!r}"
            )
        view = TextView.of(parts, signed=check.signed) if check.normalize == "token" else None
        # a forbidden value is leaked whatever sign is glued to it ("-764342929901" names
        # the tracking number 764342929901): forbidden values are looked for unsigned
        # (built only when the check has forbidden values: grading is on the hot path);
        # so is a negated ("must not state") expected value
        unsigned = (
            TextView.of(parts, signed=False)
            if (forbidden or check.negate) and view is not None and view.signed
            else view
        )
        have = normalise_text(text) if view is None else ""  # read by the text mode only

        def occurs(value: Any, mode: str, *, as_leak: bool = False) -> bool:
            if view is None:
                want = normalise_text(str(value))
                return want in have if mode == "contains" else want == have
            seen = unsigned if as_leak and unsigned is not None else view
            if mode != "contains":
                return seen.equals(str(value))
            # a leak also in an email's plus-tagged or split forms (`_email_leak`)
            return seen.contains(str(value)) or (as_leak and email_leaked(text, str(value)))

        try:
            matched = (
                True if expected is None else occurs(expected, check.mode, as_leak=check.negate)
            )
        except ValueError as exc:
            raise CheckEvaluationError(f"`expected` {exc}") from None
        banned = [v for v in forbidden if expected is None or not _inside(check, v, expected)]
        leaked = []
        for value in banned:  # looked for as `contains` would, whatever the mode
            try:
                if occurs(value, "contains", as_leak=True):
                    leaked.append(value)
            except ValueError:
                continue  # no alphanumeric token: nothing to state
        if check.given_sql and leaked:  # what the other party wrote is theirs to hear back
            leaked = _not_given(check, ctx, leaked)
        detail["found"] = _truncate_text(text)
    detail.update(
        {
            "normalize": check.normalize,
            "mode": check.mode,
            "negate": check.negate,
            "matched": matched,
        }
    )
    if forbidden:
        detail["forbidden_checked"] = len(banned)
        detail["forbidden_found"] = leaked[:MAX_FOUND_ROWS]
    passed = (matched != check.negate) and not leaked
    return Outcome(passed, detail)


def _not_given(check: AnswerMatch, ctx: CheckContext, values: list[Any]) -> list[Any]:
    """``values`` less the ones the texts ``check.given_sql`` selects state, read as the
    check reads its own text (the other party's own words are theirs to hear back)."""
    parts = _sql_texts(ctx, check.given_sql or "")
    if not parts:
        return values
    if check.normalize == "text":
        have = normalise_text("\n".join(parts))
        return [v for v in values if normalise_text(str(v)) not in have]
    view = TextView.of(parts, signed=False)
    out: list[Any] = []
    for value in values:
        try:
            given = view.contains(str(value)) or email_leaked("\n".join(parts), str(value))
        except ValueError:
            given = False
        if not given:
            out.append(value)
    return out


def _inside(check: AnswerMatch, value: Any, expected: Any) -> bool:
    """Whether forbidden ``value`` is (inside) the expected value: then it is not forbidden."""
    if check.normalize == "text":
        return normalise_text(str(value)) in normalise_text(str(expected))
    return value_within(str(value), str(expected), signed=check.signed)


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
