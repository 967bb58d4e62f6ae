"""A sandbox copied by the backup API (`Snapshot.open_private`) seals the bytes a sandbox in
SQLite's memory VFS (`Snapshot.open_copy`) does: every bundle digest is the same either way."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment
from mcpgym_server._snapshot import counted_commits


def _manager(env: Any, private: bool) -> EpisodeManager:
    manager = EpisodeManager(env, MemoryEpisodeStore(), max_open=10)
    manager.private_copy = private
    return manager


def _digests(manager: EpisodeManager, family: str, band: str, seed: int, calls: Any) -> Any:
    ep = manager.open(family, band, seed)
    for name, args in calls:
        if manager.is_open(ep.id):
            manager.call(ep.id, name, args)
    meta = manager.seal(ep.id, "ended", answer="done")
    final = manager.store.read(ep.id).final_db
    return meta.final_sha256, meta.delta_sha256, meta.final_pages_sha256, final[:100]


@pytest.mark.parametrize("env_name", ["helpdesk", "ledger"])
def test_a_private_copy_holds_the_snapshots_bytes(env_name: str) -> None:
    snapshot = load_environment(env_name).snapshot
    db = snapshot.open_private()
    try:
        assert db.serialize() == snapshot.data  # the schema cookie put back by the pragma
    finally:
        db.close()


@pytest.mark.parametrize("env_name", ["helpdesk", "ledger"])
def test_private_copies_seal_the_bytes_open_copy_does(env_name: str) -> None:
    env = load_environment(env_name)
    old, new = _manager(env, False), _manager(env, True)
    for family in sorted(env.families):
        for seed in (0, 1):
            v = env.variant(family, "medium", seed)
            ref = [(c.name, dict(c.arguments)) for c in v.reference]
            episodes = [
                ref,  # reads and writes
                [],  # the setup statements only
                ref[:1] * 2,  # reads only
                [*ref, *ref],  # writes repeated: some fail as tool errors after the first
                [(ref[-1][0], {"nonsense": 1}), ("no_such_tool", {}), *ref[:2]],
            ]
            for calls in episodes:
                a = _digests(old, family, "medium", seed, calls)
                b = _digests(new, family, "medium", seed, calls)
                assert a == b, (family, seed, calls)


def test_counted_commits_rewrites_the_three_header_fields_only() -> None:
    data = bytes(range(256)) * 16
    assert counted_commits(data, 0) is data
    out = counted_commits(data, 3)
    assert len(out) == len(data)
    assert int.from_bytes(out[24:28], "big") == int.from_bytes(data[24:28], "big") + 3
    assert out[92:96] == out[24:28]
    version = sqlite3.sqlite_version_info
    assert int.from_bytes(out[96:100], "big") == (
        version[0] * 1_000_000 + version[1] * 1_000 + version[2]
    )
    assert (out[:24], out[28:92], out[100:]) == (data[:24], data[28:92], data[100:])
