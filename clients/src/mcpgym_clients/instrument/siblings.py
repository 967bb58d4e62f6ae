"""Candidate ids of the same kind, from the database: what a shotgun answer would list.

An answer check expecting an id (an order number, a tracking number, a bank line) is only
tested by a shotgun if the shotgun lists the *other ids the agent could see*: the customer's
other orders, the other parcels' tracking numbers. The reference's reads rarely return them,
so `siblings` draws them from the variant's database: the rows whose column holds the value,
and the other values of that column in rows that share a parent with it (a foreign key of
the row, and the parent's own foreign keys: an order's customer; a shipment's order, then
that order's customer), nearest parent first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

__all__ = ["MAX_CHILDREN", "MAX_SIBLINGS", "siblings"]

MAX_SIBLINGS = 8
"""At most this many candidate values per expected value (a reply of a few lines)."""

MAX_CHILDREN = 50
"""A parent with more children than this is a ledger or a category (a bank account, a
period), not an owner: its children are no candidates of one another."""


def _tables(db: sqlite3.Connection) -> list[str]:
    return [
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]


def _fks(db: sqlite3.Connection, table: str) -> list[tuple[str, str, str]]:
    """``[(column, parent table, parent column)]`` of ``table``'s foreign keys; where the
    schema declares none, its ``X_id`` columns for which a table ``Xs`` exists (a schema
    written without ``REFERENCES``)."""
    declared = [
        (r[3], r[2], r[4] or "id") for r in db.execute(f'PRAGMA foreign_key_list("{table}")')
    ]
    if declared:
        return declared
    tables = set(_tables(db))
    out = []
    for r in db.execute(f'PRAGMA table_info("{table}")'):
        col = str(r[1])
        stem = col[: -len("_id")] if col.endswith("_id") else ""
        parent = next((t for t in (stem + "s", stem + "es") if stem and t in tables), None)
        if parent is not None:
            out.append((col, parent, "id"))
    return out


def _children(db: sqlite3.Connection, table: str, col: str, value: object) -> int:
    row = db.execute(f'SELECT COUNT(*) FROM "{table}" WHERE "{col}" = ?', (value,)).fetchone()
    return int(row[0])


def _of_kind(table: str, col: str, kind: str) -> bool:
    """Whether ``table.col`` holds values of the kind a param called ``kind`` names:
    ``order_id`` / ``replacement_order_id`` -> ``orders.id``; ``deposit_line_id`` ->
    ``bank_lines.id``; ``tracking_number`` -> ``shipments.tracking_number`` and
    ``returns.return_tracking_number``."""
    if kind.endswith("_id"):
        stem = kind[: -len("_id")].split("_")[-1]
        return col == "id" and bool(stem) and table.rstrip("s").endswith(stem)
    return col == kind or kind.endswith("_" + col) or col.endswith("_" + kind)


def siblings(
    db: sqlite3.Connection,
    value: str | int,
    kind: str,
    *,
    exclude: Iterable[str] = (),
    limit: int = MAX_SIBLINGS,
) -> list[str]:
    """Other values of the column that holds ``value``, in rows sharing a parent with its row.

    Args:
        db: the variant's database (the reference's final state: it holds what the episode
            created, such as a replacement order).
        value: an expected answer (compared as stored and as text).
        kind: the name of the param that holds it (`_of_kind`: which columns hold it).
        exclude: values (as text) never returned (the expected ones, those already said).
        limit: at most this many values.

    Returns:
        Values as text, nearest parent first (the row's own foreign keys, then theirs), each
        once; ``[]`` when no column of that kind holds ``value`` (foreign-key columns are
        skipped: ``orders.id`` holds an order number, ``tickets.order_id`` refers to it).
    """
    skip = {str(x) for x in exclude} | {str(value)}
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return []
    probes: list[object] = [value]
    if isinstance(value, str) and value.isdigit() and int(value) < 2**63:
        probes.append(int(value))  # a number stored as text, or an id given as text
    out: list[str] = []
    level2: list[str] = []
    for table in _tables(db):
        fks = _fks(db, table)
        fk_cols = {c for c, _, _ in fks}
        cols = [
            r[1]
            for r in db.execute(f'PRAGMA table_info("{table}")')
            if r[1] not in fk_cols and _of_kind(table, r[1], kind)
        ]
        for col in cols:
            rows = []
            for probe in probes:
                rows = db.execute(
                    f'SELECT * FROM "{table}" WHERE "{col}" = ? LIMIT 4', (probe,)
                ).fetchall()
                if rows:
                    break
            if not rows or len(rows) > 3:
                continue  # not found, or a common value (a status), not a key
            names = [d[1] for d in db.execute(f'PRAGMA table_info("{table}")')]
            for row in rows:
                rec = dict(zip(names, tuple(row), strict=True))
                for fk, parent, pcol in fks:
                    pv = rec.get(fk)
                    if pv is None or _children(db, table, fk, pv) > MAX_CHILDREN:
                        continue
                    out += _values(db, table, col, f'"{fk}" = ?', (pv,))
                    # one level up: the parent's owners (a shipment's order's customer)
                    prow = db.execute(
                        f'SELECT * FROM "{parent}" WHERE "{pcol}" = ?', (pv,)
                    ).fetchone()
                    if prow is None:
                        continue
                    pnames = [d[1] for d in db.execute(f'PRAGMA table_info("{parent}")')]
                    prec = dict(zip(pnames, tuple(prow), strict=True))
                    for gfk, _, _ in _fks(db, parent):
                        gv = prec.get(gfk)
                        if gv is None or _children(db, parent, gfk, gv) > MAX_CHILDREN:
                            continue
                        level2 += _values(
                            db,
                            table,
                            col,
                            f'"{fk}" IN (SELECT "{pcol}" FROM "{parent}" WHERE "{gfk}" = ?)',
                            (gv,),
                        )
    found = [v for v in dict.fromkeys([*out, *level2]) if v not in skip]
    return found[:limit]


def _values(
    db: sqlite3.Connection, table: str, col: str, where: str, args: tuple[object, ...]
) -> list[str]:
    rows = db.execute(
        f'SELECT DISTINCT "{col}" FROM "{table}" WHERE {where} AND "{col}" IS NOT NULL '
        f'ORDER BY "{col}" LIMIT {MAX_CHILDREN}',
        args,
    )
    return [str(r[0]) for r in rows if len(str(r[0])) >= 3]
