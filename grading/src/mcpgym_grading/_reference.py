"""Reference end states: the variant's reference solution replayed, cached as page deltas.

The reference end state is deterministic for a lock, so it is built once per variant
(`mcpgym_server.replay`) and kept as its page delta against the snapshot; a few are also
kept *open* between grades (`ReferenceCache.checkout`), mapped in place on the snapshot
where `mcpgym_grading._cow` can.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from mcpgym_grading._cow import open_cow
from mcpgym_grading._statepages import BaseIndex, StateConnection, adopt_state, open_state
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_server import Environment, MCPGymError, TaskVariant
from mcpgym_server.bundles import PageDelta
from mcpgym_server.runtime import replay

_CACHE_BYTES = 64 * 1024
"""SQLite page cache of an open reference database (the database is in memory already)."""

_ENV_CALLS = threading.RLock()
"""Serialises calls into an environment (variant generation shares one snapshot connection)."""


class ReferenceCache:
    """An LRU of reference end states, keyed by ``(lock, variant id)``.

    The reference end state is the variant's reference solution replayed on a fresh
    sandbox (`mcpgym_server.replay`). It is deterministic for a lock, so it is built
    once per variant and kept as its page delta against the snapshot (~80 KB for helpdesk
    instead of the 1 MB file). Thread-safe.

    Besides the deltas it keeps a few reference end states *open* (read-only connections,
    schema parsed), lent to one grade at a time (`checkout` / `checkin`), so that grading
    the next episode of a variant neither rebuilds nor re-parses its reference database.

    Args:
        maxsize: how many reference states to keep (as page deltas).
        max_open_bytes: most bytes of open reference databases kept between grades (what
            each holds: its changed pages when mapped on the snapshot, else its whole
            database, plus its page cache); ``0`` keeps none open.
        max_open: most open reference databases kept between grades (256: a campaign of
            7 families x 4 bands x 5 seeds, 140 variants, finds each open again; at 64 it
            met none, the least recently used one closed first).
    """

    def __init__(
        self, maxsize: int = 256, max_open_bytes: int = 64 * 1024 * 1024, max_open: int = 256
    ) -> None:
        self.maxsize = maxsize
        self.max_open_bytes = max_open_bytes
        self.max_open = max_open
        self._idle_count = 0
        self._items: OrderedDict[tuple[str, str], PageDelta | str] = OrderedDict()
        self._idle: OrderedDict[tuple[str, str, str], list[StateConnection]] = OrderedDict()
        self._idle_bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Forget every cached reference state (and close the open ones not lent out)."""
        with self._lock:
            self._items.clear()
            idle = [db for dbs in self._idle.values() for db in dbs]
            self._idle.clear()
            self._idle_bytes = 0
            self._idle_count = 0
        for db in idle:
            db.close()

    def checkout(
        self, env: Environment, variant: TaskVariant, lock: str, index: BaseIndex | None
    ) -> StateConnection:
        """An open, read-only reference end state of ``variant`` (a `StateConnection` that
        knows its unchanged tables when ``index`` is given), for this caller alone until
        it is given back with `checkin` (or closed).

        Raises:
            CheckEvaluationError: as `get_delta`.
        """
        snapshot = env.snapshot
        key = (lock, variant.id, snapshot.sha256 if index is not None else "")
        with self._lock:
            dbs = self._idle.get(key)
            if dbs:
                db = dbs.pop()
                self._idle_bytes -= db.nbytes
                self._idle_count -= 1
                if not dbs:
                    del self._idle[key]
                return db
        delta = self.get_delta(env, variant, lock)
        db = open_cow(snapshot, delta)
        if db is not None:  # shares the snapshot's pages: holds what the delta wrote
            adopt_state(db, db.data, delta, snapshot, index)
            db.nbytes = delta.nbytes + _CACHE_BYTES
        else:
            data = delta.apply(snapshot.data)
            db = open_state(data, delta, snapshot, index)
            db.nbytes = len(data) + _CACHE_BYTES
        db.execute(f"PRAGMA cache_size = -{_CACHE_BYTES // 1024}")
        db.pool_key = key
        return db

    def checkin(self, db: StateConnection) -> None:
        """Give back a connection from `checkout`: kept open for the next grade of its
        variant while ``max_open_bytes`` allows (least recently used ones are closed)."""
        key = getattr(db, "pool_key", None)
        size = getattr(db, "nbytes", 0)
        if key is None or size > self.max_open_bytes or self.max_open < 1:
            db.close()
            return
        closing: list[StateConnection] = []
        with self._lock:
            self._idle.setdefault(key, []).append(db)
            self._idle.move_to_end(key)
            self._idle_bytes += size
            self._idle_count += 1
            while (
                self._idle_bytes > self.max_open_bytes or self._idle_count > self.max_open
            ) and self._idle:
                old_key, old = next(iter(self._idle.items()))
                victim = old.pop(0)
                self._idle_bytes -= getattr(victim, "nbytes", 0)
                self._idle_count -= 1
                if not old:
                    del self._idle[old_key]
                closing.append(victim)
        for victim in closing:
            victim.close()

    def get(self, env: Environment, variant: TaskVariant, lock: str) -> bytes:
        """The reference end database (SQLite file bytes) of ``variant``.

        Raises:
            CheckEvaluationError: as `get_delta`.
        """
        return self.get_delta(env, variant, lock).apply(env.snapshot.data)

    def get_delta(self, env: Environment, variant: TaskVariant, lock: str) -> PageDelta:
        """The reference end state of ``variant`` as a page delta against the snapshot.

        Raises:
            CheckEvaluationError: the reference solution does not run cleanly (a call
                failed or the runtime refused it); such a reference cannot grade anything.
        """
        key = (lock, variant.id)
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
        if item is None:
            item = _build_reference(env, variant)
            with self._lock:
                self._items[key] = item
                self._items.move_to_end(key)
                while len(self._items) > self.maxsize:
                    self._items.popitem(last=False)
        if isinstance(item, str):
            raise CheckEvaluationError(item)
        return item


def _build_reference(env: Environment, variant: TaskVariant) -> PageDelta | str:
    """Replay the reference solution; its page delta, or an error message."""
    try:
        with _ENV_CALLS:
            bundle = replay(
                env,
                variant.family,
                variant.band,
                variant.seed,
                variant.reference,
                answer=variant.answer,
            )
    except MCPGymError as exc:
        return f"the reference solution of {variant.id} cannot be replayed: {exc}"
    for entry in bundle.log:
        if entry.status != "ok":
            why = entry.internal_detail or entry.error or entry.status
            return (
                f"the reference solution of {variant.id} fails at step {entry.step} "
                f"(tool `{entry.tool}`, {entry.status}): {why}"
            )
    if len(bundle.log) < len(variant.reference):
        return (
            f"the reference solution of {variant.id} ended the episode after "
            f"{len(bundle.log)} of {len(variant.reference)} calls"
        )
    return bundle.final_state(env.snapshot)[1]


DEFAULT_REFERENCE_CACHE = ReferenceCache()
"""The reference cache `grade_bundle` uses unless given another."""
