"""Value handling shared by the checks: Param resolution, SQL binding, JSON normalisation."""

from __future__ import annotations

import functools
import json
import math
import re
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any, cast

from mcpgym_grading._amount_sentences import SQL_WITHOUT_AMOUNT, sql_without_amount
from mcpgym_grading._binding import SQL_MISBOUND, sql_misbound
from mcpgym_grading._direction import SQL_REVERSED, sql_reversed
from mcpgym_grading._edit_claims import SQL_EDIT_CLAIMED, sql_edit_claimed
from mcpgym_grading._items_named import SQL_ITEMS_NAMED, sql_items_named
from mcpgym_grading._line_claims import SQL_LINE_MISCLAIMED, sql_line_misclaimed
from mcpgym_grading._line_entries import (
    SQL_LINE_ENTRY_MISNAMED,
    SQL_LINE_PAYMENT_MISNAMED,
    sql_line_entry_misnamed,
    sql_line_payment_misnamed,
)
from mcpgym_grading._paired import SQL_PAIRED_OTHER, sql_paired_other
from mcpgym_grading._posted_in import SQL_POSTED_IN, sql_posted_in
from mcpgym_grading._posting_months import SQL_POSTING_MISDATED, sql_posting_misdated
from mcpgym_grading._promises import (
    SQL_PAYOUT_PROMISED,
    SQL_TOO_SOON,
    sql_payout_promised,
    sql_too_soon,
)
from mcpgym_grading._quoted import SQL_UNQUOTED, sql_unquoted
from mcpgym_grading._relative_dates import SQL_DATED, sql_dated
from mcpgym_grading._settled import SQL_SETTLED, sql_settled
from mcpgym_grading._sql_function_memo import SQL_FUNCTION_MEMO
from mcpgym_grading._stated_words import (
    SQL_GREETED_OTHER,
    SQL_SLOT_OTHER,
    SQL_STATED_OTHER,
    sql_greeted_other,
    sql_slot_other,
    sql_stated_other,
)
from mcpgym_grading._text import TextView, normalise_text
from mcpgym_grading._value_roles import SQL_MISSTATED, sql_misstated
from mcpgym_grading._withdrawal import SQL_WITHDRAWAL, sql_withdrawal
from mcpgym_grading._without import sql_without, sql_without_bound
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_grading.rubric import DEFAULT_REL_TOL, Param


def _mapping(value: Any) -> Mapping[Any, Any] | None:
    return cast("Mapping[Any, Any]", value) if isinstance(value, Mapping) else None


def _sequence(value: Any) -> list[Any] | tuple[Any, ...] | None:
    return cast("list[Any] | tuple[Any, ...]", value) if isinstance(value, list | tuple) else None


def _param_name(value: Any) -> str | None:
    if isinstance(value, Param):
        return value.name
    mapping = _mapping(value)
    if mapping is not None and set(mapping) == {"kind", "name"} and mapping["kind"] == "param":
        name = mapping["name"]
        if isinstance(name, str):
            return name
    return None


def lookup_param(params: Mapping[str, Any], name: str) -> Any:
    """The variant param ``name``.

    Raises:
        CheckEvaluationError: the variant has no such param (the message lists the params).
    """
    if name not in params:
        raise CheckEvaluationError(
            f"variant param `{name}` does not exist; the variant's params are: "
            f"{', '.join(sorted(params)) or '(none)'}"
        )
    return params[name]


def resolve(value: Any, params: Mapping[str, Any]) -> Any:
    """Replace every `Param` reference in ``value`` (recursively) by its variant param.

    A reference is a `Param` instance or a dict ``{"kind": "param", "name": ...}``.
    Tuples become lists, so the result is plain JSON.

    Raises:
        CheckEvaluationError: a referenced param does not exist.
    """
    name = _param_name(value)
    if name is not None:
        return lookup_param(params, name)
    if (mapping := _mapping(value)) is not None:
        return {str(k): resolve(v, params) for k, v in mapping.items()}
    if (items := _sequence(value)) is not None:
        return [resolve(v, params) for v in items]
    return value


_SQL_TOKENS = re.compile(
    r"""'(?:[^']|'')*'          # string literal
      | "(?:[^"]|"")*"          # quoted identifier
      | `[^`]*`                 # MySQL-style quoted identifier
      | \[[^\]]*\]              # bracket-quoted identifier
      | --[^\n]*                # line comment
      | /\*.*?\*/               # block comment
      | (?P<param>[:@$][A-Za-z_][A-Za-z0-9_]*)
      | (?P<positional>\?\d*)
    """,
    re.VERBOSE | re.DOTALL,
)


