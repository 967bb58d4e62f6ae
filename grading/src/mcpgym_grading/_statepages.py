"""Which tables a page delta leaves untouched: state checks read only the tables that changed.

An episode's final database and a variant's reference end state are both page deltas
against the locked snapshot (`mcpgym_server._delta`). A table whose b-tree pages (as
SQLite's ``dbstat`` lists them in the snapshot: interior, leaf and overflow pages) are
all unchanged in a database, and whose schema row (type, name, table, root page, SQL) is
the snapshot's, holds exactly the snapshot's rows there: the b-tree read from its root
page is the same bytes. When that holds in both the final and the reference database, the
table is equal on both sides and `compare_tables` skips reading it.

Inside a table that changed, rows are pruned by leaf page (rowid tables): a leaf page that
is in the table's b-tree on both sides (``dbstat`` of each database) and holds the same
bytes on both (unchanged from the snapshot on both, or changed alike: an episode that did
what the reference did leaves the same pages) holds the same rows on both, so only the rows
of the other leaf pages (their rowids read from the page cells) are fetched and compared.
An overflow page that differs between the sides, a WITHOUT ROWID table or a table missing
on one side falls back to reading the whole table.

Handled conservatively (every table is then compared, as before): another page size than
the snapshot's, a missing ``dbstat`` (SQLite built without it), a schema row that moved or
changed (a table created, dropped, altered, or relocated by ``VACUUM``). Page 1 (the file
header and the root of ``sqlite_schema``) changes on every write transaction; the schema
is therefore compared row by row, never by its pages. A database that grows or shrinks is
covered by `PageDelta.changed_pages` (truncated pages count as changed).
"""

from __future__ import annotations

import mmap
import sqlite3
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from mcpgym_server import Snapshot
from mcpgym_server.bundles import PageDelta, page_size_of

SchemaRow = tuple[str, str, str, int, str | None]
"""``(type, name, tbl_name, rootpage, sql)`` of one ``sqlite_schema`` row."""


class StateConnection(sqlite3.Connection):
    """A read-only database connection that knows which of its tables equal the snapshot's.

    Attributes:
        base_sha256: the snapshot those tables are compared with (``None``: unknown).
        same_as_base: names of the tables whose rows are the snapshot's (from the delta).
    """

    base_sha256: str | None = None
    same_as_base: frozenset[str] = frozenset()
    schema_is_base: bool = False
    """Whether the whole schema (tables, indexes, views, triggers) is the snapshot's."""
    data: bytes | mmap.mmap = b""
    delta: PageDelta | None = None
    index: BaseIndex | None = None
    page_size: int = 0
    memo: dict[Any, Any]
    nbytes: int = 0
    """Size of the database held (reference connections lent by a `ReferenceCache`)."""
    pool_key: tuple[str, str, str] | None = None
    """The `ReferenceCache` entry this connection belongs to, if any."""
    mapping: Any = None
    """The copy-on-write mapping SQLite reads in place (`mcpgym_grading._cow`), if any:
    released once the connection is closed."""
    written: frozenset[int] = frozenset()
    """Pages of the mapping written over the snapshot's (`mcpgym_grading._cow`)."""
    query_only: bool = False
    """Whether ``PRAGMA query_only = ON`` was set (setting it again would expire every
    compiled statement)."""
    sql_functions: bool = False
    """Whether the grading SQL functions are registered (`register_sql_functions`;
    registering them again would expire every compiled statement)."""
    reopened: bool = False
    """Whether this connection read another bundle before (`mcpgym_grading._cow.reopen_cow`)."""

    def close(self) -> None:
        """Close the database, then release its mapping (never the other way round)."""
        super().close()
        mapping = self.__dict__.pop("mapping", None)
        if mapping is not None:
            self.__dict__.pop("data", None)
            mm, buf = mapping
            del mapping, buf  # the ctypes view holds an export of the mapping
            try:
                mm.close()
            except BufferError:  # still exported somewhere: the GC unmaps it later
                pass

    def __del__(self) -> None:
        if self.__dict__.get("mapping") is not None:
            self.close()


