"""Sealing off the event loop: expiry sweeps yield, bundles are written in worker threads,
and an episode being sealed answers every caller consistently (issue 9 §6)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import anyio
import anyio.lowlevel
import anyio.to_thread
import pytest

from mcpgym_server import Environment, EpisodeManager, EpisodeSealedError, EpisodeStore
from mcpgym_server._bundle import EpisodeBundle
from mcpgym_server._capacity import EPISODE_OVERHEAD, MIN_OPEN, default_max_open

pytestmark = pytest.mark.anyio


class RecordingStore(EpisodeStore):
    """Records the thread each bundle is written on; can fail the next write."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.threads: list[int] = []
        self.fail_next = False
        self.entered = threading.Event()
        self.release: threading.Event | None = None

    def write(self, bundle: EpisodeBundle) -> Path:
        self.threads.append(threading.get_ident())
        self.entered.set()
        if self.release is not None:
            self.release.wait(30)
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        return super().write(bundle)


async def test_the_expiry_sweep_yields_to_the_loop_and_seals_off_it(
    toy_env: Environment, store_dir: Path
) -> None:
    store = RecordingStore(store_dir)
    manager = EpisodeManager(toy_env, store, idle_ttl=10, seal_workers=2)
    ids = [manager.open("set-target", "easy", i).id for i in range(40)]
    seen_open: list[int] = []
    done = anyio.Event()

    async def other_work() -> None:  # stands for /healthz and other episodes' calls
        while not done.is_set():
            seen_open.append(len(manager.open_episodes))
            await anyio.lowlevel.checkpoint()

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(other_work)
            sealed = await manager.reap_idle_async(now=time.monotonic() + 60)
            done.set()
    assert sorted(sealed) == sorted(ids)
    assert manager.open_episodes == []
    assert all(store.exists(eid) for eid in ids)
    # the loop ran other work while the sweep was part-way through
    assert any(0 < n < len(ids) for n in seen_open), seen_open[:5]
    assert threading.get_ident() not in store.threads  # bundles written in worker threads


async def test_an_episode_being_sealed_is_refused_and_its_seal_shared(
    toy_env: Environment, store_dir: Path
) -> None:
    store = RecordingStore(store_dir)
    store.release = threading.Event()
    manager = EpisodeManager(toy_env, store)
    ep = manager.open("set-target", "easy", 1)
    manager.call(ep.id, "put", {"key": "x", "value": "1"})
    metas = []

    async def end(reason: str) -> None:
        metas.append(await manager.seal_async(ep.id, reason))  # type: ignore[arg-type]

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(end, "timeout")
            await anyio.to_thread.run_sync(store.entered.wait)  # mid-write, off the loop
            with pytest.raises(EpisodeSealedError, match="timeout"):
                manager.call(ep.id, "get", {"key": "x"})
            tg.start_soon(end, "ended")
            await anyio.wait_all_tasks_blocked()
            store.release.set()
    assert [m.termination for m in metas] == ["timeout", "timeout"]
    assert manager.store.read_meta(ep.id) == metas[0]
    assert manager.seal(ep.id, "ended") == metas[0]


async def test_a_failed_write_leaves_the_episode_open(
    toy_env: Environment, store_dir: Path
) -> None:
    store = RecordingStore(store_dir)
    manager = EpisodeManager(toy_env, store)
    ep = manager.open("set-target", "easy", 1)
    store.fail_next = True
    with pytest.raises(OSError, match="disk full"):
        await manager.seal_async(ep.id, "ended")
    assert manager.is_open(ep.id)
    assert manager.call(ep.id, "put", {"key": "x", "value": "1"}).status == "ok"
    assert (await manager.seal_async(ep.id, "ended")).steps == 1


async def test_max_open_follows_memory_and_snapshot_size(toy_env: Environment) -> None:
    size = 1_073_152
    assert default_max_open(size, memory=2 * 1024**3) == int(
        0.5 * 2 * 1024**3 // (size + EPISODE_OVERHEAD)
    )
    assert default_max_open(size * 100, memory=2 * 1024**3) == MIN_OPEN
    manager = EpisodeManager(toy_env, EpisodeStore(Path("/nonexistent-not-written")), max_open=3)
    assert manager.max_open == 3
