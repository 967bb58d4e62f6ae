"""The ship gate on the toy environment: it passes when sound and names each kind of breakage."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from mcpgym_clients import cli
from mcpgym_clients.commands import instrument
from mcpgym_clients.instrument import read_run, record_episode, run_path
from mcpgym_clients.instrument.validate import ValidationReport, validate_environment
from mcpgym_server import Environment
from mcpgym_server.lock import current_lock, read_lock, sign, write_lock
from tests.toyenv import secret

from .conftest import ToyFactory

pytestmark = pytest.mark.anyio

BY = "Ada Lovelace <ada@example.org>"
SEEDS = 3


def lines_of(commands: list[str]):  # noqa: ANN201 - a LineSource
    pending = list(commands)

    async def next_line() -> str | None:
        return pending.pop(0) if pending else None

    return next_line


async def prepare(
    env: Environment, tmp: Path, *, signed: bool = True, first: tuple[str, ...] = ()
) -> None:
    """Lock (and sign) ``env`` and record one run per band with `record_episode` (``first``:
    prompt lines before the reference's)."""
    lock = current_lock(env)
    write_lock(env, sign(lock, "copy-secret", BY) if signed else lock)
    for band in ("easy", "medium"):
        value = secret(band, 50)
        commands = [
            *first,
            'get {"key": "vault"}',
            f'put {{"key": "target", "value": "{value}"}}',
            "submit",
        ]
        run = await record_episode(
            env,
            "copy-secret",
            band,
            50,
            lines=lines_of(commands),
            out=lambda _: None,
            store_dir=tmp / f"record-{band}",
            recorded_by=BY,
        )
        path = run_path(env, "copy-secret", band, 50)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run.to_json())


async def validate(env: Environment, tmp: Path) -> ValidationReport:
    with anyio.fail_after(120):
        return await validate_environment(env, store_dir=tmp / "validate", seeds=SEEDS)


def failures(report: ValidationReport, condition: int) -> list[str]:
    return report.conditions[condition].failures


