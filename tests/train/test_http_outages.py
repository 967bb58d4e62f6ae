"""`Rollouts.over_http` rides out a server restart and raises once a server stays down.

Adversarial round 17 (R17-3): the training path had no retry and no breaker, so a 2 s
restart of the environment server dropped 32 of 32 rollouts, and a server dead for good
gave empty groups, row after row, with no exception. Now an ``infra_error`` rollout is
retried as a fresh episode after the campaign's wait, and the campaign's breaker raises
`ServerDownError` naming the server.

Real child servers on loopback (`serve_in_processes`), kill -9'd by the agent itself at the
start of an episode (no sleeps); the environment server is restarted on its port, or not
(``max_restarts=0``).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import anyio
import pytest

from mcpgym_clients import ReferenceAgent
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.train import Rollouts, ServerDownError, training_rows
from tests.clients.test_child_servers import _listener

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc"),
]

ROW = training_rows("helpdesk", tasks=["order-status"], bands=["easy"], seeds=range(8))[0]


class Killing(ReferenceAgent):
    """The reference agent, which kill -9s the server at ``url`` as its ``at``-th episode
    starts."""

    def __init__(self, url: str, at: int) -> None:
        super().__init__()
        self.url, self.at, self.episodes = url, at, 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.episodes += 1
        if self.episodes == self.at:
            os.kill(_listener(int(self.url.rsplit(":", 1)[1])), signal.SIGKILL)
        return await super().run(ctx)


async def test_a_rollout_hit_by_a_restart_is_retried_and_scored(tmp_path: Path) -> None:
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log", max_restarts=1
    ) as s:
        agent = Killing(s.env_url, at=2)
        async with Rollouts.over_http(
            s.env_url,
            s.grading_url,
            s.grading_token,
            s.control_token,
            concurrency=1,
            infra_backoff=s.retry_policy(infra_backoff(0.2)),  # also waits for the restart
        ) as ro:
            with anyio.fail_after(180):
                group = await ro.rollout_group(ROW, agent, n=3)
        assert s.restarts["environment"] == 1
    assert group.dropped == 0 and group.rewards == [1.0, 1.0, 1.0]  # was: 1 dropped
    attempts = [r.attempts for r in group.rollouts]  # a rollout started during the
    assert attempts[0] == 1 and attempts[1] == 2 and max(attempts) == 2, attempts  # restart too


@pytest.mark.parametrize("role", ["environment", "grading"])
async def test_a_server_that_stays_down_raises_naming_it(tmp_path: Path, role: str) -> None:
    async with serve_in_processes(
        "helpdesk", tmp_path / "episodes", log_path=tmp_path / "servers.log", max_restarts=0
    ) as s:
        url = s.env_url if role == "environment" else s.grading_url
        async with Rollouts.over_http(
            s.env_url,
            s.grading_url,
            s.grading_token,
            s.control_token,
            concurrency=4,
            infra_backoff=infra_backoff(0.05),
        ) as ro:
            with anyio.fail_after(180), pytest.raises(ServerDownError) as caught:
                await ro.rollout_groups([ROW, ROW], Killing(url, at=1), n=4)  # was: 8 dropped
            with anyio.fail_after(5), pytest.raises(ServerDownError):  # at once, no episode
                await ro.rollout(ROW, ReferenceAgent())
    err = caught.value
    assert err.service == ("env" if role == "environment" else "grading")
    assert err.url == url and err.attempts >= 3
    text = str(err)
    assert url in text and f"{err.attempts} episode attempts in a row over " in text, text
    assert "Check that it is running and reachable" in text, text
