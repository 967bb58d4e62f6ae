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

A query that reads a table the episode changed is kept too, by the database's content: the
page delta that makes it from the snapshot (its size and every page it writes, hashed once
per delta: `content_key`), so it is served again only on a database with the same bytes (a
regrade, an episode that ended in the same state, the reference end state of a variant
graded again). The same conditions hold but the last: the schema is the snapshot's and the
query reads only tables and deterministic functions.

Anything else runs the query as before. Results over `MAX_ROWS` rows are not kept, nor more
than `MAX_KEPT_ROWS` rows in all.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import OrderedDict
from typing import Any

from mcpgym_grading._statepages import StateConnection

MAX_ENTRIES = 4096
"""Results kept (least recently used dropped first)."""

MAX_ROWS = 2000
"""A result with more rows than this is not kept."""

MAX_KEPT_ROWS = 200_000
"""Rows kept in all results together (least recently used dropped first): a helpdesk grade
keeps ~20 results of ~1,300 rows in all by content, so ~150 grades' worth."""

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

GRADING_FUNCTIONS = frozenset(
    {
        "mcpgym_misbound", "mcpgym_misstated", "mcpgym_reversed", "mcpgym_too_soon",
        "mcpgym_payout_promised", "mcpgym_stated_other", "mcpgym_slot_other",
        "mcpgym_greeted_other", "mcpgym_unquoted", "mcpgym_withdrawal",
        "mcpgym_without_amount", "mcpgym_dated", "mcpgym_paired_other",
        "mcpgym_items_named",
    }
)  # fmt: skip
"""The other grading SQL functions (`mcpgym_grading._values.register_sql_functions`): pure
functions of their arguments (`mcpgym_grading._sql_function_memo`), so a query calling them
is kept by content too (`content_key`). Not in `DETERMINISTIC`: the memo per snapshot keeps
what it kept before them."""

_OK = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE})

_Reads = tuple[frozenset[str], bool] | None
"""What a query reads (`_reads`): its tables, and whether it calls a `GRADING_FUNCTIONS` one."""

_READS: OrderedDict[tuple[str, str], _Reads] = OrderedDict()
_RESULTS: OrderedDict[tuple[Any, ...], tuple[tuple[str, ...], tuple[tuple[Any, ...], ...]]] = (
    OrderedDict()
)
_LOCK = threading.Lock()
_kept_rows = 0


def _reads(db: StateConnection, sql: str, bound: dict[str, Any]) -> _Reads:
    """The tables ``sql`` reads on a database with the snapshot's schema, and whether it
    calls one of `GRADING_FUNCTIONS`; ``None`` when its result may depend on anything else
    (see the module docstring)."""
    assert db.index is not None and db.base_sha256 is not None
    key = (db.base_sha256, sql)
    with _LOCK:
        if key in _READS:
            _READS.move_to_end(key)
            return _READS[key]
    schema = db.index.schema
    tables: set[str] = set()
    seen: list[bool] = [False, True, False]  # [a SELECT authorized, all allowed, grading fn]

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
            name = (arg2 or "").lower()
            if name in GRADING_FUNCTIONS:
                seen[2] = True
            elif name not in DETERMINISTIC:
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
    found = (frozenset(tables), seen[2]) if seen[0] and seen[1] else None
    with _LOCK:
        _READS[key] = found
        while len(_READS) > MAX_ENTRIES:
            _READS.popitem(last=False)
    return found


def _param_key(bound: dict[str, Any]) -> tuple[tuple[str, str, Any], ...]:
    # the type is part of the key: 1, 1.0 and True bind differently
    return tuple(sorted((k, type(v).__name__, v) for k, v in bound.items()))


def content_key(db: StateConnection) -> tuple[str, int, int, str] | None:
    """What names ``db``'s bytes given its snapshot: ``("content", page size, file size, hex
    sha256 of every page its delta writes, with their numbers and lengths)``; two databases
    of one snapshot with equal keys hold the same bytes (pages the delta does not write are
    the snapshot's). Computed once per delta (``db.memo``). ``None`` without a delta."""
    delta = db.delta
    if delta is None:
        return None
    key = db.memo.get("content_key")
    if key is None:
        h = hashlib.sha256()
        for n, chunk in delta.pages:
            h.update(n.to_bytes(8, "big"))
            h.update(len(chunk).to_bytes(8, "big"))
            h.update(chunk)
        key = db.memo["content_key"] = ("content", delta.page_size, delta.size, h.hexdigest())
    return key


def _memo_key(db: sqlite3.Connection, sql: str, bound: dict[str, Any]) -> tuple[Any, ...] | None:
    if not isinstance(db, StateConnection) or db.index is None or db.base_sha256 is None:
        return None
    if not db.schema_is_base:
        return None
    reads = _reads(db, sql, bound)
    if reads is None:
        return None
    tables, grading = reads
    if db.same_as_base and not grading and tables <= db.same_as_base:
        return (db.base_sha256, sql, _param_key(bound))
    content = content_key(db)
    if content is None:
        return None
    return (db.base_sha256, sql, _param_key(bound), content)


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
        _keep(key, (columns, tuple(rows)))
    return columns, rows


def _keep(
    key: tuple[Any, ...], result: tuple[tuple[str, ...], tuple[tuple[Any, ...], ...]]
) -> None:
    global _kept_rows
    with _LOCK:
        old = _RESULTS.pop(key, None)
        if old is not None:
            _kept_rows -= len(old[1])
        _RESULTS[key] = result
        _kept_rows += len(result[1])
        while len(_RESULTS) > MAX_ENTRIES or (_kept_rows > MAX_KEPT_ROWS and len(_RESULTS) > 1):
            _, dropped = _RESULTS.popitem(last=False)
            _kept_rows -= len(dropped[1])


def clear() -> None:
    """Forget every remembered query and result (tests, benchmarks)."""
    global _kept_rows
    with _LOCK:
        _READS.clear()
        _RESULTS.clear()
        _kept_rows = 0


def clear_content() -> None:
    """Forget the results kept by content (`content_key`), keep those per snapshot
    (benchmarks: a database never graded before)."""
    global _kept_rows
    with _LOCK:
        for key in [k for k in _RESULTS if len(k) == 4]:
            _kept_rows -= len(_RESULTS.pop(key)[1])
