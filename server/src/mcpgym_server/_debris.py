"""Debris of sealings that never finished: temporary bundle directories of dead writers.

`EpisodeStore.write` builds a bundle in ``.tmp-<episode><writer>...`` and renames it into
place; a writer killed in between (``kill -9``) leaves that directory behind. The
``<writer>`` part, ``~<host>~<pid>~<token>~``, lets a sweep tell a live writer from a
dead one: the same host, a process with that pid alive, and (for this process's own pid)
this process's random token, so a restarted container whose server is pid 1 again still
sweeps what its previous life left.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
import socket
import time
from pathlib import Path

DEBRIS_MAX_AGE_S = 3600.0
"""A ``.tmp-*`` entry older than this is debris whoever wrote it (no write takes an hour)."""

_PROCESS_TOKEN = secrets.token_hex(4)
_HOST_TAG = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
_WRITER = re.compile(
    r"\.tmp-[A-Za-z0-9_-]*~(?P<host>[0-9a-f]{8})~(?P<pid>[0-9]+)~(?P<token>[0-9a-f]{8})~"
)


def writer_prefix() -> str:
    """The ``~<host>~<pid>~<token>~`` part naming this process in a temporary bundle name."""
    return f"~{_HOST_TAG}~{os.getpid()}~{_PROCESS_TOKEN}~"


def _pid_alive(pid: int) -> bool:
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
    return _pid_alive(pid)


def sweep_debris(root: Path, max_age_s: float = DEBRIS_MAX_AGE_S) -> list[str]:
    """Remove the ``.tmp-*`` entries of ``root`` whose writer is gone (see the module doc).

    An entry is debris when its writer is not alive on this host, when it predates
    writer names, or when it is older than ``max_age_s`` seconds (writers on other hosts
    of a shared store). Live writers' entries are left alone.

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
        except OSError:
            continue
        if not old and _writer_alive(entry.name):
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
        removed.append(entry.name)
    return removed
