"""Your own harness through ``mcpgym eval --agent SPEC``: both forms graded on helpdesk,
failures recorded on the episode, and one-line errors for bad specs."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from mcpgym_clients import EpisodeContext, HarnessLoadError, InfraError, ToolOutcome, load_agent
from mcpgym_clients.cli import app
from mcpgym_clients.harness import FunctionAgent, GuardedAgent, failure_result
from mcpgym_clients.records import record_from_row
from mcpgym_clients.runstore import RunStore

REPO = Path(__file__).resolve().parents[2]
OWN_HARNESS = REPO / "examples" / "own_harness.py"
BYO = Path(__file__).with_name("byo_agents.py")
runner = CliRunner()


def digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def flat(text: str) -> str:
    """Output without rich panel borders, whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


def run_eval(store: Path, agent: str, *args: str) -> tuple[int, str, list[dict], dict]:
    """``mcpgym eval helpdesk --agent AGENT`` on order-status: exit, output, episodes, run."""
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--agent", agent, "--task", "order-status", "--no-baseline"]
        + ["--store", str(store), *args],
        env={"COLUMNS": "200"},
    )
    with RunStore(store) as runs:
        (run,) = runs.runs()
        return result.exit_code, flat(result.output), runs.episodes(run["id"]), run


def test_the_function_form_example_is_graded_full_marks_up_to_hard(tmp_path: Path) -> None:
    # the example's heuristics read order numbers from the ticket; `expert` order-status
    # tickets name none (the order is found through the card charge), which it does not try
    code, out, episodes, run = run_eval(
        tmp_path / "m.db", f"{OWN_HARNESS}:agent", "--bands", "easy,medium,hard", "--seeds", "0"
    )
    assert code == 0, out
    assert run["agent"] == "own_harness"
    assert run["settings"] == {
        "harness": f"{OWN_HARNESS}:agent",
        "harness_digest": digest(OWN_HARNESS),
    }
    assert sorted((e["band"], e["termination"], e["score"]) for e in episodes) == [
        ("easy", "completed", 1.0),
        ("hard", "completed", 1.0),
        ("medium", "completed", 1.0),
    ]
    easy = next(e for e in episodes if e["band"] == "easy")
    assert easy["episode_termination"] == "submitted"
    # the framework recorded every call: instruction, then call/result pairs, submit last
    transcript = easy["transcript"]
    assert transcript[0]["role"] == "user"
    names = [m["tool_calls"][0]["function"]["name"] for m in transcript if m.get("tool_calls")]
    assert names == ["get_ticket", "get_order", "reply_to_customer", "close_ticket", "submit"]
    assert [m["tool_call_id"] for m in transcript if m["role"] == "tool"] == [
        f"call-{i}" for i in range(1, 6)
    ]
    assert easy["steps"] == 5


def test_the_class_form_from_a_module_is_graded_and_its_usage_stored(tmp_path: Path) -> None:
    code, out, episodes, run = run_eval(
        tmp_path / "m.db", "tests.clients.byo_agents:OrderStatusAgent", "--bands", "easy"
    )
    assert code == 0, out
    assert (run["agent"], run["model"]) == ("order-status-bot", "scripted-v1")
    assert run["settings"] == {
        "temperature": 0.0,
        "harness": "tests.clients.byo_agents:OrderStatusAgent",
        "harness_digest": digest(BYO),
    }
    (ep,) = episodes
    assert (ep["termination"], ep["score"], ep["episode_termination"]) == (
        "completed",
        1.0,
        "submitted",  # the driver passed the returned answer to submit
    )
    assert ep["usage"] == {
        "requests": 1,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "total_tokens": 15,
    }
    assert ep["answer"].startswith("Order #")


def test_an_exception_in_the_loop_is_a_model_error_and_the_run_goes_on(tmp_path: Path) -> None:
    code, out, episodes, _ = run_eval(
        tmp_path / "m.db", "tests.clients.byo_agents:crashing_loop", "--bands", "easy,medium"
    )
    # every episode failed, so the command says none was scored; it did not crash
    assert code == 1
    assert "not scored: model_error 2" in out
    assert "harness `crashing_loop` raised ValueError: the model API said no" in out
    for ep in episodes:
        assert ep["termination"] == "model_error"
        assert re.fullmatch(
            r"harness `crashing_loop` raised ValueError: the model API said no "
            r"\(at byo_agents\.py:\d+ in crashing_loop\)",
            ep["error"],
        )
        assert ep["scored"] in (0, False) and ep["score"] is None
        assert ep["grade"]["status"] == "graded"  # ended and graded, kept for inspection
        assert ep["usage"] == {"requests": 1}
        assert [m["role"] for m in ep["transcript"]] == ["user", "assistant", "tool"]


