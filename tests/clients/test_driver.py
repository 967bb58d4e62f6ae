"""The episode driver over real loopback servers (toy environment), and its failure paths."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import httpx2
import pytest

from mcpgym_clients import (
    Agent,
    AgentResult,
    ChatCompletionsClient,
    ConfigurationError,
    EpisodeContext,
    EpisodeDriver,
    LocalServers,
    NullAgent,
    OpenAIAgent,
    ReferenceAgent,
    ServerRequestError,
)
from mcpgym_server import Environment

from .conftest import Cassette

pytestmark = pytest.mark.anyio


def driver_for(s: LocalServers, env: Environment, **kw: Any) -> EpisodeDriver:
    return EpisodeDriver(
        s.env_url,
        s.grading_url,
        s.grading_token,
        control_token=s.control_token,
        environment=env,
        **kw,
    )


async def test_the_reference_agent_scores_full_marks(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10):
            await driver.server_info()
            rec = await driver.run_episode(ReferenceAgent(), "set-target", "medium", 2, epoch=1)
    assert (rec.termination, rec.episode_termination, rec.error) == ("completed", "submitted", None)
    assert rec.variant_id == "toy/set-target@medium#2"
    assert rec.epoch == 1 and rec.steps == 2
    assert rec.score == 1.0 and rec.passed is True
    assert rec.grade is not None and rec.grade["checks"][0]["detail"] == {
        "expected": "502",
        "found": "502",
    }
    assert rec.transcript[1]["tool_calls"][0]["function"] == {
        "name": "put",
        "arguments": '{"key": "target", "value": "502"}',
    }
    assert set(rec.timings) == {"create", "connect", "agent", "grade"}
    # the bundle is in the shared store
    assert (servers.store_dir / str(rec.episode_id) / "meta.json").is_file()


async def test_the_null_agent_episode_is_ended_by_the_driver_and_scores_zero(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(NullAgent(), "set-target", "easy", 0)
    assert (rec.termination, rec.episode_termination) == ("completed", "ended")
    assert (rec.score, rec.passed, rec.steps) == (0.0, False, 0)
    assert "end" in rec.timings


async def test_the_openai_agent_runs_over_mcp_and_its_answer_is_submitted(
    servers: LocalServers, toy_env: Environment, cassette: Callable[[str], Cassette]
) -> None:
    tape = cassette("openai_multi_turn.json")
    client = ChatCompletionsClient(base_url="http://model.test/v1", transport=tape.transport)
    agent = OpenAIAgent(client=client, model="gpt-4o-mini")
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(agent, "set-target", "easy", 3)
    await agent.aclose()
    assert (rec.termination, rec.episode_termination) == ("completed", "submitted")
    assert rec.score == 1.0
    assert rec.steps == 4  # get, get, put, then the harness's submit
    # the real server's tool error went back to the model, paired with its call
    error_msg = tape.bodies[1]["messages"][4]
    assert error_msg["tool_call_id"] == "call_P7aJc2WmN5uR8tXq1vGy6KzB"
    assert error_msg["content"] == "Error: no key 'target'"
    assert json.loads(tape.bodies[1]["messages"][3]["content"]) == {"key": "a", "value": "1"}
    # the MCP tool list reached the model as function tools, submit included
    assert [t["function"]["name"] for t in tape.bodies[0]["tools"]] == [
        "dump",
        "get",
        "put",
        "submit",
    ]
    assert rec.answer is not None and rec.answer.startswith("I set the key")


class Stuck(Agent):
    """Waits forever (until the driver's time limit cancels it)."""

    name = "stuck"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        await ctx.call_tool("put", {"key": "target", "value": "1"})
        await anyio.Event().wait()
        raise AssertionError("unreachable")


async def test_an_agent_past_the_time_limit_is_cut_off_ended_and_graded(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env, episode_timeout=0.05) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(Stuck(), "set-target", "easy", 0)
    assert (rec.termination, rec.episode_termination) == ("timeout", "ended")
    assert rec.error == "the agent exceeded 0.05 s (--timeout)"
    assert rec.score == 0.0  # a timeout is the agent's result, so it is scored


class StuckHarness(Agent):
    """Records its progress in ``ctx.progress``, then waits forever."""

    name = "stuck-harness"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        ctx.progress.transcript.append({"role": "user", "content": ctx.instruction})
        ctx.progress.usage["requests"] = 1
        await ctx.call_tool("put", {"key": "target", "value": "1"})
        ctx.progress.transcript.append({"role": "assistant", "content": "put done"})
        await anyio.Event().wait()
        raise AssertionError("unreachable")


async def test_the_hard_cap_keeps_the_partial_transcript_and_usage(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env, episode_timeout=0.05) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(StuckHarness(), "set-target", "easy", 0)
    assert rec.termination == "timeout" and rec.steps == 1
    assert [m["content"] for m in rec.transcript][-1] == "put done"
    assert rec.usage == {"requests": 1}


class WaitsOnTheModel(Agent):
    """Inside a model request (retried forever by the vendor's 429s) at the hard cap."""

    name = "waits-on-model"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        from mcpgym_clients.adapters.retry import RetryPolicy, with_retries

        await with_retries(RetryPolicy(request_timeout=None), anyio.Event().wait)
        raise AssertionError("unreachable")


async def test_the_hard_cap_inside_a_model_request_is_infra_error_not_a_score(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env, episode_timeout=0.05) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(WaitsOnTheModel(), "set-target", "easy", 0)
    assert rec.termination == "infra_error" and not rec.scored
    assert "waiting on the model API" in (rec.error or "")


async def test_an_unknown_task_is_a_request_error_naming_valid_tasks(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10), pytest.raises(ServerRequestError) as info:
            await driver.run_episode(NullAgent(), "no-such-task", "easy", 0)
    assert info.value.status == 404
    assert "set-target" in str(info.value)


async def test_a_wrong_grading_token_fails_the_preflight(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with EpisodeDriver(
        servers.env_url, servers.grading_url, "wrong", control_token=servers.control_token
    ) as driver:
        with (
            anyio.fail_after(10),
            pytest.raises(
                ConfigurationError,
                match="rejected the grading token.*MCPGYM_GRADING_TOKEN or pass --grading-token",
            ),
        ):
            await driver.check_grading()
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10):
            await driver.check_grading()


async def test_a_reference_from_another_lock_is_refused(
    servers: LocalServers, toy_env: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mcpgym_clients.driver.compute_lock", lambda env: "f" * 64)
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10), pytest.raises(ConfigurationError, match="reference solutions"):
            await driver.run_episode(ReferenceAgent(), "set-target", "easy", 0)


async def test_a_grading_service_failure_is_infra_error_not_a_score(
    servers: LocalServers, toy_env: Environment
) -> None:
    def failing(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, json={"error": "internal error in the grading service"})

    async with driver_for(servers, toy_env, grading_transport=httpx.MockTransport(failing)) as d:
        with anyio.fail_after(10):
            rec = await d.run_episode(ReferenceAgent(), "set-target", "easy", 0)
    assert rec.termination == "infra_error"
    assert rec.error == (
        "grading server: POST /grades answered 500: internal error in the grading service"
    )
    assert rec.episode_termination == "submitted"
    assert (rec.grade, rec.score, rec.scored) == (None, None, False)


async def test_an_unreachable_environment_server_is_infra_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("All connection attempts failed", request=request)

    transport = httpx.MockTransport(refuse)
    async with EpisodeDriver(
        "http://env.test", "http://grading.test", "t", env_transport=transport
    ) as d:
        with anyio.fail_after(5):
            rec = await d.run_episode(NullAgent(), "set-target", "easy", 0)
    assert rec.termination == "infra_error"
    assert rec.error == (
        "env server: POST http://env.test/episodes: ConnectError: All connection attempts failed"
    )
    assert rec.episode_id is None and rec.grade is None and rec.score is None


async def test_a_failing_mcp_endpoint_is_infra_error_and_the_episode_is_ended() -> None:
    seen: list[str] = []

    def env(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        if request.url.path == "/episodes":
            body = {
                "episode_id": "ep_x",
                "mcp_url": "http://env.test/episodes/ep_x/mcp",
                "instruction": "Set key `target` to 100.",
                "variant_id": "toy/set-target@easy#0",
                "lock": "l",
            }
            return httpx.Response(201, json=body)
        return httpx.Response(200, json={"episode_id": "ep_x", "termination": "ended"})

    def mcp(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(503, text="upstream unavailable")

    async with httpx2.AsyncClient(transport=httpx2.MockTransport(mcp)) as mcp_http:
        async with EpisodeDriver(
            "http://env.test",
            "http://grading.test",
            "t",
            env_transport=httpx.MockTransport(env),
            mcp_http=mcp_http,
        ) as d:
            with anyio.fail_after(5):
                rec = await d.run_episode(NullAgent(), "set-target", "easy", 0)
    assert rec.termination == "infra_error"
    assert rec.error is not None
    assert rec.error.startswith("mcp server: cannot connect to http://env.test/episodes/ep_x/mcp")
    assert seen == ["POST /episodes", "POST /episodes/ep_x/end"]
    assert rec.grade is None


class Malformed(Agent):
    """Sends what a broken model might: deep nesting and a lone surrogate, then gives up."""

    name = "malformed"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        deep: Any = "x"
        for _ in range(300):
            deep = [deep]
        outcomes = [
            await ctx.call_tool("put", {"key": "target", "value": deep}),
            await ctx.call_tool("put", {"key": "\ud800", "value": "1"}),
            await ctx.call_tool("get\ud800", {}),
        ]
        assert all(o.is_error and "was not sent" in o.text for o in outcomes)
        return AgentResult("completed")


async def test_malformed_model_output_is_answered_as_an_error_and_the_episode_scored(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(Malformed(), "set-target", "easy", 0)
    assert (rec.termination, rec.error) == ("completed", None)
    assert rec.scored and rec.score == 0.0


class WaitsOnTheEnvironment(Agent):
    """Inside a tool call the environment server never answers, at the hard cap."""

    name = "waits-on-env"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        await ctx.call_tool("put", {"key": "target", "value": "1"})
        raise AssertionError("unreachable")


async def test_the_hard_cap_inside_a_tool_call_is_infra_error_not_a_score(
    servers: LocalServers, toy_env: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stalled environment server (SIGSTOP for 60 s, --timeout 30) was scored as the
    # agent's `timeout` (adversarial round 12, S1-7).
    from mcp import Client

    async def never_answers(self: Any, name: str, *args: Any, **kw: Any) -> Any:
        await anyio.Event().wait()

    monkeypatch.setattr(Client, "call_tool", never_answers)
    async with driver_for(servers, toy_env, episode_timeout=0.05) as driver:
        with anyio.fail_after(10):
            rec = await driver.run_episode(WaitsOnTheEnvironment(), "set-target", "easy", 0)
    assert rec.termination == "infra_error" and not rec.scored
    assert "waiting on the environment server" in (rec.error or "")


async def test_a_retry_after_past_the_hard_cap_is_not_waited(
    servers: LocalServers, toy_env: Environment
) -> None:
    # Every answer a 429 with `Retry-After: 86400` (adversarial round 12, S8-14): the
    # waits were capped and retried until the hard cap (226 s per slot); now the first
    # such answer ends the episode `infra_error`, naming the wait, with no wait at all.
    from mcpgym_clients.adapters.retry import RetryPolicy

    asked: list[float] = []

    async def sleep(seconds: float) -> None:
        asked.append(seconds)

    def day(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, json={"error": "rate limited"}, headers={"Retry-After": "86400"})

    def soon(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, json={"error": "rate limited"}, headers={"Retry-After": "2"})

    for handler, waits in ((day, []), (soon, [2.0, 2.0])):
        asked.clear()
        client = ChatCompletionsClient(
            base_url="http://model.test/v1",
            transport=httpx.MockTransport(handler),
            retry=RetryPolicy(max_retries=2, sleep=sleep),
        )
        agent = OpenAIAgent(client=client, model="gpt-4o-mini")
        async with driver_for(servers, toy_env, episode_timeout=90) as driver:
            with anyio.fail_after(10):
                rec = await driver.run_episode(agent, "set-target", "easy", 0)
        await agent.aclose()
        assert rec.termination == "infra_error" and not rec.scored
        assert asked == waits  # a Retry-After within the time left is still waited
        if handler is day:
            assert "asked to wait 86,400 s (Retry-After)" in (rec.error or "")
            assert "hard cap (--timeout)" in (rec.error or "")


class ManyCallsInOneTurn(Agent):
    """A model turn of many tool calls, run back to back as the model loop runs them."""

    name = "many-calls"

    def __init__(self, n: int) -> None:
        self.n = n

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        for i in range(self.n):
            outcome = await ctx.call_tool("put", {"key": f"k{i}", "value": "1"})
            assert not outcome.is_error, outcome.text
        await ctx.call_tool("put", {"key": "target", "value": "2"})
        return AgentResult("completed")


async def test_a_turn_faster_than_the_servers_request_rate_is_paced_not_infra_error(
    toy_env: Environment, tmp_path: Any
) -> None:
    # Adversarial round 15, S1-10: a model turn of 1,000 tool calls outran the server's
    # per-episode rate (20 a second, bursts of 200): call 221 was refused with 429, the
    # harness took it for an outage, and the model's episode ended `infra_error`, retried
    # and never scored. The refused call was not run; the server says when to resend it.
    from mcpgym_clients import serve_locally

    async with serve_locally(
        toy_env, tmp_path / "eps", max_requests_per_second=2.0, request_burst=5
    ) as s:
        async with driver_for(s, toy_env) as driver:
            with anyio.fail_after(40):  # ~5 s: 15 requests at 2 a second past a burst of 5
                rec = await driver.run_episode(ManyCallsInOneTurn(12), "set-target", "easy", 0)
    assert (rec.termination, rec.error) == ("completed", None)
    assert rec.steps == 13 and rec.scored
    meta = json.loads((tmp_path / "eps" / str(rec.episode_id) / "meta.json").read_text())
    assert meta["rate_limited"]["refused"] >= 1  # the server did refuse, and was waited on
