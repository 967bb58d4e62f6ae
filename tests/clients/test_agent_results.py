"""What a lab's agent returns or raises never stops a campaign: results are checked,
exotic exceptions contained, over-long answers cut (toy environment; the servers in process,
reached through ASGI transports, except where the MCP connection itself is under test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpgym_clients import (
    Agent,
    AgentResult,
    EpisodeContext,
    EpisodeDriver,
    FunctionAgent,
    HarnessContext,
    LocalServers,
)
from mcpgym_clients.harness import GuardedAgent
from mcpgym_clients.results import ANSWER_LIMIT, checked_result
from mcpgym_clients.train._backends import in_process_driver
from mcpgym_server import Environment

pytestmark = pytest.mark.anyio


async def run_one(env: Environment, tmp: Path, agent: Agent) -> Any:
    """Run ``agent`` on ``set-target@easy#0`` through the driver, servers in process."""
    async with in_process_driver(env, store_dir=tmp / "episodes") as (d, _app):
        with anyio.fail_after(15):
            return await d.run_episode(agent, "set-target", "easy", 0)


class Returns(Agent):
    name = "returns"

    def __init__(self, result: object) -> None:
        self.result = result

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        return self.result  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("result", "needle"),
    [
        (AgentResult("bogus_termination", answer="fine"), "termination 'bogus_termination'"),  # type: ignore[arg-type]
        (AgentResult("completed", answer=123), "answer of type int"),  # type: ignore[arg-type]
        (["not", "a", "result"], "returned list"),
    ],
)
async def test_an_invalid_result_is_a_model_error_not_a_crash(
    toy_env: Environment, tmp_path: Path, result: object, needle: str
) -> None:
    rec = await run_one(toy_env, tmp_path, GuardedAgent(Returns(result)))
    assert rec.termination == "model_error" and not rec.scored
    assert needle in (rec.error or "")
    assert rec.episode_termination == "ended" and rec.grade is not None


async def test_non_json_transcript_and_usage_are_coerced_with_a_note(
    toy_env: Environment, tmp_path: Path
) -> None:
    async def loop(task: HarnessContext) -> str:
        task.transcript.append({"role": "assistant", "content": b"bytes", "x": {1, 2}})
        task.usage["prompt_tokens"] = float("nan")  # type: ignore[assignment]
        task.usage["completion_tokens"] = 7
        return "101"

    rec = await run_one(toy_env, tmp_path, FunctionAgent(loop))
    assert rec.termination == "completed" and rec.scored
    assert rec.transcript[1] == {"role": "assistant", "content": "bytes", "x": [1, 2]}
    assert rec.usage == {"completion_tokens": 7}
    note = rec.transcript[-1]
    assert note["mcpgym_harness"] is True and "bytes decoded" in note["content"]
    assert "prompt_tokens" in note["content"]


class BadRepr:
    def __repr__(self) -> str:
        raise ValueError("no repr for you")


def hostile_values() -> list[tuple[str, Any]]:
    loop: dict[str, Any] = {"role": "assistant"}
    loop["self"] = loop
    loop["again"] = loop  # two self-references: exponential if followed blindly
    fan: Any = {"leaf": "x"}
    for _ in range(40):  # shared sub-structures: 2**40 paths without a cycle
        fan = {"a": fan, "b": fan}
    return [("cycle", loop), ("fan-out", fan), ("bad repr", {"content": BadRepr()})]


@pytest.mark.parametrize(("label", "message"), hostile_values())
async def test_hostile_transcript_data_never_stops_the_episode(
    toy_env: Environment, tmp_path: Path, label: str, message: Any
) -> None:
    async def loop(task: HarnessContext) -> str:
        task.transcript.append(message)
        task.usage["prompt_tokens"] = 10**400  # an int no float or SQLite integer holds
        return "101"

    with anyio.fail_after(30):
        rec = await run_one(toy_env, tmp_path, FunctionAgent(loop))
    assert rec.termination == "completed" and rec.scored, (label, rec.error)
    assert "prompt_tokens" not in rec.usage
    assert rec.transcript[-1]["mcpgym_harness"] is True