def test_a_class_form_agent_that_raises_is_recorded_too(tmp_path: Path) -> None:
    code, out, episodes, _ = run_eval(
        tmp_path / "m.db", "tests.clients.byo_agents:CrashingAgent", "--bands", "easy"
    )
    assert code == 1
    (ep,) = episodes
    assert ep["termination"] == "model_error"
    assert ep["error"].startswith("agent `crashing-class` raised KeyError: 'missing' (at ")


def test_a_factory_sets_name_model_and_settings() -> None:
    agent = load_agent("tests.clients.byo_agents:make_agent")
    assert isinstance(agent, FunctionAgent)
    assert (agent.name, agent.model, agent.settings()) == (
        "made",
        "m-1",
        {
            "top_p": 0.5,
            "harness": "tests.clients.byo_agents:make_agent",
            "harness_digest": digest(BYO),
        },
    )


def test_an_agent_instance_is_guarded_and_keeps_its_identity() -> None:
    agent = load_agent("tests.clients.byo_agents:OrderStatusAgent")
    assert isinstance(agent, GuardedAgent)
    assert (agent.name, agent.model, agent.uses_reference) == (
        "order-status-bot",
        "scripted-v1",
        False,
    )


@pytest.mark.anyio
async def test_a_wrong_return_type_is_a_model_error_naming_the_fix() -> None:
    async def no_tools(name: str, arguments: object) -> ToolOutcome:
        return ToolOutcome(True, "no tools here")

    agent = load_agent("tests.clients.byo_agents:returns_a_number")
    with anyio.fail_after(5):
        result = await agent.run(EpisodeContext("ep_x", "v", "Ticket #1234.", [], no_tools))
    assert result.termination == "model_error"
    assert result.error == (
        "harness `returns_a_number` returned int; return a str (the answer), None or an AgentResult"
    )


def test_a_server_failure_under_the_loop_stays_an_infra_error() -> None:
    try:
        try:
            raise InfraError("mcp", "calling `get_ticket`: connection reset")
        except InfraError as inner:
            raise RuntimeError("my SDK wrapped it") from inner
    except RuntimeError as exc:
        result = failure_result(exc, [], {}, "harness `x`")
    assert (result.termination, result.error) == (
        "infra_error",
        "mcp server: calling `get_ticket`: connection reset",
    )


BAD_MODULE = "import no_such_dependency_h4b\n"
RAISING_MODULE = "x = 1 / 0\n"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (str(OWN_HARNESS), "names no attribute; give package.module:attr or path/to/file.py:attr"),
        ("no/such/file.py:agent", "file 'no/such/file.py' not found"),
        ("no_such_pkg_h4b.loops:agent", "module 'no_such_pkg_h4b.loops' not found"),
        (f"{OWN_HARNESS}:agnet", "has no attribute 'agnet'; did you mean agent?"),
        ("tests.clients.byo_agents:not_an_agent", "is int, not an agent; expected an Agent"),
        (
            "tests.clients.byo_agents:needs_args",
            "is a plain function taking 'task'; a loop must be defined with `async def`",
        ),
        ("tests.clients.byo_agents:NeedsArgs", "NeedsArgs() failed"),
        ("tests.clients.byo_agents:AgentResult", "is the class AgentResult, not an Agent"),
        ("BAD:agent", "it imports 'no_such_dependency_h4b', which is not installed; install it"),
        ("RAISING:agent", "raised ZeroDivisionError: division by zero (at raising.py:1"),
        ("openai:gpt-4.1", "names a model, not a harness; run it with --model openai:gpt-4.1"),
    ],
)
def test_a_bad_agent_spec_is_a_usage_error_naming_the_fix(
    spec: str, message: str, tmp_path: Path
) -> None:
    (tmp_path / "bad.py").write_text(BAD_MODULE)
    (tmp_path / "raising.py").write_text(RAISING_MODULE)
    spec = spec.replace("BAD", str(tmp_path / "bad.py")).replace(
        "RAISING", str(tmp_path / "raising.py")
    )
    result = runner.invoke(app, ["eval", "helpdesk", "--agent", spec], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    out = flat(result.output)
    assert "Invalid value for '--agent':" in out
    assert message in out
    with pytest.raises(HarnessLoadError):
        load_agent(spec)


def test_a_harness_takes_no_model_flag() -> None:
    result = runner.invoke(
        app, ["eval", "helpdesk", "--agent", f"{OWN_HARNESS}:agent", "--model", "gpt-x"]
    )
    assert result.exit_code == 2
    assert "--model is for the built-in model agents" in flat(result.output)


def test_a_module_in_the_working_directory_loads_without_installing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lab_loop_h4b.py").write_text(
        "async def my_loop(task):\n    return 'answer'\n", encoding="utf-8"
    )
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.chdir(tmp_path)
    agent = load_agent("lab_loop_h4b:my_loop")
    assert isinstance(agent, FunctionAgent) and agent.name == "my_loop"
    assert agent.settings() == {
        "harness": "lab_loop_h4b:my_loop",
        "harness_digest": digest(tmp_path / "lab_loop_h4b.py"),
    }


