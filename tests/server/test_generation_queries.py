"""Generators' snapshot queries run once per process: the generation view cannot change.

`Snapshot.open_copy(readonly=True)` (``Generation.db``) remembers the rows of each
distinct read query that `fetch_rows` / `fetch_one` run on it; every call still gets
rows of its own, and the variants generated are the same as without the memo.
"""

from __future__ import annotations

import sqlite3

from mcpgym_server import fetch_one, fetch_rows, load_environment
from mcpgym_server._snapshot import FrozenSnapshot


def _frozen() -> FrozenSnapshot:
    src = sqlite3.connect(":memory:")
    src.executescript(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, n);"
        "INSERT INTO t (v, n) VALUES ('a', 1), ('b', 1.0), ('c', 2);"
    )
    db = sqlite3.connect(":memory:", factory=FrozenSnapshot)
    db.deserialize(src.serialize())
    db.execute("PRAGMA query_only = ON")
    return db


def _counting(db: sqlite3.Connection) -> list[str]:
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    return seen


def test_a_repeated_query_runs_once_and_each_caller_gets_its_own_rows() -> None:
    db = _frozen()
    seen = _counting(db)
    first = fetch_rows(db, "SELECT * FROM t WHERE id > ? ORDER BY id", (0,))
    first[0]["v"] = "changed by the caller"
    again = fetch_rows(db, "SELECT * FROM t WHERE id > ? ORDER BY id", (0,))
    assert [r["v"] for r in again] == ["a", "b", "c"]
    assert fetch_one(db, "SELECT * FROM t WHERE id > ? ORDER BY id", (0,))["v"] == "a"
    assert len(seen) == 1


def test_parameters_that_differ_in_type_or_are_unhashable_are_not_confused() -> None:
    db = _frozen()
    by_int = fetch_rows(db, "SELECT typeof(?) AS k", (1,))
    by_float = fetch_rows(db, "SELECT typeof(?) AS k", (1.0,))
    assert (by_int[0]["k"], by_float[0]["k"]) == ("integer", "real")
    named = fetch_rows(db, "SELECT v FROM t WHERE id = :id", {"id": 2})
    assert named == [{"v": "b"}]
    blob = fetch_rows(db, "SELECT length(?) AS n", (bytearray(b"xyz"),))  # unhashable
    assert blob == [{"n": 3}]


def test_helpdesk_generators_reuse_their_queries_and_generate_the_same_variants() -> None:
    env = load_environment("helpdesk")
    fresh = env.snapshot.open_copy(readonly=True)
    assert isinstance(fresh, FrozenSnapshot)
    plain = env.snapshot.open_copy()  # writable: no memo
    assert not isinstance(plain, FrozenSnapshot)
    family = next(iter(env.families))
    view = env._generation_db  # noqa: SLF001 - the view generators read
    assert isinstance(view, FrozenSnapshot)
    view._memo.clear()  # noqa: SLF001 - cold, whatever ran before in this process
    seen = _counting(view)
    try:
        first = env._generate(family, "easy", 1001)  # noqa: SLF001 - uncached generation
        ran_first = len(seen)
        again = env._generate(family, "easy", 1001)  # noqa: SLF001
        ran_again = len(seen) - ran_first
    finally:
        view.set_trace_callback(None)
    assert first == again
    assert ran_again < ran_first  # only the queries that bypass fetch_rows run again
