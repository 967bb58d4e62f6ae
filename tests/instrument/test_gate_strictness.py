"""What the ship gate must not let through: behaviour changes with the same schema, generator
changes the lock's fingerprint seeds miss, stale or foreign runs, hash-order dependence,
per-episode failures (which must become condition failures, never tracebacks) and
infrastructure errors (retried, then reported apart from the conditions)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest

from mcpgym_clients.agents import NullAgent
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.instrument import run_path
from mcpgym_clients.instrument.conditions import Condition, Job, check_lock, compare_calls
from mcpgym_clients.instrument.validate import INFRA_RETRIES, ValidationReport, _run_job
from mcpgym_clients.local import serve_locally
from mcpgym_server import LockError
from mcpgym_server.lock import LockFile, current_lock, lock_changes, lock_path, read_lock
from tests.toyenv import secret

from .conftest import ToyFactory
from .test_validate import failures, prepare, validate

pytestmark = pytest.mark.anyio

EASY = "reference_runs/copy-secret/easy-50.json"
MEDIUM = "reference_runs/copy-secret/medium-50.json"


def failed(report: ValidationReport) -> list[int]:
    return [c.id for c in report.conditions if not c.passed]


async def test_a_tool_that_returns_something_else_under_the_same_schema_fails(
    toy: ToyFactory, tmp_path: Path
) -> None:
    await prepare(toy(), tmp_path)
    report = await validate(toy(get_suffix="!"), tmp_path)  # same lock: schemas unchanged
    value = secret("easy", 50)
    assert (
        f'{EASY} (replay-a): step 1 `get` result differs (result.value: recorded "{value}", '
        f'now "{value}!")'
    ) in failures(report, 1)
    assert failed(report) == [1]


async def test_a_generator_change_beyond_the_fingerprint_seeds_and_a_stale_run_fail(
    toy: ToyFactory, tmp_path: Path
) -> None:
    await prepare(toy(), tmp_path)
    path = run_path(toy(), "copy-secret", "easy", 50)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "lock": "0" * 64}))  # recorded on another lock
    changed = toy(late_generator_change=True)  # seeds >= 3 only: the lock does not see it
    report = await validate(changed, tmp_path)
    lines = failures(report, 1)
    assert (
        f"{MEDIUM}: generator of family `copy-secret` produces a different variant for medium "
        "seed 50 (setup/params/reference) without a generator_version bump; bump it (then "
        "`mcpgym lock`) and re-record the run"
    ) in lines
    assert any(
        line.startswith(f"{EASY}: recorded on lock 000000000000, not the current ")
        and "re-record it" in line
        for line in lines
    ), lines
    assert failed(report) == [1]


async def test_a_run_of_an_unknown_task_is_a_condition_failure_not_a_crash(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    await prepare(env, tmp_path)
    source = run_path(env, "copy-secret", "easy", 50)
    renamed = source.parent.parent / "renamed" / "easy-50.json"
    renamed.parent.mkdir()
    data = json.loads(source.read_text())
    renamed.write_text(json.dumps({**data, "task": "renamed"}))
    report = await validate(env, tmp_path)
    lines = failures(report, 1)
    where = "reference_runs/renamed/easy-50.json"
    assert any(line.startswith(f"{where}: its variant cannot be generated: ") for line in lines)
    assert any(
        line.startswith(f"{where} (replay-a): could not be replayed: ") and "renamed" in line
        for line in lines
    ), lines
    assert failed(report) == [1] and not report.infrastructure


async def test_results_in_hash_order_differ_from_a_run_recorded_in_another_process(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy(list_keys=True)
    await prepare(env, tmp_path, first=("keys",))
    path = run_path(env, "copy-secret", "easy", 50)
    data = json.loads(path.read_text())
    got = data["calls"][0]["result"]["keys"]
    assert sorted(got) == ["a", "b", "vault"]
    # What `list(set)` gives under another PYTHONHASHSEED (the recording's process).
    data["calls"][0]["result"]["keys"] = got[::-1]
    path.write_text(json.dumps(data))
    report = await validate(env, tmp_path)
    assert (
        f'{EASY} (replay-a): step 1 `keys` result differs (result.keys[0]: recorded "{got[-1]}", '
        f'now "{got[0]}")'
    ) in failures(report, 1)
    assert any("another process" in note for note in report.conditions[5].notes)


def test_compare_calls_names_the_step_tool_field_and_call_count() -> None:
    want = [
        {"step": 1, "tool": "get", "status": "ok", "result": {"a": [1, 2]}, "error": None},
        {"step": 2, "tool": "put", "status": "ok", "result": {}, "error": None},
    ]
    same = json.loads(json.dumps(want))
    assert compare_calls(same, want) is None
    assert compare_calls(same[:1], want) == "1 calls logged, 2 recorded"
    same[0]["result"]["a"][1] = 9
    assert compare_calls(same, want) == (
        "step 1 `get` result differs (result.a[1]: recorded 2, now 9)"
    )
    same[0] = {**want[0], "status": "error", "result": None, "error": "no"}
    assert compare_calls(same, want, "first run") == "step 1 `get` was error, first run ok"


async def test_a_persistent_infrastructure_error_is_retried_then_reported_apart(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    job = Job("null", NullAgent(), "copy-secret", "easy", 0)
    with anyio.fail_after(30):
        async with (
            serve_locally(env, tmp_path / "episodes") as servers,
            # a grading service that is not there: every grade request fails in transport
            EpisodeDriver(
                servers.env_url,
                "http://127.0.0.1:9",
                "t",
                control_token=servers.control_token,
                environment=env,
            ) as driver,
        ):
            await _run_job(driver, job, anyio.CapacityLimiter(1), tmp_path / "episodes")
    assert job.attempts == 1 + INFRA_RETRIES and job.error is None
    assert job.infra is not None and "127.0.0.1:9" in job.infra
    report = ValidationReport("toyvault", "0.1.0", "", 1, [Condition(0, "x")])
    assert report.passed
    report.infrastructure.append(job.infra)
    assert not report.passed


async def test_an_unknown_task_in_a_job_is_kept_as_its_error(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    job = Job("replay-a", NullAgent(), "renamed", "easy", 0)
    with anyio.fail_after(30):
        async with (
            serve_locally(env, tmp_path / "episodes") as servers,
            EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
            ) as driver,
        ):
            await _run_job(driver, job, anyio.CapacityLimiter(1), tmp_path / "episodes")
    assert job.attempts == 1 and job.infra is None
    assert job.error is not None and "unknown task 'renamed'" in job.error


def test_malformed_signoffs_fail_condition_6_naming_the_field(toy: ToyFactory) -> None:
    env = toy()
    lock = current_lock(env)
    text = lock.to_toml() + (
        '\n[signoffs.copy-secret]\nby = "x"\nat = "2026-11-30T12:00:00Z"\n'
        f'rubric_digest = "{lock.families["copy-secret"].rubric_digest}"\n'
    )
    with pytest.raises(LockError, match=r"`signoffs\.copy-secret\.by`: .*'x' is not"):
        LockFile.from_toml(text)
    lock_path(env).write_text(
        text.replace('by = "x"', 'by = "Ada <ada@example.org>"').replace(
            "2026-11-30T12:00:00Z", "not a date"
        )
    )
    zero, six = Condition(0, "lock"), Condition(6, "sign-offs")
    check_lock(env, zero, six)
    assert not six.passed
    assert (
        "`signoffs.copy-secret.at`: Value error, 'not a date' is not an ISO 8601 time"
        in (six.failures[0])
    )


def test_a_description_only_change_is_named_as_such(toy: ToyFactory) -> None:
    before = current_lock(toy())
    assert lock_changes(before, current_lock(toy(get_summary="Fetch a key."))) == [
        "tool `get` definition changed (description)"
    ]
    assert lock_changes(before, current_lock(toy(get_description="which key."))) == [
        "tool `get` input schema changed"
    ]
    # a lock file written before tool_parts existed: the change is still named, less precisely
    old = before.model_copy(update={"tool_parts": {}})
    assert lock_changes(old, current_lock(toy(get_summary="Fetch a key."))) == [
        "tool `get` definition changed"
    ]


def test_read_lock_round_trips_tool_parts(toy: ToyFactory) -> None:
    from mcpgym_server.lock import write_lock

    env = toy()
    write_lock(env, current_lock(env))
    assert set(read_lock(env).tool_parts["get"]) >= {"description", "inputSchema", "name"}
    shutil.rmtree(lock_path(env).parent / "reference_runs", ignore_errors=True)
