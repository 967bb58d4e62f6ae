"""One ``tools/list`` per server and lock, reused only where it checks against the lock
(`mcpgym_clients.tool_listing`), and every agent still sees exactly the served tools."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, cast

import anyio
import httpx2
import pytest

from mcpgym_clients import EpisodeDriver, ReferenceAgent
from mcpgym_clients.harness import FunctionAgent, HarnessContext
from mcpgym_clients.mcp_connection import McpConnections
from mcpgym_clients.protocol import AgentResult, EpisodeContext
from mcpgym_clients.tool_listing import ToolListings, wire_tools
from mcpgym_server import Environment, compute_lock
from mcpgym_server.lock import served_tools
from tests.clients.test_round_trips import Servers, servers  # noqa: F401 - the fixture
from tests.toyenv import make_toy_env

pytestmark = pytest.mark.anyio


class Seeing(ReferenceAgent):
    """The reference agent, keeping the tools each episode's context offered it."""

    def __init__(self, mutate: bool = False) -> None:
        super().__init__()
        self.seen: list[list[tuple[str, str, Any]]] = []
        self.mutate = mutate

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.seen.append([(t.name, t.description, _text(t.input_schema)) for t in ctx.tools])
        if self.mutate:  # an agent that edits its schemas in place touches only its own
            for t in ctx.tools:
                schema = cast(dict[str, Any], t.input_schema)
                schema.setdefault("properties", {})["mutated"] = {"type": "string"}
                schema["title"] = "mutated"
        return await super().run(ctx)


