"""`EpisodeStore.sweep_debris`: what a killed sealing leaves is removed, a live writer's is not."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mcpgym_server import Environment, EpisodeManager, EpisodeStore
from mcpgym_server._debris import _HOST_TAG, _PROCESS_TOKEN

DEAD_PID = 2**31 - 2  # above any pid_max: no such process


def _debris(store: Path, name: str, *, age_s: float = 0.0) -> Path:
    path = store / name
    path.mkdir(parents=True)
    (path / "final.db.gz").write_bytes(b"partial")
    if age_s:
        then = time.time() - age_s
        os.utime(path, (then, then))
    return path


def test_only_debris_of_writers_that_are_gone_is_swept(tmp_path: Path) -> None:
    store = EpisodeStore(tmp_path / "episodes")
    me, eid = os.getpid(), "ep_" + "0" * 32
    live = _debris(store.root, f".tmp-{eid}~{_HOST_TAG}~{me}~{_PROCESS_TOKEN}~abc")
    dead = _debris(store.root, f".tmp-{eid}~{_HOST_TAG}~{DEAD_PID}~{_PROCESS_TOKEN}~abc")
    my_pid_earlier = _debris(store.root, f".tmp-{eid}~{_HOST_TAG}~{me}~0badf00d~abc")
    legacy = _debris(store.root, f".tmp-{eid}-k1ll3d")
    other_host = _debris(store.root, f".tmp-{eid}~ffffffff~{DEAD_PID}~{_PROCESS_TOKEN}~abc")
    other_host_old = _debris(store.root, f".tmp-{eid}~fffffffe~1~00000000~abc", age_s=7200)
    (store.root / ".tmp-stray-file").write_text("x")
    (store.root / eid).mkdir()  # a bundle directory: never touched

    removed = store.sweep_debris()

    gone = {dead.name, my_pid_earlier.name, legacy.name, other_host_old.name, ".tmp-stray-file"}
    assert set(removed) == gone
    assert sorted(p.name for p in store.root.iterdir()) == sorted([live.name, other_host.name, eid])


def test_a_sweep_during_sealing_leaves_the_live_writer_alone(
    toy_env: Environment, store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    swept: list[list[str]] = []
    real_replace = os.replace

    def replace_after_a_sweep(src: str | Path, dst: str | Path) -> None:
        # Another server starting on the same store sweeps while this one seals.
        swept.append(EpisodeStore(store_dir).sweep_debris())
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace_after_a_sweep)
    manager.seal(ep.id, "ended")
    assert swept == [[]]
    assert manager.store.read(ep.id).meta.termination == "ended"
