"""Open a page-delta database without copying the file: the snapshot, mapped copy-on-write.

A final database (or a reference end state) is the locked snapshot with a few pages written
over it. Building it as bytes and handing those to ``Connection.deserialize`` copies the
whole file twice (the rebuild, then SQLite's own copy), so grading a bundle would cost what
the snapshot weighs. Here the snapshot's bytes are put once per process in an anonymous
in-memory file (``memfd``, Linux), and each database is a private (``MAP_PRIVATE``)
mapping of it with the delta's pages written in: the kernel copies only the pages written,
the others are read from the one shared copy. SQLite is given that mapping read-only, in
place (``sqlite3_deserialize`` with ``SQLITE_DESERIALIZE_READONLY``, neither copied nor
freed by SQLite), so opening costs the pages the episode changed, and queries fault in only
the pages they read.

Python's `sqlite3` has no way to deserialize without copying, so this calls
``sqlite3_deserialize`` through `ctypes` on the connection's handle (the first field of
CPython's connection object; checked once per process against a limit set through the
public API) in the very SQLite library the `sqlite3` module uses. Where any of that is not
available (not Linux, not CPython, SQLite linked statically, ``MCPGYM_NO_COW=1``) `open_cow`
returns ``None`` and callers rebuild and copy the file as before: same grades either way.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sqlite3
import sys
import threading
from collections import OrderedDict
from typing import Any

from mcpgym_grading._statepages import StateConnection
from mcpgym_server import Snapshot
from mcpgym_server.bundles import PageDelta

_READONLY = 4  # SQLITE_DESERIALIZE_READONLY
_HEADROOM = 64 * 1024 * 1024
"""Zero bytes past the snapshot in its in-memory file (sparse: they take no memory), so a
database that grew is still a mapping of it."""

_lock = threading.Lock()
_lib: Any = None
_usable: bool | None = None
_bases: dict[str, tuple[int, int]] = {}  # snapshot sha256 -> (memfd, capacity)


def _handle(db: sqlite3.Connection) -> int:
    """The ``sqlite3 *`` of a connection: the field after CPython's object header."""
    return ctypes.c_void_p.from_address(id(db) + object.__basicsize__).value or 0


def _setup() -> bool:
    global _lib, _usable
    if _usable is not None:
        return _usable
    _usable = False
    if os.environ.get("MCPGYM_NO_COW") or sys.implementation.name != "cpython":
        return False
    if not hasattr(os, "memfd_create") or not hasattr(mmap, "MAP_PRIVATE"):
        return False
    try:
        import _sqlite3

        lib = ctypes.CDLL(_sqlite3.__file__)
        lib.sqlite3_deserialize.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_void_p,
            ctypes.c_int64,
            ctypes.c_int64,
            ctypes.c_uint,
        ]
        lib.sqlite3_deserialize.restype = ctypes.c_int
        lib.sqlite3_limit.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        lib.sqlite3_limit.restype = ctypes.c_int
        lib.sqlite3_libversion.restype = ctypes.c_char_p
        lib.sqlite3_next_stmt.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.sqlite3_next_stmt.restype = ctypes.c_void_p
        lib.sqlite3_stmt_busy.argtypes = [ctypes.c_void_p]
        lib.sqlite3_stmt_busy.restype = ctypes.c_int
        lib.sqlite3_get_autocommit.argtypes = [ctypes.c_void_p]
        lib.sqlite3_get_autocommit.restype = ctypes.c_int
        lib.sqlite3_db_release_memory.argtypes = [ctypes.c_void_p]
        lib.sqlite3_db_release_memory.restype = ctypes.c_int
        if lib.sqlite3_libversion().decode() != sqlite3.sqlite_version:
            return False  # another SQLite than the one the sqlite3 module runs
        probe = sqlite3.connect(":memory:")
        try:
            which = sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER
            probe.setlimit(which, 4321)
            if lib.sqlite3_limit(_handle(probe), which, -1) != 4321:
                return False  # the handle is not where this code expects it
        finally:
            probe.close()
    except (OSError, AttributeError, ImportError, ValueError):
        return False
    _lib = lib
    _usable = True
    return True


