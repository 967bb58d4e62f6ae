"""One campaign per run at a time, across processes sharing a run store file.

Two `mcpgym eval` commands started at once with the same arguments would both resume the
same unfinished run and both run its missing episodes: each slot ends holding whichever copy
finished last, the other copy's bundle is orphaned and ``attempts`` under-counts. A campaign
therefore *claims* the run it runs: an exclusive ``flock`` on ``.<store>.locks/<run_id>``,
taken while a store-wide lock (``.<store>.locks/choose``) is held around finding or creating
the run, and released when the campaign ends. The operating system drops both locks when a
process dies (``kill -9`` included), so a crashed campaign never leaves its run claimed.

Claims are counted per process: a process that already holds a run may claim it again (a
test or a Python caller running campaigns in turn); only another process is refused. The
lock files stay (empty, one per run ever claimed): unlinking a lock file races with a
process that has it open. Without ``fcntl`` (Windows) or for an in-memory store nothing is
locked.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcpgym_clients.errors import ConfigurationError

if sys.platform == "win32":  # pragma: no cover
    fcntl: Any = None
else:
    import fcntl

__all__ = ["RunBusyError", "claim_run", "choosing_run", "release_run"]

_held: dict[tuple[str, str], list[int]] = {}  # (locks dir, run id) -> [fd, count]
_mutex = threading.Lock()


class RunBusyError(ConfigurationError):
    """Another process runs this run now (its campaign holds the run's claim)."""


def _locks_dir(store_path: Path | None) -> Path | None:
    if store_path is None or fcntl is None:
        return None
    folder = _folder(store_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _folder(store_path: Path) -> Path:
    """``<dir>/.<store file name>.locks``: beside the store, not matched by ``runs.db*``."""
    resolved = store_path.resolve()
    return resolved.parent / f".{resolved.name}.locks"


@contextlib.contextmanager
def choosing_run(store_path: Path | None) -> Iterator[None]:
    """Hold the store-wide lock while a campaign finds or creates its run and claims it.

    Blocks until no other process is choosing (held for milliseconds). ``store_path``:
    the run store's file (``RunStore.path``); ``None`` (in memory) locks nothing.
    """
    folder = _locks_dir(store_path)
    if folder is None:
        yield
        return
    fd = os.open(folder / "choose", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the lock


def claim_run(store_path: Path | None, run_id: str) -> None:
    """Claim ``run_id`` of the store at ``store_path`` for this process.

    Raises:
        RunBusyError: another process holds the claim (its pid named when known); the
            message says to wait for it or to start a separate run with ``--new-run``.
    """
    folder = _locks_dir(store_path)
    if folder is None:
        return
    key = (str(folder), run_id)
    with _mutex:
        if key in _held:
            _held[key][1] += 1
            return
        fd = os.open(folder / run_id, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise RunBusyError(
                f"run {run_id} in {store_path} is being run now by {who} (the same command "
                "started twice?); wait for it to end and run the command again to resume "
                "what is left, or pass --new-run to start a separate run"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        _held[key] = [fd, 1]


def release_run(store_path: Path | None, run_id: str) -> None:
    """Give back one `claim_run` of ``run_id`` by this process (the last one drops the lock)."""
    folder = None if store_path is None or fcntl is None else _folder(store_path)
    if folder is None:
        return
    key = (str(folder), run_id)
    with _mutex:
        entry = _held.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] == 0:
            del _held[key]
            os.close(entry[0])