def test_an_object_with_an_async_call_is_the_function_form() -> None:
    agent = load_agent("tests.clients.byo_agents:callable_loop")
    assert isinstance(agent, FunctionAgent) and agent.name == "CallableLoop"


def test_spellings_of_one_harness_and_selection_resume_one_run_and_an_edit_starts_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = tmp_path / "lab_loop_resume.py"
    harness.write_text(OWN_HARNESS.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    store = tmp_path / "r.db"

    def run(agent: str, *selection: str) -> str:
        result = runner.invoke(
            app,
            ["eval", "helpdesk", "--agent", agent, "--no-baseline", "--bands", "easy"]
            + [*selection, "--store", str(store)],
            env={"COLUMNS": "200"},
        )
        assert result.exit_code == 0, result.output
        return flat(result.output)

    selection = ("--tasks", "order-status,cancel-order", "--seeds", "2,0-1")
    run("./lab_loop_resume.py:agent", *selection)

    def break_one(run_id: str) -> None:  # as if its grading had failed for good
        with RunStore(store) as runs:
            row = runs.episodes(run_id)[0]
            runs.add_episode(
                run_id, record_from_row({**row, "termination": "infra_error", "grade": None})
            )

    with RunStore(store) as runs:
        (first,) = runs.runs()
    break_one(first["id"])
    out = run("lab_loop_resume.py:agent", "--tasks", "cancel-order,order-status", "--seeds", "0-2")
    assert f"resuming run {first['id']}: 5 of 6 episodes done" in out
    assert "retrying 1 infra_error episodes (the run had finished)" in out
    with RunStore(store) as runs:
        assert [r["id"] for r in runs.runs()] == [first["id"]]
        assert all(e["termination"] == "completed" for e in runs.episodes(first["id"]))
    # an edited harness does not resume the run measured with the old code
    break_one(first["id"])
    harness.write_text(harness.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    out = run(str(harness) + ":agent", *selection)
    assert "resuming" not in out
    assert f"starting a new run: run {first['id']} " in out and "harness_digest" in out
    with RunStore(store) as runs:
        later = [r for r in runs.runs() if r["id"] != first["id"]]
        assert len(later) == 1 and later[0]["settings"]["harness_digest"] == digest(harness)
        assert len(runs.episodes(later[0]["id"])) == 6


@pytest.mark.parametrize(("flag", "value"), [("--max-turns", "5"), ("--max-tokens", "1000")])
def test_a_harness_refuses_limits_it_cannot_honour(flag: str, value: str) -> None:
    result = runner.invoke(
        app,
        ["eval", "helpdesk", "--agent", f"{OWN_HARNESS}:agent", flag, value],
        env={"COLUMNS": "300"},
    )
    assert result.exit_code == 2
    assert f"{flag} is for the built-in model agents; mcpgym cannot enforce it" in flat(
        result.output
    )


def test_the_time_limit_is_a_harness_hard_cap_never_unlimited(tmp_path: Path) -> None:
    code, out, episodes, run = run_eval(
        tmp_path / "m.db", "tests.clients.byo_agents:hangs", "--bands", "easy", "--time-limit", "1"
    )
    (ep,) = episodes
    assert (ep["termination"], ep["episode_termination"]) == ("timeout", "ended"), out
    assert ep["error"] == "the agent exceeded 1.0 s (--timeout)"
    assert ep["steps"] == 1 and ep["transcript"][-1]["role"] == "tool"  # kept on the cut
