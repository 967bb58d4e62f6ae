"""`kept_alive`: keep-alives while the agent runs, and the agent stopped once the server
says it ended the episode (issue 9 §8, S19-R2). A fake ``keep`` stands for the route; the
real processes are in ``test_slow_model_expiry.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
import pytest

from mcpgym_clients.episode_keepalive import (
    DEFAULT_IDLE_TTL,
    EpisodeWatch,
    idle_ttl_of,
    kept_alive,
)
from mcpgym_clients.errors import InfraError, ServerRequestError

pytestmark = pytest.mark.anyio

TTL = 0.03  # a keep-alive every 10 ms


class Server:
    """Answers each keep-alive from a script (a dict, or an exception to raise); once the
    script is spent, ``open``; `called` is set at the ``at``-th keep-alive."""

    def __init__(self, *script: Mapping[str, Any] | Exception, at: int = 0) -> None:
        self.script, self.calls, self.at = list(script), 0, at or len(script) or 1
        self.called = anyio.Event()

    async def keep(self) -> Mapping[str, Any]:
        self.calls += 1
        if self.calls >= self.at:
            self.called.set()
        answer = self.script.pop(0) if self.script else {"state": "open"}
        if isinstance(answer, Exception):
            raise answer
        return answer


async def test_keep_alives_go_out_while_the_body_runs_past_outages() -> None:
    server = Server({"state": "open"}, InfraError("env", "connection refused"), at=3)
    watch = EpisodeWatch()
    with anyio.fail_after(10):
        async with kept_alive(server.keep, TTL, watch):
            await server.called.wait()  # the third keep-alive: an outage did not stop them
    assert watch.ended is None


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"state": "sealed", "termination": "timeout"}, "idle expiry (0.03 s"),
        ({"state": "sealed", "termination": "shutdown"}, "termination `shutdown`"),
        (ServerRequestError("env", 404, {"error": "x", "kind": "episode"}), "no longer knows"),
    ],
)
async def test_an_episode_the_server_ended_stops_the_body(answer: Any, said: str) -> None:
    server = Server(answer)
    watch = EpisodeWatch()
    with anyio.fail_after(10):
        async with kept_alive(server.keep, TTL, watch):
            await anyio.sleep_forever()  # a model that never answers
    assert watch.ended is not None and said in watch.ended and "not scored" in watch.ended


@pytest.mark.parametrize(
    "answer",
    [
        {"state": "sealed", "termination": "submitted"},  # the agent's own end: its score
        ServerRequestError("env", 404, {"error": "'Not Found'"}),  # a server without the route
    ],
)
async def test_keep_alives_stop_quietly_where_there_is_nothing_to_keep(answer: Any) -> None:
    server = Server(answer)
    watch = EpisodeWatch()
    with anyio.fail_after(10):
        async with kept_alive(server.keep, TTL, watch):
            await server.called.wait()
            await anyio.wait_all_tasks_blocked()
    assert (server.calls, watch.ended) == (1, None)


async def test_what_the_body_raises_comes_out_as_it_is() -> None:
    with pytest.raises(ValueError, match="the agent's own"):
        async with kept_alive(Server().keep, 600.0, EpisodeWatch()):
            raise ValueError("the agent's own")


async def test_a_cancellation_from_outside_is_not_swallowed() -> None:
    reached = False
    with anyio.move_on_after(0.01):
        async with kept_alive(Server().keep, 600.0, EpisodeWatch()):
            await anyio.sleep_forever()
        reached = True
    assert not reached


def test_the_ttl_is_the_servers_own() -> None:
    assert idle_ttl_of({"episode_settings": {"idle_ttl": 42}}) == 42.0
    for meta in ({}, {"episode_settings": None}, {"episode_settings": {"idle_ttl": True}}):
        assert idle_ttl_of(meta) == DEFAULT_IDLE_TTL
