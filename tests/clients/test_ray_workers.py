"""Ray's workers that cannot start (`mcpgym_clients.backends._ray_workers`, issue 12).

Ray reads ``RAY_ENABLE_UV_RUN_RUNTIME_ENV`` once, at its first import. Before, when the
caller had imported Ray before mcpgym's Ray backend set it off, a driver under ``uv run``
had Ray run every worker with ``uv run`` in a copy of the working directory, synced without
Ray: each worker died at ``import ray``, Ray started another a minute later, and the campaign
waited out the 180 s actor start (213 s, ``Get timed out: some object(s) not ready``). Now
the backend applies the environment's setting to the Ray already imported before it starts
Ray, and an actor whose worker dies at start stops the campaign at once with the worker's
own error (what the worker printed to ``raylet.err``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from mcpgym_clients.backends._ray_launch import Launcher
from mcpgym_clients.backends._ray_workers import (
    UV_RUN_SETTING,
    StartFailures,
    runs_workers_with_uv,
    uv_run_setting_applied,
)
from mcpgym_clients.errors import InfraError
from mcpgym_server import Environment

CRASH = """\
warning: `VIRTUAL_ENV=/x/.venv` does not match the project environment path `.venv`
Creating virtual environment at: .venv
Traceback (most recent call last):
  File "/x/ray/_private/workers/default_worker.py", line 8, in <module>
    import ray
ModuleNotFoundError: No module named 'ray'
"""


def _ray_with(constant: bool) -> Any:
    return SimpleNamespace(
        _private=SimpleNamespace(ray_constants=SimpleNamespace(**{UV_RUN_SETTING: constant}))
    )


def test_a_ray_imported_before_the_setting_reads_it_as_the_environment_has_it() -> None:
    ray = _ray_with(True)  # imported while the setting was unset: Ray's default, on
    assert uv_run_setting_applied(ray, {UV_RUN_SETTING: "0"}) is True
    assert getattr(ray._private.ray_constants, UV_RUN_SETTING) is False
    assert uv_run_setting_applied(_ray_with(True), {}) is True  # unset: mcpgym's default, off
    # asked for on: left on; already off, or no such constant: nothing to do
    for value in ("1", "true", "TRUE"):
        ray = _ray_with(True)
        assert uv_run_setting_applied(ray, {UV_RUN_SETTING: value}) is False
        assert getattr(ray._private.ray_constants, UV_RUN_SETTING) is True
    assert uv_run_setting_applied(_ray_with(False), {UV_RUN_SETTING: "0"}) is False
    assert uv_run_setting_applied(SimpleNamespace(), {}) is False  # type: ignore[arg-type]


def test_start_failures_reads_only_tracebacks_added_after_it_was_made(tmp_path: Path) -> None:
    err = tmp_path / "raylet.err"
    err.write_text(CRASH.replace("'ray'", "'old'"))  # an earlier campaign's: not ours
    failures = StartFailures(err)
    assert failures.error() is None
    with err.open("a") as f:
        f.write(CRASH.split("Traceback")[0])
    assert failures.error() is None  # no traceback yet
    with err.open("a") as f:
        f.write("Traceback" + CRASH.split("Traceback")[1])
    assert failures.error() == "ModuleNotFoundError: No module named 'ray'"
    assert StartFailures(None).error() is None
    assert StartFailures(tmp_path / "absent").error() is None
    assert StartFailures.of(SimpleNamespace()).path is None  # type: ignore[arg-type]


def test_a_uv_run_job_is_recognised_by_its_workers_executable() -> None:
    def ray(env: dict[str, Any]) -> Any:
        return SimpleNamespace(get_runtime_context=lambda: SimpleNamespace(runtime_env=env))

    assert runs_workers_with_uv(ray({"py_executable": "uv run --python 3.11.7 python"}))
    assert not runs_workers_with_uv(ray({"py_executable": "/usr/bin/python3"}))
    assert not runs_workers_with_uv(ray({}))
    assert not runs_workers_with_uv(SimpleNamespace())  # type: ignore[arg-type]


class _PendingRay:
    """A Ray whose actors never start (``get`` waits out its timeout) and whose workers'
    deaths are printed to ``logs/raylet.err``, like Ray's when a worker dies at start."""

    def __init__(self, logs: Path) -> None:
        self.logs, self.killed, self.stop = logs, [], threading.Event()
        worker = SimpleNamespace(node=SimpleNamespace(get_logs_dir_path=lambda: str(logs)))
        self._private = SimpleNamespace(worker=SimpleNamespace(global_worker=worker))

    def get(self, refs: Any, timeout: float) -> Any:
        self.stop.wait(timeout)
        raise TimeoutError("Get timed out: some object(s) not ready.")

    def kill(self, handle: Any) -> None:
        self.killed.append(handle)

    def get_runtime_context(self) -> Any:
        return SimpleNamespace(runtime_env={"py_executable": "uv run --python 3.11.7 python"})