@dataclass(frozen=True)
class BaseIndex:
    """What a snapshot's pages hold: its page size, schema rows and each table's pages."""

    sha256: str
    page_size: int
    schema: dict[str, SchemaRow]
    table_pages: dict[str, frozenset[int]]
    table_leaves: dict[str, frozenset[int]] = field(default_factory=dict)
    table_overflow: dict[str, frozenset[int]] = field(default_factory=dict)
    table_inner: dict[str, frozenset[int]] = field(default_factory=dict)
    """Per table: its leaf, overflow and interior pages (the root included)."""
    rowids: dict[int, list[int] | None] = field(default_factory=dict)
    """Memo of `leaf_rowids` of the snapshot's pages."""


_MEMOS: weakref.WeakKeyDictionary[PageDelta, dict[Any, Any]] = weakref.WeakKeyDictionary()
_MEMOS_LOCK = threading.Lock()


def _memo(delta: PageDelta) -> dict[Any, Any]:
    """What has been learned about the database of ``delta`` (a reference end state's delta
    is cached by the grader, so its page facts are computed once per variant)."""
    with _MEMOS_LOCK:
        memo = _MEMOS.get(delta)
        if memo is None:
            memo = _MEMOS[delta] = {}
        return memo


_INDEXES: OrderedDict[str, BaseIndex | None] = OrderedDict()
_INDEX_LOCK = threading.Lock()
_MAX_INDEXES = 8


def _schema(db: sqlite3.Connection) -> dict[str, SchemaRow]:
    rows = db.execute("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master").fetchall()
    return {str(r[1]): (str(r[0]), str(r[1]), str(r[2]), int(r[3] or 0), r[4]) for r in rows}


def base_index(snapshot: Snapshot) -> BaseIndex | None:
    """The page map of ``snapshot`` (~1.4 ms with ``dbstat``, cached per sha256).

    Returns ``None`` when this SQLite has no ``dbstat`` table (then nothing is skipped).
    """
    sha = snapshot.sha256
    with _INDEX_LOCK:
        if sha in _INDEXES:
            _INDEXES.move_to_end(sha)
            return _INDEXES[sha]
    db = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        db.deserialize(snapshot.data)
        page_size = page_size_of(snapshot.data)
        schema = _schema(db)
        try:
            owned = db.execute("SELECT name, pageno, pagetype FROM dbstat").fetchall()
        except sqlite3.OperationalError:
            index: BaseIndex | None = None
        else:
            pages: dict[tuple[str, str], set[int]] = {}
            for name, pageno, kind in owned:
                pages.setdefault((str(name), str(kind)), set()).add(int(pageno))
                pages.setdefault((str(name), "*"), set()).add(int(pageno))
            tables = {n for n, row in schema.items() if row[0] == "table" and row[3] > 0}

            def of(kind: str) -> dict[str, frozenset[int]]:
                return {t: frozenset(pages.get((t, kind), ())) for t in tables}

            inner = {t: of("internal")[t] | {schema[t][3]} for t in tables}
            index = BaseIndex(
                sha256=sha,
                page_size=page_size,
                schema=schema,
                table_pages=of("*"),
                table_leaves=of("leaf"),
                table_overflow=of("overflow"),
                table_inner=inner,
            )
    finally:
        db.close()
    with _INDEX_LOCK:
        _INDEXES[sha] = index
        while len(_INDEXES) > _MAX_INDEXES:
            _INDEXES.popitem(last=False)
    return index


def tables_same_as_base(
    db: sqlite3.Connection, delta: PageDelta, index: BaseIndex, page_size: int
) -> frozenset[str]:
    """Names of the tables of ``db`` (the delta ``delta`` applied to the snapshot of
    ``index``; ``page_size`` from its file header) whose rows are exactly the snapshot's
    (see the module docstring)."""
    return _base_facts(db, delta, index, page_size)[0]


