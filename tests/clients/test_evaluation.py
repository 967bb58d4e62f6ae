"""`mcpgym_clients.evaluation.evaluate`: the entry point eval, demo and trainers share."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from rich.console import Console

from mcpgym_clients import CampaignStatus, ConfigurationError, NullAgent, ReferenceAgent, evaluation
from mcpgym_clients.evaluation import EvalOptions, evaluate
from mcpgym_clients.stopping import Stopper
from mcpgym_server import Environment


def options(tmp_path: Path, agent: object, **changes: object) -> EvalOptions:
    opts = EvalOptions(
        env="toy",
        agent=agent,  # type: ignore[arg-type]
        tasks=None,
        bands=None,
        seeds=[0, 1],
        epochs=1,
        concurrency=2,
        env_url=None,
        grading_url=None,
        grading_token=None,
        store=tmp_path / "runs" / "mcpgym.db",
        episodes=tmp_path / "runs" / "episodes",
        baseline=True,
        timeout=60.0,
        argv=["test"],
    )
    for name, value in changes.items():
        setattr(opts, name, value)
    return opts


@pytest.fixture
def local_toy(monkeypatch: pytest.MonkeyPatch, toy_env: Environment) -> Environment:
    monkeypatch.setattr(evaluation, "load_environment", lambda name: toy_env)
    return toy_env


def test_evaluate_serves_locally_runs_the_agent_and_the_baseline(
    tmp_path: Path, local_toy: Environment
) -> None:
    status = CampaignStatus()
    out = anyio.run(evaluate, options(tmp_path, ReferenceAgent()), Console(quiet=True), status)
    assert out is not None
    result, bundles = out
    assert bundles is not None and Path(bundles).is_dir()
    assert result.records and all(r.scored and r.grade["passed"] for r in result.records)
    assert result.baseline and not any(r.grade["passed"] for r in result.baseline)
    assert status.run_id == result.run_id and status.baseline_run_id == result.baseline_run_id
    assert (tmp_path / "runs" / "servers.log").is_file()


def test_a_stop_before_the_servers_start_returns_none_and_starts_nothing(
    tmp_path: Path, local_toy: Environment
) -> None:
    stopper = Stopper()
    stopper.stop(2)
    out = anyio.run(
        evaluate, options(tmp_path, NullAgent()), Console(quiet=True), CampaignStatus(), stopper
    )
    assert out is None
    assert not (tmp_path / "runs" / "episodes").exists()


def test_a_bad_selection_fails_before_anything_is_created(
    tmp_path: Path, local_toy: Environment
) -> None:
    opts = options(tmp_path, NullAgent(), bands=["nope"])
    with pytest.raises(ConfigurationError, match="nope"):
        anyio.run(evaluate, opts, Console(quiet=True), CampaignStatus())
    assert not (tmp_path / "runs").exists()


@pytest.mark.slow
def test_demo_runs_every_installed_environment(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mcpgym_clients.cli import app
    from mcpgym_clients.runstore import RunStore
    from mcpgym_server import available_environments

    store = tmp_path / "runs" / "mcpgym.db"
    result = CliRunner().invoke(app, ["demo", "--seeds", "1", "--store", str(store)])
    assert result.exit_code == 0, result.output
    with RunStore(store) as runs:
        done = {(r["env"], r["agent"]) for r in runs.runs() if r["finished_at"]}
    for env in available_environments():
        assert {(env, "reference"), (env, "null")} <= done
