"""Grading by page delta gives the grades of the whole-table comparison, on every variant.

The old engine (``skip_unchanged_tables=False``: every table read and compared, whole
final databases) and the new one (page deltas; only changed tables and leaf pages read)
must agree on the demo matrix (reference and null agents on every helpdesk family x band, one
seed each; seeds 0-2 in the slow test) and on the ship gate's control mutants.
"""

from __future__ import annotations

import functools
import sqlite3

import pytest

from mcpgym_clients.instrument.controls import mutants
from mcpgym_grading import ReferenceCache, grade_bundle
from mcpgym_grading._statediff import compare_tables, table_names
from mcpgym_grading._statepages import base_index, open_state
from mcpgym_helpdesk import environment
from mcpgym_server import SUBMIT_TOOL, ToolCall, replay
from mcpgym_server.bundles import EpisodeBundle, PageDelta

BANDS = ("easy", "medium", "hard")
MATRIX = [(f, b) for f in sorted(environment.families) for b in BANDS]
SAMPLE = [(f, b, i % 3) for i, (f, b) in enumerate(MATRIX)]
CACHE = ReferenceCache(maxsize=1024)


def _both(bundle: EpisodeBundle) -> None:
    old = grade_bundle(bundle, environment, reference_cache=CACHE, skip_unchanged_tables=False)
    new = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert new.model_dump() == old.model_dump()


def _reference_and_null_agree(family: str, band: str, seeds: tuple[int, ...]) -> None:
    for seed in seeds:
        v = environment.variant(family, band, seed)
        reference = replay(environment, family, band, seed, v.reference, answer=v.answer)
        assert reference.has_delta
        _both(reference)
        _both(replay(environment, family, band, seed, []))


@pytest.mark.parametrize(
    ("family", "band", "seed"), SAMPLE, ids=[f"{f}@{b}#{s}" for f, b, s in SAMPLE]
)
def test_reference_and_null_grades_agree(family: str, band: str, seed: int) -> None:
    """One seed per family x band (rotating through 0-2; all three: the slow test)."""
    _reference_and_null_agree(family, band, (seed,))


@pytest.mark.slow
@pytest.mark.parametrize(("family", "band"), MATRIX, ids=[f"{f}@{b}" for f, b in MATRIX])
def test_reference_and_null_grades_agree_on_seeds_0_to_2(family: str, band: str) -> None:
    _reference_and_null_agree(family, band, (0, 1, 2))


def _mutants_agree(family: str, band: str, stride: int) -> None:
    v = environment.variant(family, band, 0)
    for _label, calls in mutants(environment, v)[::stride]:
        script = [ToolCall(name=n, arguments=a) for n, a in calls if n != SUBMIT_TOOL]
        answer = next((a.get("answer") for n, a in calls if n == SUBMIT_TOOL), None)
        _both(replay(environment, family, band, 0, script, answer=answer))


@pytest.mark.parametrize("family", sorted(environment.families))
def test_mutant_grades_agree(family: str) -> None:
    """Every third control mutant of each family's medium band (all of them: the slow test)."""
    _mutants_agree(family, "medium", 3)


@pytest.mark.slow
@pytest.mark.parametrize(("family", "band"), MATRIX, ids=[f"{f}@{b}" for f, b in MATRIX])
def test_every_mutant_grade_agrees(family: str, band: str) -> None:
    _mutants_agree(family, band, 1)


def test_a_full_database_bundle_grades_like_its_delta() -> None:
    v = environment.variant("cancel-order", "medium", 3)
    bundle = replay(environment, v.family, v.band, v.seed, v.reference, answer=v.answer)
    whole = EpisodeBundle(bundle.meta, bundle.log, final_db=bundle.final_db)
    assert not whole.has_delta
    a = grade_bundle(whole, environment, reference_cache=CACHE)
    b = grade_bundle(bundle, environment, reference_cache=CACHE)
    assert a.model_dump() == b.model_dump() and a.score == 1.0


# -- the state diff on hand-made changes (schema, page size, growth, shrinking) ---------------

