"""Debris of sealings that never finished: temporary bundle directories of dead writers.

`EpisodeStore.write` builds a bundle in ``.tmp-<episode><writer>...`` and renames it into
place; a writer killed in between (``kill -9``) leaves that directory behind.

The writer holds an exclusive ``flock`` on that directory from its creation until the
rename (`writer_dir`; the lock goes with the directory's inode, and the operating system
drops it when the writer dies, ``kill -9`` included), and its name says so (``L~``
after the ``<writer>`` part): a sweep removes such a directory only when it can take that
lock itself, and removes it while holding it. A live writer's directory is never swept,
whatever the clocks say: the sweep aged directories by wall clock, so a forward clock jump
of an hour while a second server started on the same store could remove a live writer's
half-written bundle (adversarial round 15, left open).

The ``<writer>`` part, ``~<host>~<pid>~<token>~``, names the writer: this process's own
directories (its pid and random token) are never swept by itself. Directories of another
host on a shared store are swept only when their lock is free *and* they are older than
`DEBRIS_MAX_AGE_S` (a network file system may not carry the lock). Directories named
without the lock mark (older writers) are judged as before: a writer not alive on this host
(for this process's pid, not this process's token, so a restarted container whose server is
pid 1 again still sweeps what its previous life left), or older than `DEBRIS_MAX_AGE_S`.

Single files are written the same way (`write_file_atomic`: a locked ``.tmp-<name><writer>``
file renamed into place), and swept the same way: the grading service's ``grades_dir``
(a ``kill -9`` between a grade file's creation and its rename left a ``.<episode>.json.*``
temporary file there that nothing removed; stop 26's code read).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import secrets
import shutil
import socket
import sys
import time
from pathlib import Path
from typing import Any

if sys.platform == "win32":  # pragma: no cover - no flock: writers are judged by name and age
    fcntl: Any = None
else:
    import fcntl

DEBRIS_MAX_AGE_S = 3600.0
"""A ``.tmp-*`` entry older than this is debris whoever wrote it (no write takes an hour)."""

_PROCESS_TOKEN = secrets.token_hex(4)
_HOST_TAG = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
_WRITER = re.compile(
    r"\.tmp-[A-Za-z0-9_-]*~(?P<host>[0-9a-f]{8})~(?P<pid>[0-9]+)~(?P<token>[0-9a-f]{8})~"
    r"(?P<locked>L~)?"
)
_LOCK_MARK = "L~" if fcntl is not None else ""
_SERIAL = itertools.count(1)


def writer_prefix() -> str:
    """The ``~<host>~<pid>~<token>~`` part naming this process in a temporary bundle name,
    and ``L~`` where its writer holds the directory's lock (`writer_dir`)."""
    return f"~{_HOST_TAG}~{os.getpid()}~{_PROCESS_TOKEN}~{_LOCK_MARK}"


def writer_dir(root: str, stem: str) -> tuple[str, int | None]:
    """Create a temporary directory ``root/.tmp-<stem><writer><serial>`` for one write, locked
    (``flock``, exclusive) by this writer until it closes the returned descriptor (after
    renaming the directory into place: the lock goes with the inode).

    A sweep that took the lock between the ``mkdir`` and this writer's lock (it judged the
    directory a dead writer's) removes it; the writer waits for that sweep, finds its
    directory gone, and takes another name.

    Returns:
        The directory's path and the descriptor holding its lock (``None`` where there is no
        ``flock``); the caller closes it.

    Raises:
        OSError: the directory cannot be created or opened.
    """
    while True:
        tmp = os.path.join(root, f".tmp-{stem}{writer_prefix()}{next(_SERIAL):x}")
        os.mkdir(tmp, 0o700)
        if fcntl is None:  # pragma: no cover
            return tmp, None
        fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # waits out a sweep that took it first
        except OSError:  # a file system without flock: unlocked (sweeps judge it by name)
            os.close(fd)
            return tmp, None
        except BaseException:
            os.close(fd)
            raise
        if os.fstat(fd).st_nlink > 0:
            return tmp, fd
        os.close(fd)  # swept before it was locked: another name