@pytest.mark.anyio
async def test_a_worker_dead_at_start_stops_the_actor_start_with_its_error(
    toy_env: Environment, tmp_path: Path
) -> None:
    (tmp_path / "raylet.err").write_text("")
    ray = _PendingRay(tmp_path)
    launcher = Launcher(
        ray,  # type: ignore[arg-type]
        toy_env,
        tmp_path,
        host="127.0.0.1",
        seed_salt=None,
        idle_ttl=60,
        max_requests_per_second=None,
        request_burst=10,
        episode_timeout=None,
        graders_per_node=1,
        actor_cpus=0.25,
    )
    handle = SimpleNamespace(start=SimpleNamespace(remote=lambda: "ref"))

    async def crash() -> None:
        await anyio.sleep(0.5)
        with (tmp_path / "raylet.err").open("a") as f:
            f.write(CRASH)

    try:
        with anyio.fail_after(30):  # before: Ray's 180 s, then "Get timed out"
            async with anyio.create_task_group() as tg:
                tg.start_soon(crash)
                with pytest.raises(InfraError) as info:
                    await launcher._start([handle], ["mcpgym-env-1-x"])  # pyright: ignore[reportPrivateUsage]
    finally:
        ray.stop.set()
        await launcher.mcp_http.aclose()
    text = str(info.value)
    assert "actors mcpgym-env-1-x did not start: Ray's worker process died at start" in text
    assert "ModuleNotFoundError: No module named 'ray'" in text
    assert f"set {UV_RUN_SETTING}=0 before Ray is first imported" in text
    assert ray.killed == [handle] and launcher.started == []


DRIVER = """
import os, sys, tempfile, time
import ray  # the caller's import, before mcpgym's backend sets Ray's uv-run setting
import anyio
from mcpgym_clients.backends.ray import ray_backend
from mcpgym_server import load_environment

async def main():
    t0 = time.monotonic()
    try:
        async with ray_backend(load_environment("helpdesk"), tempfile.mkdtemp(), actors=1,
                               num_cpus=2) as runner:
            print("started", len(runner.urls), flush=True)
    except Exception as exc:
        print("failed", f"{time.monotonic() - t0:.0f}", exc, flush=True)

anyio.run(main)
"""


def _drive_under_uv_run(setting: str | None) -> tuple[str, float]:
    """`DRIVER` run by ``uv run --no-sync`` (Ray looks for a ``uv run`` ancestor), with
    Ray's uv-run setting as given (``None``: unset): its output and seconds."""
    if importlib.util.find_spec("ray") is None:  # not imported here: the driver does
        pytest.skip("the `ray` extra is not installed")
    env = {k: v for k, v in os.environ.items() if k != UV_RUN_SETTING}
    env |= {"RAY_USAGE_STATS_ENABLED": "0", "UV_PYTHON_DOWNLOADS": "never"}
    env |= {UV_RUN_SETTING: setting} if setting is not None else {}
    root = Path(__file__).parents[2]
    # no --project: Ray then ships the working directory and its workers sync a new
    # environment there (with --project they would reuse this checkout's, which has Ray)
    cmd = ["uv", "run", "--no-sync", "python", "-c", DRIVER]
    t0 = time.monotonic()
    proc = subprocess.Popen(
        cmd, env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=400)
    finally:  # Ray's processes too, when the start hangs (a loaded machine)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return out[-4000:], time.monotonic() - t0


@pytest.mark.slow
def test_ray_imported_before_the_backend_under_uv_run_still_starts_its_actors() -> None:
    """Before: 213 s, then ``actors ... did not start: Get timed out``."""
    if sys.platform != "linux":
        pytest.skip("Ray's uv-run hook reads the process tree (psutil) as on Linux")
    out, _ = _drive_under_uv_run(None)
    assert "started 1" in out, out


@pytest.mark.slow
def test_workers_run_with_uv_as_asked_fail_the_start_at_once_with_their_error() -> None:
    """``RAY_ENABLE_UV_RUN_RUNTIME_ENV=1`` asked for under ``uv run``: every worker dies
    at ``import ray``; the start stops with that error and what to set, well before Ray's
    180 s (before: the 180 s, then ``Get timed out``)."""
    if sys.platform != "linux":
        pytest.skip("Ray's uv-run hook reads the process tree (psutil) as on Linux")
    out, seconds = _drive_under_uv_run("1")
    assert "failed" in out and "Ray's worker process died at start" in out, out
    assert "No module named 'ray'" in out and f"set {UV_RUN_SETTING}=0" in out, out
    took = int(out.split("failed", 1)[1].split()[0])
    assert took < 120, (took, seconds, out)
