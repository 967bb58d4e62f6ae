"""Sandboxes opened ahead of their episodes, off the event loop.

An episode's sandbox is a fresh in-memory copy of the snapshot (isolation), and a fresh
SQLite connection prepares every statement anew: an episode's first ``get_order`` prepares a
dozen statements (~30 us each), which is most of why its first tool call costs about twice
its second (docs/benchmarks.md). A `SandboxPool` keeps a few connections ready, each made
the way `EpisodeManager.open` makes one (the snapshot's bytes deserialised, the page cache
sized) and then made to load the schema and prepare the read statements that episodes' first
tool calls ran before (`learn`), by a worker thread between episodes.

Preparing a statement reads and writes nothing: each is handed to the connection's statement
cache with deliberately wrong bindings, so it is compiled and cached but never run
(``ProgrammingError``), and the database's bytes are the snapshot's. Each connection goes to
exactly one episode and is never given back: a pooled sandbox is as private as a fresh one.
`take` never waits: with none ready the caller opens one as before. What the pool costs: its
``size`` connections' memory (one snapshot copy each) and the worker's CPU, spent between
requests instead of in them.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable

logger = logging.getLogger(__name__)

MAX_TEMPLATES = 32
"""Most read statements learnt (the first ones seen)."""

_NO_BINDINGS = (None,) * 1001
"""More bindings than any learnt statement takes: the statement is compiled, never run."""


class SandboxPool:
    """Connections made ahead by a worker thread (see the module docstring).

    Args:
        make: makes one sandbox connection as `EpisodeManager.open` would (any thread).
        size: connections kept ready (0: none; `take` always answers ``None``).
    """

    def __init__(self, make: Callable[[], sqlite3.Connection], size: int) -> None:
        self._make = make
        self.size = size
        self._ready: deque[sqlite3.Connection] = deque()
        self._templates: dict[str, None] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def take(self) -> sqlite3.Connection | None:
        """A ready connection, now the caller's own; ``None`` when none is ready (then
        the caller makes one). Starts the worker on first use."""
        if self.size <= 0:
            return None
        with self._cond:
            if self._closed:
                return None
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._fill, name="mcpgym-sandbox-pool", daemon=True
                )
                self._thread.start()
            db = self._ready.popleft() if self._ready else None
            self._cond.notify()
        return db

    def learn(self, sql: str) -> None:
        """Remember a read statement an episode's first tool call ran (`MAX_TEMPLATES`)."""
        if sql in self._templates or len(self._templates) >= MAX_TEMPLATES:
            return
        with self._cond:
            if len(self._templates) < MAX_TEMPLATES:
                self._templates[sql] = None

    @property
    def templates(self) -> list[str]:
        """The statements learnt so far, in the order first seen."""
        with self._cond:
            return list(self._templates)

    def _fill(self) -> None:
        while True:
            with self._cond:
                while not self._closed and len(self._ready) >= self.size:
                    self._cond.wait()
                if self._closed:
                    return
                templates = list(self._templates)
            try:
                db = self._prepared(templates)
            except Exception:  # never fatal: episodes then open their own
                logger.exception("the sandbox pool could not make a connection; stopped")
                with self._cond:
                    self._closed = True
                return
            with self._cond:
                if self._closed:
                    db.close()
                    return
                self._ready.append(db)
                self._cond.notify_all()

    def _prepared(self, templates: list[str]) -> sqlite3.Connection:
        db = self._make()
        db.execute("SELECT 1 FROM sqlite_master LIMIT 0").fetchall()  # loads the schema
        for sql in templates:
            try:
                db.execute(sql, _NO_BINDINGS)
            except sqlite3.ProgrammingError:
                pass  # the expected refusal of the bindings: compiled, cached, not run
            except sqlite3.Error:
                pass  # not preparable on a fresh sandbox (a table the episode makes)
        return db

    def close(self) -> None:
        """Stop the worker and close the connections still ready (idempotent)."""
        with self._cond:
            self._closed = True
            ready = list(self._ready)
            self._ready.clear()
            self._cond.notify_all()
            thread = self._thread
        for db in ready:
            db.close()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
