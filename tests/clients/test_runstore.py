"""The SQLite run store."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mcpgym_clients import ConfigurationError, EpisodeRecord, RunStore


def graded(score: float, passed: bool) -> dict[str, Any]:
    return {"episode_id": "ep_1", "status": "graded", "score": score, "passed": passed}


def record(**kw: Any) -> EpisodeRecord:
    fields: dict[str, Any] = {
        "agent": "reference",
        "task": "set-target",
        "band": "easy",
        "seed": 3,
        "variant_id": "toy/set-target@easy#3",
        "episode_id": "ep_1",
        "termination": "completed",
        "episode_termination": "submitted",
        "transcript": [{"role": "user", "content": "Set key `target` to 103."}],
        "grade": graded(1.0, True),
        "steps": 2,
        "started_at": "2026-06-15T09:00:00.000000Z",
        "ended_at": "2026-06-15T09:00:00.015000Z",
        "duration_s": 0.015,
        "timings": {"create": 1.5, "grade": 3.0},
    }
    fields.update(kw)
    return EpisodeRecord(**fields)


def test_runs_and_episodes_round_trip_with_json_decoded(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "mcpgym.db"
    with RunStore(path) as store:
        run_id = store.create_run(
            env="toy",
            env_version="0.1.0",
            lock="abc",
            agent="openai",
            model="gpt-4o-mini",
            settings={"temperature": 0.0},
            selection={"variants": ["set-target@easy#3"], "epochs": 1},
            argv=["mcpgym", "eval", "toy"],
        )
        store.add_episode(run_id, record())
        store.add_episode(run_id, record(seed=4, grade=graded(0.5, False), epoch=1))
        store.add_episode(run_id, record(seed=5, termination="infra_error", grade=None))
        store.finish_run(run_id)

    with RunStore(path) as store:  # reopening keeps everything
        run = store.run(run_id)
        episodes = store.episodes(run_id)
    assert run["settings"] == {"temperature": 0.0}
    assert run["argv"] == ["mcpgym", "eval", "toy"]
    assert run["model"] == "gpt-4o-mini"
    assert run["finished_at"] is not None and run["baseline_of"] is None
    assert [(e["seed"], e["epoch"], e["scored"], e["score"], e["passed"]) for e in episodes] == [
        (3, 0, 1, 1.0, 1),
        (4, 1, 1, 0.5, 0),
        (5, 0, 0, None, None),
    ]
    assert episodes[0]["grade"] == graded(1.0, True)
    assert episodes[0]["transcript"] == [{"role": "user", "content": "Set key `target` to 103."}]
    assert episodes[0]["timings"] == {"create": 1.5, "grade": 3.0}
    assert episodes[2]["grade"] is None and episodes[2]["termination"] == "infra_error"


def test_the_store_uses_write_ahead_logging(tmp_path: Path) -> None:
    with RunStore(tmp_path / "m.db") as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_baseline_run_points_at_its_run() -> None:
    with RunStore(":memory:") as store:
        main = store.create_run(env="toy", env_version="1", lock="l", agent="reference")
        base = store.create_run(
            env="toy", env_version="1", lock="l", agent="null", baseline_of=main
        )
        assert store.run(base)["baseline_of"] == main
        assert {r["id"] for r in store.runs()} == {main, base}


def test_unknown_runs_are_configuration_errors() -> None:
    with RunStore(":memory:") as store:
        with pytest.raises(ConfigurationError, match="unknown run 'nope'"):
            store.run("nope")
        with pytest.raises(ConfigurationError, match="unknown run 'nope'"):
            store.finish_run("nope")
        assert store.episodes("nope") == []


def test_a_store_from_before_resume_and_lock_components_gains_their_columns(
    tmp_path: Path,
) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE runs (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, finished_at TEXT, "
        "env TEXT NOT NULL, env_version TEXT, lock TEXT, agent TEXT NOT NULL, model TEXT, "
        "settings TEXT, selection TEXT, argv TEXT, baseline_of TEXT)"
    )
    conn.execute(
        "INSERT INTO runs (id, created_at, env, agent, settings, selection, argv) "
        "VALUES ('old', '2026-01-01', 'toy', 'null', '{}', '{}', '[]')"
    )
    conn.commit()
    conn.close()
    with RunStore(path) as store:
        assert store.run("old")["lock_components"] is None
        store.add_episode("old", record(), attempts=2)
        assert store.episodes("old")[0]["attempts"] == 2


def test_storing_a_slot_again_replaces_it_and_unfinished_runs_are_found_by_their_inputs() -> None:
    with RunStore(":memory:") as store:
        kw = {"env": "toy", "lock": "l", "agent": "openai", "model": "m"}
        sel = {"variants": ["set-target@easy#3"], "epochs": 2}
        run_id = store.create_run(
            env_version="1", settings={"t": 0}, selection={**sel, "concurrency": 4}, **kw
        )
        store.add_episode(run_id, record(termination="infra_error", grade=None))
        second = store.add_episode(run_id, record(), attempts=3)
        rows = store.episodes(run_id)
        assert [(e["id"], e["termination"], e["attempts"]) for e in rows] == [
            (second, "completed", 3)
        ]
        find = store.find_resumable
        assert find(settings={"t": 0}, selection={**sel, "concurrency": 1}, **kw) == run_id
        assert find(settings={"t": 1}, selection=sel, **kw) is None
        assert find(settings={"t": 0}, selection={**sel, "epochs": 3}, **kw) is None
        assert find(settings={"t": 0}, selection=sel, **{**kw, "model": None}) is None
        store.finish_run(run_id)
        assert find(settings={"t": 0}, selection=sel, **kw) is None
        assert store.resolve(run_id[:-1]) == store.resolve("latest") == run_id


def test_latest_is_the_run_that_stored_an_episode_last() -> None:
    # README: `eval`, then `show latest`. After resuming an older run while another run was
    # started in between, `latest` named the other one (the newest created).
    with RunStore(":memory:") as store:
        kw: dict[str, Any] = {"env": "toy", "env_version": "1", "lock": "l"}
        old = store.create_run(agent="openai", **kw)
        store.add_episode(old, record(seed=0))
        new = store.create_run(agent="reference", **kw)
        base = store.create_run(agent="null", baseline_of=new, **kw)
        store.add_episode(new, record(seed=0))
        store.add_episode(base, record(seed=0, agent="null"))
        assert store.resolve("latest") == new  # its baseline's row came last: still `new`
        store.add_episode(old, record(seed=1))  # `old` resumed
        assert store.resolve("latest") == old
        fresh = store.create_run(agent="random", **kw)  # started, nothing stored yet
        assert store.resolve("latest") == fresh


def test_a_finished_run_with_infra_errors_is_still_resumable() -> None:
    with RunStore(":memory:") as store:
        kw = {"env": "toy", "lock": "l", "agent": "openai", "model": None}
        sel = {"variants": ["set-target@easy#0", "set-target@easy#1"], "epochs": 1}
        run_id = store.create_run(env_version="1", selection=sel, **kw)
        base = store.create_run(
            env_version="1", selection=sel, **{**kw, "agent": "null"}, baseline_of=run_id
        )
        store.add_episode(run_id, record(seed=0))
        store.add_episode(base, record(seed=0, termination="infra_error", grade=None))
        for rid in (run_id, base):
            store.finish_run(rid)
        find = store.find_resumable
        assert find(settings={}, selection=sel, **kw) == run_id  # the baseline's infra error
        store.add_episode(base, record(seed=0))
        assert find(settings={}, selection=sel, **kw) is None  # nothing left to retry
        store.add_episode(run_id, record(seed=1, termination="infra_error", grade=None))
        assert find(settings={}, selection=sel, **kw) == run_id
        # the variant set decides, not the order the command line gave it in
        reordered = {"variants": sel["variants"][::-1], "epochs": 1}
        assert find(settings={}, selection=reordered, **kw) == run_id


def test_a_run_is_named_by_its_short_tail_too(tmp_path: Path) -> None:
    from mcpgym_clients.runstore import short_id

    with RunStore(tmp_path / "s.db") as store:
        run = store.create_run(env="toy", env_version="1", lock="a" * 64, agent="null")
        short = short_id(run)
        assert run.endswith("-" + short) and len(short) == 6
        assert store.resolve(short) == run
        with pytest.raises(ConfigurationError, match="unknown run 'ffffffffff'"):
            store.resolve("ffffffffff")


def _slot_plan(conn: sqlite3.Connection) -> str:
    """How SQLite finds the row `add_episode` replaces (its query plan's detail column)."""
    rows = conn.execute(
        "EXPLAIN QUERY PLAN DELETE FROM episodes WHERE run_id = ? AND task = ? AND band = ? "
        "AND seed = ? AND epoch = ?",
        ["r", "t", "easy", 0, 0],
    ).fetchall()
    return " ".join(str(r[-1]) for r in rows)


def test_storing_an_episode_finds_its_slot_by_index_in_new_and_older_stores(
    tmp_path: Path,
) -> None:
    """Each stored episode replaces its slot's row: found through an index on the whole
    slot, not by reading every row of the run (issue 12 §2: 0.5 ms a store at 1,000 rows of
    the run, 6.3 ms at 8,000), in a new store and in one made before the index (on open)."""
    slot = "(run_id=? AND task=? AND band=? AND seed=? AND epoch=?)"
    path = tmp_path / "runs.db"
    with RunStore(path) as store:
        assert slot in _slot_plan(store.db.conn)
    older = sqlite3.connect(path)  # a store from before the index
    older.execute("DROP INDEX idx_episodes_run_id_task_band_seed_epoch")
    assert slot not in _slot_plan(older)  # the plan before: the run's rows, then a filter
    older.close()
    with RunStore(path) as store:
        assert slot in _slot_plan(store.db.conn)


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_store_whose_file_is_removed_or_replaced_refuses_to_write(
    tmp_path: Path, how: str
) -> None:
    # Adversarial round 15, S1-9: `rm runs.db*` (or another store moved over the path)
    # under a running `mcpgym eval`: every row went on into the unlinked file, rc 0, and
    # the summary named a path that held none of them.
    from mcpgym_clients.errors import RunStoreMovedError

    path = tmp_path / "runs.db"
    with RunStore(path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
        store.add_episode(run_id, record())
        for p in tmp_path.glob("runs.db*"):
            p.unlink()
        if how == "replaced":
            sqlite3.connect(path).close()
        said = "was moved away or removed" if how == "removed" else "was replaced"
        with pytest.raises(RunStoreMovedError, match=f"run store {path} {said}"):
            store.add_episode(run_id, record(seed=4))
        with pytest.raises(RunStoreMovedError):
            store.finish_run(run_id)
        with pytest.raises(RunStoreMovedError):
            store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")


def test_a_store_reached_through_another_working_directory_still_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with RunStore("runs.db") as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
        monkeypatch.chdir("/")
        store.add_episode(run_id, record())
        store.finish_run(run_id)
        assert len(store.episodes(run_id)) == 1


@pytest.mark.slow
def test_a_write_waits_out_another_connections_lock_of_some_seconds(tmp_path: Path) -> None:
    # Adversarial round 15, S1-12: a `sqlite3` shell holding a write transaction on the
    # store for more than SQLite's default 5 s stopped the campaign ("database is locked").
    import threading

    path = tmp_path / "runs.db"
    with RunStore(path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
            held.set()
            release.wait(6.5)  # past SQLite's default busy wait of 5 s
            other.execute("COMMIT")
            other.close()

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait(10)
        try:
            store.add_episode(run_id, record())
        finally:
            release.set()
            holder.join()
        assert len(store.episodes(run_id)) == 1


@pytest.mark.parametrize("write", ["add_unplayed", "add_episode"])
def test_a_store_moved_away_keeps_its_rows_and_the_file_put_at_its_path_takes_none(
    tmp_path: Path, write: str
) -> None:
    # Stop 25, F2: `mv rep.db rep.moved.db; cp backup.db rep.db` under a running campaign.
    # The rows were all in `rep.db-wal`, which stayed at the path: the moved file was an
    # empty shell and the next reader of the backup applied that log to it. And
    # `add_unplayed` (the rows of a stop) wrote into that log without checking the file.
    import shutil

    from mcpgym_clients.errors import RunStoreMovedError

    path, moved, backup = tmp_path / "rep.db", tmp_path / "rep.moved.db", tmp_path / "backup.db"
    with RunStore(backup) as other:
        other.create_run(env="toy", env_version="0.1.0", lock="abc", agent="backup")
    with RunStore(path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
        for seed in range(5):
            store.add_episode(run_id, record(seed=seed))
        wal = tmp_path / "rep.db-wal"
        assert wal.stat().st_size > 0
        path.rename(moved)
        shutil.copy(backup, path)
        with pytest.raises(RunStoreMovedError, match="replaced by another file") as raised:
            if write == "add_unplayed":
                store.add_unplayed(run_id, record(), [("set-target", "easy", 9, 0)])
            else:
                store.add_episode(run_id, record(seed=9))
        assert "took none of them" in str(raised.value)
        assert wal.stat().st_size == 0  # nothing left for the next reader of the path
        with pytest.raises(RunStoreMovedError):  # every later write too
            store.finish_run(run_id)
        # the moved file holds every row on its own (copied without any log)
        alone = tmp_path / "alone" / "moved.db"
        alone.parent.mkdir()
        shutil.copy(moved, alone)
        got = sqlite3.connect(alone)
        assert got.execute("SELECT count(*) FROM episodes").fetchone() == (5,)
        assert got.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        got.close()
        # the file at the path is the backup, untouched
        now = sqlite3.connect(path)
        assert now.execute("SELECT agent FROM runs").fetchall() == [("backup",)]
        assert now.execute("SELECT count(*) FROM episodes").fetchone() == (0,)
        now.close()


def test_a_removed_store_says_its_rows_went_with_the_file_and_empties_its_log(
    tmp_path: Path,
) -> None:
    from mcpgym_clients.errors import RunStoreMovedError

    path = tmp_path / "rep.db"
    with RunStore(path) as store:
        run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
        store.add_episode(run_id, record())
        path.unlink()  # the log stays at the path
        with pytest.raises(RunStoreMovedError, match="was moved away or removed") as raised:
            store.add_unplayed(run_id, record(), [("set-target", "easy", 9, 0)])
        assert "unless it was moved elsewhere" not in str(raised.value)
        assert (tmp_path / "rep.db-wal").stat().st_size == 0
        # a new file at the path starts empty: no row of the removed file comes back
        fresh = sqlite3.connect(path)
        assert fresh.execute("SELECT name FROM sqlite_master").fetchall() == []
        fresh.close()


def test_a_moved_store_whose_log_a_reader_holds_says_where_its_rows_are_without_waiting(
    tmp_path: Path,
) -> None:
    """Another connection holds a read transaction on the store (``mcpgym show`` reading it)
    when the store is moved away: its log cannot be emptied. The refusal comes without
    waiting out the store's 60 s busy timeout and says the last rows are only in the log at
    the path, and the store's close leaves that log where it is (SQLite's own checkpoint at
    close, by name, was the only thing between it and the next file opened at the path):
    putting the file back brings every row back."""
    import time

    from mcpgym_clients.errors import RunStoreMovedError

    path, moved = tmp_path / "rep.db", tmp_path / "rep.moved.db"
    store = RunStore(path)
    run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
    store.add_episode(run_id, record(seed=0))
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM episodes").fetchone() == (1,)  # its snapshot
    for seed in range(1, 4):  # rows after the reader's snapshot: the log must keep them
        store.add_episode(run_id, record(seed=seed))
    path.rename(moved)
    t0 = time.monotonic()
    with pytest.raises(RunStoreMovedError, match="only in its write-ahead log") as raised:
        store.add_episode(run_id, record(seed=9))
    assert time.monotonic() - t0 < 30, "the refusal waited out the busy timeout"
    assert f"put the file it opened back at {path}" in str(raised.value)
    reader.execute("COMMIT")
    reader.close()
    store.close()
    wal = tmp_path / "rep.db-wal"
    assert wal.exists() and wal.stat().st_size > 0, "the log of the moved file was removed"
    moved.rename(path)  # as the message says
    back = sqlite3.connect(path)
    assert back.execute("SELECT count(*) FROM episodes").fetchone() == (4,)
    assert back.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    back.close()


_OTHER_WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("PRAGMA wal_autocheckpoint=0")
conn.execute(
    "INSERT INTO runs (id, created_at, env, agent) VALUES ('later', 'now', 'toy', 'later')"
)
print("committed", flush=True)
sys.stdin.readline()
conn.close()
"""


def test_a_moved_store_closing_leaves_the_files_at_its_path_to_the_store_there_now(
    tmp_path: Path,
) -> None:
    """After a detected move, another process opens the backup put at the path and commits
    a row (in the log at the path, not yet checkpointed). The moved store's close neither
    checkpoints that log into the file moved away nor unlinks it (the files at the path are
    found by name): a reader of the path sees the other process's row, and the moved file
    holds its own rows only. A guard, not a fix: SQLite's pager already skips its
    checkpoint at close for a file that moved (``SQLITE_FCNTL_HAS_MOVED``); this holds it
    to that (stop 26: checked, it passes on main)."""
    import shutil
    import subprocess
    import sys

    from mcpgym_clients.errors import RunStoreMovedError

    path, moved, backup = tmp_path / "rep.db", tmp_path / "rep.moved.db", tmp_path / "backup.db"
    with RunStore(backup) as other:
        other.create_run(env="toy", env_version="0.1.0", lock="abc", agent="backup")
    store = RunStore(path)
    run_id = store.create_run(env="toy", env_version="0.1.0", lock="abc", agent="null")
    for seed in range(3):
        store.add_episode(run_id, record(seed=seed))
    path.rename(moved)
    shutil.copy(backup, path)
    with pytest.raises(RunStoreMovedError, match="took none of them"):
        store.add_episode(run_id, record(seed=9))
    writer = subprocess.Popen(
        [sys.executable, "-c", _OTHER_WRITER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "committed"
        store.close()
        assert (tmp_path / "rep.db-wal").exists(), "the other store's log was unlinked"
        now = sqlite3.connect(path)
        agents = sorted(r[0] for r in now.execute("SELECT agent FROM runs"))
        now.close()
        writer.stdin.write("\n")
        writer.stdin.flush()
        assert writer.wait(timeout=30) == 0
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert agents == ["backup", "later"]
    alone = tmp_path / "alone" / "moved.db"
    alone.parent.mkdir()
    shutil.copy(moved, alone)
    got = sqlite3.connect(alone)
    assert got.execute("SELECT agent FROM runs").fetchall() == [("null",)]
    assert got.execute("SELECT count(*) FROM episodes").fetchone() == (3,)
    assert got.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    got.close()