async def test_a_sound_environment_passes_every_condition(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy()
    await prepare(env, tmp_path)
    report = await validate(env, tmp_path)
    assert [c.failures for c in report.conditions] == [[]] * 8 and report.passed
    figures = {k: v for c in report.conditions for k, v in c.figures.items()}
    assert figures["recorded_runs"] == 2 and figures["pairs_compared"] == 4
    assert (figures["reference_episodes"], figures["reference_full_marks"]) == (6, 6)
    assert (figures["null_pass_rate"], figures["random_pass_rate"]) == (0.0, 0.0)
    assert figures["checks"] == 5 and figures["control_runs"] >= 12


async def test_a_check_no_control_fails_is_named_vacuous(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy(vacuous_check=True)
    await prepare(env, tmp_path)
    report = await validate(env, tmp_path)
    (failure,) = failures(report, 4)
    controls = report.conditions[4].figures["control_runs"]  # one family: all its controls
    assert failure == (
        f"family `copy-secret` check `always-true` is vacuous: none of its {controls} control "
        "runs (null, random, mutants of the reference) fails it; with --seeds or "
        "--mutant-seeds lowered, raise them before concluding so"
    )
    assert [c.id for c in report.conditions if not c.passed] == [4]
    assert report.conditions[4].figures["mutant_runs"] > 0  # every mutant ran, none failed it


async def test_a_write_set_back_that_passes_fails_the_gate(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy(undo_blind=True)  # no check reads the log: the vault written and set back passes
    await prepare(env, tmp_path)
    report = await validate(env, tmp_path)
    lines = failures(report, 7)
    assert lines and all("a write undone later passes: `undo-put`" in line for line in lines)
    assert {line.split(":")[0] for line in lines} == {
        "copy-secret@easy#0",
        "copy-secret@easy#1",
        "copy-secret@medium#0",
        "copy-secret@medium#1",
    }
    assert [c.id for c in report.conditions if not c.passed] == [7]


async def test_a_recorded_run_that_no_longer_replays_fails(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy()
    await prepare(env, tmp_path)
    path = run_path(env, "copy-secret", "medium", 50)
    data = json.loads(path.read_text())
    data["calls"][1]["arguments"]["value"] = "something else"  # the expert's run, edited
    path.write_text(json.dumps(data))
    report = await validate(env, tmp_path)
    lines = failures(report, 1)
    assert any(
        line.startswith("reference_runs/copy-secret/medium-50.json (replay-a): final state ")
        and "differs from the recorded" in line
        for line in lines
    ), lines
    assert any("scores 0.6666666666666666 (failing: target-set)" in line for line in lines), lines
    assert [c.id for c in report.conditions if not c.passed] == [1]


async def test_unsigned_and_void_signoffs_fail(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy()
    await prepare(env, tmp_path, signed=False)
    report = await validate(env, tmp_path)
    assert failures(report, 6) == [
        "family `copy-secret`: rubric not signed off "
        '(mcpgym sign toyvault copy-secret --by "Name <email>")'
    ]
    write_lock(env, sign(read_lock(env), "copy-secret", BY))
    heavier = toy(weight=2.0)  # changes a weight after the sign-off
    report = await validate(heavier, tmp_path)
    assert failures(report, 0)[0].startswith(
        "environment `toyvault` no longer matches its lock file: rubric of family `copy-secret` "
        "changed"
    )
    assert len(failures(report, 6)) == 1 and "is void: the rubric changed" in failures(report, 6)[0]


async def test_a_nondeterministic_tool_fails_the_double_replay(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy(nondeterministic=True)
    await prepare(env, tmp_path)
    report = await validate(env, tmp_path)
    assert "replay of copy-secret@easy#50: the two final databases differ" in " ".join(
        failures(report, 5)
    )
    assert any("differs from the recorded" in line for line in failures(report, 1))


async def test_an_mcp_client_on_the_printed_url_works_the_episode(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    write_lock(env, current_lock(env))
    send, receive = anyio.create_memory_object_stream[str](10)
    url_seen = anyio.Event()
    urls: list[str] = []

    async def next_line() -> str | None:
        try:
            return await receive.receive()
        except anyio.EndOfStream:
            return None

    def on_url(url: str) -> None:
        urls.append(url)
        url_seen.set()

    result = []

    async def run_prompt() -> None:
        result.append(
            await record_episode(
                env,
                "copy-secret",
                "easy",
                9,
                lines=next_line,
                out=lambda _: None,
                store_dir=tmp_path / "rec",
                on_url=on_url,
            )
        )

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run_prompt)
            await url_seen.wait()
            async with (
                httpx2.AsyncClient(trust_env=False) as http,
                Client(streamable_http_client(urls[0], http_client=http)) as client,
            ):
                got = await client.call_tool("get", {"key": "vault"})
                value = got.structured_content["value"]  # type: ignore[index]
                await client.call_tool("put", {"key": "target", "value": value})
            await send.send('get {"key": "target"}')
            await send.send("end")
    (run,) = result
    assert [(c.tool, c.status) for c in run.calls] == [("get", "ok"), ("put", "ok"), ("get", "ok")]
    assert run.termination == "ended" and run.grade["score"] == 1.0 and run.grade["passed"]
    assert run.calls[2].result == {"key": "target", "value": secret("easy", 9)}


async def test_the_prompt_finishes_when_a_client_on_the_url_submits(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    write_lock(env, current_lock(env))
    never = anyio.Event()  # the expert types nothing: only the outside client works
    url_seen = anyio.Event()
    urls: list[str] = []
    said: list[str] = []

    async def no_input() -> str | None:
        await never.wait()
        return None

    def on_url(url: str) -> None:
        urls.append(url)
        url_seen.set()

    result = []

    async def run_prompt() -> None:
        result.append(
            await record_episode(
                env, "copy-secret", "easy", 9, lines=no_input, out=said.append,
                store_dir=tmp_path / "rec", on_url=on_url,
            )
        )  # fmt: skip

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run_prompt)
            await url_seen.wait()
            async with (
                httpx2.AsyncClient(trust_env=False) as http,
                Client(streamable_http_client(urls[0], http_client=http)) as client,
            ):
                got = await client.call_tool("get", {"key": "vault"})
                value = got.structured_content["value"]  # type: ignore[index]
                await client.call_tool("put", {"key": "target", "value": value})
                await client.call_tool("submit", {})
    (run,) = result
    assert "the episode was ended by another client" in said
    assert [c.tool for c in run.calls] == ["get", "put", "submit"]
    assert run.grade["score"] == 1.0


def test_the_validate_command_stamps_the_lock_unless_checking(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    anyio.run(prepare, env, tmp_path, backend="asyncio")
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    runner = CliRunner()
    report = tmp_path / "report.json"
    args = ["validate", "toyvault", "--seeds", "2", "--json", str(report)]
    checked = runner.invoke(cli.app, [*args, "--check"], env={"COLUMNS": "200"})
    assert checked.exit_code == 0, checked.output
    assert "passes" in checked.output and "--check: the lock file was not stamped" in checked.output
    data = json.loads(report.read_text())
    assert read_lock(env).validation is None and data["passed"] is True
    assert data["server_log"] == str(tmp_path / "report.servers.log")
    assert (tmp_path / "report.servers.log").is_file() and data["infrastructure"] == []
    stamped = runner.invoke(cli.app, args, env={"COLUMNS": "200"})
    assert stamped.exit_code == 0, stamped.output
    lock = read_lock(env)
    assert lock.validated and lock.validation is not None and lock.validation.seeds == 2
    assert lock.validation.summary["reference_full_marks"] == 4
    run = read_run(run_path(env, "copy-secret", "easy", 50))
    assert run.lock == lock.digest


def test_a_weaker_validation_never_replaces_a_stronger_stamp_without_force(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    anyio.run(prepare, env, tmp_path, backend="asyncio")
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    runner = CliRunner()
    args = ["validate", "toyvault", "--json", str(tmp_path / "report.json")]
    strong = runner.invoke(cli.app, [*args, "--seeds", "3"], env={"COLUMNS": "200"})
    assert strong.exit_code == 0, strong.output
    stamp = read_lock(env).validation
    assert stamp is not None and stamp.seeds == 3
    weak = runner.invoke(cli.app, [*args, "--seeds", "2"], env={"COLUMNS": "200"})
    assert weak.exit_code == 0, weak.output
    assert "not stamped" in weak.output and "3 seeds" in weak.output and "--force" in weak.output
    assert read_lock(env).validation == stamp  # the stronger stamp stands, byte for byte
    fewer_mutants = runner.invoke(
        cli.app, [*args, "--seeds", "3", "--mutant-seeds", "1"], env={"COLUMNS": "200"}
    )
    assert "not stamped" in fewer_mutants.output and read_lock(env).validation == stamp
    forced = runner.invoke(cli.app, [*args, "--seeds", "2", "--force"], env={"COLUMNS": "200"})
    assert forced.exit_code == 0, forced.output
    replaced = read_lock(env).validation
    assert replaced is not None and replaced.seeds == 2 and "stamped" in forced.output


def test_the_validate_command_never_stamps_a_lock_inside_site_packages(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    anyio.run(prepare, env, tmp_path, backend="asyncio")
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    wheel_copy = tmp_path / "venv" / "lib" / "site-packages" / "toyvault" / "mcpgym.lock"
    monkeypatch.setattr(instrument, "lock_path", lambda environment: wheel_copy)
    args = ["validate", "toyvault", "--seeds", "2", "--json", str(tmp_path / "r.json")]
    result = CliRunner().invoke(cli.app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert f"not stamped: {wheel_copy} belongs to an installed wheel" in result.output
    assert read_lock(env).validation is None


def test_the_validate_command_fails_with_a_readable_report(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy(vacuous_check=True)
    anyio.run(prepare, env, tmp_path, backend="asyncio")
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    report = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli.app,
        ["validate", "toyvault", "--seeds", "2", "--json", str(report)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 1
    assert "FAILS" in result.output and "check `always-true` is vacuous" in result.output
    assert "error: toyvault fails validation: condition(s) 4" in result.output
    data = json.loads(report.read_text())
    assert data["passed"] is False and data["conditions"][4]["passed"] is False
    assert read_lock(env).validation is None