def write_file_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: through a temporary file
    ``.tmp-<name><writer><serial>`` beside it, locked (``flock``, exclusive) from its creation
    to the rename, so that a sweep (`sweep_debris`) of the directory never removes it while
    this writer lives and removes it once a ``kill -9`` left it behind.

    Raises:
        OSError: the directory cannot be written (the temporary file is removed).
    """
    root, name = os.path.split(os.fspath(path))
    root = root or "."
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", name)  # the writer's part must follow the stem
    while True:
        tmp = os.path.join(root, f".tmp-{stem}{writer_prefix()}{next(_SERIAL):x}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            if fcntl is not None:
                with contextlib.suppress(BlockingIOError, OSError):  # no flock: unlocked
                    fcntl.flock(fd, fcntl.LOCK_EX)  # waits out a sweep that took it first
            if os.fstat(fd).st_nlink == 0:  # swept before it was locked: another name
                continue
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            return
        finally:
            os.close(fd)


def pid_alive(pid: int) -> bool:
    """Whether a process with id ``pid`` runs on this host (another user's counts as alive;
    an id no process can have, as not). Raises nothing."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except (OSError, OverflowError):
        return False
    return True


def _writer_alive(name: str) -> bool:
    m = _WRITER.match(name)
    if m is None:
        return False  # written before writers were named: its writer is gone
    if m["host"] != _HOST_TAG:
        return True  # another host's (shared store): only its age makes it debris
    pid = int(m["pid"])
    if pid == os.getpid():
        return m["token"] == _PROCESS_TOKEN
    return pid_alive(pid)


def sweep_debris(root: Path, max_age_s: float = DEBRIS_MAX_AGE_S) -> list[str]:
    """Remove the ``.tmp-*`` entries of ``root`` whose writer is gone (see the module doc).

    A directory or file whose writer locked it (`writer_dir`, `write_file_atomic`) is
    debris when its lock is free (on another host's, and older than ``max_age_s`` seconds);
    never this process's own. Other
    entries are debris when their writer is not alive on this host, when they predate
    writer names, or when they are older than ``max_age_s`` seconds. Live writers' entries
    are left alone.

    Returns:
        The names removed (none when ``root`` cannot be listed).
    """
    removed: list[str] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        if not entry.name.startswith(".tmp-"):
            continue
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > max_age_s
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        m = _WRITER.match(entry.name)
        plain = is_dir or entry.is_file(follow_symlinks=False)  # not a link
        if m is not None and m["locked"] and fcntl is not None and plain:
            if _own(m) or (m["host"] != _HOST_TAG and not old):
                continue
            done = remove_unlocked(entry.path, is_dir)
            if done is not None:
                if done:
                    removed.append(entry.name)
                continue  # else no flock on this file system: judged as below
        if not old and _writer_alive(entry.name):
            continue
        if is_dir:
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
        removed.append(entry.name)
    return removed


def _own(m: re.Match[str]) -> bool:
    """Whether the writer named by ``m`` is this process (a lock of its own is no guard
    where the file system gives locks per process)."""
    return m["host"] == _HOST_TAG and int(m["pid"]) == os.getpid() and m["token"] == _PROCESS_TOKEN


def remove_unlocked(path: str, is_dir: bool = True) -> bool | None:
    """Remove the directory (or file: ``is_dir`` false) ``path`` when no writer holds its
    ``flock`` (`writer_dir`, `write_file_atomic`, or any writer that locks its own file),
    holding the lock while removing it.

    Returns:
        Whether it was removed (``False`` too when ``path`` is gone, a link, or was renamed
        meanwhile); ``None`` where the file system gives no ``flock``, so the lock says
        nothing. Raises nothing.
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | (os.O_DIRECTORY if is_dir else 0)
    try:
        fd = os.open(path, flags)
    except OSError:  # renamed into place meanwhile, or gone
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # a live writer holds it
            return False
        except OSError:
            return None
        try:
            same = os.path.samestat(os.fstat(fd), os.lstat(path))
        except OSError:
            return False
        if same and is_dir:
            shutil.rmtree(path, ignore_errors=True)
        elif same:
            with contextlib.suppress(OSError):
                os.unlink(path)
        return same
    finally:
        os.close(fd)
