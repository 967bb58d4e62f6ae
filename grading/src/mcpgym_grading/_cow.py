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
    return db


def _page_size(snapshot: Snapshot) -> int:
    from mcpgym_server.bundles import page_size_of

    return page_size_of(snapshot.data)
