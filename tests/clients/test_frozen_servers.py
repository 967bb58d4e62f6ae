"""A frozen server (SIGSTOP: a hung host, a frozen VM) costs bounded time, then stops the campaign.

Adversarial round 12 (issue 9 section 1): with the environment server frozen, every tool call
waited out the MCP client's 300 s read timeout, and after the hard cap the session's
``DELETE`` waited as long again (S1-5); with the grading service frozen, every slot waited
three grade timeouts and ended ``infra_error`` while the campaign carried on for 10-41
minutes (S1-6). Now an MCP request gets at most the driver's request timeout, the
``DELETE`` `CLOSE_TIMEOUT`, and `BREAKER_THRESHOLD` attempts in a row that a server did
not answer stop the campaign, naming the server, leaving the rest for a rerun.

Real child processes on loopback (`serve_in_processes`), frozen with SIGSTOP by the agent
itself at the point the test needs (no sleeps), thawed with SIGCONT before they stop.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.child_servers import ChildServers, serve_in_processes
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.selection import VariantKey
from mcpgym_server import load_environment

from .test_child_servers import _listener

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc"),
]


class Freezing(ReferenceAgent):
    """The reference agent that SIGSTOPs a server at the start of its ``at``-th episode."""

    def __init__(self, pid: int, at: int) -> None:
        super().__init__()
        self.pid, self.at, self.episodes = pid, at, 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.episodes += 1
        if self.episodes == self.at:
            os.kill(self.pid, signal.SIGSTOP)
        return await super().run(ctx)


@asynccontextmanager
async def children(tmp_path: Path) -> AsyncIterator[ChildServers]:
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log"
    ) as servers:
        yield servers


def pid_of(url: str) -> int:
    return _listener(int(url.rsplit(":", 1)[1]))


@contextmanager
def thawed_at_exit(pid: int) -> Iterator[None]:
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def driver(servers: ChildServers, **kw: Any) -> EpisodeDriver:
    return EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=load_environment("helpdesk"),
        **kw,
    )


async def test_a_tool_call_to_a_frozen_environment_server_is_bounded(tmp_path: Path) -> None:
    async with children(tmp_path) as servers:
        pid = pid_of(servers.env_url)
        with thawed_at_exit(pid):
            async with driver(servers, request_timeout=2.0, episode_timeout=600) as d:
                with anyio.fail_after(60):  # the old code waited 300 s for the call alone
                    rec = await d.run_episode(Freezing(pid, 1), "order-status", "easy", 0)
    assert rec.termination == "infra_error" and not rec.scored
    assert rec.unanswered == "env"
    assert "no answer within 2 s" in (rec.error or ""), rec.error


async def test_the_session_close_after_the_hard_cap_is_bounded(tmp_path: Path) -> None:
    # The hard cap passes inside a tool call to the frozen server; the SDK's DELETE of the
    # session on exit waited out the HTTP client's 300 s read timeout outside the cap.
    async with children(tmp_path) as servers:
        pid = pid_of(servers.env_url)
        with thawed_at_exit(pid):
            async with driver(servers, request_timeout=30.0, episode_timeout=1.0) as d:
                with anyio.fail_after(25):
                    rec = await d.run_episode(Freezing(pid, 1), "order-status", "easy", 0)
    assert rec.termination == "infra_error" and rec.unanswered == "env"
    assert "waiting on the environment server" in (rec.error or "")


VARIANTS = [VariantKey("order-status", "easy", s) for s in range(6)]


async def _campaign(d: EpisodeDriver, agent: Any, store: RunStore) -> Any:
    with anyio.fail_after(120):
        return await run_campaign(
            d,
            agent,
            VARIANTS,
            store,
            concurrency=1,
            baseline=False,
            show_progress=False,
            infra_retries=2,
            infra_backoff=infra_backoff(0.0),
        )


@pytest.mark.slow  # real child processes frozen for a breaker's worth of timeouts
@pytest.mark.parametrize("frozen", ["grading", "env"])
async def test_a_server_that_stops_answering_stops_the_campaign_and_a_rerun_resumes(
    tmp_path: Path, frozen: str
) -> None:
    store = RunStore(tmp_path / "runs.db")
    async with children(tmp_path) as servers:
        pid = pid_of(servers.grading_url if frozen == "grading" else servers.env_url)
        with thawed_at_exit(pid):
            async with driver(servers, request_timeout=2.0) as d:
                result = await _campaign(d, Freezing(pid, 2), store)
        # Slot 1 scored; slot 2's three attempts and slot 3's retry got no answer: the
        # retries (and slot 2's last attempt) make three in a row, and the campaign stops.
        name = "the grading service" if frozen == "grading" else "the environment server"
        assert result.stopped is not None and f"stopped: {name} is not answering" in (
            result.stopped
        )
        # Every planned slot still ends as one row: those cancelled or never started are
        # stored as infra_error naming the stop.
        terms = [(r.seed, r.termination) for r in result.records]
        assert terms == [(0, "completed")] + [(s, "infra_error") for s in range(1, 6)], terms
        assert all("stopped" in (r.error or "") for r in result.records[2:]), result.records
        assert store.run(result.run_id)["finished_at"] is None
        text = result.incomplete() or ""
        assert text.startswith(result.stopped) and "5 of 6" in text and "missing" not in text
        # The server is back: the same campaign resumes the run and finishes it.
        async with driver(servers, request_timeout=10.0) as d:
            again = await _campaign(d, ReferenceAgent(), store)
    assert again.run_id == result.run_id and again.stopped is None
    assert [r.termination for r in again.records] == ["completed"] * 6
    assert store.run(result.run_id)["finished_at"] is not None
    store.close()
