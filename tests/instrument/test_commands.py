"""``mcpgym lock | sign | record`` and the lock check of ``mcpgym serve``, through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients import cli
from mcpgym_clients.commands import instrument
from mcpgym_server import Environment, EpisodeStore
from mcpgym_server.lockfile import read_lock

from .conftest import ToyFactory
from .toyenv import secret

runner = CliRunner()
BY = "Ada Lovelace <ada@example.org>"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def install(monkeypatch: pytest.MonkeyPatch, env: Environment) -> Environment:
    """Make every command find ``env`` as if it were installed."""
    monkeypatch.setattr(cli, "load_environment", lambda name: env)
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    return env


def test_lock_then_sign_writes_a_signed_lock(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    env = install(monkeypatch, toy())
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "not signed off: copy-secret" in flat(result.output)
    result = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert result.exit_code == 0, result.output
    assert read_lock(env).signoff_status("copy-secret") == "valid"
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert "unchanged" in result.output and "not signed off" not in result.output


def test_sign_refuses_a_malformed_signer_and_an_unknown_family(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    bad = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", "Ada"])
    assert bad.exit_code == 2 and "must be a name and an email address" in flat(bad.output)
    unknown = runner.invoke(cli.app, ["sign", "toyvault", "nope", "--by", BY])
    assert unknown.exit_code == 1
    assert "unknown task 'nope'; valid tasks: copy-secret" in flat(unknown.output)


def test_sign_refuses_while_the_lock_is_out_of_date(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(weight=4.0))
    result = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert result.exit_code == 1
    assert "rubric of family `copy-secret` changed" in flat(result.output)
    assert "run `mcpgym lock toyvault` first" in flat(result.output)


def test_serve_refuses_a_missing_or_stale_lock_naming_the_change(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    missing = runner.invoke(cli.app, ["serve", "toyvault"])
    assert missing.exit_code == 1
    assert "error: environment `toyvault` has no lock file" in flat(missing.output)
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(extra_tool=True))
    stale = runner.invoke(cli.app, ["serve", "toyvault", "--stdio", "--task", "copy-secret"])
    assert stale.exit_code == 1
    assert "no longer matches its lock file: tool `count` added" in flat(stale.output)


def test_serve_unlocked_serves_anyway_and_marks_the_bundle(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    install(monkeypatch, toy(extra_tool=True))  # no lock file at all
    store = tmp_path / "episodes"
    args = ["serve", "toyvault", "--unlocked", "--stdio", "--task", "copy-secret"]
    result = runner.invoke(cli.app, [*args, "--store", str(store)], input="")
    assert result.exit_code == 0, result.output
    (eid,) = [p.name for p in store.iterdir() if p.name.startswith("ep_")]
    meta = EpisodeStore(store).read_meta(eid)
    assert (meta.unlocked, meta.termination) == (True, "eof")


@pytest.fixture
def locked(monkeypatch: pytest.MonkeyPatch, toy: ToyFactory) -> Environment:
    env = install(monkeypatch, toy())
    assert runner.invoke(cli.app, ["lock", "toyvault"]).exit_code == 0
    return env


def test_record_reads_commands_from_piped_stdin_and_saves_the_run(
    locked: Environment, tmp_path: Path
) -> None:
    value = secret("medium", 41)
    commands = [
        "# a comment",
        "tools",
        "schema put",
        "put {not json}",
        "frobnicate {}",
        'get {"key": "vault"}',
        f'put {{"key": "target", "value": "{value}"}}',
        "submit 'copied it'",
    ]
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "medium", "--seed", "41"]
    result = runner.invoke(cli.app, [*args, "--by", BY], input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    url = r"http://127\.0\.0\.1:\d+/episodes/ep_[0-9a-f]{32}/mcp"
    assert re.search(r"MCP URL \(any MCP client may connect and call tools\): " + url, out)
    assert "put: Set a key." in out and '"required": [ "key", "value" ]' in out
    assert "error: arguments are not valid JSON" in out
    assert "error: unknown command or tool `frobnicate`" in out
    assert f'"value": "{value}"' in out
    assert "grade: score 1.0, passed True" in out
    path = locked_run_path(locked, "medium", 41)
    assert f"saved {path}" in out
    run = json.loads(path.read_text())
    assert [(c["tool"], c["status"]) for c in run["calls"]] == [
        ("get", "ok"),
        ("put", "ok"),
        ("submit", "ok"),
    ]
    assert (run["answer"], run["termination"], run["recorded_by"]) == ("copied it", "submitted", BY)
    assert run["lock"] == read_lock(locked).digest and run["grade"]["score"] == 1.0
    assert len(run["final_sha256"]) == 64 and run["variant_id"] == "toyvault/copy-secret@medium#41"


def locked_run_path(env: Environment, band: str, seed: int) -> Path:
    from mcpgym_clients.instrument import run_path

    return run_path(env, "copy-secret", band, seed)


def test_record_at_end_of_input_ends_the_episode_and_warns_when_it_fails(
    locked: Environment, tmp_path: Path
) -> None:
    out = tmp_path / "run.json"
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "easy", "--seed", "3"]
    result = runner.invoke(cli.app, [*args, "--out", str(out)], input='get {"key": "a"}\n')
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text())
    assert run["termination"] == "ended" and run["grade"]["passed"] is False
    assert "`mcpgym validate` will refuse it" in flat(result.output)


def test_record_refuses_a_malformed_signer(locked: Environment) -> None:
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "easy", "--seed", "3"]
    result = runner.invoke(cli.app, [*args, "--by", "nobody"], input="end\n")
    assert result.exit_code == 2 and "must be a name and an email address" in flat(result.output)


def test_eval_refuses_an_environment_whose_code_changed(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(generator_version="2"))
    monkeypatch.setattr(cli, "available_environments", lambda: ["toyvault"])
    store = tmp_path / "runs" / "mcpgym.db"
    result = runner.invoke(cli.app, ["eval", "toyvault", "--agent", "null", "--store", str(store)])
    assert result.exit_code == 1
    assert "generator of family `copy-secret` changed (version 1 -> 2)" in flat(result.output)
    assert not (tmp_path / "runs" / "episodes").exists()  # refused before any server started
