"""Check queries that read only tables equal to the snapshot's, answered once per snapshot.

A check's SQL runs on an episode's final database (and, for `compare_queries`, on the
reference end state). Most of the tables a query reads are ones the episode never wrote
(a helpdesk episode leaves ``order_items`` and ``orders`` as the snapshot has them): their
rows are exactly the snapshot's (`mcpgym_grading._statepages`: every b-tree page unchanged
and the schema row the snapshot's). A query whose result depends only on such tables, on
its bound parameters and on deterministic functions gives the same rows on every database
where those tables are unchanged, so its result is kept per ``(snapshot sha256, SQL, bound
parameters)`` and served again instead of run again.

What a query reads is learnt once per snapshot and SQL text, from SQLite itself: the
statement is prepared under ``EXPLAIN`` with an authorizer (`sqlite3.Connection.set_authorizer`)
that sees every table and column read, every function called and every other action. A
query is answered from the memo only when:

- every action was a ``SELECT``, a read of a ``main`` table or view of the snapshot's schema,
  a recursive CTE, or a call of a function in `DETERMINISTIC` (no ``random()``, no
  ``datetime('now')``, no table-valued function: their virtual tables are created, which
  the authorizer reports as writes, so they are refused too);
- the authorizer saw the statement at all (setting an authorizer expires the connection's
  prepared statements, so it always does; nothing seen is never taken as "reads nothing");
- the database is a `StateConnection` opened on a page delta against that snapshot whose
  whole schema (tables, indexes, views, triggers) is the snapshot's, and every table read is
  in its ``same_as_base``.

Anything else runs the query as before. Results over `MAX_ROWS` rows are not kept.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from typing import Any

from mcpgym_grading._statepages import StateConnection

MAX_ENTRIES = 4096
"""Results kept (least recently used dropped first)."""

MAX_ROWS = 2000
"""A result with more rows than this is not kept."""

DETERMINISTIC = frozenset(
    {
        # core scalar functions whose result depends only on their arguments
        "abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex",
        "ifnull", "iif", "instr", "length", "like", "likelihood", "likely", "lower",
        "ltrim", "max", "min", "nullif", "octet_length", "printf", "quote", "replace",
        "round", "rtrim", "sign", "substr", "substring", "trim", "typeof", "unhex",
        "unicode", "unlikely", "upper", "zeroblob", "cast",
        # aggregates (over the rows the query reads, in the order SQLite reads them)
        "avg", "count", "group_concat", "string_agg", "sum", "total",
        # JSON scalar functions
        "json", "json_array", "json_array_length", "json_extract", "json_insert",
        "json_object", "json_patch", "json_quote", "json_remove", "json_replace",
        "json_set", "json_type", "json_valid", "json_group_array", "json_group_object",
        # the grading functions (`mcpgym_grading._values.register_sql_functions`)
        "mcpgym_fold", "mcpgym_mentions", "mcpgym_without",
    }
)  # fmt: skip
"""Functions a remembered query may call (lower case)."""

_OK = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE})

_READS: OrderedDict[tuple[str, str], frozenset[str] | None] = OrderedDict()
_RESULTS: OrderedDict[tuple[Any, ...], tuple[tuple[str, ...], tuple[tuple[Any, ...], ...]]] = (
    OrderedDict()
)
_LOCK = threading.Lock()


def _reads(db: StateConnection, sql: str, bound: dict[str, Any]) -> frozenset[str] | None:
    """The tables ``sql`` reads on a database with the snapshot's schema; ``None`` when
    its result may depend on anything else (see the module docstring)."""
    assert db.index is not None and db.base_sha256 is not None
    key = (db.base_sha256, sql)
    with _LOCK:
        if key in _READS:
            _READS.move_to_end(key)
            return _READS[key]
    schema = db.index.schema
    tables: set[str] = set()
    seen: list[bool] = [False, True]  # [a SELECT was authorized, every action allowed]

    def authorize(action: int, arg1: str | None, arg2: str | None, dbname: str | None,
                  _inner: str | None) -> int:  # fmt: skip
        if action == sqlite3.SQLITE_SELECT:
            seen[0] = True
        elif action == sqlite3.SQLITE_READ:
            row = schema.get(arg1 or "")
            if dbname not in (None, "main") or row is None or row[0] not in ("table", "view"):
                seen[1] = False
            elif row[0] == "table":
                tables.add(row[1])
        elif action == sqlite3.SQLITE_FUNCTION:
            if (arg2 or "").lower() not in DETERMINISTIC:
                seen[1] = False
        elif action not in _OK:
            seen[1] = False
        return sqlite3.SQLITE_OK

    db.set_authorizer(authorize)
    try:
        db.execute("EXPLAIN " + sql, bound).fetchall()
    except sqlite3.Error:
        seen[1] = False  # the real run reports the error
    finally:
        db.set_authorizer(None)
    found = frozenset(tables) if seen[0] and seen[1] else None
    with _LOCK:
        _READS[key] = found
        while len(_READS) > MAX_ENTRIES:
            _READS.popitem(last=False)
    return found


def _param_key(bound: dict[str, Any]) -> tuple[tuple[str, str, Any], ...]:
    # the type is part of the key: 1, 1.0 and True bind differently
    return tuple(sorted((k, type(v).__name__, v) for k, v in bound.items()))


def _memo_key(db: sqlite3.Connection, sql: str, bound: dict[str, Any]) -> tuple[Any, ...] | None:
    if not isinstance(db, StateConnection) or db.index is None or db.base_sha256 is None:
        return None
    if not db.schema_is_base or not db.same_as_base:
        return None
    reads = _reads(db, sql, bound)
    if reads is None or not reads <= db.same_as_base:
        return None
    return (db.base_sha256, sql, _param_key(bound))


def query(
    db: sqlite3.Connection, sql: str, bound: dict[str, Any]
) -> tuple[tuple[str, ...] | None, list[tuple[Any, ...]]]:
    """Run ``sql`` with ``bound`` on ``db``, or give the rows it gave on another database
    whose tables it reads are the same snapshot's (see the module docstring).

    Returns:
        ``(columns, rows)``: the column names (``None`` when the statement returns no
        columns) and the rows as tuples, in SQLite's order; the list is the caller's own.

    Raises:
        sqlite3.Error: the query fails (never remembered).
    """
    key = _memo_key(db, sql, bound)
    if key is not None:
        with _LOCK:
            hit = _RESULTS.get(key)
            if hit is not None:
                _RESULTS.move_to_end(key)
        if hit is not None:
            return hit[0], list(hit[1])
    cur = db.execute(sql, bound)
    if cur.description is None:
        cur.fetchall()
        return None, []
    columns = tuple(str(d[0]) for d in cur.description)
    rows = [tuple(r) for r in cur.fetchall()]
    if key is not None and len(rows) <= MAX_ROWS:
        with _LOCK:
            _RESULTS[key] = (columns, tuple(rows))
            while len(_RESULTS) > MAX_ENTRIES:
                _RESULTS.popitem(last=False)
    return columns, rows


def clear() -> None:
    """Forget every remembered query and result (tests, benchmarks)."""
    with _LOCK:
        _READS.clear()
        _RESULTS.clear()
