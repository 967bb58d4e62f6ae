"""The run store: one SQLite database (WAL mode) holding runs and their episodes.

Tables::

    runs      id, created_at, finished_at, env, env_version, lock, agent, model,
              settings (JSON), selection (JSON), argv (JSON), baseline_of,
              lock_components (JSON, when known), conditions (JSON)
    episodes  id, run_id, agent, variant_id, task, band, seed, epoch, episode_id,
              termination, episode_termination, scored, score, passed, grade (JSON),
              transcript (JSON), usage (JSON), answer, error, steps,
              started_at, ended_at, duration_s, timings (JSON), attempts

``baseline_of`` links a baseline run (the `null` agent on the same variants) to
the run it accompanies. ``conditions`` is what the run was served under besides its lock
(the server's seed salt fingerprint and caps, the hard cap per episode:
`mcpgym_clients.resume`); a run is resumed only under the same. JSON columns are
returned decoded by the read methods.
A run holds at most one episode per (task, band, seed, epoch): storing another
replaces it (a resumed run retrying an infrastructure failure). ``attempts`` counts
the episodes run for that slot (retries after ``infra_error`` included); only the
last is kept. A store opened for writing notes which file its path names; each write first
checks that the path still names that file, and refuses (`RunStoreMovedError`) once it was
removed or another file was moved over it: the rows would otherwise go to a file that is
gone when the process ends, under a summary naming the path (adversarial round 15, S1-9).
Before refusing, it writes its write-ahead log into the file it opened and empties the log
left at the path, which the next file at that path would otherwise take in (stop 25, F2).
Each episode is committed as soon as it is stored, so a crash of the
process (``kill -9`` included) loses at most the episodes still in flight. Commits are
not fsynced one by one (WAL with ``synchronous = NORMAL``): only a crash of the
operating system itself can lose the last few, which a resumed campaign runs again.

The methods are synchronous (sqlite-utils); async callers wrap them in
``anyio.to_thread.run_sync``. One connection is shared across threads, guarded
by a lock.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, cast

from sqlite_utils import Database

from mcpgym_clients._run_match import same_inputs
from mcpgym_clients.errors import ConfigurationError, UsageError
from mcpgym_clients.measure.usage import HARNESS_COUNTS, USAGE_KEYS
from mcpgym_clients.store_file import StoreFile
from mcpgym_clients.store_schema import (
    EPISODE_COLUMNS,
    SLOT_COLUMNS,
    check_schema,
    create_schema,
    episode_row,
)

if TYPE_CHECKING:  # the driver (the MCP client stack) is not needed to read a store
    from mcpgym_clients.records import EpisodeRecord

DEFAULT_STORE = Path("runs") / "mcpgym.db"
"""Default location of the run store, relative to the working directory."""

BUSY_TIMEOUT_S = 60.0
"""Seconds a write waits for another connection's lock on the store (a ``sqlite3`` shell
left in a write transaction, another campaign's commit) before it fails. SQLite's default
of 5 s stopped a campaign with ``database is locked`` (adversarial round 15, S1-12); the
writes run in worker threads, so the wait holds no event loop."""

_RUN_JSON = ("settings", "selection", "argv", "lock_components", "conditions")
_INSERT_EPISODE = (
    f"INSERT INTO episodes ({', '.join(EPISODE_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(EPISODE_COLUMNS))})"
)
_DELETE_SLOT = "DELETE FROM episodes WHERE " + " AND ".join(f"{c} = ?" for c in SLOT_COLUMNS)
_EPISODE_JSON = ("grade", "transcript", "usage", "timings")
_DELETE_UNPLAYED = (  # the rows of an earlier stop for the listed slots (through the slot index)
    "DELETE FROM episodes WHERE attempts = 0 AND (run_id, task, band, seed, epoch) IN "
    "(SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
    "json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?2))"
)


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_run_id() -> str:
    """A sortable, unique run id: ``YYYYMMDD-HHMMSS-`` + 6 hex characters (UTC)."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def short_id(run_id: str) -> str:
    """The part of a run id a person types: its random tail (``72e82e`` of
    ``20261130-122905-72e82e``); `RunStore.resolve` accepts it. Ids of another shape are
    returned whole."""
    tail = run_id.rsplit("-", 1)[-1]
    return tail if tail != run_id and re.fullmatch(r"[0-9a-f]{4,}", tail) else run_id


