"""Final states opened in place on the snapshot (copy-on-write), checked page-wise.

The grader maps the snapshot privately and writes the delta's pages into the mapping
instead of rebuilding and copying the file: the database SQLite reads must be the sealed
one byte for byte, the shared snapshot must stay untouched, and grades must be those of
the copying path.
"""

from __future__ import annotations

import hashlib
import os
import sys

import pytest

from mcpgym_grading import ReferenceCache, _cow, grade_bundle
from mcpgym_server import EpisodeManager, EpisodeStore, load_environment
from mcpgym_server.bundles import PageDelta, PageDigests

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or sys.implementation.name != "cpython",
    reason="copy-on-write mapping needs memfd (Linux) and CPython",
)


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, EpisodeStore, list[str]]:
    env = load_environment("helpdesk")
    store = EpisodeStore(tmp_path_factory.mktemp("cow-store"))
    manager = EpisodeManager(env, store)
    ids = []
    for task, fam in env.families.items():
        for band in fam.bands[:2]:
            variant = env.variant(task, band, 1)
            for calls in (variant.reference, variant.reference[:1], ()):
                ep = manager.open(task, band, 1)
                for c in calls:
                    manager.call(ep.id, c.name, dict(c.arguments))
                manager.seal(ep.id, "ended", answer=variant.answer if calls else None)
                ids.append(ep.id)
    return env, store, ids


def test_the_mapping_is_the_sealed_database_and_the_snapshot_stays_untouched(
    sealed: tuple[object, EpisodeStore, list[str]],
) -> None:
    env, store, ids = sealed
    assert _cow.cow_available()
    snapshot = env.snapshot  # type: ignore[attr-defined]
    for eid in ids:
        bundle = store.read(eid)
        delta = bundle.delta_against(snapshot)
        assert delta is not None
        db = _cow.open_cow(snapshot, delta)
        assert db is not None
        try:
            assert hashlib.sha256(db.data).hexdigest() == bundle.meta.final_sha256
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            with pytest.raises(Exception, match="readonly"):
                db.execute("CREATE TABLE x (a)")
        finally:
            db.close()
    fd, _ = _cow._bases[snapshot.sha256]
    size = len(snapshot.data)
    assert hashlib.sha256(os.pread(fd, size, 0)).hexdigest() == snapshot.sha256


def test_a_database_that_grew_past_the_snapshot_is_mapped_too() -> None:
    env = load_environment("helpdesk")
    snapshot = env.snapshot
    base = snapshot.data
    db = snapshot.open_copy()
    db.execute("CREATE TABLE big (x BLOB)")
    db.execute("INSERT INTO big VALUES (zeroblob(3000000))")
    final = db.serialize()
    assert len(final) > len(base)
    delta = PageDelta.between(base, final)
    mapped = _cow.open_cow(snapshot, delta)
    assert mapped is not None
    try:
        assert bytes(mapped.data) == final
        assert mapped.execute("SELECT length(x) FROM big").fetchone()[0] == 3000000
        p = delta.page_size
        digest = snapshot.page_digests.with_delta(delta, lambda n: mapped.data[(n - 1) * p : n * p])
        assert digest == PageDigests.of(final, p).hexdigest()
    finally:
        mapped.close()


def test_grades_in_place_equal_grades_of_the_copying_and_the_old_paths(
    sealed: tuple[object, EpisodeStore, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, store, ids = sealed
    mapped = [grade_bundle(store.read(e), env, reference_cache=ReferenceCache()) for e in ids]
    old = [
        grade_bundle(
            store.read(e), env, skip_unchanged_tables=False, reference_cache=ReferenceCache()
        )
        for e in ids
    ]
    monkeypatch.setattr(_cow, "_usable", False)
    copied = [grade_bundle(store.read(e), env, reference_cache=ReferenceCache()) for e in ids]
    assert mapped == copied == old
    assert {g.score for g in mapped} != {1.0}  # some fail: the checks were really read


def test_reference_states_are_lent_reused_and_bounded() -> None:
    from mcpgym_grading._statepages import base_index
    from mcpgym_server import compute_lock

    env = load_environment("helpdesk")
    lock, index = compute_lock(env), base_index(env.snapshot)
    one, two = (env.variant(t, "easy", 0) for t in sorted(env.families)[:2])
    cache = ReferenceCache(max_open=1)
    a = cache.checkout(env, one, lock, index)
    cache.checkin(a)
    assert cache.checkout(env, one, lock, index) is a  # the same open state, lent again
    b = cache.checkout(env, two, lock, index)
    assert b is not a and b.mapping is not None  # mapped on the snapshot, not copied
    cache.checkin(a)
    cache.checkin(b)  # past max_open: the least recently given back is closed
    with pytest.raises(Exception, match="closed"):
        a.execute("SELECT 1")
    assert cache.checkout(env, two, lock, index) is b
