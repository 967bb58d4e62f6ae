"""`EpisodeStore.sweep_debris`: what a killed sealing leaves is removed, a live writer's is not."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpgym_server import Environment, EpisodeManager, EpisodeStore
from mcpgym_server import _debris as debris_module
from mcpgym_server._debris import _HOST_TAG, _PROCESS_TOKEN

ROOT = Path(__file__).resolve().parents[2]

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


_HALF_WRITER = """
import sys
from pathlib import Path

import mcpgym_server._bundle as bundle
from mcpgym_server import EpisodeManager, EpisodeStore
from tests.toyenv import make_toy_env

manager = EpisodeManager(make_toy_env(Path(sys.argv[2])), EpisodeStore(Path(sys.argv[1])))
ep = manager.open("set-target", "easy", 0)
real = bundle._write_new


def half_then_wait(path, data):
    real(path, data)
    if path.endswith("log.jsonl"):  # half the bundle written: wait to be told to go on
        print("half", flush=True)
        sys.stdin.readline()


bundle._write_new = half_then_wait
manager.seal(ep.id, "ended")
print("sealed", ep.id, flush=True)
"""


def test_a_live_writer_in_another_process_is_not_swept_after_a_forward_clock_jump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server seals a bundle (another process, half written) while a second server starts
    on the same store after the wall clock jumped two hours forward: the sweep leaves the
    live writer's directory alone and the bundle is sealed whole. Before (adversarial round
    15, left open), the sweep aged directories by wall clock and removed it: the writer's
    next file failed and the episode's bundle was lost."""
    root = tmp_path / "episodes"
    root.mkdir()
    writer = subprocess.Popen(
        [sys.executable, "-c", _HALF_WRITER, str(root), str(tmp_path / "toy")],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "half"
        (half,) = [p.name for p in root.iterdir() if p.name.startswith(".tmp-")]
        real_time = time.time
        monkeypatch.setattr(time, "time", lambda: real_time() + 7200)  # jumped forward

        removed = EpisodeStore(root).sweep_debris()

        assert removed == [], "a live writer's half-written bundle was swept"
        assert (root / half).is_dir()
        writer.stdin.write("\n")
        writer.stdin.flush()
        said = writer.stdout.readline().split()
        assert writer.wait(timeout=60) == 0
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert said[0] == "sealed", said
    assert EpisodeStore(root).read(said[1]).meta.termination == "ended"


def test_a_locked_writers_directory_is_swept_once_its_lock_is_free_whatever_its_pid(
    tmp_path: Path,
) -> None:
    """A directory a writer locked (`writer_dir`) whose lock nobody holds is debris at once,
    even when its pid now names a live process (a reused pid): no age is waited."""
    store = EpisodeStore(tmp_path / "episodes")
    eid = "ep_" + "1" * 32
    reused = _debris(store.root, f".tmp-{eid}~{_HOST_TAG}~{os.getppid()}~0badf00d~L~1")
    tmp, lock = debris_module.writer_dir(str(store.root), eid)  # this process, lock held
    assert lock is not None

    removed = store.sweep_debris()

    assert removed == [reused.name]
    assert Path(tmp).is_dir()
    os.close(lock)
    other = EpisodeStore(store.root)
    assert other.sweep_debris() == []  # still this process's own: never swept by itself


def test_on_a_file_system_without_flock_writers_write_and_sweeps_judge_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``flock`` fails (some network or FUSE file systems), a writer still writes
    (its directory unlocked) and a sweep judges marked directories by their writer's name,
    as before the lock: a dead writer's is swept, this process's own is kept."""
    import errno
    import fcntl

    def no_flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_flock)
    store = EpisodeStore(tmp_path / "episodes")
    tmp, lock = debris_module.writer_dir(str(store.root), "ep_" + "2" * 32)
    assert lock is None and Path(tmp).is_dir()
    dead = _debris(store.root, f".tmp-ep_{'3' * 32}~{_HOST_TAG}~{DEAD_PID}~0badf00d~L~1")

    assert store.sweep_debris() == [dead.name]
    assert Path(tmp).is_dir()