class RunStore:
    """Runs and episodes in a SQLite file.

    Args:
        path: the database file (parent directories are created); ``":memory:"`` for tests.
        read_only: open an existing file without writing to it (see `open_read_only`).

    Raises:
        ConfigurationError: with ``read_only``, the file is not a run store.
        sqlite3.Error: otherwise, the file cannot be opened as SQLite.
    """

    def __init__(self, path: str | Path = DEFAULT_STORE, *, read_only: bool = False) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self.read_only = read_only
        if read_only:
            if self.path is None:
                raise ConfigurationError("a read-only run store needs a file, not :memory:")
            uri = self.path.resolve().as_uri() + "?mode=ro"
            try:
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
            except sqlite3.Error as exc:
                raise ConfigurationError(f"{self.path}: cannot open the run store: {exc}") from None
        else:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        self._lock = threading.Lock()
        self.db = Database(conn, execute_plugins=False)
        self._file: StoreFile | None = None  # the file written, checked before each write
        try:
            if read_only:
                check_schema(self.db, self.path)
            else:
                if self.path is not None:
                    self.db.enable_wal()
                    # WAL + NORMAL: a commit survives the process dying (kill -9) and is
                    # only at risk if the OS itself crashes; FULL fsyncs every episode's
                    # commit (5-7 ms each here, against 0.5 ms).
                    self.db.execute("PRAGMA synchronous = NORMAL")
                create_schema(self.db)
                if self.path is not None:
                    self._file = StoreFile(self.path)
        except BaseException:  # not a database, read-only...: do not leak the connection
            conn.close()
            raise

    @classmethod
    def open_read_only(cls, path: str | Path) -> RunStore:
        """Open an existing run store without writing to it (no schema, no WAL switch).

        For commands that only read (``mcpgym show``, ``runs``, ``compare``...): the file
        is opened with SQLite's ``mode=ro``, so any write fails instead of changing it.

        Raises:
            ConfigurationError: naming the path, when the file is not SQLite or is a
                SQLite database without the run store's ``runs`` and ``episodes`` tables.
        """
        return cls(path, read_only=True)

    # -- writing -----------------------------------------------------------------------

    def _check_file(self) -> None:
        """Refuse to write once the path no longer names the file this store opened
        (`StoreFile.check`; a store in memory is never checked). Call with ``self._lock``
        held.

        Raises:
            RunStoreMovedError: the file was removed, moved away, or replaced.
        """
        if self._file is not None:
            self._file.check(self.db.conn)

    def create_run(
        self,
        *,
        env: str,
        env_version: str,
        lock: str,
        agent: str,
        model: str | None = None,
        settings: Mapping[str, Any] | None = None,
        selection: Mapping[str, Any] | None = None,
        argv: Sequence[str] | None = None,
        baseline_of: str | None = None,
        lock_components: Mapping[str, Any] | None = None,
        conditions: Mapping[str, Any] | None = None,
    ) -> str:
        """Record a new run and return its id (see `new_run_id`).

        Args:
            env, env_version, lock: the served environment. agent, model: who ran.
            settings: agent/model settings (JSON). selection: tasks, bands, seeds, epochs.
            argv: the command line. baseline_of: the run this one is the baseline of.
            lock_components: what the lock digest covers (`mcpgym_server.lock_components`),
                when known, so that two runs on different locks can say which part differs.
            conditions: what the run is served under besides the lock
                (`mcpgym_clients.resume.campaign_conditions`; JSON, no secret).

        Raises:
            RunStoreMovedError: the store's file was removed or replaced (`_check_file`).
        """
        run_id = new_run_id()
        row = {
            "id": run_id,
            "created_at": _now_iso(),
            "finished_at": None,
            "env": env,
            "env_version": env_version,
            "lock": lock,
            "agent": agent,
            "model": model,
            "settings": json.dumps(dict(settings or {})),
            "selection": json.dumps(dict(selection or {})),
            "argv": json.dumps(list(argv or [])),
            "baseline_of": baseline_of,
            "lock_components": None if lock_components is None else json.dumps(lock_components),
            "conditions": None if conditions is None else json.dumps(dict(conditions)),
        }
        with self._lock:
            self._check_file()
            self.db.table("runs").insert(row)
        return run_id

    def finish_run(self, run_id: str) -> None:
        """Stamp ``finished_at`` on a run (`run_campaign` does once every planned episode
        of the run holds a row and none is ``infra_error``).

        Raises:
            ConfigurationError: no such run.
            RunStoreMovedError: the store's file was removed or replaced (`_check_file`).
        """
        with self._lock:
            self._check_file()
            cur = self.db.execute(
                "UPDATE runs SET finished_at = ? WHERE id = ?", [_now_iso(), run_id]
            )
            self.db.conn.commit()
        if cur.rowcount == 0:
            raise ConfigurationError(f"unknown run {run_id!r}")

    def add_episode(self, run_id: str, rec: EpisodeRecord, *, attempts: int = 1) -> int:
        """Store one episode record of ``run_id`` and commit; return its row id.

        An episode already stored for the same (task, band, seed, epoch) of the run is
        replaced in the same transaction.

        Args:
            run_id: the run. rec: the episode. attempts: episodes run for this slot
                (1 plus the retries after infrastructure errors).

        Raises:
            RunStoreMovedError: the store's file was removed or replaced (`_check_file`).
        """
        row = episode_row(run_id, rec, attempts=attempts)
        values = [row[c] for c in EPISODE_COLUMNS]
        with self._lock, self.db.conn:
            self._check_file()
            conn = self.db.conn
            conn.execute(_DELETE_SLOT, [run_id, rec.task, rec.band, rec.seed, rec.epoch])
            cur = conn.execute(_INSERT_EPISODE, values)  # one statement, no table introspection
            return int(cast(int, cur.lastrowid))  # an insert always sets the row id

    def add_unplayed(
        self, run_id: str, template: EpisodeRecord, slots: Sequence[tuple[str, str, int, int]]
    ) -> None:
        """Store one row per slot ``(task, band, seed, epoch)`` of ``run_id``, each
        ``template`` (an episode that did not run: its error, times, agent) with the slot's
        values, ``attempts`` 0, in one statement; for slots that hold no row yet, or only
        such a row of an earlier stop (``attempts`` 0: replaced, so that the row names the
        latest stop that left the slot unplayed).

        The rows a stopped campaign stores for the slots it did not play
        (`mcpgym_clients.breaker.store_not_run`): 200,000 after a Ctrl-C of ``--seeds 0-4000``
        over helpdesk, stored in SQLite's own loop (one insert per row from Python took
        90-120 s at load 20).

        Raises:
            RunStoreMovedError: the store's file was removed or replaced (`_check_file`).
        """
        row = episode_row(run_id, template, attempts=0)
        where = {"task": 0, "band": 1, "seed": 2, "epoch": 3}
        exprs = [
            f"json_extract(value, '$[{where[c]}]')" if c in where else "?" for c in EPISODE_COLUMNS
        ]
        sql = (
            f"INSERT INTO episodes ({', '.join(EPISODE_COLUMNS)}) "
            f"SELECT {', '.join(exprs)} FROM json_each(?)"
        )
        params = [row[c] for c in EPISODE_COLUMNS if c not in where]
        listed = json.dumps([list(s) for s in slots])
        with self._lock, self.db.conn:
            self._check_file()
            self.db.conn.execute(_DELETE_UNPLAYED, [run_id, listed])
            self.db.conn.execute(sql, [*params, listed])

    # -- reading -----------------------------------------------------------------------

    def run(self, run_id: str) -> dict[str, Any]:
        """One run as a dict (JSON columns decoded).

        Raises:
            ConfigurationError: no such run.
        """
        rows = self._query("SELECT * FROM runs WHERE id = ?", [run_id], _RUN_JSON)
        if not rows:
            raise ConfigurationError(f"unknown run {run_id!r}")
        return rows[0]

    def runs(self) -> list[dict[str, Any]]:
        """All runs, oldest first."""
        return self._query("SELECT * FROM runs ORDER BY created_at, id", [], _RUN_JSON)

    def baseline_run(self, run_id: str) -> str | None:
        """The id of the baseline run of ``run_id`` (the newest, if several), or ``None``."""
        rows = self._query(
            "SELECT id FROM runs WHERE baseline_of = ? ORDER BY created_at DESC, id DESC",
            [run_id],
            (),
        )
        return rows[0]["id"] if rows else None

    def grade_signature(self, run_id: str) -> str | None:
        """The ``signature`` its stored grades give (``verified``, ``unchecked``; the
        newest graded episode's), or ``None`` when no grade of ``run_id`` says."""
        rows = self._query(
            "SELECT json_extract(grade, '$.signature') AS signature FROM episodes "
            "WHERE run_id = ? AND json_extract(grade, '$.signature') IS NOT NULL "
            "ORDER BY id DESC LIMIT 1",
            [run_id],
            (),
        )
        return str(rows[0]["signature"]) if rows else None

    def runs_with_work_left(self, *, env: str, agent: str) -> list[dict[str, Any]]:
        """The runs (not baselines) of ``env`` and ``agent`` with work left, newest first.

        Work is left when the run is unfinished (interrupted, crashed, or episodes the
        infrastructure lost) or when it, or its baseline run, holds unscored episodes
        (``infra_error``, ``model_error``, a grade error: to retry).
        """
        return self._query(
            "SELECT * FROM runs WHERE baseline_of IS NULL AND env = ? AND agent = ? "
            "AND (finished_at IS NULL OR EXISTS (SELECT 1 FROM episodes e JOIN runs r "
            "ON e.run_id = r.id WHERE (r.id = runs.id OR r.baseline_of = runs.id) "
            "AND NOT e.scored)) "
            "ORDER BY created_at DESC, id DESC",
            [env, agent],
            _RUN_JSON,
        )

    def find_resumable(
        self,
        *,
        env: str,
        lock: str,
        agent: str,
        model: str | None,
        settings: Mapping[str, Any],
        selection: Mapping[str, Any],
        conditions: Mapping[str, Any] | None = None,
    ) -> str | None:
        """The newest run (not a baseline) started with the same inputs that has work left
        (`runs_with_work_left`).

        Runs match on env, lock, agent, model, settings, conditions (what the run was
        served under: `mcpgym_clients.resume.campaign_conditions`; a run recorded without
        them matches only ``None``) and the set of ``variants`` (in any order) and
        ``epochs`` of the selection (not on concurrency, which does not change results).

        Returns:
            The run id, or ``None``.
        """
        same = same_inputs(lock, model, settings, selection, conditions)
        for row in self.runs_with_work_left(env=env, agent=agent):
            if same(row):
                return str(row["id"])
        return None

    def find_finished(
        self,
        *,
        env: str,
        lock: str,
        agent: str,
        model: str | None,
        settings: Mapping[str, Any],
        selection: Mapping[str, Any],
        conditions: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The newest run (not a baseline) started with the same inputs as `find_resumable`
        compares (the variant set in any spelling) that is finished with no work left: a
        campaign with these inputs plays its episodes again as a new run.

        Returns:
            The run's row (JSON columns decoded), or ``None``.
        """
        same = same_inputs(lock, model, settings, selection, conditions)
        left = {row["id"] for row in self.runs_with_work_left(env=env, agent=agent)}
        rows = self._query(
            "SELECT * FROM runs WHERE baseline_of IS NULL AND env = ? AND agent = ? "
            "AND finished_at IS NOT NULL ORDER BY created_at DESC, id DESC",
            [env, agent],
            _RUN_JSON,
        )
        return next((row for row in rows if row["id"] not in left and same(row)), None)

    def headlines(self) -> dict[str, dict[str, Any]]:
        """Per run id: ``{"episodes", "played", "scored", "mean_score", "pass_rate",
        "total_tokens", "cost_usd", "usage_reported"}`` (SQL aggregates; ``played``: the
        episodes but those of slots a stopped campaign never played, ``attempts`` 0,
        `add_unplayed`; the means are over scored
        episodes, ``None`` when none; tokens and cost summed over every episode that
        reported them, ``None`` when none did; ``usage_reported``: the episodes with any
        numeric usage count, as `mcpgym_clients.measure.usage.usage_figures` counts them)."""
        reported = " OR ".join(
            f"json_type(usage, '$.{key}') IN ('integer', 'real')"
            for key in USAGE_KEYS
            if key not in HARNESS_COUNTS
        )
        rows = self._query(
            "SELECT run_id, count(*) AS episodes, sum(attempts IS NOT 0) AS played, "
            "sum(scored) AS scored, "
            "avg(CASE WHEN scored = 1 THEN score END) AS mean_score, "
            "avg(CASE WHEN scored = 1 THEN passed END) AS pass_rate, "
            "sum(coalesce(json_extract(usage, '$.total_tokens'), "
            "json_extract(usage, '$.prompt_tokens') + json_extract(usage, '$.completion_tokens')"
            ")) AS total_tokens, "
            "sum(json_extract(usage, '$.cost_usd')) AS cost_usd, "
            f"coalesce(sum(CASE WHEN json_valid(usage) AND ({reported}) THEN 1 END), 0) "
            "AS usage_reported "
            "FROM episodes GROUP BY run_id",
            [],
            (),
        )
        return {str(r.pop("run_id")): r for r in rows}

    def episode(self, row_id: int) -> dict[str, Any]:
        """One episode row by its row id (JSON columns decoded).

        Raises:
            ConfigurationError: no such episode.
        """
        rows = self._query("SELECT * FROM episodes WHERE id = ?", [row_id], _EPISODE_JSON)
        if not rows:
            raise ConfigurationError(f"unknown episode row {row_id}")
        return rows[0]

    def slots(self, run_id: str) -> list[dict[str, Any]]:
        """The episodes of a run, light: ``task, band, seed, epoch, scored, termination,
        graded, attempts`` (``graded``: a grade is stored; ``attempts`` 0: a slot a stopped
        campaign did not play, `add_unplayed`), without the JSON columns (what resuming a
        run of 100,000 episodes needs, in a fraction of a second)."""
        return self._query(
            "SELECT task, band, seed, epoch, scored, termination, grade IS NOT NULL AS graded, "
            "attempts FROM episodes WHERE run_id = ? ORDER BY id",
            [run_id],
            (),
        )

    def episode_count(self, run_id: str) -> int:
        """How many episode rows ``run_id`` holds (0 for an unknown run)."""
        rows = self._query("SELECT count(*) AS n FROM episodes WHERE run_id = ?", [run_id], ())
        return int(rows[0]["n"])

    def not_run_count(self, run_id: str) -> int:
        """How many rows of ``run_id`` are slots a stopped campaign never played
        (``attempts`` 0: `add_unplayed`)."""
        rows = self._query(
            "SELECT count(*) AS n FROM episodes WHERE run_id = ? AND attempts = 0", [run_id], ()
        )
        return int(rows[0]["n"])

    def episodes(self, run_id: str) -> list[dict[str, Any]]:
        """The episodes of a run in insertion order (JSON columns decoded)."""
        return self._query(
            "SELECT * FROM episodes WHERE run_id = ? ORDER BY id", [run_id], _EPISODE_JSON
        )

    def _query(self, sql: str, params: list[Any], json_cols: Sequence[str]) -> list[dict[str, Any]]:
        with self._lock:
            rows = list(self.db.query(sql, params))
        for row in rows:
            for col in json_cols:
                if row.get(col) is not None:
                    row[col] = json.loads(row[col])
        return rows

    def resolve(self, ref: str) -> str:
        """A run id from a full id, a unique prefix of one, its short name (the random
        part after the last dash, e.g. ``72e82e`` of ``20261130-122905-72e82e``, as `short_id`
        gives it), or ``latest``: the non-baseline run that stored an episode last (itself or
        its baseline; the run an ``eval`` just ran or resumed: a resumed run's rows are
        inserted anew), unless the newest run created has stored none yet, which it is then.

        Raises:
            ConfigurationError: no run matches, or the prefix is ambiguous.
        """
        if ref == "latest":
            return self._latest()
        rows = self._query(
            "SELECT id FROM runs WHERE id = ? OR id LIKE ? ESCAPE '\\' ORDER BY id",
            [ref, ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"],
            (),
        )
        ids = [str(r["id"]) for r in rows]
        if ref in ids:
            return ref
        if not ids and re.fullmatch(r"[0-9a-f]{4,}", ref):  # a short name: the id's last part
            rows = self._query("SELECT id FROM runs WHERE id LIKE ? ORDER BY id", [f"%-{ref}"], ())
            ids = [str(r["id"]) for r in rows]
        if not ids:
            raise UsageError(f"unknown run {ref!r}; `mcpgym runs` lists the runs")
        if len(ids) > 1:
            raise UsageError(
                f"run prefix {ref!r} is ambiguous: {', '.join(ids[:5])}; give more characters"
            )
        return ids[0]

    def _latest(self) -> str:
        """The run ``latest`` names (see `resolve`): indexed look-ups, no scan of the episodes.

        Raises:
            ConfigurationError: the store holds no run.
        """
        rows = self._query(
            "SELECT id FROM runs WHERE baseline_of IS NULL ORDER BY created_at DESC, id DESC "
            "LIMIT 1",
            [],
            (),
        )
        if not rows:
            raise ConfigurationError("the run store holds no run yet")
        newest = str(rows[0]["id"])
        stored = self._query(  # by the run_id index; the runs table has a row per run only
            "SELECT EXISTS (SELECT 1 FROM episodes WHERE run_id = ?) OR EXISTS (SELECT 1 FROM "
            "episodes WHERE run_id IN (SELECT id FROM runs WHERE baseline_of = ?)) AS has_rows",
            [newest, newest],
            (),
        )
        if not stored[0]["has_rows"]:
            return newest
        last = self._query(  # the episode row stored last: the highest id (rows are inserted)
            "SELECT COALESCE(r.baseline_of, r.id) AS owner FROM episodes e "
            "JOIN runs r ON r.id = e.run_id ORDER BY e.id DESC LIMIT 1",
            [],
            (),
        )
        return str(last[0]["owner"]) if last else newest

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self.db.close()

    def __enter__(self) -> Self:
        """Return self."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the connection."""
        self.close()
