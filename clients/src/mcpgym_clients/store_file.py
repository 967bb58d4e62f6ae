"""Whether a run store's path still names the file it opened for writing.

A `mcpgym_clients.runstore.RunStore` opened for writing notes which file its path names
(`StoreFile`); each write first checks that the path still names that file, and refuses
(`RunStoreMovedError`) once it was removed or another file was moved over it: the rows
would otherwise go to a file that is gone when the process ends, under a summary naming
the path (adversarial round 15, S1-9). Before refusing, it writes its write-ahead log into
the file it opened and empties the log left at the path, which the next file at that path
would otherwise take in (stop 25, F2).
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
        self.gone = detached_message(self.path, replaced=now is not None, emptied=empty_log(conn))
        raise RunStoreMovedError(self.gone)


def empty_log(conn: sqlite3.Connection) -> bool:
    """Write the whole write-ahead log of ``conn``'s database into the file it opened and
    truncate the log (`StoreFile.check`); whether it all went (no other connection held it
    back)."""
    try:
        if conn.in_transaction:
            conn.rollback()
        busy, log, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.Error:
        return False
    return busy == 0 and log in (0, -1)


def detached_message(path: Path, *, replaced: bool, emptied: bool) -> str:
    """What `RunStoreMovedError` says once ``path`` no longer names the file opened
    (``replaced``: another file is there now; ``emptied``: the log went into the file)."""
    what = "was replaced by another file" if replaced else "was moved away or removed"
    if emptied:
        kept = (
            "every row this process stored is in the file it opened (its write-ahead "
            f"log was written into it and {path}-wal left empty"
            + (f", so the file now at {path} took none of them)" if replaced else ")")
        )
    else:
        kept = (
            f"its write-ahead log could not be written into the file it opened (another "
            f"connection holds it): {path}-wal still holds rows of that file; remove it "
            f"before opening a file at {path}"
        )
    return (
        f"the run store {path} {what} while this process wrote to it: nothing more is "
        f"stored; {kept}. If it was moved, put it back at {path} and run the same command "
        "again to resume the run; if it was removed, its rows are lost with it"
    )
