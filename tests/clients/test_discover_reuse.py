"""One ``server/discover`` per server and lock, each later episode adopting that answer with
its own instructions as the server named them (`mcpgym_clients.discover_reuse`), and every
episode's agent still told its own task."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import anyio
import httpx
import httpx2
import pytest

from mcpgym_clients import EpisodeDriver
from mcpgym_clients.discover_reuse import DiscoverResults
from mcpgym_clients.harness import FunctionAgent, HarnessContext
from mcpgym_server import Environment
from mcpgym_server.runtime import episode_instructions
from tests.clients.test_round_trips import Servers, servers  # noqa: F401 - the fixture

pytestmark = pytest.mark.anyio

Edit = Callable[[dict[str, Any]], None]


class EditedEpisodes(httpx.AsyncBaseTransport):
    """The network, with each ``POST /episodes`` answer edited by ``edit`` (a server that
    names no instructions, or other ones than it serves)."""

    def __init__(self, edit: Edit) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._edit = edit

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if request.method != "POST" or request.url.path != "/episodes":
            return response
        body = json.loads(await response.aread())
        self._edit(body)
        headers = [(k, v) for k, v in response.headers.items() if k != "content-length"]
        return httpx.Response(response.status_code, headers=headers, json=body)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def _run(
    srv: Servers, n: int, edit: Edit | None = None
) -> tuple[list[tuple[str, str]], list[Any], Counter[str]]:
    """``n`` episodes of ``set-target@medium`` (seeds 0..n-1); what each agent was told
    (its instruction, the server instructions), the records and the MCP methods sent."""
    sent: Counter[str] = Counter()
    told: list[tuple[str, str]] = []

    async def count(request: Any) -> None:
        sent[json.loads(request.content).get("method", "?")] += 1

    async def loop(task: HarnessContext) -> None:
        told.append((task.instruction, task.server_instructions or ""))
        await task.call_tool("submit", {})

    async with (
        httpx2.AsyncClient(trust_env=False, event_hooks={"request": [count]}) as http,
        EpisodeDriver(
            srv.env_url,
            srv.grading_url,
            srv.token,
            control_token=srv.control,
            mcp_http=http,
            env_transport=EditedEpisodes(edit) if edit else None,
        ) as driver,
    ):
        with anyio.fail_after(20):
            recs = [
                await driver.run_episode(
                    FunctionAgent(loop, name="told"), "set-target", "medium", s
                )
                for s in range(n)
            ]
    return told, recs, sent


def _served(env: Environment, n: int) -> list[str]:
    """What each episode's URL answers as server instructions (seeds 0..n-1)."""
    return [episode_instructions(env, env.variant("set-target", "medium", s)) for s in range(n)]


async def test_later_episodes_adopt_the_first_answer_with_their_own_instructions(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    told, recs, sent = await _run(servers, 3)
    assert all(r.episode_termination == "submitted" for r in recs), [r.error for r in recs]
    assert sent["server/discover"] == 1
    assert len({instruction for instruction, _ in told}) == 3  # three tasks
    assert [server for _, server in told] == _served(toy_env, 3)


async def test_an_adopted_answer_is_what_a_probe_of_the_episode_gets(
    servers: Servers,  # noqa: F811
) -> None:
    async with EpisodeDriver(
        servers.env_url, servers.grading_url, servers.token, control_token=servers.control
    ) as driver:
        with anyio.fail_after(20):
            metas = [
                await driver._request(  # noqa: SLF001
                    "env", "POST", "/episodes", {"task": "set-target", "band": "medium", "seed": s}
                )
                for s in (0, 1)
            ]
            reuse = DiscoverResults()
            first, second = metas
            async with driver._mcp.connect(first["mcp_url"]) as client:  # noqa: SLF001
                reuse.learn(driver.env_url, first["lock"], first["server_instructions"], client)
            prior = reuse.prior(driver.env_url, second["lock"], second["server_instructions"])
            assert prior is not None
            async with driver._mcp.connect(second["mcp_url"]) as probing:  # noqa: SLF001
                probed = probing.session.discover_result
                version = probing.session.protocol_version
            async with driver._mcp.connect(second["mcp_url"], prior) as adopting:  # noqa: SLF001
                assert adopting.session.discover_result is prior.result
                assert adopting.session.protocol_version == version
                assert adopting.instructions == second["server_instructions"]
    assert probed is not None
    assert prior.result.model_dump(by_alias=True) == probed.model_dump(by_alias=True)
    assert prior.version == version


async def test_a_server_that_names_no_instructions_is_probed_every_episode(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    told, recs, sent = await _run(servers, 3, lambda body: body.pop("server_instructions"))
    assert all(r.episode_termination == "submitted" for r in recs), [r.error for r in recs]
    assert sent["server/discover"] == 3  # an older server: as before
    assert [server for _, server in told] == _served(toy_env, 3)


async def test_a_server_that_names_other_instructions_than_it_serves_is_probed_every_episode(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    def other(body: dict[str, Any]) -> None:
        body["server_instructions"] = "Your task: something else."

    told, recs, sent = await _run(servers, 3, other)
    assert all(r.episode_termination == "submitted" for r in recs), [r.error for r in recs]
    assert sent["server/discover"] == 3  # the first answer did not check: nothing kept
    assert [server for _, server in told] == _served(toy_env, 3)  # what was served


def _probed(instructions: str | None, version: str = "2026-07-28") -> Any:
    """A stand-in for an open MCP client whose session probed ``server/discover``
    (``instructions=None``: a handshake-era session, no discover answer)."""
    from mcp.types import DiscoverResult, ServerCapabilities

    result = DiscoverResult(
        supported_versions=[version], capabilities=ServerCapabilities(), instructions=instructions
    )
    answer = None if instructions is None else result
    return SimpleNamespace(
        session=SimpleNamespace(discover_result=answer, protocol_version=version)
    )


def test_answers_are_kept_per_server_and_lock_and_copied_for_each_episode() -> None:
    reuse = DiscoverResults()
    reuse.learn("http://a", "L1", "first", _probed("first"))
    assert reuse.prior("http://a", "L2", "x") is None  # another lock
    assert reuse.prior("http://b", "L1", "x") is None  # another server
    assert reuse.prior("http://a", None, "x") is None  # no lock named
    assert reuse.prior("http://a", "L1", None) is None  # no instructions named
    one, two = reuse.prior("http://a", "L1", "one"), reuse.prior("http://a", "L1", "two")
    assert one is not None and two is not None
    assert (one.result.instructions, two.result.instructions) == ("one", "two")
    assert one.result is not two.result and one.result.capabilities is not two.result.capabilities
    assert reuse.adopted == 2
    legacy = DiscoverResults()  # a handshake-era session has no discover answer
    legacy.learn("http://a", "L1", "first", _probed(None, "2025-11-25"))
    assert legacy.prior("http://a", "L1", "x") is None
    mismatch = DiscoverResults()  # served instructions other than the named ones
    mismatch.learn("http://a", "L1", "named", _probed("served"))
    assert mismatch.prior("http://a", "L1", "x") is None