def sql_param_names(sql: str) -> list[str]:
    """Names of the named parameters (``:name``, ``@name``, ``$name``) in ``sql``, in order
    (remembered per statement: a rubric's SQL is the same for every bundle).

    Raises:
        CheckEvaluationError: the SQL uses positional ``?`` parameters.
    """
    return list(_sql_param_names(sql))


@functools.lru_cache(maxsize=1024)
def _sql_param_names(sql: str) -> tuple[str, ...]:
    names: list[str] = []
    for m in _SQL_TOKENS.finditer(sql):
        if m.group("positional"):
            raise CheckEvaluationError(
                "SQL uses a positional parameter `?`; name it after a variant param (`:order_id`)"
            )
        p = m.group("param")
        if p and p[1:] not in names:
            names.append(p[1:])
    return tuple(names)


def bind_sql(sql: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The named SQL parameters of ``sql``, bound from the variant params.

    Raises:
        CheckEvaluationError: a named parameter is not a variant param, or its value
            is not a SQL scalar (None, bool, int, float, str).
    """
    bound: dict[str, Any] = {}
    for name in _sql_param_names(sql):
        if name not in params:
            raise CheckEvaluationError(
                f"SQL names parameter `:{name}`, which is not a variant param; the variant's "
                f"params are: {', '.join(sorted(params)) or '(none)'}"
            )
        value = params[name]
        if value is not None and not isinstance(value, bool | int | float | str):
            raise CheckEvaluationError(
                f"variant param `{name}` is a {type(value).__name__}; only scalars can be "
                "bound into SQL"
            )
        bound[name] = value
    return bound


SQL_FOLD = "mcpgym_fold"
"""The SQL function a check's query may call on the final database: ``mcpgym_fold(text)``
is the text in the canonical form every answer check reads (`mcpgym_grading.fold`, runs of
spaces collapsed), so a SQL text match (``GLOB``, ``LIKE``) sees fullwidth letters, any
space or dash and invisible characters as an `AnswerMatch` does. Non-text values pass
through unchanged."""


def _sql_fold(value: str | bytes | int | float | None) -> str | bytes | int | float | None:
    return normalise_text(value) if isinstance(value, str) else value


SQL_MENTIONS = "mcpgym_mentions"
"""The SQL function ``mcpgym_mentions(text, value)``: 1 where ``text`` holds ``value`` as
every answer check finds a value (`TextView.contains`: folded, digit groups joined, the
skeleton's look-alikes, spelled letters and markup), else 0; NULL where either is NULL or
``value`` has no letter or digit. A check that names values in SQL reads the text as the
answer checks do, so ``D H L``, ``U/P/S`` or ``UРS`` (Cyrillic Р) is ``DHL``, ``UPS``."""


@functools.lru_cache(maxsize=64)
def _view(text: str) -> TextView:
    return TextView.of(text)


def _sql_mentions(text: object, value: object) -> int | None:
    if not isinstance(text, str) or not isinstance(value, str):
        return None
    try:
        return int(_view(text).contains(value))
    except ValueError:
        return None


SQL_WITHOUT = "mcpgym_without"
"""The SQL function ``mcpgym_without(text, drop, keep[, value])``: ``text`` read without the
values it says in another role (`mcpgym_grading._without`). With three arguments, without
its sentences that hold one of the comma-separated phrases ``drop`` and none of ``keep``;
with a fourth, ``value``, without only the mentions of ``value`` bound to a ``drop`` phrase
in such sentences, the rest of each sentence read: "we email a prepaid USPS return label"
names no carrier of the shipment, while in "a USPS return label, or FedEx" FedEx is read,
and "Return label is FedEx; the parcel could be with them" names FedEx for the parcel.
NULL where ``text`` is NULL."""

_sql_without = sql_without


_SQL_FUNCTIONS: tuple[tuple[str, int, Callable[..., Any]], ...] = (
    (SQL_FOLD, 1, _sql_fold),
    (SQL_MENTIONS, 2, _sql_mentions),
    (SQL_WITHOUT, 3, sql_without),
    (SQL_WITHOUT, 4, sql_without_bound),
    (SQL_MISBOUND, 2, sql_misbound),
    (SQL_MISSTATED, 2, sql_misstated),
    (SQL_MISSTATED, 3, sql_misstated),
    (SQL_REVERSED, 3, sql_reversed),
    (SQL_TOO_SOON, 2, sql_too_soon),
    (SQL_PAYOUT_PROMISED, 2, sql_payout_promised),
    (SQL_STATED_OTHER, 3, sql_stated_other),
    (SQL_SLOT_OTHER, 3, sql_slot_other),
    (SQL_GREETED_OTHER, 2, sql_greeted_other),
    (SQL_UNQUOTED, 2, sql_unquoted),
    (SQL_WITHDRAWAL, 1, sql_withdrawal),
    (SQL_WITHOUT_AMOUNT, 3, sql_without_amount),
    (SQL_DATED, 3, sql_dated),
    (SQL_PAIRED_OTHER, 2, sql_paired_other),
    (SQL_SETTLED, 2, sql_settled),
    (SQL_POSTED_IN, 2, sql_posted_in),
    (SQL_POSTING_MISDATED, 5, sql_posting_misdated),
    (SQL_POSTING_MISDATED, 6, sql_posting_misdated),
    (SQL_EDIT_CLAIMED, 1, sql_edit_claimed),
    (SQL_LINE_MISCLAIMED, 3, sql_line_misclaimed),
    (SQL_LINE_ENTRY_MISNAMED, 3, sql_line_entry_misnamed),
    (SQL_LINE_PAYMENT_MISNAMED, 3, sql_line_payment_misnamed),
    (SQL_ITEMS_NAMED, 2, sql_items_named),
)
"""The grading SQL functions: name, number of arguments, the (pure) Python function."""


def register_sql_functions(db: sqlite3.Connection) -> None:
    """Make the grading SQL functions (`SQL_FOLD`, `SQL_MENTIONS`, `SQL_WITHOUT`,
    `mcpgym_grading._binding.SQL_MISBOUND`, `mcpgym_grading._value_roles.SQL_MISSTATED`,
    `mcpgym_grading._direction.SQL_REVERSED`, `mcpgym_grading._promises.SQL_TOO_SOON`,
    `mcpgym_grading._promises.SQL_PAYOUT_PROMISED`, `mcpgym_grading._stated_words.
    SQL_STATED_OTHER`, `SQL_SLOT_OTHER` and `SQL_GREETED_OTHER`,
    `mcpgym_grading._quoted.SQL_UNQUOTED`,
    `mcpgym_grading._withdrawal.SQL_WITHDRAWAL`,
    `mcpgym_grading._amount_sentences.SQL_WITHOUT_AMOUNT`,
    `mcpgym_grading._relative_dates.SQL_DATED`, `mcpgym_grading._paired.SQL_PAIRED_OTHER`,
    `mcpgym_grading._settled.SQL_SETTLED`, `mcpgym_grading._posted_in.SQL_POSTED_IN`,
    `mcpgym_grading._posting_months.SQL_POSTING_MISDATED`,
    `mcpgym_grading._edit_claims.SQL_EDIT_CLAIMED`,
    `mcpgym_grading._line_claims.SQL_LINE_MISCLAIMED`,
    `mcpgym_grading._line_entries.SQL_LINE_ENTRY_MISNAMED`,
    `mcpgym_grading._line_entries.SQL_LINE_PAYMENT_MISNAMED`,
    `mcpgym_grading._items_named.SQL_ITEMS_NAMED`)
    callable in ``db``'s queries, each answering from `mcpgym_grading._sql_function_memo.
    SQL_FUNCTION_MEMO` (results kept per function and arguments across grades)."""
    for name, nargs, fn in _SQL_FUNCTIONS:
        db.create_function(name, nargs, SQL_FUNCTION_MEMO.wrap(name, nargs, fn), deterministic=True)


def jsonable(value: Any) -> Any:
    """A SQLite or JSON value as plain JSON (bytes become ``"x'<hex>'"``, tuples lists)."""
    if isinstance(value, bytes | bytearray):
        return "x'" + bytes(value).hex() + "'"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if (mapping := _mapping(value)) is not None:
        return {str(k): jsonable(v) for k, v in mapping.items()}
    if (items := _sequence(value)) is not None:
        return [jsonable(v) for v in items]
    return value


def normalise(value: Any) -> Any:
    """A hashable canonical form for comparisons.

    Numbers compare numerically (``1 == 1.0``; booleans stay distinct from numbers),
    strings exactly, lists as tuples, dicts as sorted item tuples.
    """
    value = jsonable(value)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        if isinstance(value, float) and value.is_integer():
            return ("num", int(value))
        return ("num", value)
    if (items := _sequence(value)) is not None:
        return ("list", tuple(normalise(v) for v in items))
    if (mapping := _mapping(value)) is not None:
        return ("dict", tuple(sorted((str(k), normalise(v)) for k, v in mapping.items())))
    return (type(value).__name__, value)


def values_equal(a: Any, b: Any) -> bool:
    """JSON equality with numbers compared numerically (see `normalise`)."""
    return normalise(a) == normalise(b)


def sort_key(value: Any) -> str:
    """A total order over JSON values (canonical JSON), for deterministic listings."""
    return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"), default=str)


ROUNDING_ULPS = 2
"""Two floats this many units in the last place (of the larger) apart are equal under the
default tolerance, whatever their magnitude."""

ROUNDING_CAP = 1e-6
"""Under the default tolerance, two floats further apart than `ROUNDING_ULPS` are equal only
within `DEFAULT_REL_TOL` *and* less than this apart: accumulated rounding (a sum of a
thousand ``0.1``), never a half at 1e12."""


def values_close(a: Any, b: Any, *, rel_tol: float = DEFAULT_REL_TOL, abs_tol: float = 0.0) -> bool:
    """`values_equal`, except that two numbers of which one is a float compare equal within
    ``rel_tol`` / ``abs_tol`` (`math.isclose`); lists and dicts element by element.

    The default tolerance (``rel_tol`` `DEFAULT_REL_TOL`, ``abs_tol`` 0: what a check has
    when its author set none) absorbs binary rounding only: two floats are equal when they
    differ by at most `ROUNDING_ULPS` units in the last place of the larger, or by less than
    both `DEFAULT_REL_TOL` of it and `ROUNDING_CAP` (``0.1 + 0.2`` equals ``0.3``, a sum of a
    thousand ``0.1`` equals ``100.0``; ``1e12 + 0.5`` and ``1e12 + 1.0``, or ``1e15 + 0.5``
    and ``1e15``, are different), and two *integral* values only when equal, however large
    (``1e9`` and ``1e9 + 1.0``, cents or counts stored as REAL, stay different). A tolerance
    the author set applies as `math.isclose` to every pair of numbers of which one is a
    float (a ``rel_tol`` below the default and no ``abs_tol`` keeps integral values exact;
    a ``rel_tol`` set to the default itself is the default)."""
    a, b = jsonable(a), jsonable(b)
    if _is_number(a) and _is_number(b):
        if not (isinstance(a, float) or isinstance(b, float)):
            return a == b
        rounding_only = abs_tol == 0 and rel_tol <= DEFAULT_REL_TOL
        if rounding_only and float(a).is_integer() and float(b).is_integer():
            return a == b
        if abs_tol == 0 and rel_tol == DEFAULT_REL_TOL:
            x, y = float(a), float(b)
            if math.isinf(x) or math.isinf(y) or math.isnan(x) or math.isnan(y):
                return x == y
            diff, top = abs(x - y), max(abs(x), abs(y))
            return diff <= ROUNDING_ULPS * math.ulp(top) or (
                diff <= DEFAULT_REL_TOL * top and diff < ROUNDING_CAP
            )
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    if (xs := _sequence(a)) is not None and (ys := _sequence(b)) is not None:
        return len(xs) == len(ys) and all(
            values_close(x, y, rel_tol=rel_tol, abs_tol=abs_tol)
            for x, y in zip(xs, ys, strict=True)
        )
    if (ma := _mapping(a)) is not None and (mb := _mapping(b)) is not None:
        return set(ma) == set(mb) and all(
            values_close(ma[k], mb[k], rel_tol=rel_tol, abs_tol=abs_tol) for k in ma
        )
    return values_equal(a, b)


def rows_close(
    got: list[Any],
    want: list[Any],
    *,
    ordered: bool,
    rel_tol: float = DEFAULT_REL_TOL,
    abs_tol: float = 0.0,
) -> bool:
    """Whether two lists of rows are equal under `values_close`: in order when ``ordered``,
    else as multisets (each expected row matched to a distinct found row)."""
    if len(got) != len(want):
        return False
    if ordered:
        return all(
            values_close(g, w, rel_tol=rel_tol, abs_tol=abs_tol)
            for g, w in zip(got, want, strict=True)
        )
    left = list(got)
    for w in want:
        for i, g in enumerate(left):
            if values_close(g, w, rel_tol=rel_tol, abs_tol=abs_tol):
                del left[i]
                break
        else:
            return False
    return True


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
