"""What an episode sends over loopback: no request done twice (issue 12 §2).

The driver probes ``server/discover`` once per server and lock, and later episodes adopt
that answer with their own instructions as the server named them in ``POST /episodes``
(`mcpgym_clients.discover_reuse`: an episode's answer carries its own task); it lists the
tools once per server and lock when the listing checks against the lock
(`mcpgym_clients.tool_listing`), else once per episode;
and the MCP server answers the 2026-era ``Mcp-Param-*`` check of a ``tools/call`` from its
own tool schemas instead of running a whole ``tools/list`` per call.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.shared.inbound import x_mcp_header_map

from mcpgym_clients import EpisodeDriver, ReferenceAgent
from mcpgym_grading.service import create_app as create_grading_app
from mcpgym_server import Environment
from mcpgym_server.runtime import create_app as create_env_app
from mcpgym_server.runtime import serve, tool_definitions

pytestmark = pytest.mark.anyio


class Servers:
    """The toy environment's servers on loopback, with the MCP methods the server handled."""

    def __init__(self, env_url: str, grading_url: str, token: str, control: str) -> None:
        self.env_url, self.grading_url, self.token, self.control = (
            env_url,
            grading_url,
            token,
            control,
        )
        self.methods: Counter[str] = Counter()


@pytest.fixture
async def servers(toy_env: Environment, tmp_path: Path) -> AsyncIterator[Servers]:
    store = tmp_path / "episodes"
    store.mkdir()
    token, control, key = (secrets.token_urlsafe(16) for _ in range(3))
    env_app = create_env_app(toy_env, store, control_token=control, bundle_key=key)
    methods: Counter[str] = Counter()

    async def record(ctx: Any, call_next: Any) -> Any:  # every request the MCP server runs
        methods[ctx.method] += 1
        return await call_next(ctx)

    env_app.state.mcp_server.middleware.insert(0, record)
    grading_app = create_grading_app(store, token, env_loader=lambda name: toy_env, bundle_key=key)
    async with (
        serve(env_app, host="127.0.0.1", name="environment server") as env_url,
        serve(grading_app, host="127.0.0.1", name="grading service") as grading_url,
    ):
        s = Servers(env_url, grading_url, token, control)
        s.methods = methods
        yield s


async def _episodes(
    servers: Servers, env: Environment, n: int, **kw: Any
) -> tuple[list[Any], Counter[str]]:
    sent: Counter[str] = Counter()

    async def count(request: Any) -> None:
        sent[json.loads(request.content).get("method", "?")] += 1

    async with (
        httpx2.AsyncClient(trust_env=False, event_hooks={"request": [count]}) as http,
        EpisodeDriver(
            servers.env_url,
            servers.grading_url,
            servers.token,
            control_token=servers.control,
            environment=env,
            mcp_http=http,
            **kw,
        ) as driver,
    ):
        with anyio.fail_after(20):
            recs = [
                await driver.run_episode(ReferenceAgent(), "set-target", "medium", seed)
                for seed in range(n)
            ]
    return recs, sent


async def test_an_episode_sends_its_tool_calls_and_one_probe_per_server_and_lock(
    servers: Servers, toy_env: Environment
) -> None:
    recs, sent = await _episodes(servers, toy_env, 3)
    assert [r.score for r in recs] == [1.0, 1.0, 1.0], [r.error for r in recs]
    assert sent["server/discover"] == 1  # then adopted with each episode's own instructions
    assert sent["tools/list"] == 1  # one per server and lock (`test_tool_listing.py`)
    assert sent["tools/call"] == sum(r.steps for r in recs)
    assert sum(sent.values()) == 2 + sum(r.steps for r in recs)


async def test_the_legacy_handshake_still_runs_per_episode(
    servers: Servers, toy_env: Environment
) -> None:
    recs, sent = await _episodes(servers, toy_env, 2, mcp_mode="legacy")
    assert [r.score for r in recs] == [1.0, 1.0], [r.error for r in recs]
    assert sent["initialize"] == 2 and sent["server/discover"] == 0


async def test_a_tool_call_runs_no_tools_list_on_the_server(
    servers: Servers, toy_env: Environment
) -> None:
    recs, _ = await _episodes(servers, toy_env, 2)
    assert [r.score for r in recs] == [1.0, 1.0], [r.error for r in recs]
    assert sum(r.steps for r in recs) >= 4
    # one listing (the first agent's, reused by the second), none for each call's header check
    assert servers.methods["tools/list"] == 1
    assert servers.methods["tools/call"] == sum(r.steps for r in recs)


async def test_the_schema_lookup_answers_no_schema_without_header_annotations(
    toy_env: Environment, tmp_path: Path
) -> None:
    """The lookup holds only schemas with an ``x-mcp-header`` annotation: the SDK's check of
    one without any walks it twice per call and passes every call (fails on main, where
    every tool's schema was looked up and walked)."""
    app = create_env_app(toy_env, tmp_path, control_token=None)
    lookup = app.state.mcp_server.get_tool_input_schema
    tools = tool_definitions(toy_env)
    assert tools and not any(x_mcp_header_map(t.input_schema) for t in tools)
    for tool in tools:
        assert lookup(tool.name) is None
    assert lookup("no-such-tool") is None


async def test_every_episode_gets_its_own_task_in_the_server_instructions() -> None:
    """A model agent puts the server instructions in its system prompt: each episode's are
    its own task (before: later episodes adopted the first episode's discover result, so a
    ledger campaign told every agent the first episode's task)."""
    from mcpgym_clients.harness import FunctionAgent, HarnessContext
    from mcpgym_clients.train._backends import in_process_driver
    from mcpgym_server import load_environment

    seen: list[tuple[str, str]] = []

    async def loop(task: HarnessContext) -> None:
        seen.append((task.instruction, task.server_instructions or ""))

    env = load_environment("ledger")
    with anyio.fail_after(60):
        async with in_process_driver(env) as (driver, _):
            for family in ("accrue-expense", "enter-vendor-bill", "write-off-bad-debt"):
                await driver.run_episode(FunctionAgent(loop, name="probe"), family, "hard", 0)
    assert len({instruction for instruction, _ in seen}) == 3
    for instruction, server in seen:
        assert instruction.strip() in server, (instruction[:60], server[-200:])
