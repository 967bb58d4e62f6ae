"""The profiler `sitecustomize` installs (see there)."""

from __future__ import annotations

import cProfile
import marshal
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

_PROFILERS: list[cProfile.Profile] = []
_LOCK = threading.Lock()


def _new() -> cProfile.Profile:
    p = cProfile.Profile(time.thread_time)
    with _LOCK:
        _PROFILERS.append(p)
    return p


def _thread_start(frame: Any, event: str, arg: Any) -> None:
    """`threading.setprofile` hook: the first event of a new thread starts its profiler."""
    sys.setprofile(None)
    _new().enable()


def _clear(signum: int, frame: Any) -> None:
    with _LOCK:
        for p in _PROFILERS:
            p.clear()


def _dump(out: Path) -> None:
    stats: dict[Any, Any] = {}
    with _LOCK:
        for p in _PROFILERS:
            p.snapshot_stats()  # type: ignore[attr-defined]
            for func, (cc, nc, tt, ct, callers) in p.stats.items():  # type: ignore[attr-defined]
                if func in stats:
                    c0, n0, t0, k0, callers0 = stats[func]
                    merged = dict(callers0)
                    for caller, v in callers.items():
                        w = merged.get(caller)
                        if w is not None:
                            v = tuple(a + b for a, b in zip(w, v, strict=True))
                        merged[caller] = v
                    stats[func] = (c0 + cc, n0 + nc, t0 + tt, k0 + ct, merged)
                else:
                    stats[func] = (cc, nc, tt, ct, dict(callers))
    tmp = out.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        marshal.dump(stats, fh)
    tmp.replace(out)


def install(directory: str) -> None:
    """Profile this process's threads; clear on SIGUSR1, write on SIGUSR2."""
    out = Path(directory) / f"{os.getpid()}.prof"
    threading.setprofile(_thread_start)
    signal.signal(signal.SIGUSR1, _clear)
    signal.signal(signal.SIGUSR2, lambda s, f: _dump(out))
    _new().enable()
