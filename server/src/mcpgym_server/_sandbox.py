"""The per-episode sandbox: a private in-memory SQLite database, a virtual clock, a seeded RNG."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

COUNTERS_TABLE = "mcpgym_counters"


class VirtualClock:
    """Deterministic time for one episode.

    Starts at the environment's ``clock_start`` and advances by ``step`` once per
    tool call (the runtime calls `tick` before running the tool). Tool code must
    use it instead of wall time so that replaying a trajectory gives the same rows.

    Args:
        start: the starting instant (timezone-aware, UTC by convention).
        step: how far one tool call moves the clock.
    """

    def __init__(self, start: datetime, step: timedelta) -> None:
        self._now = start
        self._step = step
        self._iso: str | None = None  # `iso` of `_now`, made once per instant

    def now(self) -> datetime:
        """The current virtual instant."""
        return self._now

    def iso(self) -> str:
        """The current virtual instant as ISO 8601 with a ``Z`` suffix, seconds precision."""
        if self._iso is None:
            self._iso = self._now.strftime("%Y-%m-%dT%H:%M:%SZ")
        return self._iso

    def tick(self) -> None:
        """Advance by one step (called by the runtime once per tool call)."""
        self._now += self._step
        self._iso = None


class Sandbox:
    """What a tool receives: the episode's private state.

    Attributes:
        db: the episode's own in-memory SQLite connection (rows as `sqlite3.Row`).
            Nothing else reads or writes it until the episode is sealed.
        clock: the virtual clock; use ``clock.iso()`` for timestamps.
        rng: a `random.Random` seeded from the episode seed; the only randomness
            tool code may use.
        seed: the episode seed (int).
        episode_id: the episode id (opaque string), for tools that need to echo it.
    """

    def __init__(
        self,
        db: sqlite3.Connection,
        clock: VirtualClock,
        seed: int,
        episode_id: str,
    ) -> None:
        self.db = db
        self.clock = clock
        self.seed = seed
        self.rng = random.Random(seed)
        self.episode_id = episode_id
        self.on_query: Callable[[str], None] | None = None
        """Told each statement `query` runs (the runtime's `SandboxPool.learn`, during
        an episode's first tool call); not for tool code."""

    def next_id(self, counter: str, start: int = 1) -> int:
        """Allocate the next integer id of a named counter stored inside the sandbox.

        The counter lives in the table ``mcpgym_counters`` of the sandbox database,
        so allocation is deterministic and is part of the sealed final state.
        The first call for a counter returns ``max(start, highest value seen + 1)``.

        Args:
            counter: counter name, e.g. ``"refund"``.
            start: the first value to hand out if the counter has never been used.

        Returns:
            The allocated id (int).
        """
        self.db.execute(
            f"CREATE TABLE IF NOT EXISTS {COUNTERS_TABLE} "
            "(name TEXT PRIMARY KEY, value INTEGER NOT NULL)"
        )
        row = self.db.execute(
            f"SELECT value FROM {COUNTERS_TABLE} WHERE name = ?", (counter,)
        ).fetchone()
        value = start if row is None else max(start, int(row[0]) + 1)
        self.db.execute(
            f"INSERT INTO {COUNTERS_TABLE}(name, value) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
            (counter, value),
        )
        return value

    def query(self, sql: str, params: Any = ()) -> list[dict[str, Any]]:
        """Run a read query and return rows as plain dicts (column name -> value)."""
        if self.on_query is not None:
            self.on_query(sql)
        cur = self.db.execute(sql, params)
        cols = [c[0] for c in cur.description or ()]
        return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]

    def query_one(self, sql: str, params: Any = ()) -> dict[str, Any] | None:
        """Like `query` but return the first row or ``None``."""
        rows = self.query(sql, params)
        return rows[0] if rows else None