EDITS: dict[str, list[str]] = {
    "none": [],
    "update-one": ["UPDATE orders SET status = 'cancelled' WHERE id = 100001"],
    "update-other": ["UPDATE tickets SET status = 'closed' WHERE id = 5226"],
    "insert-many": [
        "INSERT INTO audit_log (at, actor, action, entity, entity_id, detail) "
        "SELECT at, actor, action, entity, entity_id, detail FROM audit_log LIMIT 400"
    ],
    "insert-middle": [
        "DELETE FROM audit_log WHERE id = 1500",
        "INSERT INTO audit_log (id, at, actor, action, entity, entity_id) "
        "VALUES (1500, 'now', 'agent', 'x', 'order', 1)",
    ],
    "grow": [
        "CREATE TABLE IF NOT EXISTS mcpgym_counters (name TEXT PRIMARY KEY, value INTEGER)",
        "INSERT INTO mcpgym_counters VALUES ('refund', 7)",
    ],
    "big-text": ["UPDATE customers SET last_name = printf('%.9000c', 'x') WHERE rowid = 3"],
    "delete-shrink": ["DELETE FROM audit_log WHERE rowid % 2 = 0", "VACUUM"],
    "drop": ["DROP TABLE exchanges"],
    "alter": ["ALTER TABLE refunds ADD COLUMN note TEXT DEFAULT 'x'"],
    "page-size": ["<copy into 8192-byte pages>"],
    "same-rows-vacuum": ["VACUUM"],
}


def _db(edits: list[str]) -> bytes:
    return _built(tuple(edits))


@functools.cache
def _built(edits: tuple[str, ...]) -> bytes:
    """The snapshot after ``edits`` (built once per session: bytes are immutable)."""
    db = environment.snapshot.open_copy()
    if list(edits) == EDITS["page-size"]:  # an in-memory VACUUM keeps the page size: rebuild it
        big = sqlite3.connect(":memory:")
        big.execute("PRAGMA page_size = 8192")
        big.executescript("\n".join(db.iterdump()))
        db, edits = big, ()
    for sql in edits:
        db.execute(sql)
    data = db.serialize()
    db.close()
    return data


def _plain(data: bytes) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.deserialize(data)
    return db


@pytest.mark.parametrize("final", sorted(EDITS))
def test_the_pruned_diff_is_the_full_diff(final: str) -> None:
    snapshot = environment.snapshot
    index = base_index(snapshot)
    assert index is not None
    for reference in ("none", "update-one", "grow", "delete-shrink", "page-size", "drop"):
        f_data, r_data = _db(EDITS[final]), _db(EDITS[reference])
        f_delta = PageDelta.between(snapshot.data, f_data)
        r_delta = PageDelta.between(snapshot.data, r_data)
        assert f_delta.apply(snapshot.data) == f_data
        f_plain, r_plain = _plain(f_data), _plain(r_data)
        tables = table_names(f_plain) | table_names(r_plain)
        expected = compare_tables(f_plain, r_plain, tables, {})
        f_db = open_state(f_data, f_delta, snapshot, index)
        r_db = open_state(r_data, r_delta, snapshot, index)
        assert compare_tables(f_db, r_db, tables, {}) == expected, (final, reference)


def test_page_deltas_round_trip_through_growth_and_shrinking() -> None:
    base = environment.snapshot.data
    for edits in EDITS.values():
        final = _db(edits)
        delta = PageDelta.between(base, final)
        again = PageDelta.decode(delta.encode_against(base), base)
        assert again == delta and again.apply(base) == final
    grown = PageDelta.between(base, base + bytes(4096))
    assert grown.changed_pages == {len(base) // 4096 + 1}
    cut = PageDelta.between(base, base[:8192])
    assert cut.pages == () and len(cut.changed_pages) == len(base) // 4096 - 2
    assert cut.apply(base) == base[:8192]


def test_unchanged_tables_and_rows_are_not_read() -> None:
    from mcpgym_grading._statediff import known_equal
    from mcpgym_grading._statepages import suspect_rowids

    snapshot = environment.snapshot
    index = base_index(snapshot)
    f_data, r_data = _db(EDITS["update-one"]), _db(EDITS["insert-middle"])
    f_db = open_state(f_data, PageDelta.between(snapshot.data, f_data), snapshot, index)
    r_db = open_state(r_data, PageDelta.between(snapshot.data, r_data), snapshot, index)
    equal = known_equal(f_db, r_db)
    assert "customers" in equal and "orders" not in equal and "audit_log" not in equal
    total = f_db.execute("SELECT count(*) FROM audit_log").fetchone()[0]
    suspects = suspect_rowids(f_db, r_db, "audit_log")
    assert suspects is not None and 1500 in suspects and len(suspects) < total / 10


def test_a_database_with_another_page_size_is_never_pruned() -> None:
    from mcpgym_grading._statediff import known_equal
    from mcpgym_grading._statepages import suspect_rowids

    snapshot = environment.snapshot
    index = base_index(snapshot)
    f_data, r_data = _db(EDITS["page-size"]), _db(EDITS["update-one"])
    f_db = open_state(f_data, PageDelta.between(snapshot.data, f_data), snapshot, index)
    r_db = open_state(r_data, PageDelta.between(snapshot.data, r_data), snapshot, index)
    assert f_db.page_size == 8192 and known_equal(f_db, r_db) == frozenset()
    assert suspect_rowids(f_db, r_db, "orders") is None
