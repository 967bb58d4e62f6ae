"""Send the log records of in-process servers to a file instead of the terminal."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

SERVER_LOGGERS = ("mcpgym", "mcp", "uvicorn", "uvicorn.error")
"""The loggers of the environment server, the grading service and uvicorn."""


@contextlib.contextmanager
def server_logs(path: Path) -> Iterator[None]:
    """Send the in-process servers' log records (`SERVER_LOGGERS`) to ``path``.

    Creates ``path``'s directory; the loggers stop propagating to the terminal until the
    block ends, then get their handlers and propagation back.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    saved = []
    for name in SERVER_LOGGERS:
        log = logging.getLogger(name)
        saved.append((log, log.propagate))
        log.addHandler(handler)
        log.propagate = False
    try:
        yield
    finally:
        for log, propagate in saved:
            log.removeHandler(handler)
            log.propagate = propagate
        handler.close()