def _base_facts(
    db: sqlite3.Connection, delta: PageDelta, index: BaseIndex, page_size: int
) -> tuple[frozenset[str], bool]:
    """`tables_same_as_base`, and whether the whole schema of ``db`` is the snapshot's."""
    if not (delta.page_size == index.page_size == page_size):
        return frozenset(), False
    schema = _schema(db)
    changed = delta.changed_pages
    same = frozenset(
        name
        for name, pages in index.table_pages.items()
        if schema.get(name) == index.schema[name] and pages.isdisjoint(changed)
    )
    return same, schema == index.schema


def open_state(
    data: bytes, delta: PageDelta | None, snapshot: Snapshot, index: BaseIndex | None
) -> StateConnection:
    """A read-only in-memory `StateConnection` holding ``data``; with a ``delta`` (``data``
    as a page delta against ``snapshot``) and an ``index`` it knows its unchanged tables."""
    db = sqlite3.connect(
        ":memory:", check_same_thread=False, isolation_level=None, factory=StateConnection
    )
    db.deserialize(data)
    return adopt_state(db, data, delta, snapshot, index)


def adopt_state(
    db: StateConnection,
    data: bytes | mmap.mmap,
    delta: PageDelta | None,
    snapshot: Snapshot,
    index: BaseIndex | None,
) -> StateConnection:
    """Make ``db`` (a `StateConnection` already holding the database ``data``: opened by
    `open_state`, or an in-process sandbox sealed into a bundle whose final bytes are
    ``data``) read-only with tuple rows, and tell it its unchanged tables (as `open_state`).

    Returns:
        ``db``.
    """
    db.row_factory = None
    if not db.query_only:  # setting it again would expire the compiled statements
        db.execute("PRAGMA query_only = ON")
        db.query_only = True
    db.memo = {}
    db.page_size = page_size_of(data)  # PRAGMA page_size is stale until page 1 is read
    if delta is not None and index is not None:
        memo = _memo(delta)
        facts = memo.get("base_facts")
        if facts is None:
            facts = memo["base_facts"] = _base_facts(db, delta, index, db.page_size)
        db.same_as_base, db.schema_is_base = facts
        db.base_sha256 = snapshot.sha256
        db.data = data
        db.delta = delta
        db.memo = memo
        db.index = index
    return db


def _schema_row(db: sqlite3.Connection, name: str) -> SchemaRow | None:
    row = db.execute(
        "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE name = ?", (name,)
    ).fetchone()
    if row is None:
        return None
    return (str(row[0]), str(row[1]), str(row[2]), int(row[3] or 0), row[4])


