"""The `mcpgym` command line: argument errors, and `eval` end to end over loopback HTTP."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients import RunStore, cli
from mcpgym_clients.cli import app
from mcpgym_server import Environment, MCPGymError, load_environment

runner = CliRunner()


def flat(text: str) -> str:
    """Output without rich panel borders, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seeds", "4-1"], "Invalid value for '--seeds': range '4-1' ends before it starts"),
        (["--seeds", "0,,2"], "Invalid value for '--seeds': empty item in '0,,2'"),
        (["--seeds", "x"], "Invalid value for '--seeds': 'x' is not a seed or a seed range"),
        (["--seeds", "-3"], "Invalid value for '--seeds': '-3' is not a seed or a seed range"),
        (["--bands", "easy,legendary"], "Invalid value for '--bands': unknown band 'legendary'"),
        (["--tasks", ","], "Invalid value for '--tasks': empty list"),
        (["--agent", "robot"], "Invalid value for '--agent': unknown agent 'robot'"),
        (["--agent", "openai"], "Invalid value for '--model': --agent openai needs --model"),
        (["--epochs", "0"], "Invalid value for '--epochs'"),
        (["--concurrency", "0"], "Invalid value for '--concurrency'"),
        (
            ["--env-url", "http://127.0.0.1:9"],
            "with --env-url, also give --grading-url and --grading-token",
        ),
        (["--grading-url", "http://127.0.0.1:9"], "--grading-url needs --env-url"),
    ],
)
def test_bad_eval_arguments_name_the_flag(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_the_openai_agent_needs_a_key_for_the_openai_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    result = runner.invoke(
        app, ["eval", "helpdesk", "--agent", "openai", "--model", "m", "--api-key-env", "MY_KEY"]
    )
    assert result.exit_code == 2
    assert "no API key: set MY_KEY or pass --api-key" in flat(result.output)


def test_an_unknown_environment_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["eval", "no-such-env"])
    assert result.exit_code == 1
    assert flat(result.output).startswith("error: unknown environment 'no-such-env'; installed:")


def test_tasks_of_an_unknown_environment_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["tasks", "no-such-env"])
    assert result.exit_code == 1
    assert "error: unknown environment 'no-such-env'" in flat(result.output)


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch, toy_env: Environment) -> Environment:
    """Make the CLI find the toy environment as if it were installed."""
    monkeypatch.setattr(cli, "load_environment", lambda name: toy_env)
    monkeypatch.setattr(cli, "available_environments", lambda: ["toy"])
    return toy_env


def test_tasks_lists_families_bands_and_a_sample(toy_installed: Environment) -> None:
    result = runner.invoke(app, ["tasks", "toy"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "set-target" in out and "easy, medium" in out
    assert "Set key `target` to 100." in out


def test_eval_reference_runs_over_loopback_and_stores_the_run(
    toy_installed: Environment, tmp_path: Path
) -> None:
    store = tmp_path / "runs" / "mcpgym.db"
    result = runner.invoke(
        app,
        ["eval", "toy", "--agent", "reference", "--seeds", "0-2", "--store", str(store)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert re.search(r"set-target easy 3 1\.000 100% 0\.000 0%", out), out
    assert re.search(r"\(all\) \(all\) 6 1\.000 100% 0\.000 0%", out), out
    assert f"in {store}" in out
    assert f"episode bundles: {tmp_path / 'runs' / 'episodes'}" in out
    with RunStore(store) as runs:
        main, base = sorted(runs.runs(), key=lambda r: r["baseline_of"] is not None)
        assert (main["agent"], base["agent"], base["baseline_of"]) == (
            "reference",
            "null",
            main["id"],
        )
        episodes = runs.episodes(main["id"])
    assert len(episodes) == 6
    assert {e["score"] for e in episodes} == {1.0}
    assert all(e["episode_termination"] == "submitted" for e in episodes)


def test_eval_with_no_baseline_runs_only_the_agent(
    toy_installed: Environment, tmp_path: Path
) -> None:
    store = tmp_path / "m.db"
    result = runner.invoke(
        app,
        [
            "eval",
            "toy",
            "--agent",
            "null",
            "--bands",
            "medium",
            "--no-baseline",
            "--store",
            str(store),
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"set-target medium 1 0\.000 0%", flat(result.output))
    with RunStore(store) as runs:
        assert [r["agent"] for r in runs.runs()] == ["null"]


def _helpdesk_ready() -> bool:
    try:
        env = load_environment("helpdesk")
        _ = env.snapshot.data
    except MCPGymError:
        return False
    return bool(env.families)


@pytest.mark.skipif(not _helpdesk_ready(), reason="the helpdesk environment is not built yet")
def test_eval_helpdesk_reference_scores_full_marks_on_one_task(tmp_path: Path) -> None:
    task = next(iter(load_environment("helpdesk").families))
    store = tmp_path / "mcpgym.db"
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--agent", "reference", "--tasks", task, "--bands", "all"]
        + ["--seeds", "0", "--no-baseline", "--store", str(store)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    with RunStore(store) as runs:
        main = next(r for r in runs.runs() if r["agent"] == "reference")
        episodes = runs.episodes(main["id"])
    assert episodes
    outcomes = [
        (e["variant_id"], e["termination"], e["score"], (e["grade"] or {}).get("error"))
        for e in episodes
    ]
    assert outcomes == [(e["variant_id"], "completed", 1.0, None) for e in episodes]
