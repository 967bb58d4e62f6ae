"""Episodes in process: open a sandbox for a task variant, call tools, seal a bundle.

This is the runtime every transport sits on. Trainers and tests that do not want
HTTP use it directly::

    manager = EpisodeManager(env, EpisodeStore("episodes/"))
    ep = manager.open("refund-damaged-item", band="easy", seed=7)
    entry = manager.call(ep.id, "get_order", {"order_id": 100234})
    meta = manager.seal(ep.id, "ended")
    bundle = manager.store.read(ep.id)

All methods are synchronous and must be called from one thread (the event loop
of the server): tool code runs inline against an in-memory database, which takes
microseconds, so there is no thread hop on the hot path. The exceptions are
`EpisodeManager.seal_async` and `EpisodeManager.reap_idle_async`, which a server awaits
on that loop: they detach the episode on the loop (a copy of its database, ~0.05 ms) and
do the rest of sealing (page delta, digests, compression, signing, writing) in a worker
thread, at most ``seal_workers`` at a time, so the loop keeps serving other episodes.

Memory: an open episode holds its private database (the snapshot's size plus what it
writes) and a page cache capped at `SANDBOX_CACHE_KIB`, so reads never grow it;
`default_max_open` sizes ``max_open`` from the memory the process is given.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from mcpgym_server._bundle import (
    EpisodeBundle,
    EpisodeMeta,
    EpisodeStore,
    LogEntry,
    MemoryEpisodeStore,
    TerminationReason,
    to_jsonable,
)
from mcpgym_server._bundle_meta import RateLimited
from mcpgym_server._capacity import default_max_open
from mcpgym_server._environment import SUBMIT_TOOL, Environment
from mcpgym_server._errors import (
    CapacityError,
    EpisodeSealedError,
    InvalidArgumentsError,
    ToolError,
    UnknownEpisodeError,
)
from mcpgym_server._lock import compute_lock
from mcpgym_server._logcap import (
    LOG_BUDGET,
    LOG_VALUE_CAP,
    check_limits,
    log_form,
)
from mcpgym_server._plain_json import (
    MAX_ARGUMENT_DEPTH,
    MAX_ARGUMENT_ITEMS,
    _items_over,
    _plain_json_bytes,
    ascii_head,
    is_plain_json,
)
from mcpgym_server._sandbox import Sandbox, VirtualClock
from mcpgym_server._sandbox_pool import SandboxPool
from mcpgym_server._sealing import SealingMixin, _Sealing, wall_iso
from mcpgym_server._tasks import TaskVariant, ToolCall

logger = logging.getLogger("mcpgym.episode")

INTERNAL_ERROR_MESSAGE = (
    "internal error in tool `{tool}`: the environment failed, not your call. "
    "The step was recorded; you may retry or continue."
)


SANDBOX_POOL = 2
"""Sandboxes the HTTP server keeps ready (`EpisodeManager` ``sandbox_pool``)."""

SANDBOX_CACHE_KIB = 64
"""SQLite page cache per sandbox connection, in KiB (``PRAGMA cache_size``). The database
itself is in memory, so a bigger cache only duplicates pages: SQLite's default (2 MB)
let an episode that reads every table grow from ~1.3 MB to ~2.1 MB."""


def new_episode_id() -> str:
    """An unguessable episode id: ``ep_`` + 32 hex characters (128 random bits)."""
    return "ep_" + secrets.token_hex(16)


@dataclass
class Episode:
    """One open episode: a variant, its sandbox and its tool-call log.

    Attributes:
        id: the episode id. variant: the task variant. sandbox: the private state.
        log: the tool-call log so far (framework-owned; tools never see it).
        opened_at: wall-clock ISO time. last_activity: `time.monotonic` of the last call.
        log_bytes: bytes the log holds, as counted against its budget (`mcpgym_server._logcap`).
        rate_limited: requests refused for the episode's request rate (`note_refused_request`).
    """

    id: str
    variant: TaskVariant
    sandbox: Sandbox
    opened_at: str
    last_activity: float
    log: list[LogEntry] = field(default_factory=list)
    internal_errors: int = 0
    log_bytes: int = 0
    rate_limited: RateLimited | None = None
    commits: int = 0
    """Write transactions run on the sandbox (`mcpgym_server._snapshot.counted_commits`)."""


class EpisodeManager(SealingMixin):
    """Opens, runs and seals episodes of one environment.

    Args:
        env: the environment.
        store: where sealed bundles go.
        idle_ttl: seconds without a tool call (or `keep_alive`) after which `reap_idle`
            seals an episode with termination ``timeout``.
        unlocked: mark every bundle as served unlocked (development mode).
        remember_sealed: how many sealed ids to remember for clear
            "episode has ended" errors (the store is consulted beyond that).
        max_open: most episodes open at once (each holds its database in memory,
            about 1.3 MB for helpdesk); `open` raises `CapacityError` beyond it. ``None``
            (default): `default_max_open` of the snapshot and the memory available.
        max_steps: most tool calls per episode; the call after the last one seals the
            episode with termination ``max_steps`` (bounds the log and the bundle).
        seal_workers: most bundles `seal_async` writes at once (worker threads).
        log_value_cap: bytes of compact JSON kept in the log of each call's arguments and
            of its result (and of the answer); larger ones keep their head, length and
            sha256 (default `LOG_VALUE_CAP`, 64 KiB; see `mcpgym_server._logcap`).
        log_budget: bytes one episode's log may hold; the call that passes it seals the
            episode with termination ``log_budget`` (default `LOG_BUDGET`, 16 MiB).
        connection_factory: the `sqlite3.Connection` subclass of each sandbox database
            (default: the plain class).
        keep_final_db: sealing leaves the sealed sandbox's connection open (query-only, no
            longer reachable by tool calls) for `take_final_db` instead of closing it: an
            in-process grader then reads the final state without another copy. The caller
            must take (and close) every one; `forget_final_db` drops one not wanted.
        hash_final: compute each bundle's digests of its final state (``final_sha256``,
            the whole file's sha256, ~0.5 ms per MB; ``delta_sha256``;
            ``final_pages_sha256``). ``False`` leaves them empty (``""``): only for a caller
            that grades the kept sandbox in place and drops the bundle unread
            (`DirectEpisodes`); such a bundle does not verify, so it must never be written
            to disk or sent.
        sandbox_pool: sandboxes a worker thread keeps ready, the read statements of
            earlier episodes' first tool calls prepared (`mcpgym_server._sandbox_pool`;
            each still a private copy of the snapshot). 0 (default): none; the server
            keeps `SANDBOX_POOL`. Each costs one snapshot copy of memory.

    Starting a manager sweeps the store's debris (`EpisodeStore.sweep_debris`).

    Raises:
        ValueError: ``log_value_cap`` under 1 KiB, or ``log_budget`` under it.
    """

    private_copy: bool = True
    """Each sandbox is `Snapshot.open_private`'s copy (``False``: `Snapshot.open_copy`'s, as
    before stop 29; benchmarks and the test that both give the same bundles). Either way a
    sealed episode's bytes are the same (`mcpgym_server._snapshot.counted_commits`)."""

    def __init__(
        self,
        env: Environment,
        store: EpisodeStore,
        *,
        idle_ttl: float = 600.0,
        unlocked: bool = False,
        remember_sealed: int = 100_000,
        max_open: int | None = None,
        max_steps: int = 1_000,
        seal_workers: int = 2,
        log_value_cap: int = LOG_VALUE_CAP,
        log_budget: int = LOG_BUDGET,
        connection_factory: type[sqlite3.Connection] | None = None,
        keep_final_db: bool = False,
        hash_final: bool = True,
        sandbox_pool: int = 0,
    ) -> None:
        check_limits(log_value_cap, log_budget)
        self.env = env
        self.store = store
        self.idle_ttl = idle_ttl
        self.unlocked = unlocked
        self.lock = compute_lock(env)
        self._open: dict[str, Episode] = {}
        self._sealed: OrderedDict[str, TerminationReason] = OrderedDict()
        self._sealing: dict[str, _Sealing] = {}
        self._remember_sealed = remember_sealed
        _ = env.snapshot.data  # read and check the snapshot once, up front
        self.max_open = default_max_open(len(env.snapshot.data)) if max_open is None else max_open
        self.max_steps = max_steps
        self.seal_workers = seal_workers
        self._seal_slots = None
        self.log_value_cap = log_value_cap
        self.log_budget = log_budget
        self.connection_factory = connection_factory
        self.keep_final_db = keep_final_db
        self.hash_final = hash_final
        self._kept: dict[str, sqlite3.Connection] = {}
        self._pool = SandboxPool(self._new_sandbox_db, sandbox_pool)
        swept = store.sweep_debris()  # sealings a killed writer never finished
        if swept:
            logger.warning("removed %d unfinished bundle(s) from %s", len(swept), store.root)

    # -- lifecycle -----------------------------------------------------------------

    def open(self, task: str, band: str, seed: int, *, episode_id: str | None = None) -> Episode:
        """Open a fresh episode of ``task@band#seed``.

        The sandbox is a new in-memory copy of the snapshot bytes plus the
        variant's setup statements; nothing is shared with any other episode.

        Raises:
            UnknownTaskError, UnknownBandError: naming the valid choices.
            ValueError: negative seed, or ``episode_id`` already in use.
            CapacityError: ``max_open`` episodes are already open.
        """
        if len(self._open) >= self.max_open:
            raise CapacityError(self.max_open)
        variant = self.env.variant(task, band, seed)
        eid = episode_id or new_episode_id()
        if eid in self._open or eid in self._sealed:
            raise ValueError(f"episode id {eid!r} is already in use")
        db = self._pool.take() or self._new_sandbox_db()
        commits = 0
        for sql, params in variant.setup:
            before = db.total_changes
            db.execute(sql, params)
            commits += db.total_changes != before
        sandbox = Sandbox(
            db=db,
            clock=VirtualClock(self.env.clock_start, self.env.clock_step),
            seed=seed,
            episode_id=eid,
        )
        ep = Episode(
            id=eid,
            variant=variant,
            sandbox=sandbox,
            opened_at=wall_iso(),
            last_activity=time.monotonic(),
            commits=commits,
        )
        self._open[eid] = ep
        return ep

    def _new_sandbox_db(self) -> sqlite3.Connection:
        """A fresh private copy of the snapshot, as each episode's sandbox starts."""
        snapshot = self.env.snapshot
        if self.private_copy:
            db = snapshot.open_private(factory=self.connection_factory)
        else:
            db = snapshot.open_copy(factory=self.connection_factory)
        db.execute(f"PRAGMA cache_size = -{SANDBOX_CACHE_KIB}")
        return db

    def get(self, episode_id: str) -> Episode:
        """The open episode with this id.

        Raises:
            EpisodeSealedError: it has been sealed.
            UnknownEpisodeError: no such episode.
        """
        ep = self._open.get(episode_id)
        if ep is not None:
            return ep
        reason = self._sealed.get(episode_id)
        if reason is None and episode_id in self._sealing:
            reason = self._sealing[episode_id].reason
        if reason is None and self.store.exists(episode_id):
            reason = self.store.read_meta(episode_id).termination
        if reason is not None:
            raise EpisodeSealedError(episode_id, reason)
        raise UnknownEpisodeError(episode_id)

    def keep_alive(self, episode_id: str) -> Episode:
        """Count now as activity of an open episode: the idle expiry (`reap_idle`) starts
        its ``idle_ttl`` again, as after a tool call. The harness sends it while its agent
        waits on a model (``POST /episodes/{id}/keepalive``): a slow model answer is not an
        abandoned episode.

        Raises:
            EpisodeSealedError: it has been sealed (the error names why).
            UnknownEpisodeError: no such episode.
        """
        ep = self.get(episode_id)
        ep.last_activity = time.monotonic()
        return ep

    def is_open(self, episode_id: str) -> bool:
        """Whether ``episode_id`` names an open (not yet sealed) episode."""
        return episode_id in self._open

    def is_served(self, episode_id: str) -> bool:
        """Whether this manager opened ``episode_id`` and still holds it in memory: open,
        being sealed, or among the sealed ids it remembers (no store lookup)."""
        return episode_id in self._open or episode_id in self._sealing or episode_id in self._sealed

    def note_refused_request(self, episode_id: str, per_second: float, burst: int) -> None:
        """Count a request to the episode's MCP URL refused for its rate (limit
        ``per_second``, ``burst``; `mcpgym_server._rate_limit`): its bundle's metadata
        records the count (``rate_limited``). An episode no longer open is left as sealed."""
        ep = self._open.get(episode_id)
        if ep is None:
            return
        if ep.rate_limited is None:
            ep.rate_limited = RateLimited(refused=0, per_second=per_second, burst=burst)
        ep.rate_limited.refused += 1

    @property
    def open_episodes(self) -> list[str]:
        """Ids of the episodes currently open."""
        return list(self._open)

    def call(self, episode_id: str, tool: str, arguments: Any) -> LogEntry:
        """Run one tool call in an episode and append it to the tool-call log.

        The call runs inside a SQLite savepoint: if the tool fails, none of its
        writes remain. The virtual clock advances by one step first.

        Returns:
            The `LogEntry` as the agent sees it (``status`` says how it went; ``error``
            is the message for the agent), with whole arguments and result: the log
            keeps values over ``log_value_cap`` capped. Calling ``submit`` seals the
            episode; so does a call that takes the log past ``log_budget``
            (termination ``log_budget``; the call itself is answered and logged).

        Raises:
            EpisodeSealedError, UnknownEpisodeError: the episode is not open (or has
                just been sealed because it reached ``max_steps``).
        """
        ep = self.get(episode_id)
        if len(ep.log) >= self.max_steps:
            self.seal(ep.id, "max_steps")
            raise EpisodeSealedError(ep.id, "max_steps")
        sb = ep.sandbox
        sb.clock.tick()
        t0 = time.perf_counter()
        entry = LogEntry(
            step=len(ep.log) + 1,
            tool=tool,
            arguments=arguments,
            status="ok",
            clock=sb.clock.iso(),
        )
        spec = self.env.tools.get(tool) if isinstance(tool, str) else None
        if spec is None and not (isinstance(tool, str) and is_plain_json(tool)):
            # a declared tool's name is plain JSON: only unknown names need the check
            tool = entry.tool = ascii(tool)[:200]
            spec = self.env.tools.get(tool)
        too_many = _items_over(arguments, MAX_ARGUMENT_ITEMS)
        arguments_json = _plain_json_bytes(arguments, check_depth=not too_many)
        if arguments_json is None:
            entry.arguments = ascii_head(arguments, 1000)
            entry.status = "invalid_arguments"
            entry.error = (
                f"arguments for tool `{tool}` must be JSON in valid Unicode, "
                f"nested at most {MAX_ARGUMENT_DEPTH} deep"
            )
        elif too_many:
            entry.status = "invalid_arguments"
            entry.error = (
                f"arguments for tool `{tool}` hold more than {MAX_ARGUMENT_ITEMS:,} JSON items "
                "(object members plus list items, counted at every depth): the call was not run"
            )
        elif spec is None:
            entry.status = "unknown_tool"
            entry.error = (
                f"unknown tool `{tool}`; available tools: {', '.join(sorted(self.env.tools))}"
            )
        else:
            try:
                kwargs = spec.validate(arguments)
            except InvalidArgumentsError as exc:
                entry.status = "invalid_arguments"
                entry.error = str(exc)
            else:
                if spec.framework and tool == SUBMIT_TOOL:
                    entry.result = {"status": "ended", "episode_id": ep.id}
                elif not ep.log and self._pool.size:  # the first call teaches the pool
                    sb.on_query = self._pool.learn
                    try:
                        self._run_tool(ep, spec.fn, kwargs, entry)
                    finally:
                        sb.on_query = None
                else:
                    self._run_tool(ep, spec.fn, kwargs, entry)
        entry.duration_ms = (time.perf_counter() - t0) * 1000.0
        logged, size = log_form(entry, arguments_json, self.log_value_cap)
        ep.log.append(logged)
        ep.log_bytes += size
        ep.last_activity = time.monotonic()
        if entry.status == "ok" and tool == SUBMIT_TOOL:
            self.seal(ep.id, "submitted", answer=(arguments or {}).get("answer"))
        elif ep.log_bytes > self.log_budget:
            logger.warning(
                "episode %s: its tool-call log holds %d bytes, past its budget of %d; sealed",
                ep.id,
                ep.log_bytes,
                self.log_budget,
            )
            self.seal(ep.id, "log_budget")
        return entry

    def _run_tool(self, ep: Episode, fn: Any, kwargs: dict[str, Any], entry: LogEntry) -> None:
        db = ep.sandbox.db
        before = db.total_changes
        db.execute("SAVEPOINT mcpgym_step")
        try:
            entry.result = to_jsonable(fn(ep.sandbox, **kwargs))
        except ToolError as exc:
            db.execute("ROLLBACK TO mcpgym_step")
            entry.status = "tool_error"
            entry.error = str(exc)
        except Exception as exc:  # environment bug: keep it apart from agent mistakes
            db.execute("ROLLBACK TO mcpgym_step")
            logger.exception("internal error in tool %s (episode %s)", entry.tool, ep.id)
            ep.internal_errors += 1
            entry.status = "internal_error"
            entry.error = INTERNAL_ERROR_MESSAGE.format(tool=entry.tool)
            entry.internal_detail = f"{type(exc).__name__}: {exc}"
            entry.result = None
        finally:
            db.execute("RELEASE mcpgym_step")
            ep.commits += db.total_changes != before

    def seal(
        self, episode_id: str, reason: TerminationReason, *, answer: str | None = None
    ) -> EpisodeMeta:
        """Seal an episode: write its bundle to the store and close the sandbox.

        Sealing an already-sealed episode returns its stored metadata unchanged (one being
        sealed by `seal_async` is waited for). If writing the bundle fails the episode
        stays open and the error is raised.

        Raises:
            UnknownEpisodeError: no such episode.
        """
        pending = self._sealing.get(episode_id)
        if pending is not None:
            pending.finished.wait()
            if pending.meta is None:
                assert pending.error is not None
                raise pending.error
            return pending.meta
        if episode_id not in self._open:
            if episode_id in self._sealed or self.store.exists(episode_id):
                return self.store.read_meta(episode_id)
            raise UnknownEpisodeError(episode_id)
        job = self._detach(episode_id, reason, answer)
        self._finish(job)
        self._settle(job)
        if job.meta is None:
            assert job.error is not None
            raise job.error
        return job.meta

    def take_final_db(self, episode_id: str) -> sqlite3.Connection | None:
        """The sealed sandbox's connection kept by ``keep_final_db`` (query-only; the caller
        closes it), or ``None`` (not kept, already taken, or not sealed yet). It holds the
        rows and pages the bundle's ``final_sha256`` names (nothing writes to it after
        sealing); with `private_copy` its header's change counter is the snapshot's, where
        the bundle's is written by `mcpgym_server._snapshot.counted_commits`."""
        return self._kept.pop(episode_id, None)

    def forget_final_db(self, episode_id: str) -> None:
        """Close a kept sealed sandbox that will not be taken (no-op when none is kept)."""
        db = self._kept.pop(episode_id, None)
        if db is not None:
            db.close()

    def reap_idle(self, now: float | None = None) -> list[str]:
        """Seal every episode idle for longer than ``idle_ttl`` (reason ``timeout``).

        Args:
            now: a `time.monotonic` value (default: now).

        Returns:
            The ids sealed.
        """
        now = time.monotonic() if now is None else now
        stale = self._idle(now)
        for eid in stale:
            self.seal(eid, "timeout")
        return stale

    def close_all(self, reason: TerminationReason = "shutdown") -> list[str]:
        """Seal every open episode (server shutdown), and wait (up to 10 s each) for the
        bundles being written in worker threads. Returns the ids sealed here.

        Every open episode is tried, even after one fails: a bundle that does not fit
        on the disk costs its own episode, not the ones after it (adversarial round 14,
        S2-6: with three bundles too big for the disk, 4 of 8 that fitted were never
        written). Each failure is logged with its episode id and stays open.

        Raises:
            OSError, BundleError...: the first failure, once every episode was tried.
        """
        self._pool.close()
        sealed: list[str] = []
        first: BaseException | None = None
        for eid in list(self._open):
            try:
                self.seal(eid, reason)
            except Exception as exc:
                logger.error(
                    "episode %s could not be sealed (%s): %s: %s; it is lost unless "
                    "sealing it again succeeds",
                    eid,
                    reason,
                    type(exc).__name__,
                    exc,
                )
                first = first or exc
            else:
                sealed.append(eid)
        for job in list(self._sealing.values()):
            job.finished.wait(timeout=10.0)
        if first is not None:
            raise first
        return sealed


def replay(
    env: Environment,
    task: str,
    band: str,
    seed: int,
    calls: list[ToolCall] | tuple[ToolCall, ...],
    *,
    answer: str | None = None,
) -> EpisodeBundle:
    """Replay a list of tool calls on a fresh episode in memory and return its bundle.

    Used by the grader to build the reference end state and by tests. The episode
    is sealed with ``submitted`` (and ``answer``) unless a call already submitted it.

    Raises:
        UnknownTaskError, UnknownBandError: as `EpisodeManager.open`.
    """
    manager = EpisodeManager(env, MemoryEpisodeStore())
    ep = manager.open(task, band, seed, episode_id="replay")
    for call in calls:
        if not manager.is_open(ep.id):
            break
        manager.call(ep.id, call.name, dict(call.arguments))
    if manager.is_open(ep.id):
        manager.call(ep.id, SUBMIT_TOOL, {} if answer is None else {"answer": answer})
    return manager.store.read(ep.id)