def _varint(buf: bytes | mmap.mmap, off: int) -> tuple[int, int]:
    value = 0
    for i in range(8):
        byte = buf[off + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, off + i + 1
    return (value << 8) | buf[off + 8], off + 9


def leaf_rowids(data: bytes | mmap.mmap, pageno: int, page_size: int) -> list[int] | None:
    """The rowids of the cells of table-leaf page ``pageno`` of a database file, or ``None``
    when the page is not a table leaf (a WITHOUT ROWID table's pages are index pages)."""
    start = (pageno - 1) * page_size
    hdr = start + (100 if pageno == 1 else 0)
    if len(data) < start + page_size or data[hdr] != 0x0D:
        return None
    cells = int.from_bytes(data[hdr + 3 : hdr + 5], "big")
    out: list[int] = []
    for i in range(cells):
        ptr = int.from_bytes(data[hdr + 8 + 2 * i : hdr + 10 + 2 * i], "big")
        _, off = _varint(data, start + ptr)  # payload size
        rowid, _ = _varint(data, off)
        out.append(rowid - (1 << 64) if rowid >= 1 << 63 else rowid)
    return out


def _tree(db: StateConnection, name: str) -> tuple[set[int], set[int]]:
    """Leaf and overflow pages of table ``name``'s b-tree in ``db``. When no interior page
    of the snapshot's tree (root included) changed and the schema row is the snapshot's,
    every child pointer is the snapshot's: its leaves are the snapshot's leaves (no walk).
    Otherwise ``dbstat`` walks the tree (linear in the table's pages)."""
    cached = db.memo.get(("tree", name))
    if cached is not None:
        return cached
    index, delta = db.index, db.delta
    if (
        index is not None
        and delta is not None
        and name in index.table_inner
        and index.table_inner[name].isdisjoint(delta.changed_pages)
        and _schema_row(db, name) == index.schema[name]
    ):
        found = (set(index.table_leaves[name]), set(index.table_overflow[name]))
        db.memo[("tree", name)] = found
        return found
    leaves: set[int] = set()
    overflow: set[int] = set()
    for pageno, kind in db.execute(
        "SELECT pageno, pagetype FROM dbstat WHERE name = ?", (name,)
    ).fetchall():
        if kind == "leaf":
            leaves.add(int(pageno))
        elif kind == "overflow":
            overflow.add(int(pageno))
    db.memo[("tree", name)] = (leaves, overflow)
    return leaves, overflow


def _rowids_of(db: StateConnection, pageno: int, page_size: int) -> list[int] | None:
    assert db.delta is not None and db.index is not None
    memo: dict[Any, Any] = db.memo if pageno in db.delta.changed_pages else db.index.rowids
    key: Any = ("rowids", pageno) if memo is db.memo else pageno
    if key not in memo:
        memo[key] = leaf_rowids(db.data, pageno, page_size)
    return memo[key]


def _page(db: StateConnection, pageno: int, page_size: int) -> bytes:
    start = (pageno - 1) * page_size
    return bytes(db.data[start : start + page_size])


def differing_pages(final_db: StateConnection, reference_db: StateConnection) -> frozenset[int]:
    """The pages whose bytes differ between the two databases (both page deltas against one
    snapshot, `StateConnection` with ``delta`` and ``data``): among the pages either delta
    changed, those that are not the same bytes on both sides (a page past one file's end
    differs). Every other page is the snapshot's on both sides or was changed alike."""
    f, r = final_db, reference_db
    assert f.delta is not None and r.delta is not None
    key = ("differs", id(r.delta))
    hit = f.memo.get(key)
    if hit is not None and hit[0] is r.delta:
        return hit[1]
    size = f.delta.page_size
    out = frozenset(
        n
        for n in f.delta.changed_pages | r.delta.changed_pages
        if _page(f, n, size) != _page(r, n, size)
    )
    f.memo[key] = (r.delta, out)
    return out


def suspect_rowids(
    final_db: sqlite3.Connection, reference_db: sqlite3.Connection, name: str
) -> set[int] | None:
    """The rowids of table ``name`` whose rows may differ between the two databases; every
    other row is on a leaf page that is in the table's b-tree on both sides and holds the
    same bytes on both (unchanged from the snapshot, or changed alike: `differing_pages`),
    its overflow pages too (module docstring).

    Returns ``None`` when rows cannot be pruned (not two `StateConnection` over one
    snapshot, the table missing on a side, a WITHOUT ROWID table, a changed overflow page).
    """
    f, r = final_db, reference_db
    if not (isinstance(f, StateConnection) and isinstance(r, StateConnection)):
        return None
    if f.delta is None or r.delta is None or f.base_sha256 != r.base_sha256:
        return None
    size = f.delta.page_size
    if not (r.delta.page_size == f.page_size == r.page_size == size):
        return None  # pages of another size than the snapshot's: parse nothing
    try:
        f_leaves, f_over = _tree(f, name)
        r_leaves, r_over = _tree(r, name)
    except sqlite3.Error:
        return None
    if not f_leaves or not r_leaves:
        return None
    differ = differing_pages(f, r)
    if not differ.isdisjoint(f_over | r_over):
        return None
    safe = (f_leaves & r_leaves) - differ
    out: set[int] = set()
    for db, leaves in ((f, f_leaves), (r, r_leaves)):
        for pageno in leaves - safe:
            rowids = _rowids_of(db, pageno, size)
            if rowids is None:
                return None
            out.update(rowids)
    return out