async def test_an_answer_with_an_unpaired_surrogate_is_repaired_and_graded(
    toy_env: Environment, tmp_path: Path
) -> None:
    async def loop(task: HarnessContext) -> str:
        return "101 \udcff"

    rec = await run_one(toy_env, tmp_path, FunctionAgent(loop))
    assert rec.termination == "completed" and rec.scored and rec.grade is not None
    assert "not valid Unicode" in rec.transcript[-1]["content"]


def test_checked_result_never_raises_even_when_the_result_cannot_be_read() -> None:
    class Exploding(AgentResult):
        def __getattribute__(self, name: str) -> Any:
            if name == "transcript":
                raise RuntimeError("boom")
            return super().__getattribute__(name)

    got = checked_result(Exploding("completed"), "lab")
    assert got.termination == "model_error" and "cannot store: RuntimeError" in (got.error or "")


@pytest.mark.parametrize("exc", [SystemExit(3), KeyboardInterrupt(), "cancelled"])
async def test_exotic_exceptions_from_the_loop_are_model_errors(
    toy_env: Environment, tmp_path: Path, exc: Any
) -> None:
    async def loop(task: HarnessContext) -> str:
        await task.call_tool("put", {"key": "a", "value": "1"})
        raise anyio.get_cancelled_exc_class()() if exc == "cancelled" else exc

    rec = await run_one(toy_env, tmp_path, FunctionAgent(loop, name="hostile"))
    assert rec.termination == "model_error" and rec.episode_termination == "ended"
    assert "harness `hostile` raised" in (rec.error or "")
    assert rec.steps == 1


async def test_a_real_cancellation_still_cancels_the_loop() -> None:
    started = anyio.Event()

    async def loop(task: HarnessContext) -> str:
        started.set()
        await anyio.sleep_forever()
        return "never"

    ctx = EpisodeContext("ep", "v", "do it", [], call_tool=None)  # type: ignore[arg-type]
    agent = FunctionAgent(loop)
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(agent.run, ctx)
            await started.wait()
            tg.cancel_scope.cancel()
    assert tg.cancel_scope.cancelled_caught


async def test_an_over_long_answer_is_cut_to_the_limit_and_still_graded(
    toy_env: Environment, tmp_path: Path
) -> None:
    async def loop(task: HarnessContext) -> str:
        return "Z" * (ANSWER_LIMIT * 100)

    rec = await run_one(toy_env, tmp_path, FunctionAgent(loop))
    assert rec.termination == "completed" and rec.episode_termination == "submitted"
    assert rec.answer == "Z" * ANSWER_LIMIT and rec.scored
    assert f"cut to the first {ANSWER_LIMIT}" in rec.transcript[-1]["content"]


async def test_leaving_an_mcp_connection_on_an_error_keeps_the_task_usable(
    servers: LocalServers, toy_env: Environment
) -> None:
    """The exit of a connection left by an exception used to run inside a shielded scope,
    corrupting the task's cancel scopes: the next request was cancelled (ExceptionGroup)."""
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
    ) as d:
        with anyio.fail_after(15):
            meta = await d._request(
                "env", "POST", "/episodes", {"task": "set-target", "band": "easy", "seed": 0}
            )
            with pytest.raises(ValueError, match="boom"):
                async with d._mcp.connect(meta["mcp_url"]):
                    raise ValueError("boom")
            ended = await d._request("env", "POST", f"/episodes/{meta['episode_id']}/end", {})
    assert ended["termination"] == "ended"


def test_checked_result_keeps_a_valid_result() -> None:
    res = AgentResult("max_turns", [{"role": "user", "content": "x"}], {"requests": 2}, "a")
    out = checked_result(res, "agent `a`")
    assert (out.termination, out.transcript, out.usage, out.answer) == (
        "max_turns",
        [{"role": "user", "content": "x"}],
        {"requests": 2},
        "a",
    )
