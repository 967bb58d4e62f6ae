"""Table-by-table comparison of two SQLite databases (final state vs reference end state).

When both connections are `StateConnection` objects over the same snapshot, the tables
both know to hold the snapshot's rows (from their page deltas, `_statepages`) are equal
and are not read; every other table is read and compared row by row.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mcpgym_grading import _sqlmemo
from mcpgym_grading._statepages import StateConnection, suspect_rowids
from mcpgym_grading._values import bind_sql, jsonable, normalise, sort_key
from mcpgym_grading.errors import CheckEvaluationError

MAX_EXAMPLES = 5
"""How many example rows a table diff lists per kind (added, removed, changed)."""


@dataclass(frozen=True)
class Table:
    """One table read from a database: column names, primary-key columns, rows."""

    columns: tuple[str, ...]
    pk: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_names(db: sqlite3.Connection) -> set[str]:
    """Names of the ordinary tables of ``db`` (no views, no ``sqlite_*`` internals).

    A read-only `StateConnection` remembers them (in its ``memo``, per database).
    """
    memo = db.memo if isinstance(db, StateConnection) and hasattr(db, "memo") else None
    if memo is not None and "table_names" in memo:
        return set(memo["table_names"])
    rows = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
        "ESCAPE '\\'"
    ).fetchall()
    names = {r[0] for r in rows}
    if memo is not None:
        memo["table_names"] = frozenset(names)
    return names


def known_equal(final_db: sqlite3.Connection, reference_db: sqlite3.Connection) -> frozenset[str]:
    """Tables both databases are known (from their page deltas) to hold unchanged from the
    same snapshot, hence equal; empty unless both are `StateConnection` over one snapshot."""
    if not (isinstance(final_db, StateConnection) and isinstance(reference_db, StateConnection)):
        return frozenset()
    if final_db.base_sha256 is None or final_db.base_sha256 != reference_db.base_sha256:
        return frozenset()
    return final_db.same_as_base & reference_db.same_as_base


def _table_info(db: sqlite3.Connection, name: str) -> list[tuple[Any, ...]]:
    """``PRAGMA table_info`` of a table (remembered by a read-only `StateConnection`)."""
    memo = db.memo if isinstance(db, StateConnection) and hasattr(db, "memo") else None
    key = ("table_info", name)
    if memo is not None and key in memo:
        return memo[key]
    info = [tuple(r) for r in db.execute(f"PRAGMA table_info({_quote(name)})").fetchall()]
    if memo is not None:
        memo[key] = info
    return info


def _columns(db: sqlite3.Connection, name: str) -> list[str]:
    return [str(r[1]) for r in _table_info(db, name)]


_ROWID_NAMES = ("rowid", "_rowid_", "oid")


def read_table(
    db: sqlite3.Connection,
    name: str,
    names: set[str] | None = None,
    rowids: set[int] | None = None,
) -> Table | None:
    """Read a table, or ``None`` when ``db`` has no table of that name.

    Args:
        names: `table_names` of ``db`` if already known (saves a query).
        rowids: read only the rows with these rowids (default: every row).
    """
    if name not in (table_names(db) if names is None else names):
        return None
    info = _table_info(db, name)
    columns = tuple(str(r[1]) for r in info)
    pk = tuple(str(r[1]) for r in sorted((r for r in info if r[5] > 0), key=lambda r: r[5]))
    sql = f"SELECT * FROM {_quote(name)}"
    params: tuple[Any, ...] = ()
    if rowids is not None:
        alias = next(a for a in _ROWID_NAMES if a not in columns)
        sql += f" WHERE {alias} IN (SELECT value FROM json_each(?))"
        params = (json.dumps(sorted(rowids)),)
    rows = tuple(tuple(r) for r in db.execute(sql, params).fetchall())
    return Table(columns=columns, pk=pk, rows=rows)


def _prunable_rowids(
    final_db: sqlite3.Connection, reference_db: sqlite3.Connection, name: str
) -> set[int] | None:
    rowids = suspect_rowids(final_db, reference_db, name)
    if rowids is None:
        return None
    for db in (final_db, reference_db):
        columns = _columns(db, name)
        if all(a in columns for a in _ROWID_NAMES):
            return None  # every rowid alias is shadowed by a column
    return rowids


def _project(table: Table, columns: Iterable[str]) -> list[dict[str, Any]]:
    idx = [table.columns.index(c) for c in columns]
    cols = list(columns)
    return [{c: jsonable(row[i]) for c, i in zip(cols, idx, strict=True)} for row in table.rows]


def _drop_identical_rows(f: Table, r: Table, common: list[str]) -> tuple[Table, Table]:
    """Project both tables on ``common`` and drop the rows present, unchanged, on both sides.

    Rows equal before normalisation are equal after it, and (the key being part of
    ``common``) they can be neither added, removed nor changed, so the diff is the
    same; only the few rows that differ are then normalised value by value.
    """
    f_idx = [f.columns.index(c) for c in common]
    r_idx = [r.columns.index(c) for c in common]
    f_proj = [tuple(row[i] for i in f_idx) for row in f.rows]
    r_proj = [tuple(row[i] for i in r_idx) for row in r.rows]
    shared = Counter(f_proj) & Counter(r_proj)

    def keep(rows: list[tuple[Any, ...]]) -> tuple[tuple[Any, ...], ...]:
        left = Counter(shared)
        out: list[tuple[Any, ...]] = []
        for row in rows:
            if left[row] > 0:
                left[row] -= 1
            else:
                out.append(row)
        return tuple(out)

    cols = tuple(common)
    return Table(cols, f.pk, keep(f_proj)), Table(cols, r.pk, keep(r_proj))


def _examples(rows: list[Any]) -> list[Any]:
    return sorted(rows, key=sort_key)[:MAX_EXAMPLES]


def diff_table(
    final: Table | None, reference: Table | None, ignore: Iterable[str]
) -> dict[str, Any] | None:
    """A structured diff of one table, or ``None`` when the two are equal.

    A table missing from one side compares as empty. Rows are keyed by primary key
    when every key column is compared, otherwise by the whole row (as a multiset).
    ``ignore`` columns are left out.

    Returns:
        ``{"key": [...] | None, "added": n, "removed": n, "changed": n,
        "examples": {"added": [row], "removed": [row], "changed": [{"key", "columns"}]}}``
        plus ``columns_only_in_final`` / ``columns_only_in_reference`` /
        ``missing_in_final`` / ``missing_in_reference`` when they apply.
        "Added" rows are in the final state but not in the reference.
    """
    if final is None and reference is None:
        raise AssertionError("diff_table needs at least one table")
    ignored = set(ignore)
    shape = final or reference
    assert shape is not None
    f = final or Table(shape.columns, shape.pk, ())
    r = reference or Table(shape.columns, shape.pk, ())
    f_cols = [c for c in f.columns if c not in ignored]
    r_cols = [c for c in r.columns if c not in ignored]
    common = [c for c in f_cols if c in r_cols]
    extra: dict[str, Any] = {}
    if final is None:
        extra["missing_in_final"] = True
    if reference is None:
        extra["missing_in_reference"] = True
    if only_f := [c for c in f_cols if c not in r_cols]:
        extra["columns_only_in_final"] = only_f
    if only_r := [c for c in r_cols if c not in f_cols]:
        extra["columns_only_in_reference"] = only_r
    key = list(shape.pk) if shape.pk and all(c in common for c in shape.pk) else None
    f, r = _drop_identical_rows(f, r, common)
    f_rows = _project(f, common)
    r_rows = _project(r, common)
    added: list[Any]
    removed: list[Any]
    changed: list[dict[str, Any]] = []
    if key is not None:
        f_by = {normalise([row[c] for c in key]): row for row in f_rows}
        r_by = {normalise([row[c] for c in key]): row for row in r_rows}
        added = [row for k, row in f_by.items() if k not in r_by]
        removed = [row for k, row in r_by.items() if k not in f_by]
        for k, frow in f_by.items():
            rrow = r_by.get(k)
            if rrow is None:
                continue
            cols = {
                c: {"final": frow[c], "reference": rrow[c]}
                for c in common
                if normalise(frow[c]) != normalise(rrow[c])
            }
            if cols:
                changed.append({"key": {c: frow[c] for c in key}, "columns": cols})
    else:
        f_count = Counter(normalise(row) for row in f_rows)
        r_count = Counter(normalise(row) for row in r_rows)
        by_norm = {normalise(row): row for row in f_rows + r_rows}
        added = [by_norm[k] for k, n in (f_count - r_count).items() for _ in range(n)]
        removed = [by_norm[k] for k, n in (r_count - f_count).items() for _ in range(n)]
    if not (
        added
        or removed
        or changed
        or "columns_only_in_final" in extra
        or "columns_only_in_reference" in extra
    ):
        return None
    return {
        "key": key,
        "added": len(added),
        "removed": len(removed),
        "changed": len(changed),
        "examples": {
            "added": _examples(added),
            "removed": _examples(removed),
            "changed": _examples(changed),
        },
        **extra,
    }


def compare_tables(
    final_db: sqlite3.Connection,
    reference_db: sqlite3.Connection,
    tables: Iterable[str],
    ignore_columns: Mapping[str, Iterable[str]],
    *,
    check_ignore_tables: Iterable[str] = (),
) -> tuple[list[str], dict[str, Any]]:
    """Compare ``tables`` between two databases.

    Args:
        tables: the tables to compare; each must exist in at least one database.
        ignore_columns: ``{table: columns}`` left out of the comparison; every named
            column of a compared table must exist in it (on either side).
        check_ignore_tables: tables named by the check's own ``ignore_columns``; each
            must exist in at least one database.

    Returns:
        ``(compared tables sorted, {table: diff})`` with only the differing tables.

    Raises:
        CheckEvaluationError: an unknown table or ignored column.
    """
    f_names, r_names = table_names(final_db), table_names(reference_db)
    known = f_names | r_names
    equal = known_equal(final_db, reference_db)
    for t in check_ignore_tables:
        if t not in known:
            raise CheckEvaluationError(
                f"`ignore_columns` names table `{t}`, which exists in neither the final nor "
                f"the reference database; tables: {', '.join(sorted(known))}"
            )
    compared = sorted(set(tables))
    diffs: dict[str, Any] = {}
    for name in compared:
        if name not in known:
            raise CheckEvaluationError(
                f"table `{name}` exists in neither the final nor the reference database; "
                f"tables: {', '.join(sorted(known))}"
            )
        ignored = list(ignore_columns.get(name, ()))
        if name in equal:  # unchanged from the snapshot on both sides: no rows to read
            all_cols = set(_columns(final_db, name)) if ignored else set()
            final = reference = None
        else:
            rowids = (
                _prunable_rowids(final_db, reference_db, name)
                if name in f_names and name in r_names
                else None
            )
            if rowids is not None and not rowids:
                columns = _columns(final_db, name)
                if columns == _columns(reference_db, name):
                    # every row is on a leaf page the same on both sides: nothing to read
                    unknown = [c for c in ignored if c not in columns]
                    if unknown:
                        raise CheckEvaluationError(
                            f"ignored column(s) {', '.join(f'`{c}`' for c in unknown)} do not "
                            f"exist in table `{name}`; its columns: {', '.join(sorted(columns))}"
                        )
                    continue
            final = read_table(final_db, name, f_names, rowids)
            reference = read_table(reference_db, name, r_names, rowids)
            all_cols = set(final.columns if final else ())
            all_cols |= set(reference.columns if reference else ())
        unknown = [c for c in ignored if c not in all_cols]
        if unknown:
            raise CheckEvaluationError(
                f"ignored column(s) {', '.join(f'`{c}`' for c in unknown)} do not exist in "
                f"table `{name}`; its columns: {', '.join(sorted(all_cols))}"
            )
        if name in equal:
            continue
        if (
            final is not None
            and reference is not None
            and final.columns == reference.columns
            and final.rows == reference.rows
        ):
            continue  # identical raw rows (the common case): skip per-value normalisation
        diff = diff_table(final, reference, ignored)
        if diff is not None:
            diffs[name] = diff
    return compared, diffs


def compare_queries(
    final_db: sqlite3.Connection,
    reference_db: sqlite3.Connection,
    queries: Mapping[str, str],
    params: Mapping[str, Any],
) -> dict[str, Any]:
    """Run each query of ``queries`` (``{label: sql}``) on both databases and compare the
    rows as multisets (as `diff_table` compares a table without a key).

    Named parameters (``:name``) are bound from ``params`` on both sides.

    Returns:
        ``{label: diff}`` with only the queries whose rows differ (`diff_table`'s shape:
        ``added`` rows are on the final side only, ``removed`` on the reference side only).

    Raises:
        CheckEvaluationError: a query names an unknown parameter or fails on either side.
    """
    diffs: dict[str, Any] = {}
    for label, sql in sorted(queries.items()):
        bound = bind_sql(sql, params)
        tables = []
        for side, db in (("final", final_db), ("reference", reference_db)):
            try:
                columns, rows = _sqlmemo.query(db, sql, bound)
            except sqlite3.Error as exc:
                raise CheckEvaluationError(
                    f"same_rows query `{label}` failed on the {side} state: {exc}"
                ) from None
            if columns is None:
                raise CheckEvaluationError(f"same_rows query `{label}` returns no columns")
            tables.append(Table(columns, (), tuple(rows)))
        final, reference = tables
        if final.columns == reference.columns and final.rows == reference.rows:
            continue
        diff = diff_table(final, reference, ())
        if diff is not None:
            diffs[label] = diff
    return diffs
