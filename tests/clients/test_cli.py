"""The `mcpgym` command line: argument errors, and `eval` end to end over loopback HTTP."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import anyio.from_thread
import httpx
import pytest
import typer
from anyio.streams.text import TextReceiveStream
from typer.testing import CliRunner

from mcpgym_clients import (
    ChatCompletionsClient,
    ConfigurationError,
    LocalServers,
    RunStore,
    evaluation,
    serve_locally,
)
from mcpgym_clients.cli import app
from mcpgym_clients.commands import _agent, _common, evaluate
from mcpgym_clients.commands._common import reported
from mcpgym_server import Environment, MCPGymError, available_environments, load_environment

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
        # adversarial round 20: both were taken silently (F20-2, F20-3)
        (["--ray-actors", "3"], "Invalid value for '--ray-actors': --ray-actors needs --backend"),
        (["--seed-salt", ""], "Invalid value for '--seed-salt': the seed salt is empty"),
    ],
)
def test_bad_eval_arguments_name_the_flag(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["eval", "helpdesk", *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_an_empty_seed_salt_is_refused_by_serve_too() -> None:
    # `--seed-salt "$SALT"` with SALT unset (an empty MCPGYM_SEED_SALT is unset to click)
    result = runner.invoke(app, ["serve", "helpdesk", "--seed-salt", ""])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--seed-salt': the seed salt is empty" in flat(result.output)


def test_the_openai_agent_needs_a_key_for_the_openai_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    result = runner.invoke(
        app, ["eval", "helpdesk", "--agent", "openai", "--model", "m", "--api-key-env", "MY_KEY"]
    )
    assert result.exit_code == 2
    assert "no API key: set MY_KEY or pass --api-key" in flat(result.output)


def test_an_unknown_environment_is_a_one_line_usage_error() -> None:
    result = runner.invoke(app, ["eval", "no-such-env"])
    assert result.exit_code == 2
    assert flat(result.output).startswith(
        "error: unknown environment 'no-such-env'; valid environments:"
    )


@pytest.mark.parametrize("command", ["tasks", "serve", "lock", "validate"])
def test_a_mistyped_environment_is_a_usage_error_with_a_suggestion(command: str) -> None:
    result = runner.invoke(app, [command, "helpdesko"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        "error: unknown environment 'helpdesko' (did you mean helpdesk?); "
        f"valid environments: {', '.join(available_environments())}"
    ]


def test_click_and_mcpgym_usage_errors_share_one_style() -> None:
    ours = runner.invoke(app, ["eval", "helpdesk", "--bands", "hrad"])
    clicks = runner.invoke(app, ["eval", "helpdesk", "--agent", "nul"])
    for result in (ours, clicks):
        assert result.exit_code == 2
        (line,) = result.output.strip().splitlines()
        assert line.startswith("error: ") and "(did you mean " in line
    assert "band 'hrad' is not offered by helpdesk (did you mean hard?)" in ours.output
    assert "unknown agent 'nul' (did you mean null?)" in clicks.output
    assert clicks.output.rstrip().endswith("(see `mcpgym eval --help`)")


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch, toy_env: Environment) -> Environment:
    """Make the CLI find the toy environment as if it were installed."""
    monkeypatch.setattr(_common, "load_environment", lambda name: toy_env)  # serve, tasks
    monkeypatch.setattr(evaluation, "load_environment", lambda name: toy_env)  # eval, demo
    monkeypatch.setattr(evaluate, "available_environments", lambda: ["toy"])
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


# -- user mistakes: one line, in both modes -------------------------------------------


@pytest.fixture
def remote(toy_env: Environment, tmp_path: Path) -> Iterator[LocalServers]:
    """The toy environment served in a background thread, as if on another machine."""
    with anyio.from_thread.start_blocking_portal(backend="asyncio") as portal:
        with portal.wrap_async_context_manager(
            serve_locally(toy_env, tmp_path / "remote-episodes")
        ) as servers:
            yield servers


MISTAKES = {
    "unknown task": (["--tasks", "nope"], "unknown task 'nope'; valid tasks: set-target"),
    "band not offered": (
        ["--bands", "expert"],
        "band 'expert' is not offered by toy; offered bands: easy, medium",
    ),
    "no such band": (
        ["--bands", "easy,extreme"],
        "band 'extreme' is not offered by toy; offered bands: easy, medium",
    ),
    "store is a directory": (
        ["--store", "{d}"],
        "--store {d} is a directory; give the database file, e.g. --store {d}/mcpgym.db",
    ),
    "store under a file": (
        ["--store", "{d}/a-file/mcpgym.db"],
        "--store {d}/a-file/mcpgym.db: its folder {d}/a-file is a file; give a path under a folder",
    ),
    "store is not a database": (
        ["--store", "{d}/a-file"],
        "--store {d}/a-file: cannot open the run store: file is not a database; give a new "
        "path, or the store of an earlier `mcpgym eval`",
    ),
}


@pytest.mark.parametrize("mode", ["local servers", "--env-url"])
@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_user_mistakes_are_one_line_errors_in_both_modes(
    toy_installed: Environment,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    mode: str,
    mistake: str,
) -> None:
    given, message = MISTAKES[mistake]
    d = tmp_path / "d"
    d.mkdir()
    (d / "a-file").write_text("not a database\n")
    args = [a.format(d=d) for a in given]
    if "--store" not in args:
        args += ["--store", str(tmp_path / "runs" / "mcpgym.db")]
    if mode == "--env-url":
        servers: LocalServers = request.getfixturevalue("remote")
        args += ["--env-url", servers.env_url, "--grading-url", servers.grading_url]
        args += ["--grading-token", servers.grading_token]
        args += ["--control-token", servers.control_token]
    result = runner.invoke(app, ["eval", "toy", *args], env={"COLUMNS": "80"})
    usage = mistake in ("unknown task", "band not offered", "no such band")
    assert result.exit_code == (2 if usage else 1), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: " + message.format(d=d)), lines[0]
    # nothing was started or created next to a bad store path
    assert not (tmp_path / "episodes").exists() and not (d / "episodes").exists()


@pytest.mark.parametrize("token", [None, "wrong"])
def test_eval_on_a_server_that_refuses_the_control_token_is_a_one_line_error(
    toy_installed: Environment, remote: LocalServers, tmp_path: Path, token: str | None
) -> None:
    args = ["eval", "toy", "--env-url", remote.env_url, "--grading-url", remote.grading_url]
    args += ["--grading-token", remote.grading_token, "--store", str(tmp_path / "r.db")]
    env = {"COLUMNS": "200", "MCPGYM_CONTROL_TOKEN": token or ""}
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 1, result.output
    (line,) = result.output.strip().splitlines()
    status = 401 if token is None else 403
    if token is None:  # none given: say so, and where the token comes from
        assert line == (
            f"error: the environment server at {remote.env_url} needs a control token and "
            "none was given: set MCPGYM_CONTROL_TOKEN to the token `mcpgym serve` printed "
            "(or pass --control-token)"
        )
        return
    assert line.startswith(
        f"error: the environment server at {remote.env_url} refused the control token ({status})"
    ), line
    assert "MCPGYM_CONTROL_TOKEN or --control-token" in line


def test_a_grading_url_pointing_at_nothing_asks_whether_grading_serve_runs_there(
    toy_installed: Environment, remote: LocalServers, tmp_path: Path
) -> None:
    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        nothing = f"http://127.0.0.1:{sock.getsockname()[1]}"
    args = ["eval", "toy", "--env-url", remote.env_url, "--grading-url", nothing]
    args += ["--grading-token", remote.grading_token, "--control-token", remote.control_token]
    result = runner.invoke(app, [*args, "--store", str(tmp_path / "r.db")], env={"COLUMNS": "300"})
    assert result.exit_code == 1, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: grading server: GET {nothing}/healthz: "), line
    assert line.endswith(
        f"; is `mcpgym grading serve` running at {nothing}, and is --grading-url right?"
    ), line


def test_errors_inside_exception_groups_are_one_line_but_bugs_keep_their_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(typer.Exit) as exit_info, reported():
        raise ExceptionGroup("task group", [ExceptionGroup("inner", [ConfigurationError("boom")])])
    assert exit_info.value.exit_code == 1
    assert capsys.readouterr().err == "error: boom\n"
    with pytest.raises(ExceptionGroup), reported():
        raise ExceptionGroup("task group", [ConfigurationError("boom"), TypeError("a bug")])


# -- Ctrl-C -----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.anyio
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_ctrl_c_stops_the_campaign_and_says_what_was_kept(
    tmp_path: Path, signum: signal.Signals
) -> None:
    store = tmp_path / "runs" / "mcpgym.db"
    command = [sys.executable, "-m", "tests.clients.slow_cli", str(tmp_path / "env")]
    command += ["eval", "toy", "--seeds", "0-1", "--concurrency", "1", "--store", str(store)]
    progress = "slow 1/4 set-target@easy#0: score 1.000 ("
    output = ""
    with anyio.fail_after(60):
        async with await anyio.open_process(
            command, cwd=ROOT, stderr=subprocess.STDOUT, env={**os.environ, "COLUMNS": "80"}
        ) as proc:
            assert proc.stdout is not None
            async for chunk in TextReceiveStream(proc.stdout):
                if progress not in output and progress in output + chunk:
                    proc.send_signal(signum)  # seed 1 never ends: only a signal stops it
                output += chunk
            code = await proc.wait()
    assert code == 128 + signum, output
    assert "Traceback" not in output
    with RunStore(store) as runs:
        main, base = sorted(runs.runs(), key=lambda r: r["baseline_of"] is not None)
        kept = [e for e in runs.episodes(main["id"]) if e["scored"]]
        rows = runs.episodes(main["id"]) + runs.episodes(base["id"])
    assert output.splitlines()[-1] == (
        f"interrupted: 1 of 8 episodes completed are in {store} "
        f"(run {main['id']}, baseline run {base['id']}; left unfinished); the other 7 are "
        "stored unscored as not run: run the same command again to resume the run and play them"
    )
    assert [(e["variant_id"], e["score"]) for e in kept] == [("toy/set-target@easy#0", 1.0)]
    # every planned slot is one row (issue 9 §1): the 7 not played name the signal
    assert len(rows) == 8 and sum(not e["scored"] for e in rows) == 7
    assert all(
        e["error"] == f"not run to its end: the campaign stopped (interrupted by {signum.name})"
        for e in rows
        if not e["scored"]
    ), rows
    assert main["finished_at"] is None and base["finished_at"] is None


# -- the model endpoint -------------------------------------------------------------------


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)


def test_an_unreachable_model_endpoint_fails_before_anything_starts(
    toy_installed: Environment, no_proxy: None, tmp_path: Path
) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    result = runner.invoke(
        app,
        ["eval", "toy", "--model", "qwen3:8b", "--base-url", url, "--seeds", "0-4"]
        + ["--store", str(tmp_path / "m.db")],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"error: cannot reach the model API at {url} (")
    assert lines[0].endswith("is the model server running, and is --base-url right?")
    with RunStore(tmp_path / "m.db") as runs:
        assert runs.runs() == []


def model_api(monkeypatch: pytest.MonkeyPatch, answers: dict[str, httpx.Response]) -> list[str]:
    """Serve the model API from ``answers`` (by path suffix); return the paths requested."""
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return next(a for suffix, a in answers.items() if request.url.path.endswith(suffix))

    transport = httpx.MockTransport(handler)
    monkeypatch.setattr(
        _agent,
        "ChatCompletionsClient",
        functools.partial(ChatCompletionsClient, transport=transport),
    )
    return paths


def test_a_rejected_api_key_fails_before_anything_starts(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    paths = model_api(
        monkeypatch,
        {"/models": httpx.Response(401, json={"error": {"message": "Incorrect API key"}})},
    )
    monkeypatch.setenv("MY_KEY", "sk-wrong")
    result = runner.invoke(
        app,
        ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1"]
        + ["--api-key-env", "MY_KEY", "--store", str(tmp_path / "m.db")],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [
        "error: the model API at http://model.test/v1 rejected the API key "
        "(401: Incorrect API key); check MY_KEY (or pass --api-key)"
    ]
    assert paths == ["/v1/models"]


def test_eval_fails_when_no_episode_of_the_agent_was_scored(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    paths = model_api(
        monkeypatch,
        {
            "/models": httpx.Response(404, json={"error": "not here"}),  # fine: go on
            "/chat/completions": httpx.Response(
                400, json={"error": {"message": "model 'm' not found"}}
            ),
        },
    )
    store = tmp_path / "m.db"
    result = runner.invoke(
        app,
        ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1", "--bands", "easy"]
        + ["--seeds", "0-1", "--store", str(store)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 1, result.output
    # preflight: /models 404, so an empty-body probe of the endpoint (400: it exists)
    assert paths == ["/v1/models"] + ["/v1/chat/completions"] * 3
    lines = result.output.splitlines()
    assert "not scored: model_error 2" in lines
    assert "  model API answered 400: model 'm' not found" in lines
    assert any(line.startswith("results: run ") for line in lines)
    assert lines[-1] == (
        "error: no episode of the openai run was scored (model_error 2); the messages above say why"
    )


def test_eval_says_when_episodes_ended_on_a_tool_call_written_as_text(
    toy_installed: Environment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A bare model name (`--model qwen3:8b --base-url ...`, Ollama's form) does not read tool
    # calls written as text; the eval's own summary says so and how to read them, as `show` does.
    written = '<tool_call>\n{"name": "put", "arguments": {"key": "a", "value": "1"}}\n</tool_call>'
    reply = {
        "id": "c1",
        "object": "chat.completion",
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": written},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    model_api(
        monkeypatch,
        {
            "/models": httpx.Response(200, json={"object": "list", "data": [{"id": "m"}]}),
            "/chat/completions": httpx.Response(200, json=reply),
        },
    )
    store = tmp_path / "m.db"
    result = runner.invoke(
        app,
        ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1", "--bands", "easy"]
        + ["--seeds", "0-1", "--no-baseline", "--store", str(store)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "flagged: unparsed_tool_call 2 of 2 scored episodes" in out, out
    assert "--parse-text-tool-calls reads tool calls written as text" in out, out
    parsed = runner.invoke(
        app,
        ["eval", "toy", "--model", "m", "--base-url", "http://model.test/v1", "--bands", "easy"]
        + ["--seeds", "0-1", "--no-baseline", "--store", str(store), "--parse-text-tool-calls"],
        env={"COLUMNS": "200"},
    )
    assert parsed.exit_code == 0, parsed.output
    assert "flagged:" not in parsed.output  # the calls were read and run


# -- output -------------------------------------------------------------------------------


def test_tasks_never_cuts_family_names_and_shows_each_description(
    monkeypatch: pytest.MonkeyPatch, toy_env: Environment
) -> None:
    wide = Environment(
        name="wide",
        version="0.1.0",
        snapshot=toy_env.snapshot,
        clock_start=toy_env.clock_start,
        instructions="A key-value store.",
    )
    families = {
        "change-shipping-address-after-an-identity-check": "Verify who is asking, then "
        "change an order's shipping address (hard: verification fails, decline).",
        "refund-a-damaged-item-to-the-original-payment": "Refund an item that arrived "
        "damaged to the original payment method.",
        "cancel-order": "Cancel an unshipped order.",
    }
    for name, description in families.items():
        family = toy_env.families["set-target"]
        wide.add_family(dataclasses.replace(family, name=name, description=description))
    monkeypatch.setattr(_common, "load_environment", lambda name: wide)
    result = runner.invoke(app, ["tasks", "wide"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert max(len(line) for line in out.splitlines()) <= 80
    for name, description in families.items():
        assert re.search(rf"│ {name} +│", out), out
        assert all(word in out for word in description.split()), description
    assert "…" not in out
    # the families' instructions read alike: shown once, below the table
    assert out.count("Set key `target` to 100.") == 1
    lead = "instruction reads alike, e.g. change-shipping-address-after-an-identity-check@easy#0:"
    assert lead in flat(out)


def test_paths_are_printed_whole_when_stdout_is_not_a_terminal(
    toy_installed: Environment, tmp_path: Path
) -> None:
    store = tmp_path / ("a-directory-with-a-long-name-" * 3) / "runs" / "mcpgym.db"
    result = runner.invoke(
        app,
        ["eval", "toy", "--bands", "easy", "--store", str(store)],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    with RunStore(store) as runs:
        main, base = sorted(runs.runs(), key=lambda r: r["baseline_of"] is not None)
    assert f"results: run {main['id']} (baseline run {base['id']}) in {store}" in lines
    assert f"episode bundles: {store.parent / 'episodes'}" in lines
    assert f"server log: {store.parent / 'servers.log'}" in lines
    # off a terminal, progress is one line per episode rather than a bar drawn at the end
    # (with the episode's time and tool calls)
    assert any(x.startswith("reference 1/1 set-target@easy#0: score 1.000 (") for x in lines)
    assert any(x.startswith("null (baseline) 1/1 set-target@easy#0: score 0.000 (") for x in lines)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        # the baseline's episodes count: 1,000,000 of the agent's fit, with the baseline not
        (
            ["--tasks", "set-target", "--seeds", "0-99999", "--epochs", "5"],
            "plans 1,200,000 episodes (200,000 variants x 5 epochs + 200,000 of the null baseline)",
        ),
        (
            ["--tasks", "set-target", "--bands", "easy", "--seeds", "0", "--epochs", "1000001"],
            "plans 1,000,001 episodes (1 variant x 1,000,001 epochs)",
        ),
    ],
)
def test_eval_refuses_too_many_planned_episodes_before_its_servers_start(
    toy_installed: Environment,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    says: str,
) -> None:
    # Stop 25, F4: too many --epochs were refused only once both servers had started
    # (10-12 s), and the cap left out the baseline's episodes (2 M accepted).
    def started(*_: object, **__: object) -> None:
        raise AssertionError("the servers started")

    monkeypatch.setattr(evaluation, "serve_locally", started)
    monkeypatch.setattr(evaluation, "serve_in_processes", started)
    agent = ["--agent", "null", "--no-baseline"] if "1000001" in args else ["--agent", "reference"]
    result = runner.invoke(
        app,
        ["eval", "toy", *agent, *args, "--store", str(tmp_path / "runs.db")],
        env={"COLUMNS": "400"},
    )
    assert result.exit_code == 1, result.output
    assert says in flat(result.output)
