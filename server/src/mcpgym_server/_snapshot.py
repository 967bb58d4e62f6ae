"""Snapshots: the saved starting state of an environment, a SQLite file identified by its sha256."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import weakref
from collections.abc import Mapping
from functools import cached_property
from importlib import resources
from typing import Any

from mcpgym_server._delta import PageDigests
from mcpgym_server._errors import SnapshotError

_LOADED: dict[str, weakref.WeakSet[Snapshot]] = {}

QUERY_MEMO_ENTRIES = 8192
"""Distinct read queries a `FrozenSnapshot` connection remembers (then it starts afresh)."""


class FrozenSnapshot(sqlite3.Connection):
    """A read-only (``query_only``) copy of a snapshot that remembers its query results.

    Nothing can change its rows, so the same query with the same parameters always gives
    the same rows: `rows` runs each distinct one once. Generators run the same queries for
    every seed (the candidates of a family, a customer's orders): through
    `mcpgym_server.authoring.fetch_rows` a helpdesk variant is generated in ~0.2 ms
    instead of ~5 ms, in every process that generates it (environment server, grading
    service, a reference agent's harness) and for the lock's generator fingerprints.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._memo: dict[tuple[str, Any], tuple[list[str], list[tuple[Any, ...]]]] = {}

    def rows(self, sql: str, params: Any = ()) -> tuple[list[str], list[tuple[Any, ...]]]:
        """The column names and rows (tuples) of a read query, run once per distinct
        ``(sql, params)``; unhashable parameters are never remembered."""
        try:
            items = sorted(params.items()) if isinstance(params, Mapping) else enumerate(params)
            key = (sql, tuple((k, type(v), v) for k, v in items))  # 1 and 1.0 stay apart
            hit = self._memo.get(key)
        except TypeError:  # unhashable parameters: run it each time
            key, hit = None, None
        if hit is not None:
            return hit
        cur = self.execute(sql, params)
        found = ([c[0] for c in cur.description or ()], [tuple(r) for r in cur.fetchall()])
        if key is not None:
            if len(self._memo) >= QUERY_MEMO_ENTRIES:
                self._memo.clear()
            self._memo[key] = found
        return found


_VERSION_NUMBER = (
    sqlite3.sqlite_version_info[0] * 1_000_000
    + sqlite3.sqlite_version_info[1] * 1_000
    + sqlite3.sqlite_version_info[2]
).to_bytes(4, "big")


def counted_commits(data: bytes, commits: int) -> bytes:
    """``data`` (a `Snapshot.open_private` database's bytes) with the header a file would
    have after ``commits`` write transactions: what `Snapshot.open_copy`'s gives.

    A database in SQLite's memory VFS (`Snapshot.open_copy`) is a file: each transaction
    that wrote a page adds one to the file change counter (header bytes 24-27) and writes
    it again as the version-valid-for number (92-95), with the library's version number
    (96-99). A ``:memory:`` database never does (no file to tell other connections about),
    so `open_private`'s keeps the snapshot's; this writes what the file's would be.
    Everything else in the bytes is the same either way.

    Args:
        data: the database's bytes (`Connection.serialize`). commits: its write
            transactions (the caller counts them, `EpisodeManager`).

    Returns:
        The bytes, the header's three fields rewritten (``data`` itself when ``commits``
        is 0 or the file is shorter than a header).
    """
    if commits <= 0 or len(data) < 100:
        return data
    counter = ((int.from_bytes(data[24:28], "big") + commits) & 0xFFFFFFFF).to_bytes(4, "big")
    mv = memoryview(data)
    return b"".join((mv[:24], counter, mv[28:92], counter, _VERSION_NUMBER, mv[100:]))


def loaded_snapshot(sha256: str) -> Snapshot | None:
    """A snapshot whose bytes this process has read and whose sha256 is ``sha256``, if any.

    Page-delta bundles (`mcpgym_server._bundle`) rebuild their final database from it.
    """
    for snapshot in list(_LOADED.get(sha256, ())):
        return snapshot
    return None


class Snapshot:
    """An immutable SQLite snapshot shipped as package data.

    The bytes are read once (through `importlib.resources`, so it works from a
    wheel) and checked against the declared sha256. Every episode starts from a
    copy of these bytes; the bytes themselves are never written.

    Args:
        package: the package that ships the file, e.g. ``"mcpgym_helpdesk"``.
        resource: path of the file inside the package, e.g. ``"data/snapshot.db"``.
        sha256: the expected hex digest; ``None`` skips the check (development only).

    Raises (on first access of `data`):
        SnapshotError: the file is missing or its digest differs.
    """

    def __init__(self, package: str, resource: str, sha256: str | None) -> None:
        self.package = package
        self.resource = resource
        self.declared_sha256 = sha256

    @cached_property
    def data(self) -> bytes:
        """The snapshot file's bytes (checked)."""
        try:
            data = resources.files(self.package).joinpath(self.resource).read_bytes()
        except (FileNotFoundError, ModuleNotFoundError) as exc:
            raise SnapshotError(
                f"snapshot {self.package}:{self.resource} not found ({exc}); "
                "rebuild it with the environment's snapshot build script"
            ) from None
        actual = hashlib.sha256(data).hexdigest()
        if self.declared_sha256 is not None and actual != self.declared_sha256:
            raise SnapshotError(
                f"snapshot {self.package}:{self.resource} has sha256 {actual}, "
                f"but the environment declares {self.declared_sha256}; the file was changed "
                "or rebuilt without updating the declared digest"
            )
        self.__dict__["sha256"] = actual
        _LOADED.setdefault(actual, weakref.WeakSet()).add(self)
        return data

    @cached_property
    def page_digests(self) -> PageDigests:
        """The page-wise digests of the snapshot (`PageDigests`; computed once, ~1 ms per
        MB): sealing and grading derive a final database's ``final_pages_sha256`` from them
        and the pages its delta changes."""
        return PageDigests.of(self.data)

    @cached_property
    def _template(self) -> tuple[sqlite3.Connection, threading.Lock]:
        """A private copy of the snapshot that `open_private` copies from, and its lock."""
        return self.open_copy(), threading.Lock()

    def open_private(
        self, *, factory: type[sqlite3.Connection] | None = None
    ) -> sqlite3.Connection:
        """A new private ``:memory:`` database holding the snapshot's bytes; what sealing
        takes from it is `open_copy`'s once `counted_commits` has written its header.

        The pages are copied by SQLite's backup API from a template copy made once: a
        ``:memory:`` database keeps its pages only in its page cache, with no file under
        it, so they are copied once here and never again between file and cache (a
        `open_copy` database, a file in SQLite's memory VFS, copies each page it reads into
        its page cache). The backup sets the copy's schema cookie (header bytes 40-43) to
        one past the empty destination's; ``PRAGMA schema_version`` puts the snapshot's
        back, so the copy's bytes are the snapshot's (`serialize`).

        Args:
            factory: as `open_copy`'s.

        Returns:
            A `sqlite3.Connection` with `sqlite3.Row` rows, usable from any thread (the
            caller serialises access). Thread-safe.
        """
        db = sqlite3.connect(
            ":memory:",
            check_same_thread=False,
            isolation_level=None,
            factory=factory or sqlite3.Connection,
        )
        template, lock = self._template
        with lock:
            template.backup(db)
        db.execute(f"PRAGMA schema_version = {int.from_bytes(self.data[40:44], 'big')}")
        db.row_factory = sqlite3.Row
        return db

    @cached_property
    def sha256(self) -> str:
        """Hex sha256 of the snapshot bytes."""
        return hashlib.sha256(self.data).hexdigest()

    def open_copy(
        self, *, readonly: bool = False, factory: type[sqlite3.Connection] | None = None
    ) -> sqlite3.Connection:
        """A new private in-memory database holding a copy of the snapshot.

        Args:
            readonly: open the copy read-only (used for task generation); without
                ``factory``, a `FrozenSnapshot`, which remembers its query results.
            factory: the `sqlite3.Connection` subclass to make (default: the plain class);
                in-process trainers pass the grader's state connection class so that the
                sealed sandbox can be graded without another copy.

        Returns:
            A `sqlite3.Connection` with `sqlite3.Row` rows, usable from any thread
            (the caller serialises access).
        """
        db = sqlite3.connect(
            ":memory:",
            check_same_thread=False,
            isolation_level=None,
            factory=factory or (FrozenSnapshot if readonly else sqlite3.Connection),
        )
        db.deserialize(self.data)
        if readonly:
            db.execute("PRAGMA query_only = ON")
        db.row_factory = sqlite3.Row
        return db
