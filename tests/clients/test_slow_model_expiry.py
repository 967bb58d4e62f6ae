"""A model answer slower than the environment server's idle TTL (issue 9 §8, S19-R2).

The environment server seals an episode that made no tool call for its idle TTL (600 s);
one answer of a real 1.5B model on CPU took 802 s, and its episode was graded ``timeout``,
as if the agent had stopped (adversarial round 19). Now the driver keeps its episode open
while the agent runs (`mcpgym_clients.episode_keepalive`), and an episode that the server
ended of its own accord while the agent ran (its expiry, its shutdown) is ``infra_error``,
never scored.

Real child processes on loopback (`serve_in_processes`) and a fake OpenAI-compatible model
server (`fake_llama`) whose answer is held until the test says so: until a witness episode,
opened after the agent's and never touched, was sealed by the server's expiry (the TTL
passed and the expiry ran), or until the environment server was stopped (SIGTERM) and its
restart serves. The waits poll the servers' state, never a clock.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeDriver, NullAgent
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.child_servers import ChildServers, serve_in_processes
from mcpgym_server import load_environment

from .adapters.fake_llama import FakeLlamaServer, Reply

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.slow,  # real child servers and a 6 s idle TTL: ~90 s at load 20
    pytest.mark.skipif(sys.platform != "linux", reason="signals a child process"),
]

GET_POLICY = '<tool_call>\n{"name": "get_policy", "arguments": {}}\n</tool_call>'
TTL = 6.0
"""The environment server's idle TTL here (a keep-alive every 2 s)."""


def local_agent(base_url: str) -> ModelAgent:
    """The ``openai-compatible`` agent as the CLI builds it, patient with a held answer."""
    client = ChatCompletionsClient(base_url=base_url, timeout=60.0, max_retries=0)
    settings = ModelSettings("qwen", 0.0)
    return ModelAgent(ChatCompletionsAdapter(client, settings), parse_text_tool_calls=True)


def driver(servers: ChildServers) -> EpisodeDriver:
    return EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=load_environment("helpdesk"),
        episode_timeout=600,
    )


async def expiry_ran(servers: ChildServers) -> str:
    """Open a witness episode, touch it never, and return its termination once sealed."""
    async with httpx.AsyncClient(base_url=servers.env_url, headers=servers.control_headers) as http:
        body = {"task": "order-status", "band": "easy", "seed": 1}
        witness = (await http.post("/episodes", json=body)).json()["episode_id"]
        while True:  # the server's state, not a clock
            status = (await http.get(f"/episodes/{witness}")).json()
            if status["state"] == "sealed":
                return str(status["termination"])
            await anyio.sleep(0.1)


async def serving(url: str) -> None:
    """Return once the server at ``url`` answers ``/healthz``."""
    async with httpx.AsyncClient(base_url=url) as http:
        while True:  # the server's state, not a clock
            try:
                if (await http.get("/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await anyio.sleep(0.1)


def tool_results(transcript: list[dict[str, Any]]) -> list[str]:
    return [str(m.get("content")) for m in transcript if m.get("role") == "tool"]


async def test_a_model_slower_than_the_idle_ttl_is_kept_and_a_server_stop_not_scored(
    tmp_path: Path,
) -> None:
    # one pair of servers for both episodes: starting them is most of the test's time
    witness: list[str] = []
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log", idle_ttl=TTL
    ) as servers:
        env_server = servers.children[0]

        async def think_past_the_ttl() -> None:
            witness.append(await expiry_ran(servers))

        async def think_through_a_restart() -> None:
            stopping = env_server.proc
            assert stopping is not None
            stopping.send_signal(signal.SIGTERM)  # it seals its open episodes: `shutdown`
            await stopping.wait()
            await serving(servers.env_url)  # the supervisor started it again

        model = FakeLlamaServer(
            [
                Reply(GET_POLICY, hold=think_past_the_ttl),
                Reply("Read it."),
                Reply(GET_POLICY, hold=think_through_a_restart),
                Reply("Read it."),
            ],
            n_ctx=32_768,
        )
        async with model.running(), driver(servers) as d:
            agent = local_agent(model.base_url)
            with anyio.fail_after(240):
                # first the driver's one-time work (the lock its tool listing is checked
                # against: seconds under load), so that the TTL runs only while the model thinks
                await d.run_episode(NullAgent(), "order-status", "easy", 2)
                kept = await d.run_episode(agent, "order-status", "easy", 0)
                stopped = await d.run_episode(agent, "order-status", "easy", 1)
            await agent.aclose()
        assert servers.restarts["environment"] == 1

    # 1. the model thought past the TTL: its episode was kept open, and scored
    assert witness == ["timeout"]  # the TTL passed (and the expiry ran) while it thought
    results = tool_results(kept.transcript)
    assert results and "has ended" not in results[0], results  # the call found it open
    assert kept.termination == "completed", kept.error
    assert kept.episode_termination == "submitted"
    assert kept.grade is not None and kept.grade["termination"] == "submitted"
    # 2. the server was stopped while the model thought: the server's doing, not scored
    # (the next keep-alive or the end of the episode tells, whichever comes first)
    assert stopped.termination == "infra_error", (stopped.termination, stopped.error)
    assert stopped.grade is None and not stopped.scored
    assert "`shutdown`" in (stopped.error or ""), stopped.error
    assert "not scored" in (stopped.error or ""), stopped.error
    # the SIGTERM stopped the server cleanly (round 20, S20-2: it aborted, exit status -6)
    log = (tmp_path / "servers.log").read_text(errors="replace")
    assert "Fatal Python error" not in log
    assert "the environment server process died (exit status 0)" in log