def _base(snapshot: Snapshot) -> tuple[int, int] | None:
    """The in-memory file holding ``snapshot`` (made once per process): (fd, capacity)."""
    sha = snapshot.sha256
    with _lock:
        found = _bases.get(sha)
        if found is not None:
            return found
        data = snapshot.data
        try:
            fd = os.memfd_create(f"mcpgym-snapshot-{sha[:12]}", os.MFD_CLOEXEC)
        except OSError:
            return None
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        capacity = len(data) + max(_HEADROOM, len(data))
        os.ftruncate(fd, capacity)
        _bases[sha] = (fd, capacity)
        return fd, capacity


def cow_available() -> bool:
    """Whether `open_cow` can open databases in place on this platform."""
    with _lock:
        return _setup()


def open_cow(snapshot: Snapshot, delta: PageDelta) -> StateConnection | None:
    """A read-only `StateConnection` on ``snapshot`` with ``delta`` applied, sharing the
    snapshot's unchanged pages (see the module docstring); its ``data`` is the mapping (the
    database's bytes, sliceable like ``bytes``). ``None`` where this is not available, or
    for a delta this cannot map (an empty file, one past the headroom): rebuild instead.
    """
    if not cow_available() or delta.size == 0 or delta.page_size != _page_size(snapshot):
        return None
    base = _base(snapshot)
    if base is None or delta.size > base[1]:
        return None
    fd, _ = base
    mm = mmap.mmap(fd, delta.size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    p = delta.page_size
    for n, chunk in delta.pages:
        off = (n - 1) * p
        mm[off : off + len(chunk)] = chunk
    db = sqlite3.connect(
        ":memory:", check_same_thread=False, isolation_level=None, factory=StateConnection
    )
    buf = (ctypes.c_char * delta.size).from_buffer(mm)
    rc = _lib.sqlite3_deserialize(
        _handle(db), b"main", ctypes.addressof(buf), delta.size, delta.size, _READONLY
    )
    if rc != 0:
        db.close()
        del buf
        mm.close()
        return None
    db.mapping = (mm, buf)
    db.data = mm  # type: ignore[assignment]
    db.written = frozenset(n for n, _ in delta.pages)
    return db


def _page_size(snapshot: Snapshot) -> int:
    from mcpgym_server.bundles import page_size_of

    return page_size_of(snapshot.data)


# -- final states reopened on a kept connection ----------------------------------------------
#
# SQLite prepares a statement per connection, and every bundle used to be opened on a fresh
# one: a helpdesk grade spent ~40% of its SQLite time compiling the rubric's statements
# (some hold hundreds of phrases). A connection mapped here is kept after its grade
# (`keep_cow`) and the next bundle of the same snapshot and file size is written into its
# mapping (`reopen_cow`): the pages the last bundle wrote are put back from the snapshot,
# the new delta's pages written, and SQLite's page cache emptied
# (``sqlite3_db_release_memory``: no transaction is open, so every cached page is free and
# dropped). The next query reads the new bytes; its compiled statement stays valid because
# the schema it was compiled against is the snapshot's, in both bundles. Only then:
#
# - the whole schema (``sqlite_master``) is the snapshot's in the bundle kept and in the one
#   reopened (`StateConnection.schema_is_base`, checked after reopening: otherwise the
#   connection is closed and a fresh one opened), and SQLite's own tables (``sqlite_stat1``:
#   what the planner read with the schema) are unchanged;
# - the database header is the snapshot's but for its change counters and page count (bytes
#   24-31 and 92-95): page size, encoding, schema cookie and format as the schema was read
#   with;
# - the file has the size of the one kept (the mapping's length is SQLite's file size):
#   connections are kept per snapshot and file size;
# - no statement of the connection is running and no transaction is open.
#
# `reopen_cow` never re-registers functions nor sets pragmas: redefining a function or
# setting a flag pragma expires every prepared statement (`StateConnection.sql_functions`,
# `StateConnection.query_only`).

KEEP_MAX = 8
"""Final-state connections kept between grades, in all (each holds at most its file's size
of private pages); the least recently kept is closed first."""

_kept: OrderedDict[tuple[str, int], list[StateConnection]] = OrderedDict()
_kept_count = 0
_MUTABLE_HEADER = ((24, 32), (92, 96))
"""The file change counter, the page count and the version-valid-for number: what writes
change in the header without changing how SQLite reads the schema."""


def _header(page1: bytes | mmap.mmap) -> bytes:
    head = bytes(page1[:100])
    for start, end in _MUTABLE_HEADER:
        head = head[:start] + bytes(end - start) + head[end:]
    return head


def _reusable(snapshot: Snapshot, delta: PageDelta) -> bool:
    """Whether a database of ``delta`` may be read through a kept connection (its header
    as the snapshot's; the schema is checked once it is open)."""
    if delta.size == 0 or delta.page_size != _page_size(snapshot):
        return False
    page1 = next((chunk for n, chunk in delta.pages if n == 1), None)
    return page1 is None or _header(page1) == _header(snapshot.data)


def reopen_cow(snapshot: Snapshot, delta: PageDelta) -> StateConnection | None:
    """A kept connection (`keep_cow`) of ``snapshot`` and ``delta``'s file size, now reading
    ``snapshot`` with ``delta`` applied, its compiled statements kept (see the comment
    above); ``None`` when none is kept or the delta cannot be read through one (then
    `open_cow`). The caller must check ``schema_is_base`` once the state is adopted
    (`adopt_state`) and close the connection when it is false."""
    global _kept_count
    if not cow_available() or not _reusable(snapshot, delta):
        return None
    with _lock:
        key = (snapshot.sha256, delta.size)
        idle = _kept.get(key)
        if not idle:
            return None
        db = idle.pop()
        if not idle:  # no key without a connection: `keep_cow` closes from the first key
            del _kept[key]
        _kept_count -= 1
    mm = db.data
    assert isinstance(mm, mmap.mmap) and len(mm) == delta.size
    p = delta.page_size
    base = snapshot.data
    for n in db.written:  # the last bundle's pages back to what `open_cow` maps there
        off = (n - 1) * p
        old = base[off : off + p]
        mm[off : off + p] = old + bytes(p - len(old))  # past the snapshot: zeros
    for n, chunk in delta.pages:
        off = (n - 1) * p
        mm[off : off + len(chunk)] = chunk
    db.written = frozenset(n for n, _ in delta.pages)
    _lib.sqlite3_db_release_memory(_handle(db))  # no page of the last bundle stays cached
    db.reopened = True
    return db


def keep_cow(db: StateConnection, snapshot: Snapshot) -> bool:
    """Keep ``db`` (a mapped state of ``snapshot``, done with its grade) for `reopen_cow`
    when it qualifies (see the comment above), closing the least recently kept one past
    `KEEP_MAX`; ``False``: not kept, the caller closes it."""
    global _kept_count
    index, delta = db.index, db.delta
    if db.mapping is None or index is None or delta is None or not cow_available():
        return False
    if not (db.schema_is_base and db.sql_functions and db.query_only) or KEEP_MAX < 1:
        return False
    if not (db.base_sha256 == index.sha256 == snapshot.sha256 and _reusable(snapshot, delta)):
        return False
    if any(t.startswith("sqlite_stat") and t not in db.same_as_base for t in index.table_pages):
        return False  # the planner's statistics, read with the schema
    handle = _handle(db)
    if not _lib.sqlite3_get_autocommit(handle):
        return False
    stmt = _lib.sqlite3_next_stmt(handle, None)
    while stmt:
        if _lib.sqlite3_stmt_busy(stmt):
            return False
        stmt = _lib.sqlite3_next_stmt(handle, stmt)
    closing: list[StateConnection] = []
    with _lock:
        key = (snapshot.sha256, delta.size)
        _kept.setdefault(key, []).append(db)
        _kept.move_to_end(key)
        _kept_count += 1
        while _kept_count > KEEP_MAX and _kept:
            old_key, old = next(iter(_kept.items()))
            if old:
                closing.append(old.pop(0))
                _kept_count -= 1
            if not old:
                del _kept[old_key]
    for victim in closing:
        victim.close()
    return True


def close_kept() -> None:
    """Close every kept connection (tests, benchmarks)."""
    global _kept_count
    with _lock:
        dbs = [db for idle in _kept.values() for db in idle]
        _kept.clear()
        _kept_count = 0
    for db in dbs:
        db.close()
