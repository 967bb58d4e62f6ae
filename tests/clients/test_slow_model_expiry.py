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

import os
import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeDriver
from mcpgym_clients.adapters.base import ModelSettings
from mcpgym_clients.adapters.chat_completions import ChatCompletionsClient
from mcpgym_clients.adapters.openai_chat import ChatCompletionsAdapter
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.child_servers import ChildServers, serve_in_processes
from mcpgym_server import load_environment

from .adapters.fake_llama import FakeLlamaServer, Reply

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(sys.platform != "linux", reason="signals a child process"),
]

GET_POLICY = '<tool_call>\n{"name": "get_policy", "arguments": {}}\n</tool_call>'
TTL = 3.0
"""The environment server's idle TTL here (a keep-alive every second)."""


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
    async with httpx.AsyncClient(
        base_url=servers.env_url, headers=servers.control_headers
    ) as http:
        body = {"task": "order-status", "band": "easy", "seed": 1}
        witness = (await http.post("/episodes", json=body)).json()["episode_id"]
        while True:  # the server's state, not a clock
            status = (await http.get(f"/episodes/{witness}")).json()
            if status["state"] == "sealed":
                return str(status["termination"])
            await anyio.sleep(0.1)


def tool_results(transcript: list[dict[str, Any]]) -> list[str]:
    return [str(m.get("content")) for m in transcript if m.get("role") == "tool"]


async def test_a_model_answer_slower_than_the_idle_ttl_finds_its_episode_open(
    tmp_path: Path,
) -> None:
    witness: list[str] = []
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log", idle_ttl=TTL
    ) as servers:

        async def think_past_the_ttl() -> None:
            witness.append(await expiry_ran(servers))

        model = FakeLlamaServer(
            [Reply(GET_POLICY, hold=think_past_the_ttl), Reply("Read it.")], n_ctx=32_768
        )
        async with model.running(), driver(servers) as d:
            agent = local_agent(model.base_url)
            with anyio.fail_after(120):
                rec = await d.run_episode(agent, "order-status", "easy", 0)
            await agent.aclose()
    assert witness == ["timeout"], (rec.termination, rec.error, model.served)  # the TTL passed
    results = tool_results(rec.transcript)
    assert results and "has ended" not in results[0], results  # the call found it open
    assert rec.termination == "completed", rec.error
    assert rec.episode_termination == "submitted"
    assert rec.grade is not None and rec.grade["termination"] == "submitted"


async def test_an_episode_the_server_ended_while_the_model_thought_is_not_scored(
    tmp_path: Path,
) -> None:
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log"
    ) as servers:
        env_server = servers.children[0]

        async def think_through_a_restart() -> None:
            assert env_server.proc is not None
            os.kill(env_server.proc.pid, signal.SIGTERM)  # seals its open episodes: shutdown
            while servers.restarts["environment"] < 1:  # the supervisor's state
                await anyio.sleep(0.05)
            await servers.wait_up()

        model = FakeLlamaServer(
            [Reply(GET_POLICY, hold=think_through_a_restart), Reply("Read it.")], n_ctx=32_768
        )
        async with model.running(), driver(servers) as d:
            agent = local_agent(model.base_url)
            with anyio.fail_after(120):
                rec = await d.run_episode(agent, "order-status", "easy", 0)
            await agent.aclose()
        assert servers.restarts["environment"] == 1
    assert rec.termination == "infra_error" and rec.grade is None, (rec.termination, rec.error)
    assert not rec.scored
    assert "`shutdown`" in (rec.error or "") and "not scored" in (rec.error or ""), rec.error
