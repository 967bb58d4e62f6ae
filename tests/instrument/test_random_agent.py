"""The seeded random agent: schema-valid calls, the same calls for the same seed and variant."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from mcpgym_clients import RandomAgent
from mcpgym_clients.agents.random import _Pools, random_value
from mcpgym_clients.protocol import EpisodeContext, ToolDef, ToolOutcome
from mcpgym_server import EpisodeManager, MemoryEpisodeStore, load_environment
from mcpgym_server.lock import served_tools

pytestmark = pytest.mark.anyio


def test_random_arguments_are_valid_for_every_helpdesk_tool() -> None:
    env = load_environment("helpdesk")
    rng = random.Random(1)
    pools = _Pools()
    pools.harvest("Ticket #5227 about order 100433 from Jane Doe")
    for tool in served_tools(env):
        schema = tool["inputSchema"]
        for _ in range(25):
            args = random_value(schema, rng, pools, schema.get("$defs", {}))
            env.tools[tool["name"]].validate(args)  # raises InvalidArgumentsError if not


async def run_random(seed: int) -> list[tuple[str, Any, str]]:
    """Run the random agent in process on helpdesk; return (tool, arguments, status) per call."""
    env = load_environment("helpdesk")
    manager = EpisodeManager(env, MemoryEpisodeStore())
    ep = manager.open("refund-damaged-item", "easy", 3)

    async def call_tool(name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        entry = manager.call(ep.id, name, dict(arguments))
        return ToolOutcome(entry.status != "ok", entry.error or "", entry.result)

    ctx = EpisodeContext(
        episode_id=ep.id,
        variant_id=ep.variant.id,
        instruction=ep.variant.instruction,
        tools=[
            ToolDef(t["name"], t.get("description", ""), t["inputSchema"])
            for t in served_tools(env)
        ],
        call_tool=call_tool,
    )
    result = await RandomAgent(seed=seed).run(ctx)
    assert result.termination == "completed"
    log = manager.store.read(ep.id).log
    assert log[-1].tool == "submit" and all(e.status != "invalid_arguments" for e in log)
    return [(e.tool, e.arguments, e.status) for e in log]


async def test_the_same_seed_makes_the_same_calls_and_another_seed_others() -> None:
    first, again, other = await run_random(0), await run_random(0), await run_random(1)
    assert first == again
    assert first != other
