"""The sealing pipeline of `EpisodeManager`: detach on the event loop, write in worker threads.

Sealing an episode has two parts. On the loop that owns the manager, the episode leaves the
open set and its database is copied (`Connection.serialize`, ~0.05 ms for helpdesk). The
rest (page delta against the snapshot, digests, compression, signing, writing the bundle)
runs in a worker thread, at most ``seal_workers`` at a time, so `/healthz` and the other
episodes' tool calls keep their latency while many episodes are sealed (issue 9 §6). While
an episode is being sealed, tool calls are refused, `seal` / `seal_async` for it share the
one sealing, and a failed write puts it back in the open set.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel
import anyio.to_thread

from mcpgym_server._bundle import (
    EpisodeBundle,
    EpisodeMeta,
    EpisodeStore,
    TerminationReason,
    delta_meta,
    serialize_db,
)
from mcpgym_server._delta import PageDelta
from mcpgym_server._environment import Environment
from mcpgym_server._logcap import cap_json, utf8
from mcpgym_server._snapshot import counted_commits

if TYPE_CHECKING:
    from mcpgym_server._episode import Episode

logger = logging.getLogger("mcpgym.episode")


@dataclass
class _Sealing:
    """An episode detached from the open set whose bundle is being written."""

    ep: Episode
    reason: TerminationReason
    answer: str | None
    final: bytes
    sealed_at: str
    clock_end: str
    finished: threading.Event = field(default_factory=threading.Event)
    settled: anyio.Event | None = None
    meta: EpisodeMeta | None = None
    error: BaseException | None = None


class SealingMixin:
    """`EpisodeManager`'s asynchronous sealing (see the module docstring)."""

    env: Environment
    store: EpisodeStore
    lock: str
    unlocked: bool
    idle_ttl: float
    seal_workers: int
    log_value_cap: int
    _open: dict[str, Episode]
    _sealed: OrderedDict[str, TerminationReason]
    _sealing: dict[str, _Sealing]
    _remember_sealed: int
    _seal_slots: anyio.Semaphore | None
    keep_final_db: bool
    hash_final: bool
    private_copy: bool
    _kept: dict[str, sqlite3.Connection]

    def seal(
        self, episode_id: str, reason: TerminationReason, *, answer: str | None = None
    ) -> EpisodeMeta:
        raise NotImplementedError  # EpisodeManager.seal

    async def seal_async(
        self, episode_id: str, reason: TerminationReason, *, answer: str | None = None
    ) -> EpisodeMeta:
        """`seal`, with the work done in a worker thread (at most ``seal_workers`` at once).

        Call it on the event loop that owns the manager. The episode is detached when a
        worker slot is free (tool calls are refused from then on); the call returns once
        the bundle is in the store. Concurrent calls for one episode share the sealing.

        Raises:
            UnknownEpisodeError: no such episode. Whatever writing the bundle raised (the
                episode then stays open).
        """
        pending = self._sealing.get(episode_id)
        if pending is None and episode_id in self._open:
            if self._seal_slots is None:
                self._seal_slots = anyio.Semaphore(self.seal_workers)
            async with self._seal_slots:
                pending = self._sealing.get(episode_id)
                if pending is None and episode_id in self._open:
                    pending = self._detach(episode_id, reason, answer)
                    try:
                        await anyio.to_thread.run_sync(self._finish, pending)
                    finally:
                        self._settle(pending)
        if pending is None:
            return self.seal(episode_id, reason, answer=answer)
        if pending.settled is not None:
            await pending.settled.wait()
        if pending.meta is None:
            assert pending.error is not None
            raise pending.error
        return pending.meta

    async def wait_sealed(self, episode_id: str) -> None:
        """Return once ``episode_id`` is not being sealed (its bundle, if any, is stored)."""
        pending = self._sealing.get(episode_id)
        if pending is not None and pending.settled is not None:
            await pending.settled.wait()

    def _detach(self, episode_id: str, reason: TerminationReason, answer: str | None) -> _Sealing:
        """Take an open episode out of the open set and copy its database (loop thread)."""
        ep = self._open.pop(episode_id)
        final = serialize_db(ep.sandbox.db)
        job = _Sealing(
            ep=ep,
            reason=reason,
            answer=answer,
            final=counted_commits(final, ep.commits) if self.private_copy else final,
            sealed_at=wall_iso(),
            clock_end=ep.sandbox.clock.iso(),
            settled=anyio.Event() if _in_event_loop() else None,
        )
        self._sealing[episode_id] = job
        return job

    def _finish(self, job: _Sealing) -> None:
        """Build and write the bundle of a detached episode (any thread; never raises)."""
        try:
            ep = job.ep
            snapshot = self.env.snapshot
            delta = PageDelta.between(snapshot.data, job.final)
            answer, answer_capped = job.answer, None
            if answer is not None:
                text = utf8(answer)
                if len(text) > self.log_value_cap:  # the log's value cap holds for the answer
                    answer, answer_capped = cap_json(text, self.log_value_cap)
            meta = EpisodeMeta(
                episode_id=ep.id,
                env=self.env.name,
                env_version=self.env.version,
                task=ep.variant.family,
                band=ep.variant.band,
                seed=ep.variant.seed,
                variant_id=ep.variant.id,
                lock=self.lock,
                unlocked=self.unlocked,
                opened_at=ep.opened_at,
                sealed_at=job.sealed_at,
                termination=job.reason,
                answer=answer,
                answer_capped=answer_capped,
                steps=len(ep.log),
                internal_errors=ep.internal_errors,
                rate_limited=ep.rate_limited and ep.rate_limited.model_copy(),
                clock_end=job.clock_end,
                **delta_meta(job.final, delta, snapshot, digests=self.hash_final),
            )
            self.store.write(EpisodeBundle(meta, tuple(ep.log), job.final, delta=delta))
            job.meta = meta
        except BaseException as exc:  # handed to the caller by seal / seal_async
            job.error = exc
        finally:
            job.finished.set()

    def _settle(self, job: _Sealing) -> None:
        """Record a finished sealing (loop thread): sealed and closed, or back to open."""
        eid = job.ep.id
        self._sealing.pop(eid, None)
        if job.meta is not None:
            db = job.ep.sandbox.db
            if self.keep_final_db:
                db.execute("PRAGMA query_only = ON")
                self._kept[eid] = db
            else:
                db.close()
            self._sealed[eid] = job.reason
            while len(self._sealed) > self._remember_sealed:
                self._sealed.popitem(last=False)
        else:
            self._open[eid] = job.ep
        if job.settled is not None:
            job.settled.set()

    def _idle(self, now: float) -> list[str]:
        return [e.id for e in self._open.values() if now - e.last_activity > self.idle_ttl]

    async def reap_idle_async(self, now: float | None = None) -> list[str]:
        """`reap_idle` without holding the event loop: each idle episode is sealed by
        `seal_async` (``seal_workers`` at a time, in worker threads), and the sweep yields
        to the loop between episodes. An episode that made a call meanwhile is left open.

        Returns:
            The ids sealed (those whose sealing failed are logged and left open).
        """
        now = time.monotonic() if now is None else now
        stale = self._idle(now)
        sealed: list[str] = []

        async def one(eid: str) -> None:
            ep = self._open.get(eid)
            if ep is None or now - ep.last_activity <= self.idle_ttl:
                return
            try:
                await self.seal_async(eid, "timeout")
            except Exception:
                logger.exception("sealing idle episode %s failed; it stays open", eid)
                return
            sealed.append(eid)

        async with anyio.create_task_group() as tg:
            for eid in stale:
                tg.start_soon(one, eid)
                await anyio.lowlevel.checkpoint()
        return sealed


def _in_event_loop() -> bool:
    try:
        anyio.get_current_task()
    except RuntimeError:
        return False
    return True


def wall_iso() -> str:
    """Wall-clock now as ISO 8601 UTC with microseconds and a ``Z`` suffix."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
