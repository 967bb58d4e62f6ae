"""Campaigns on Ray (`mcpgym_clients.backends.ray`): same grades as the local backend, and
a killed environment actor costs only a retry.

The Ray tests need the ``ray`` extra (skipped without it) and share one local Ray
(``num_cpus=2``, no dashboard, nothing leaves the machine): its start-up alone takes
~10 s on two loaded cores, hence ``slow``. ``.ci/run`` installs the extra for them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpgym_clients import serve_locally
from mcpgym_clients.agents import ReferenceAgent
from mcpgym_clients.backends import backend_problem
from mcpgym_clients.campaign import EXIT_INCOMPLETE, run_campaign
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.runstore import RunStore
from mcpgym_clients.selection import VariantKey
from mcpgym_server import load_environment

VARIANTS = [
    VariantKey(task, band, seed)
    for task in ("refund-damaged-item", "cancel-order")
    for band in ("easy", "hard")
    for seed in (0, 1)
]


def test_without_ray_the_backend_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcpgym_clients.backends.ray import import_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(ConfigurationError) as info:
        import_ray()
    assert "mcpgym-clients[ray]" in str(info.value)
    assert "\n" not in str(info.value)


def test_backend_options_are_checked() -> None:
    assert backend_problem("local", None, None) is None
    assert backend_problem("ray", "auto", None) is None
    assert "valid backends: local, ray" in (backend_problem("dask", None, None) or "")
    assert "--env-url" in (backend_problem("ray", None, "http://127.0.0.1:1") or "")
    assert "--backend ray" in (backend_problem("local", "auto", None) or "")


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def _outcomes(records: list[EpisodeRecord]) -> dict[tuple[str, str, int], Any]:
    return {
        (r.task, r.band, r.seed): (
            r.termination,
            r.score,
            r.passed,
            [(c["name"], c["passed"], c["detail"]) for c in (r.grade or {}).get("checks", [])],
        )
        for r in records
    }


@pytest.mark.slow
@pytest.mark.anyio
async def test_ray_and_local_backends_give_the_same_grades(
    ray_session: Any, tmp_path: Path
) -> None:
    from mcpgym_clients.backends.ray import ray_backend

    env = load_environment("helpdesk")
    agent = ReferenceAgent()
    with anyio.fail_after(240):
        with RunStore(tmp_path / "local.db") as store:
            async with (
                serve_locally(env, tmp_path / "local-episodes") as servers,
                EpisodeDriver(
                    servers.env_url,
                    servers.grading_url,
                    servers.grading_token,
                    control_token=servers.control_token,
                    environment=env,
                ) as driver,
            ):
                local = await run_campaign(
                    driver, agent, VARIANTS, store, baseline=True, show_progress=False
                )
        with RunStore(tmp_path / "ray.db") as store:
            async with ray_backend(env, tmp_path / "ray-episodes", actors=2) as runner:
                await runner.check_control()
                await runner.check_grading()
                on_ray = await run_campaign(
                    runner, agent, VARIANTS, store, baseline=True, show_progress=False
                )
    assert local.incomplete() is None and on_ray.incomplete() is None
    assert len(on_ray.records) == len(VARIANTS)
    assert _outcomes(on_ray.records) == _outcomes(local.records)
    assert _outcomes(on_ray.baseline or []) == _outcomes(local.baseline or [])
    assert {r.lock for r in on_ray.records} == {r.lock for r in local.records}
    # the bundles were sealed by the actors into the given store
    assert all((tmp_path / "ray-episodes" / r.episode_id).exists() for r in on_ray.records)


class _KillingAgent(ReferenceAgent):
    """The reference agent; the first ``wave`` episodes wait inside the agent until all
    ``wave`` are there, then one environment actor is killed under them."""

    def __init__(self, wave: int, kill: Any) -> None:
        self.wave, self.kill = wave, kill
        self.arrived = 0
        self.released = anyio.Event()

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        if not self.released.is_set():
            self.arrived += 1
            if self.arrived == self.wave:
                await anyio.to_thread.run_sync(self.kill)
                self.released.set()
            await self.released.wait()
        return await super().run(ctx)


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_killed_actor_turns_its_episodes_into_retried_infra_errors(
    ray_session: Any, tmp_path: Path
) -> None:
    from mcpgym_clients.backends.ray import ray_backend

    env = load_environment("helpdesk")
    killed: list[Any] = []
    with anyio.fail_after(240), RunStore(tmp_path / "runs.db") as store:
        async with ray_backend(env, tmp_path / "episodes", actors=2) as runner:

            def kill() -> None:
                killed.append(runner.actors[0])
                ray_session.kill(killed[0])

            agent = _KillingAgent(4, kill)
            result = await run_campaign(
                runner, agent, VARIANTS, store, concurrency=4, baseline=False, show_progress=False
            )
            assert runner.replacements == 1
            assert killed[0] not in runner.actors and len(runner.actors) == 2
        rows = store.episodes(result.run_id)
    assert agent.released.is_set()
    assert result.incomplete() is None  # every planned episode scored in the end
    assert [r.score for r in result.records] == [1.0] * len(VARIANTS)
    retried = [row for row in rows if row["attempts"] > 1]
    # least-loaded routing put 2 of the 4 waiting episodes on the killed actor
    assert len(retried) == 2, [(row["task"], row["attempts"]) for row in rows]


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_killed_grader_is_replaced_and_its_grades_retried(
    ray_session: Any, tmp_path: Path
) -> None:
    from mcpgym_clients.backends.ray import ray_backend

    env = load_environment("helpdesk")
    with anyio.fail_after(240), RunStore(tmp_path / "runs.db") as store:
        async with ray_backend(env, tmp_path / "episodes", actors=2) as runner:

            def kill() -> None:  # the one grader both environment actors share
                ray_session.kill(runner._slots[0].grader.handle)

            agent = _KillingAgent(4, kill)
            result = await run_campaign(
                runner, agent, VARIANTS, store, concurrency=4, baseline=False, show_progress=False
            )
            assert runner.replacements == 1
            assert len(runner.actors) == 2
        rows = store.episodes(result.run_id)
    assert result.incomplete() is None
    assert [r.score for r in result.records] == [1.0] * len(VARIANTS)
    # the four episodes waiting in the agent lost their grade request: all retried
    assert len([row for row in rows if row["attempts"] > 1]) == 4


def _eval_with_a_refusing_model(
    monkeypatch: pytest.MonkeyPatch, store: Path, backend: str, refuse: list[int | None]
) -> tuple[int, str, list[str]]:
    """``mcpgym eval helpdesk`` with an OpenAI-compatible model API behind an injected
    transport (`tests.clients.test_model_refusals.serve_model`): exit code, output (one
    line) and the paths requested."""
    from typer.testing import CliRunner

    from mcpgym_clients.cli import app

    from .test_model_refusals import serve_model

    paths = serve_model(monkeypatch, refuse)
    args = ["eval", "helpdesk", "--model", "m", "--base-url", "http://model.test/v1"]
    args += ["--tasks", "cancel-order", "--bands", "easy", "--seeds", "0-5"]
    args += ["--store", str(store), "--infra-retry-wait", "0", "--concurrency", "1"]
    args += ["--backend", backend, "--max-requests-per-second", "50"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.split()), paths


def _rows(store: Path) -> tuple[dict[str, Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The agent's run, and its rows and its baseline's, as (seed, termination, scored,
    error) sorted by seed."""

    with RunStore(store) as runs:
        (main,) = [r for r in runs.runs() if r["baseline_of"] is None]
        rows, base = runs.episodes(main["id"]), runs.episodes(runs.baseline_run(main["id"]) or "")
    shape = [
        sorted((r["seed"], r["termination"], r["scored"], _untimed(r["error"])) for r in some)
        for some in (rows, base)
    ]
    return main, shape[0], shape[1]


