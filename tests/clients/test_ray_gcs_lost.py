"""Ray's GCS lost under a campaign of ``--backend ray`` stops it like any infra stop
(adversarial round 18, F10).

Before, nothing watched the GCS: ``kill -9`` of Ray's ``gcs_server`` mid-campaign let the
episodes go on (they talk HTTP to the actors) until Ray's core worker ended the process 60 s
later (``Failed to connect to GCS within 60 seconds ... The program will terminate``, exit
status 1): no ``incomplete:`` line, and the slots not played had no row. Now `watch_gcs`
gives the GCS up after a quarter of Ray's wait, and the runner stops the campaign: every
planned slot ends as one row, the ``incomplete:`` line says how many and how to resume, exit
status `EXIT_INCOMPLETE`. These tests need no Ray (the runner over real loopback servers, a
fake probe); the real ``kill -9`` is ``test_ray_backend.py``'s slow test.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from mcpgym_clients import serve_locally
from mcpgym_clients.agents import ReferenceAgent
from mcpgym_clients.backends._ray_gcs import (
    PROBE_TIMEOUT_S,
    ClusterLostError,
    gcs_probe,
    lost_after,
    ray_reconnect_s,
    watch_gcs,
)
from mcpgym_clients.backends._ray_launch import Actor
from mcpgym_clients.backends.ray import RayEpisodeRunner, _Slot
from mcpgym_clients.campaign import EXIT_INCOMPLETE, CampaignStatus, run_campaign
from mcpgym_clients.commands._common import exit_code
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.selection import VariantKey
from mcpgym_server import load_environment

VARIANTS = [
    VariantKey(task, band, seed)
    for task in ("refund-damaged-item", "cancel-order")
    for band in ("easy", "hard")
    for seed in (0, 1)
]


def test_the_gcs_is_given_up_after_a_quarter_of_rays_own_wait() -> None:
    assert ray_reconnect_s({}) == 60.0
    assert ray_reconnect_s({"RAY_gcs_rpc_server_reconnect_timeout_s": "30"}) == 30.0
    assert ray_reconnect_s({"RAY_gcs_rpc_server_reconnect_timeout_s": "x"}) == 60.0
    assert lost_after(60.0) == 15.0 and lost_after(4.0) == 2.0
    assert exit_code(ClusterLostError("gone")) == EXIT_INCOMPLETE


def test_the_probe_asks_the_drivers_gcs_client_and_reads_any_failure_as_silence() -> None:
    calls: list[tuple[Any, ...]] = []

    def get(*args: Any, timeout: float) -> None:
        calls.append((*args, timeout))
        if len(calls) > 1:
            raise RuntimeError("Timed out while waiting for GCS to become available.")

    client = SimpleNamespace(internal_kv_get=get)
    fake = SimpleNamespace(_private=SimpleNamespace(worker=SimpleNamespace(
        global_worker=SimpleNamespace(gcs_client=client))))  # fmt: skip
    probe = gcs_probe(fake)  # type: ignore[arg-type]
    assert probe is not None and probe() is True and probe() is False
    assert calls[0][2] == PROBE_TIMEOUT_S
    # a Ray without that private API, or a Ray Client driver: nothing is watched
    bare = SimpleNamespace(_private=SimpleNamespace(worker=SimpleNamespace(
        global_worker=SimpleNamespace())))  # fmt: skip
    assert gcs_probe(bare) is None  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_watch_gcs_calls_lost_once_the_gcs_is_silent_long_enough() -> None:
    now = [0.0]
    answers = iter([True, False, True, False, False, False, False])
    said: list[str] = []

    def probe() -> bool:
        now[0] += 1.0  # each probe takes a second of the fake clock
        return next(answers)

    with anyio.fail_after(10):
        await watch_gcs(probe, said.append, after=2.5, ray_wait=10, every=0, clock=lambda: now[0])
    # answered at t=1 and t=3; silent from t=3: given up at t=6 (3 s >= 2.5 s), not at t=2
    assert len(said) == 1 and now[0] == 6.0
    assert "has not answered for 3 s" in said[0] and "once it has been gone 10 s" in said[0]


@pytest.mark.anyio
async def test_one_slow_failed_probe_is_no_lost_gcs() -> None:
    """A probe that fails after 20 s (a GCS or a driver starved of CPU, a thread queued)
    right after an answer: before, the GCS was given up at once (20 s >= 2.5 s since the
    last answer); now it takes two failed probes in a row, silence counted from the first."""
    now = [0.0]
    answers = iter([(True, 1.0), (False, 20.0), (True, 1.0), (False, 1.0), (False, 1.0)])
    answers = iter([*answers, (False, 1.0), (False, 1.0)])
    said: list[str] = []

    def probe() -> bool:
        ok, took = next(answers)
        now[0] += took
        return ok

    with anyio.fail_after(10):
        await watch_gcs(probe, said.append, after=2.5, ray_wait=10, every=0, clock=lambda: now[0])
    # the slow failure at t=21 is forgiven (answered at t=22); silent from t=22 (the first
    # failed probe sent): given up at t=25, its third failure (3 s >= 2.5 s)
    assert len(said) == 1 and now[0] == 25.0
    assert "has not answered for 3 s" in said[0]


@pytest.mark.anyio
async def test_the_probe_is_not_queued_behind_the_campaigns_threads() -> None:
    """Every thread of anyio's default pool busy (the campaign's store writes, actor
    probes): the GCS is still probed (before, the probe waited for a free thread and the
    wait counted as the GCS's silence)."""
    limiter = anyio.to_thread.current_default_thread_limiter()
    tokens, limiter.total_tokens = limiter.total_tokens, 1
    release = threading.Event()
    probed = anyio.Event()
    said: list[str] = []

    def probe() -> bool:
        anyio.from_thread.run_sync(probed.set)
        return True

    async def busy() -> None:  # holds the pool's only thread until released
        await anyio.to_thread.run_sync(release.wait, abandon_on_cancel=True)

    try:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:
                tg.start_soon(busy)
                await anyio.wait_all_tasks_blocked()
                tg.start_soon(functools.partial(watch_gcs, probe, said.append, after=2.5))
                await probed.wait()
                release.set()
                tg.cancel_scope.cancel()
    finally:
        release.set()
        limiter.total_tokens = tokens
    assert said == []


class _Waiting(ReferenceAgent):
    """The reference agent; the first ``wave`` episodes wait inside it, then ``lose`` runs."""

    def __init__(self, wave: int, lose: Any) -> None:
        self.wave, self.lose = wave, lose
        self.arrived = 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.arrived += 1
        if self.arrived == self.wave:
            self.lose()
        await anyio.sleep_forever()
        raise AssertionError("not reached")


@pytest.mark.anyio
async def test_a_lost_cluster_stops_the_campaign_with_a_row_for_every_slot(
    tmp_path: Path,
) -> None:
    env = load_environment("helpdesk")
    status = CampaignStatus()
    with anyio.fail_after(60), RunStore(tmp_path / "runs.db") as store:
        async with serve_locally(env, tmp_path / "episodes") as servers:
            drivers = [
                EpisodeDriver(
                    servers.env_url,
                    servers.grading_url,
                    servers.grading_token,
                    control_token=servers.control_token,
                    environment=env,
                )
                for _ in range(2)
            ]
            slots = [
                _Slot(Actor(None, servers.env_url, "n", f"env-{i}"), Actor(None, "", "n", "g"), d)
                for i, d in enumerate(drivers)
            ]
            runner = RayEpisodeRunner(SimpleNamespace(episode_timeout=None), slots, 2)  # type: ignore[arg-type]
            agent = _Waiting(4, lambda: runner.cluster_lost("Ray's GCS is gone"))
            with pytest.raises(ClusterLostError, match="Ray's GCS is gone"):
                await run_campaign(
                    runner,
                    agent,
                    VARIANTS,
                    store,
                    concurrency=4,
                    baseline=False,
                    show_progress=False,
                    status=status,
                )
            await runner.aclose()
            # asked for after the loss: refused at once, nothing started
            with pytest.raises(ClusterLostError):
                await runner.run_episode(agent, "cancel-order", "easy", 0)
        rows = store.episodes(status.run_id or "")
        (run,) = [r for r in store.runs() if r["id"] == status.run_id]
    # every planned slot is one unscored row naming the loss (4 in flight, 4 not started)
    assert len(rows) == len(VARIANTS)
    assert {r["termination"] for r in rows} == {"infra_error"}
    assert all("Ray's GCS is gone" in (r["error"] or "") for r in rows)
    assert run["finished_at"] is None
    assert status.incomplete is not None
    assert status.incomplete.startswith(
        "incomplete: 8 of 8 planned episodes are unscored (infra_error 8); run the same "
        f"command again to resume run {status.run_id}"
    )


def _descendants(pid: int) -> dict[int, str]:
    """The processes below ``pid``, with their command lines."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, todo = {}, [pid]
    while todo:
        p = todo.pop()
        for child in [c for c, parent in parents.items() if parent == p]:
            with contextlib.suppress(OSError):
                found[child] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            todo.append(child)
    return {p: c.decode(errors="replace") for p, c in found.items()}


@pytest.mark.slow
def test_rays_gcs_killed_mid_campaign_ends_it_with_the_incomplete_line(tmp_path: Path) -> None:
    """``kill -9`` of Ray's ``gcs_server`` under ``mcpgym eval --backend ray``, a real
    process: exit status `EXIT_INCOMPLETE` with the stop and the ``incomplete:`` line, a row
    for every planned slot, the run left to resume (before: Ray's own message after its
    reconnect timeout, exit status 1, the slots not played without a row)."""
    if importlib.util.find_spec("ray") is None:  # not imported here: the eval process runs it
        pytest.skip("the `ray` extra is not installed")
    store = tmp_path / "runs.db"
    args = [str(Path(sys.executable).with_name("mcpgym")), "eval", "helpdesk"]
    # 200 seeds (5,600 slots): far more than any machine plays in the watch's 7.5 s, so
    # the campaign is still running when the GCS is found gone (with 6 seeds, a fast
    # machine played all 168 in those 7.5 s and the run ended complete, exit status 0)
    args += ["--agent", "reference", "--tasks", "all", "--bands", "all", "--seeds", "0-199"]
    args += ["--no-baseline", "--backend", "ray", "--ray-actors", "1", "--concurrency", "2"]
    args += ["--store", str(store), "--episodes", str(tmp_path / "episodes")]
    env = {
        **os.environ,
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
        # Ray ends the process 30 s after the GCS is gone (60 by default): mcpgym gives it
        # up after a quarter of that
        "RAY_gcs_rpc_server_reconnect_timeout_s": "30",
        "COLUMNS": "300",
    }
    log = tmp_path / "eval.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            args, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 400
        while _stored(store) < 4:
            assert proc.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the campaign never got going"
            time.sleep(0.2)
        (gcs,) = [p for p, cmd in _descendants(proc.pid).items() if "gcs_server" in cmd]
        os.kill(gcs, signal.SIGKILL)
        code = proc.wait(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    text = " ".join(log.read_text().split())
    assert code == EXIT_INCOMPLETE, text[-2000:]
    assert "error: Ray's GCS (the cluster's control store) has not answered for" in text
    assert "once it has been gone 30 s" in text
    m = re.search(
        # counts of 1,000 and more are written with thousands separators (5,558 of 5,600)
        r"incomplete: ([\d,]+) of 5,600 planned episodes are unscored \(infra_error \1\); "
        r"run the same command again to resume run (\S+) and retry them",
        text,
    )
    assert m is not None, text[-2000:]
    with RunStore(store) as runs:
        (run,) = runs.runs()
        rows = runs.episodes(run["id"])
    assert run["id"] == m[2] and run["finished_at"] is None
    assert len(rows) == 5600
    assert sum(1 for r in rows if not r["scored"]) == int(m[1].replace(",", "")) > 0


def _stored(store: Path) -> int:
    """Episode rows in the run store (0 while it cannot be read)."""
    if not store.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT count(*) FROM episodes").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0
