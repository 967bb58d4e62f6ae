"""Sandboxes opened ahead (`mcpgym_server._sandbox_pool`) are as private as fresh ones."""

from __future__ import annotations

import threading

from mcpgym_helpdesk import environment
from mcpgym_server import EpisodeManager, MemoryEpisodeStore
from mcpgym_server._sandbox_pool import SandboxPool


def _manager(pool: int) -> EpisodeManager:
    return EpisodeManager(environment, MemoryEpisodeStore(), max_open=10, sandbox_pool=pool)


def _ready(manager: EpisodeManager, n: int) -> None:
    """Wait (bounded) until the pool holds ``n`` connections."""
    pool = manager._pool  # noqa: SLF001
    with pool._cond:  # noqa: SLF001
        assert pool._cond.wait_for(lambda: len(pool._ready) >= n, timeout=30)  # noqa: SLF001


def _run(manager: EpisodeManager, family: str, band: str, seed: int) -> tuple[str, str | None]:
    v = environment.variant(family, band, seed)
    ep = manager.open(family, band, seed)
    for call in v.reference:
        if manager.is_open(ep.id):
            manager.call(ep.id, call.name, dict(call.arguments))
    meta = manager.seal(ep.id, "ended", answer=v.answer)
    return meta.final_sha256, meta.delta_sha256


def test_pooled_sandboxes_end_in_the_states_fresh_ones_do() -> None:
    pooled, fresh = _manager(2), _manager(0)
    try:
        for family in sorted(environment.families)[:6]:
            for seed in (0, 1):
                pooled._pool.take()  # noqa: SLF001 - start the worker
                _ready(pooled, 2)
                assert _run(pooled, family, "medium", seed) == _run(fresh, family, "medium", seed)
        assert pooled._pool.templates  # noqa: SLF001 - first calls taught it statements
    finally:
        pooled.close_all()


def test_a_pooled_connection_is_the_snapshot_and_goes_to_one_episode() -> None:
    manager = _manager(2)
    try:
        family = sorted(environment.families)[0]
        _run(manager, family, "easy", 0)  # learns its first call's statements
        manager._pool.take()  # noqa: SLF001 - a connection made before the learning
        _ready(manager, 2)
        db = manager._pool.take()  # noqa: SLF001
        assert db is not None
        assert db.serialize() == environment.snapshot.data  # prepared, nothing run
        db.close()
        _ready(manager, 2)
        a = manager.open(family, "easy", 0)
        b = manager.open(family, "easy", 0)
        assert a.sandbox.db is not b.sandbox.db
        first = "(SELECT MIN(id) FROM customers)"
        a.sandbox.db.execute(f"UPDATE customers SET email = 'a@example.org' WHERE id = {first}")
        row = b.sandbox.db.execute(f"SELECT email FROM customers WHERE id = {first}").fetchone()
        assert row[0] != "a@example.org"
    finally:
        manager.close_all()


def test_take_never_waits_and_a_closed_pool_gives_nothing() -> None:
    gate = threading.Event()
    made: list[object] = []

    def make() -> object:
        gate.wait(30)
        made.append(object())
        raise RuntimeError("stop")  # the worker logs it and stops

    pool = SandboxPool(make, 2)  # type: ignore[arg-type]
    assert pool.take() is None  # nothing ready yet: the caller makes its own
    gate.set()
    pool.close()
    assert pool.take() is None
    assert SandboxPool(make, 0).take() is None  # type: ignore[arg-type]


def test_only_the_first_call_teaches_the_pool() -> None:
    manager = _manager(2)
    try:
        family = sorted(environment.families)[0]
        v = environment.variant(family, "easy", 0)
        ep = manager.open(family, "easy", 0)
        manager.call(ep.id, v.reference[0].name, dict(v.reference[0].arguments))
        learnt = manager._pool.templates  # noqa: SLF001
        for call in v.reference[1:]:
            if manager.is_open(ep.id):
                manager.call(ep.id, call.name, dict(call.arguments))
        assert manager._pool.templates == learnt  # noqa: SLF001
        assert ep.sandbox.on_query is None
    finally:
        manager.close_all()