def _untimed(error: str | None) -> str | None:
    """``error`` with the breaker's duration (`mcpgym_clients.breaker.lasted`: `` over 2.4 s``)
    left out: how long a run of refused attempts lasted differs between two backends."""
    return error and re.sub(r" over (?:\d+ min )?[0-9.]+ s", " over S", error)


@pytest.mark.slow
def test_a_refusing_model_api_stops_a_ray_campaign_as_it_stops_a_local_one(
    ray_session: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The model breaker on Ray: the same exit status, stop line and rows (`store_not_run`)
    as the local backend, and the same command resumes the run once the model answers."""
    seen: dict[str, Any] = {}
    for backend in ("local", "ray"):
        refuse: list[int | None] = [429]
        store = tmp_path / backend / "m.db"
        code, text, paths = _eval_with_a_refusing_model(monkeypatch, store, backend, refuse)
        assert code == EXIT_INCOMPLETE, (backend, text)
        assert re.search(
            "stopped: the model API at http://model.test/v1 keeps refusing requests: 3 episode "
            r"attempts in a row over (?:\d+ min )?[0-9.]+ s had every model request refused, "
            r"the last with "
            r"429 asking to wait 86,400 s \(Retry-After\)",
            text,
        ), (backend, text)
        assert "incomplete: 11 of 12 planned episodes are unscored (infra_error 11)" in text
        calls = paths.count("/v1/chat/completions")
        main, rows, base = _rows(store)
        assert main["finished_at"] is None
        # the servers eval started, actors or child processes, took the rate it was given
        assert main["conditions"]["server"]["max_requests_per_second"] == 50.0
        assert [r[0] for r in rows] == list(range(6)) and [r[0] for r in base] == list(range(6))

        refuse[0] = None  # the quota is back: the same command resumes and finishes the run
        code, text, _ = _eval_with_a_refusing_model(monkeypatch, store, backend, refuse)
        assert code == 0, (backend, text)
        assert f"resuming run {main['id']}" in text, (backend, text)
        again, resumed, _ = _rows(store)
        assert again["id"] == main["id"] and again["finished_at"] is not None
        assert [(r[0], r[2]) for r in resumed] == [(s, 1) for s in range(6)], (backend, resumed)
        seen[backend] = (calls, rows, base, resumed)
    assert seen["ray"] == seen["local"]
