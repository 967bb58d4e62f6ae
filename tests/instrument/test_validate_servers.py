"""Where the ship gate runs its servers changes its speed, never its report."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from typer.testing import CliRunner

import mcpgym_clients.instrument.validate as gate
from mcpgym_clients import cli
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.instrument import conditions
from mcpgym_clients.instrument.validate import ValidationReport, validate_environment
from mcpgym_server import load_environment

from .conftest import ToyFactory
from .test_validate import prepare

pytestmark = pytest.mark.anyio


def _comparable(report: ValidationReport) -> dict[str, Any]:
    out = report.to_json()
    del out["wall_s"], out["server_log"]
    return out


async def test_the_episodes_in_flight_change_no_result(
    toy: ToyFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mutant controls run in batches of `MUTANT_BATCH` whatever ``concurrency`` is (they
    ran in batches of ``concurrency``, so its value changed how many mutants ran)."""
    env = toy()
    await prepare(env, tmp_path)
    real = conditions.failed_checks

    def after_one_batch(jobs: list[Any]) -> Any:
        """Nothing failed until a batch of mutants ran (then the phase stops)."""
        return real(jobs) if any(j.kind == "mutant" for j in jobs) else set()

    monkeypatch.setattr(gate, "failed_checks", after_one_batch)
    reports = []
    for n in (1, 3):
        with anyio.fail_after(120):
            report = await validate_environment(
                env, store_dir=tmp_path / f"c{n}", seeds=2, mutant_seeds=1, concurrency=n
            )
        reports.append(_comparable(report))
    assert reports[0] == reports[1]
    assert reports[0]["conditions"][4]["figures"]["mutant_runs"] == gate.MUTANT_BATCH


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_an_installed_environment_is_gated_in_child_processes_with_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``servers="auto"`` serves the installed helpdesk in child processes on this machine
    (more than one core) and the report equals the in-process one (a few jobs of one family
    and band: reference, null, random, replays of its recorded run, some adversaries)."""
    env = load_environment("helpdesk")
    jobs, adversarial = gate._jobs, gate._adversarial_jobs

    def mine(job: Any) -> bool:
        return job.task == "order-status" and job.band == "easy"

    monkeypatch.setattr(gate, "_jobs", lambda e, s, r: [j for j in jobs(e, s, r) if mine(j)])
    monkeypatch.setattr(gate, "_adversarial_jobs", lambda e, s: [j for j in adversarial(e, s)][:6])
    monkeypatch.setattr(gate, "_mutant_jobs", lambda e, f, s: [])
    used: list[str] = []

    @contextlib.asynccontextmanager
    async def recorded(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with serve_in_processes(*args, **kwargs) as children:
            used.append(children.env_url)
            yield children

    monkeypatch.setattr(gate, "serve_in_processes", recorded)
    monkeypatch.setattr(gate, "use_child_processes", lambda e: e is env)  # whatever the cores
    reports = []
    for mode in ("in-process", "auto"):
        with anyio.fail_after(240):
            report = await validate_environment(
                env, store_dir=tmp_path / mode / "episodes", seeds=1, mutant_seeds=1, servers=mode
            )
        reports.append(_comparable(report))
    assert len(used) == 1  # "auto" only
    assert reports[0] == reports[1]
    assert reports[0]["episodes"] >= 10 and not reports[0]["infrastructure"]


def test_the_validate_command_refuses_an_unknown_server_mode() -> None:
    result = CliRunner().invoke(cli.app, ["validate", "helpdesk", "--servers", "threads"])
    assert result.exit_code == 2 and "--servers threads" in result.output