def _text(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def served(env: Environment) -> list[tuple[str, str, Any]]:
    return [(t["name"], t["description"], _text(t["inputSchema"])) for t in served_tools(env)]


async def _run(
    srv: Servers, env: Environment | None, agent: Any, n: int
) -> tuple[list[Any], Counter[str]]:
    sent: Counter[str] = Counter()

    async def count(request: Any) -> None:
        sent[json.loads(request.content).get("method", "?")] += 1

    async with (
        httpx2.AsyncClient(trust_env=False, event_hooks={"request": [count]}) as http,
        EpisodeDriver(
            srv.env_url,
            srv.grading_url,
            srv.token,
            control_token=srv.control,
            environment=env,
            mcp_http=http,
        ) as driver,
    ):
        with anyio.fail_after(20):
            recs = [await driver.run_episode(agent, "set-target", "medium", s) for s in range(n)]
    return recs, sent


async def test_one_listing_serves_every_episode_of_a_server_and_lock(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    agent = Seeing()
    recs, sent = await _run(servers, toy_env, agent, 4)
    assert [r.score for r in recs] == [1.0] * 4, [r.error for r in recs]
    assert sent["tools/list"] == 1 and servers.methods["tools/list"] == 1
    # no call needed a listing either (the session absorbed the reused one: output schemas)
    assert sent["tools/call"] == sum(r.steps for r in recs)
    assert agent.seen == [served(toy_env)] * 4  # every agent saw exactly the served tools
    assert {r.lock for r in recs} == {compute_lock(toy_env)}


async def test_an_agent_editing_its_tools_leaves_the_next_episodes_alone(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    agent = Seeing(mutate=True)
    recs, sent = await _run(servers, toy_env, agent, 3)
    assert [r.score for r in recs] == [1.0] * 3, [r.error for r in recs]
    assert sent["tools/list"] == 1
    assert agent.seen == [served(toy_env)] * 3  # each saw the tools before its own edits


async def test_without_the_environment_every_episode_lists(
    servers: Servers,  # noqa: F811
) -> None:
    seen: list[int] = []

    async def loop(task: HarnessContext) -> str:
        seen.append(len(task.tools))
        return "done"

    recs, sent = await _run(servers, None, FunctionAgent(loop, name="probe"), 3)
    assert len(recs) == 3 and all(r.grade is not None for r in recs), [r.error for r in recs]
    assert sent["tools/list"] == 3  # nothing here says which tools the lock names
    assert len(set(seen)) == 1 and seen[0] > 0


async def test_an_environment_on_another_lock_is_no_check(
    servers: Servers,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The installed environment differs from the served one (another version: another
    lock): its tool list says nothing of the served lock's, so every episode lists."""
    other = make_toy_env(tmp_path / "other", version="0.2.0")
    seen: list[int] = []

    async def loop(task: HarnessContext) -> str:
        seen.append(len(task.tools))
        return "done"

    recs, sent = await _run(servers, other, FunctionAgent(loop, name="probe"), 3)
    assert all(r.grade is not None for r in recs), [r.error for r in recs]
    assert sent["tools/list"] == 3


async def _listings_over(
    srv: Servers, env: Environment, expected: list[dict[str, Any]] | None, n: int
) -> tuple[ToolListings, list[list[str]]]:
    async def names_of(lock: str) -> list[dict[str, Any]] | None:
        return expected

    listings = ToolListings(names_of)
    lock = compute_lock(env)
    got: list[list[str]] = []
    headers = {"authorization": f"Bearer {srv.control}"}
    conns = McpConnections()
    try:
        async with httpx2.AsyncClient(trust_env=False, headers=headers) as http:
            for seed in range(n):
                meta = (
                    await http.post(
                        f"{srv.env_url}/episodes",
                        json={"task": "set-target", "band": "medium", "seed": seed},
                    )
                ).json()
                assert meta["lock"] == lock
                async with conns.connect(meta["mcp_url"]) as client:
                    listing = await listings.list_tools(client, srv.env_url, meta["lock"])
                    got.append([t.name for t in listing.tools])
    finally:
        await conns.aclose()
    return listings, got


async def test_a_listing_that_differs_from_the_locks_tools_is_never_reused(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
) -> None:
    tools = served_tools(toy_env)
    wrong = [{**tools[0], "description": "not what the lock names"}, *tools[1:]]
    listings, got = await _listings_over(servers, toy_env, wrong, 3)
    assert listings.requests == 3 and not listings.reusable(servers.env_url, compute_lock(toy_env))
    assert got == [[t["name"] for t in tools]] * 3

    listings, got = await _listings_over(servers, toy_env, tools, 3)
    assert listings.requests == 1 and listings.reusable(servers.env_url, compute_lock(toy_env))
    assert got == [[t["name"] for t in tools]] * 3
    # keyed by server and lock: another lock, or another server, lists again
    assert not listings.reusable(servers.env_url, "0" * 64)
    assert not listings.reusable("http://127.0.0.1:1", compute_lock(toy_env))
    assert not listings.reusable(servers.env_url, None)


def test_the_wire_form_is_what_the_lock_digests(toy_env: Environment) -> None:
    from mcp.types import ListToolsResult

    from mcpgym_server.runtime import tool_definitions

    listing = ListToolsResult.model_validate_json(
        ListToolsResult(tools=tool_definitions(toy_env)).model_dump_json(
            by_alias=True, exclude_none=True
        )
    )
    assert wire_tools(listing) == served_tools(toy_env)


def _fresh_session(version: str | None) -> Any:
    """The per-tool state of a new `ClientSession` that negotiated ``version``."""
    from types import SimpleNamespace

    return SimpleNamespace(
        _negotiated_version=version,
        _x_mcp_header_maps={},
        _tool_output_schemas={},
        _tool_output_validators={},
    )


def _state(session: Any) -> tuple[Any, ...]:
    return (
        session._x_mcp_header_maps,
        session._tool_output_schemas,
        session._tool_output_validators,
    )


def test_an_adopted_listing_leaves_the_session_as_the_sdk_absorbing_it() -> None:
    """`adopt_listing` with the maps the SDK derived once equals the SDK's own absorb of the
    same listing in a fresh session (header maps with an annotated argument, output schemas),
    gives each session its own maps, and declines where it could differ."""
    from mcp.client.session import ClientSession
    from mcp.types import ListToolsResult
    from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

    from mcpgym_clients.tool_listing import adopt_listing

    wire = {
        "tools": [
            {
                "name": "get_order",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "order_id": {"type": "string", "x-mcp-header": "Order"},
                        "note": {"type": "string"},
                    },
                },
                "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            },
            {"name": "noop", "inputSchema": {"type": "object"}},
        ]
    }
    text = json.dumps(wire)

    def absorb(version: str | None) -> Any:
        sdk = _fresh_session(version)
        listing = ListToolsResult.model_validate_json(text)
        ClientSession._absorb_tool_listing(sdk, listing, complete=True)  # pyright: ignore[reportPrivateUsage]
        return sdk

    first = absorb(LATEST_MODERN_VERSION)
    maps = first._x_mcp_header_maps
    assert maps["get_order"] == {("order_id",): "Order"} and maps["noop"] == {}

    ours = _fresh_session(LATEST_MODERN_VERSION)
    assert adopt_listing(
        ours, ListToolsResult.model_validate_json(text), LATEST_MODERN_VERSION, maps
    )
    assert _state(ours) == _state(absorb(LATEST_MODERN_VERSION))
    assert ours._x_mcp_header_maps["get_order"] is not maps["get_order"]  # its own copy

    # where the SDK's absorb could differ, or spares nothing: declined, session untouched
    for session, version in [
        (_fresh_session(LATEST_HANDSHAKE_VERSION), LATEST_HANDSHAKE_VERSION),
        (_fresh_session(LATEST_HANDSHAKE_VERSION), LATEST_MODERN_VERSION),
        (_fresh_session(LATEST_MODERN_VERSION), LATEST_HANDSHAKE_VERSION),
    ]:
        assert not adopt_listing(session, ListToolsResult.model_validate_json(text), version, maps)
        assert _state(session) == ({}, {}, {})
    used = _fresh_session(LATEST_MODERN_VERSION)
    used._tool_output_validators = {"get_order": object()}
    listing = ListToolsResult.model_validate_json(text)
    assert not adopt_listing(used, listing, LATEST_MODERN_VERSION, maps)
    assert not adopt_listing(
        _fresh_session(LATEST_MODERN_VERSION), listing, LATEST_MODERN_VERSION, {"noop": {}}
    )


async def test_a_reused_listing_is_not_walked_again(
    servers: Servers,  # noqa: F811
    toy_env: Environment,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The SDK checks a listing's ``x-mcp-header`` annotations once (the episode that
    listed); the later episodes' sessions get the same header maps and output schemas
    without that walk."""
    import mcp.client.session as sdk_session

    walked: Counter[str] = Counter()
    check = sdk_session.find_invalid_x_mcp_header  # pyright: ignore[reportPrivateImportUsage]

    def counting(schema: Any) -> str | None:
        walked["schema"] += 1
        return check(schema)

    monkeypatch.setattr(sdk_session, "find_invalid_x_mcp_header", counting)
    tools = served_tools(toy_env)
    states: list[tuple[Any, ...]] = []
    real = ToolListings.list_tools

    async def keeping(self: ToolListings, client: Any, server: str, lock: str | None) -> Any:
        listing = await real(self, client, server, lock)
        states.append(_state(client.session))
        return listing

    monkeypatch.setattr(ToolListings, "list_tools", keeping)
    listings, got = await _listings_over(servers, toy_env, tools, 4)
    assert listings.requests == 1 and got == [[t["name"] for t in tools]] * 4
    assert walked["schema"] == len(tools)  # the first episode's listing only
    assert states[1:] == [states[0]] * 3 and set(states[0][0]) == {t["name"] for t in tools}
