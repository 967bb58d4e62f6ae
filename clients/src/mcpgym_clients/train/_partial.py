"""The partial file an export is written into beside ``--out``, and the sweep of dead ones.

`write_rollouts` writes ``.<name>.partial-<pid>~L~<token>`` beside the output and renames
it over the output once whole. Its writer holds an exclusive ``flock`` on it from its
creation to the rename (the lock goes with the open file; the system drops it when the
writer dies, ``kill -9`` included). A ``kill -9`` mid-export left the partial file there for
good (adversarial round 17, R17-8): `sweep_partials`, run by every export to that output,
removes those whose lock is free, holding the lock while it removes them, so a live
export's partial file (another process writing the same output) is never removed. Partial
files named without the lock mark (``.<name>.partial-<pid>``, older exports) are removed
when no process of that pid is alive. Nothing else in the directory is touched.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from pathlib import Path
from typing import IO, Any

from mcpgym_server.bundles import pid_alive, remove_unlocked

if sys.platform == "win32":  # pragma: no cover - no flock: judged by pid
    fcntl: Any = None
else:
    import fcntl

LOCK_MARK = "~L~"
"""In a partial file's name: its writer holds its ``flock`` until the rename."""


def partial_prefix(path: Path) -> str:
    """``.<name>.partial-``: the start of every partial file of ``path``."""
    return f".{path.name}.partial-"


def open_partial(path: Path) -> tuple[Path, IO[str]]:
    """Create, lock and open (text, UTF-8) a new partial file beside ``path``.

    Keep it open until it is renamed over ``path`` (closing it drops the lock).

    Raises:
        OSError: the directory cannot be written.
    """
    while True:
        name = f"{partial_prefix(path)}{os.getpid()}{LOCK_MARK}{secrets.token_hex(4)}"
        partial = path.with_name(name)
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            if fcntl is not None:
                with contextlib.suppress(OSError):  # no flock here: judged by pid
                    fcntl.flock(fd, fcntl.LOCK_EX)  # waits out a sweep that took it first
            if os.fstat(fd).st_nlink == 0:  # swept before it was locked: another name
                os.close(fd)
                continue
            return partial, os.fdopen(fd, "w", encoding="utf-8")
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise


def sweep_partials(path: Path) -> list[str]:
    """Remove the partial files of ``path`` whose writer is gone (see the module doc).

    Returns:
        The names removed (none when the directory cannot be listed).
    """
    removed: list[str] = []
    prefix = partial_prefix(path)
    try:
        entries = [e for e in os.scandir(path.parent) if e.name.startswith(prefix)]
    except OSError:
        return removed
    for entry in entries:
        rest = entry.name[len(prefix) :]
        pid_text, locked, _ = rest.partition(LOCK_MARK)
        if not entry.is_file(follow_symlinks=False) or not pid_text.isdigit():
            continue
        gone = remove_unlocked(entry.path, is_dir=False) if locked and fcntl is not None else None
        if gone is None and not pid_alive(int(pid_text)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                gone = True
        if gone:
            removed.append(entry.name)
    return removed
