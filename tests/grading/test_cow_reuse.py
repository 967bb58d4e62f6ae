"""Final states read through a kept connection: its compiled statements survive the swap.

A mapped final state's connection is kept after its grade (`_cow.keep_cow`) and the next
bundle of the snapshot is written into its mapping (`_cow.reopen_cow`). The connection must
then read the new bundle's bytes exactly as a fresh one would, even where both bundles
carry the same file change counter, and must not be kept where its compiled schema might
not be the next bundle's (a schema, a header or an open statement of its own).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator

import pytest

from mcpgym_grading import ReferenceCache, _cow, engine, grade_bundle
from mcpgym_grading._statepages import StateConnection, adopt_state, base_index
from mcpgym_helpdesk import environment as helpdesk
from mcpgym_server import EpisodeManager, EpisodeStore
from mcpgym_server.bundles import PageDelta

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or sys.implementation.name != "cpython",
    reason="copy-on-write mapping needs memfd (Linux) and CPython",
)

SNAPSHOT = helpdesk.snapshot


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    _cow.close_kept()
    yield
    _cow.close_kept()


def _delta(*sql: str) -> PageDelta:
    db = sqlite3.connect(":memory:")
    db.deserialize(SNAPSHOT.data)
    for s in sql:
        db.execute(s)
        db.commit()
    data = db.serialize()
    db.close()
    return PageDelta.between(SNAPSHOT.data, data)


def _open(delta: PageDelta) -> StateConnection:
    db = _cow.reopen_cow(SNAPSHOT, delta) or _cow.open_cow(SNAPSHOT, delta)
    assert db is not None
    adopt_state(db, db.data, delta, SNAPSHOT, base_index(SNAPSHOT))
    db.sql_functions = True  # as the engine marks it after registering them
    return db


SQL = "SELECT id, status FROM tickets ORDER BY id"


def _fresh(delta: PageDelta) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.deserialize(delta.apply(SNAPSHOT.data))
    return db


_ids = _fresh(PageDelta.between(SNAPSHOT.data, SNAPSHOT.data)).execute(
    "SELECT quote(min(id)), quote(max(id)) FROM tickets"
)
FIRST, LAST = _ids.fetchone()


def test_a_kept_connection_reads_the_next_bundle_with_the_same_change_counter() -> None:
    a = _delta(f"UPDATE tickets SET status = 'closed' WHERE id = {FIRST}")
    b = _delta(f"UPDATE tickets SET status = 'pending' WHERE id = {LAST}")
    assert a.size == b.size and a.pages != b.pages
    assert bytes(a.pages[0][1][24:28]) == bytes(b.pages[0][1][24:28])  # same counter
    first = _open(a)
    assert first.execute(SQL).fetchall() == _fresh(a).execute(SQL).fetchall()
    assert _cow.keep_cow(first, SNAPSHOT)
    second = _open(b)
    assert second is first and second.reopened  # the same connection, statements kept
    assert second.execute(SQL).fetchall() == _fresh(b).execute(SQL).fetchall()
    assert _cow.keep_cow(second, SNAPSHOT)
    c = _delta(f"UPDATE tickets SET status = 'escalated' WHERE id = {FIRST}")
    assert c.size == a.size and {n for n, _ in b.pages} - {n for n, _ in c.pages}
    third = _open(c)  # the pages b wrote and c does not are put back
    assert third is first
    assert third.execute(SQL).fetchall() == _fresh(c).execute(SQL).fetchall()
    assert bytes(third.data) == c.apply(SNAPSHOT.data)
    third.close()


def test_no_connection_is_kept_whose_schema_header_or_statements_may_differ() -> None:
    other_schema = _open(_delta("CREATE TABLE extra (x)"))
    assert not other_schema.schema_is_base and not _cow.keep_cow(other_schema, SNAPSHOT)
    other_schema.close()
    header = _delta("PRAGMA user_version = 7")  # header bytes 60-63
    assert not _cow._reusable(SNAPSHOT, header)  # noqa: SLF001
    db = _open(header)
    assert not _cow.keep_cow(db, SNAPSHOT)
    db.close()
    busy = _open(_delta("UPDATE tickets SET status = 'closed'"))
    cur = busy.execute(SQL)
    cur.fetchone()  # a statement still running holds a read transaction
    assert not _cow.keep_cow(busy, SNAPSHOT)
    cur.fetchall()
    assert _cow.keep_cow(busy, SNAPSHOT)
    assert _cow.reopen_cow(SNAPSHOT, header) is None  # not read through a kept connection


def test_grades_through_kept_connections_equal_fresh_ones(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = EpisodeStore(tmp_path)  # type: ignore[arg-type]
    manager = EpisodeManager(helpdesk, store)
    ids = []
    for task in sorted(helpdesk.families)[:3]:
        v = helpdesk.variant(task, "medium", 0)
        for calls in (v.reference, ()):
            ep = manager.open(task, "medium", 0)
            for c in calls:
                manager.call(ep.id, c.name, dict(c.arguments))
            manager.seal(ep.id, "ended", answer=v.answer if calls else None)
            ids.append(ep.id)
    cache = ReferenceCache()
    reopened: list[bool] = []
    real = _cow.reopen_cow

    def spy(snapshot: object, delta: PageDelta) -> StateConnection | None:
        db = real(snapshot, delta)  # type: ignore[arg-type]
        reopened.append(db is not None)
        return db

    monkeypatch.setattr(engine, "reopen_cow", spy)
    kept = [grade_bundle(store.read(e), helpdesk, reference_cache=cache) for e in ids]
    assert reopened[0] is False and any(reopened)  # kept per file size
    monkeypatch.setattr(_cow, "KEEP_MAX", 0)
    _cow.close_kept()
    fresh = [grade_bundle(store.read(e), helpdesk, reference_cache=cache) for e in ids]
    assert [g.model_dump() for g in kept] == [g.model_dump() for g in fresh]


def test_keeping_past_the_cap_after_a_size_was_reopened_to_none_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A campaign's grading service: one file size's last kept connection is reopened (none
    # of that size left), then connections of another size are kept past `KEEP_MAX`. The
    # least recently kept must be closed, not an emptied size's list popped (an IndexError
    # there failed the grade: `infra_error`, the episode run again).
    monkeypatch.setattr(_cow, "KEEP_MAX", 1)
    small = _delta(f"UPDATE tickets SET status = 'closed' WHERE id = {FIRST}")
    grown = _delta(f"UPDATE tickets SET subject = subject || hex(zeroblob(2000)) WHERE id = {LAST}")
    assert small.size != grown.size and _cow._reusable(SNAPSHOT, grown)  # noqa: SLF001
    a = _open(small)
    assert _cow.keep_cow(a, SNAPSHOT)
    again = _open(small)  # the one kept of this size, now in use: none of it left
    assert again is a
    b, c = _open(grown), _open(grown)
    assert _cow.keep_cow(b, SNAPSHOT)
    assert _cow.keep_cow(c, SNAPSHOT)  # past the cap: `b` is closed
    assert _cow.reopen_cow(SNAPSHOT, grown) is c
    assert _cow.reopen_cow(SNAPSHOT, grown) is None
    for db in (again, c):
        db.close()


def test_held_final_states_are_graded_on_kept_connections_as_on_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the trainer's direct path: the sealed sandbox handed in as `final_db` (stop 26)
    from mcpgym_grading import _sqlmemo
    from mcpgym_server import MemoryEpisodeStore

    store = MemoryEpisodeStore()
    manager = EpisodeManager(
        helpdesk, store, connection_factory=StateConnection, keep_final_db=True, hash_final=False
    )
    cache = ReferenceCache()
    reopened: list[bool] = []
    real = _cow.reopen_cow

    def spy(snapshot: object, delta: PageDelta) -> StateConnection | None:
        db = real(snapshot, delta)  # type: ignore[arg-type]
        reopened.append(db is not None)
        if db is not None:  # the mapping holds the held bytes, the last bundle's put back
            assert bytes(db.data) == delta.apply(SNAPSHOT.data)
        return db

    monkeypatch.setattr(engine, "reopen_cow", spy)
    grades: dict[bool, list[dict[str, object]]] = {True: [], False: []}
    for task in sorted(helpdesk.families)[:3]:
        v = helpdesk.variant(task, "medium", 0)
        for calls in (v.reference, ()):
            for held in (True, False):
                monkeypatch.setattr(engine, "MAP_HELD", held)
                _sqlmemo.clear()
                ep = manager.open(task, "medium", 0)
                for c in calls:
                    manager.call(ep.id, c.name, dict(c.arguments))
                manager.seal(ep.id, "ended", answer=v.answer if calls else None)
                db = manager.take_final_db(ep.id)
                grade = grade_bundle(
                    store.take(ep.id), helpdesk, reference_cache=cache, final_db=db
                )
                assert db is not None
                db.execute("SELECT 1").fetchall()  # the caller's connection is left open
                db.close()
                dump = grade.model_dump()
                dump.pop("episode_id")
                grades[held].append(dump)
    assert any(reopened)  # statements compiled for one bundle served the next
    assert grades[True] == grades[False]
