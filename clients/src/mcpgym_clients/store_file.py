"""Whether a run store's path still names the file it opened for writing.

A `mcpgym_clients.runstore.RunStore` opened for writing notes which file its path names
(`StoreFile`); each write first checks that the path still names that file, and refuses
(`RunStoreMovedError`) once it was removed or another file was moved over it: the rows
would otherwise go to a file that is gone when the process ends, under a summary naming
the path (adversarial round 15, S1-9). Before refusing, it writes its write-ahead log into
the file it opened and empties the log left at the path, which the next file at that path
would otherwise take in (stop 25, F2).

That checkpoint waits at most `CHECKPOINT_WAIT_MS` for another connection reading the
store (not the store's 60 s busy timeout); when a reader's older snapshot keeps rows in
the log, the refusal says where the rows are and what to do (`detached_message`). Closing
the connection afterwards checkpoints and removes nothing at the path: SQLite's pager skips
its checkpoint at close when the file moved (``SQLITE_FCNTL_HAS_MOVED``), so the log at
``PATH-wal`` stays for the file it belongs to, or for whatever store is at the path now
(tested: `tests/clients/test_runstore.py`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from mcpgym_clients.errors import RunStoreMovedError


class StoreFile:
    """The file a writing run store opened, by (device, inode), and whether its path still
    names it.

    Args:
        path: the store's path as given (named in messages); resolved once, so a later
            ``chdir`` changes nothing.

    Raises:
        OSError: the file cannot be stat'ed.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = path.resolve()
        st = os.stat(self.file)
        self.file_id: tuple[int, int] = (st.st_dev, st.st_ino)
        self.gone: str | None = None
        """Once the path names another file (or none): why writes fail."""

    def check(self, conn: sqlite3.Connection) -> None:
        """Refuse to write once the path no longer names the file this store opened.

        The first time it finds so, it first empties the write-ahead log into the file it
        opened, through ``conn`` (the store's connection; ``PRAGMA wal_checkpoint(TRUNCATE)``):
        the log stays at the old path (``PATH-wal``) when the file is moved, and whoever
        opened the next file at that path would apply it to that file, mixing this store's
        rows into it (a backup copied over the path). The file moved away then holds every
        row stored, and the log at the path is empty. Call with the store's lock held.

        Raises:
            RunStoreMovedError: the file was removed, moved away, or another file was
                moved over it (every later write too).
        """
        if self.gone is not None:
            raise RunStoreMovedError(self.gone)
        try:
            st = os.stat(self.file)
            now: tuple[int, int] | None = (st.st_dev, st.st_ino)
        except FileNotFoundError:
            now = None
        if now == self.file_id:
            return
        emptied = empty_log(conn)
        self.gone = detached_message(self.path, replaced=now is not None, emptied=emptied)
        raise RunStoreMovedError(self.gone)


CHECKPOINT_WAIT_MS = 2000
"""Milliseconds the detached store's checkpoint waits for other connections reading the
store (`empty_log`), instead of the store's whole busy timeout (60 s)."""

Emptied = bool | str
"""What `empty_log` achieved: ``True`` (every row in the file, the log empty), ``"written"``
(every row in the file, the log not emptied), ``False`` (rows left only in the log)."""


def empty_log(conn: sqlite3.Connection) -> Emptied:
    """Write the whole write-ahead log of ``conn``'s database into the file it opened and
    truncate the log (`StoreFile.check`), waiting at most `CHECKPOINT_WAIT_MS` for other
    connections (a reader holding an older snapshot keeps the log, and the rows after it).

    Returns:
        `Emptied`: ``True``, ``"written"`` or ``False``.
    """
    try:
        if conn.in_transaction:
            conn.rollback()
        (waited,) = conn.execute("PRAGMA busy_timeout").fetchone()
        conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
        try:
            busy, log, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(waited)}")
    except sqlite3.Error:
        return False
    if busy == 0 and log in (0, -1):
        return True
    return "written" if log >= 0 and done == log else False


def detached_message(path: Path, *, replaced: bool, emptied: Emptied) -> str:
    """What `RunStoreMovedError` says once ``path`` no longer names the file opened
    (``replaced``: another file is there now; ``emptied``: what `empty_log` achieved)."""
    what = "was replaced by another file" if replaced else "was moved away or removed"
    if emptied is True:
        kept = (
            "every row this process stored is in the file it opened (its write-ahead "
            f"log was written into it and {path}-wal left empty"
            + (f", so the file now at {path} took none of them)" if replaced else ")")
        )
    elif emptied == "written":
        kept = (
            "every row this process stored is in the file it opened, but its write-ahead "
            f"log {path}-wal could not be emptied (another connection reads the store): a "
            f"file opened at {path} would take in those rows; remove {path}-wal (and "
            f"{path}-shm) once no process has the store open, before opening a file at {path}"
        )
    else:
        kept = (
            "the last rows this process stored are only in its write-ahead log "
            f"{path}-wal (another connection reading the store held them back): put the "
            f"file it opened back at {path} before anything opens a file there (another "
            "file opened at that path would take them in)"
        )
    return (
        f"the run store {path} {what} while this process wrote to it: nothing more is "
        f"stored; {kept}. If it was moved, put it back at {path} and run the same command "
        "again to resume the run; if it was removed, its rows are lost with it"
    )
