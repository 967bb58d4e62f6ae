"""`Rollouts.direct` (no HTTP, no MCP) seals and grades what `Rollouts.in_process` does.

Both run the same agents on the helpdesk reference matrix (every family x band); each
pair of episodes must leave the same bundle (final database and page delta digests, the
tool-call log without its timings, the metadata without ids and wall times), the same grade
(but for the episode id and the signature: nothing is signed in memory) and show the agent
the same tool outcomes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from mcpgym_clients import FunctionAgent, HarnessContext, RandomAgent, ReferenceAgent
from mcpgym_clients.protocol import Agent
from mcpgym_clients.train import Rollouts, TrainingRow, training_rows
from mcpgym_clients.train._direct import DirectEpisodes
from mcpgym_server import EpisodeBundle, EpisodeStore, load_environment

pytestmark = pytest.mark.anyio

VOLATILE_META = {"episode_id", "opened_at", "sealed_at"}


def matrix() -> list[TrainingRow]:
    """One training row per helpdesk family x band (easy, medium, hard)."""
    first: dict[tuple[str, str], TrainingRow] = {}
    for row in training_rows("helpdesk", bands=["easy", "medium", "hard"], seeds=range(10)):
        first.setdefault((row.task, row.band), row)
    return list(first.values())


def bundle_form(bundle: EpisodeBundle) -> str:
    """The bundle as JSON without its volatile parts (ids, wall times, call durations)."""
    meta = bundle.meta.model_dump(mode="json")
    log = [e.model_dump(mode="json", exclude={"duration_ms"}) for e in bundle.log]
    form = {"meta": {k: v for k, v in meta.items() if k not in VOLATILE_META}, "log": log}
    return json.dumps(form, sort_keys=True).replace(bundle.meta.episode_id, "EP")


def grade_form(grade: Mapping[str, Any] | None) -> dict[str, Any]:
    assert grade is not None
    return {k: v for k, v in grade.items() if k not in {"episode_id", "signature"}}


def outcomes(messages: list[dict[str, Any]], episode_id: str | None) -> list[Any]:
    """What the agent was answered, the episode id (which differs) written as ``EP``."""
    assert episode_id is not None
    return [
        (str(m.get("content")).replace(episode_id, "EP"), m.get("mcpgym_is_error"))
        for m in messages
        if m.get("role") == "tool"
    ]


async def mistakes(task: HarnessContext) -> str:
    await task.call_tool("no_such_tool", {})
    await task.call_tool("get_order", {"order_id": "not a number"})
    await task.call_tool("get_order", {"order_id": 1})  # a tool error: no such order
    await task.call_tool("find_customers", {"query": "a"})
    await task.call_tool("submit", {"answer": "done"})
    await task.call_tool("find_customers", {"query": "b"})  # after submit: refused
    return "done"


AGENTS: dict[str, Agent] = {
    "reference": ReferenceAgent(),
    "random": RandomAgent(seed=3, max_calls=6),
    "mistakes": FunctionAgent(mistakes),
}


@pytest.mark.parametrize("agent_name", sorted(AGENTS))
async def test_direct_rollouts_seal_and_grade_what_the_mcp_path_does(
    agent_name: str, tmp_path: Path
) -> None:
    env = load_environment("helpdesk")
    rows = matrix()
    agent = AGENTS[agent_name]
    async with Rollouts.in_process(env, store_dir=tmp_path / "store") as ro:
        via_mcp = [await ro.rollout(row, agent) for row in rows]
    store = EpisodeStore(tmp_path / "store", create=False)
    direct = DirectEpisodes(env, keep_bundles=True)
    try:
        via_direct = [await Rollouts(direct, env).rollout(row, agent) for row in rows]
    finally:
        direct.close()
    assert direct.bundles is not None
    assert len(rows) == 21
    for a, b in zip(via_mcp, via_direct, strict=True):
        assert a.termination == b.termination and a.episode_termination == b.episode_termination
        assert a.record.steps == b.record.steps
        assert outcomes(a.messages, a.episode_id) == outcomes(b.messages, b.episode_id), a.row
        assert grade_form(a.grade) == grade_form(b.grade), a.row
        assert a.episode_id is not None and b.episode_id is not None
        mcp_bundle = store.read(a.episode_id)
        assert bundle_form(mcp_bundle) == bundle_form(direct.bundles[b.episode_id]), a.row
    if agent_name == "reference":
        assert all(r.reward() == 1.0 for r in via_direct)
    if agent_name == "mistakes":
        statuses = [e.status for e in direct.bundles[via_direct[0].episode_id or ""].log]
        assert statuses[:3] == ["unknown_tool", "invalid_arguments", "tool_error"]


async def test_the_agent_sees_the_same_tools_and_instructions(tmp_path: Path) -> None:
    env = load_environment("helpdesk")
    seen: dict[str, Any] = {}

    class Looker(ReferenceAgent):
        async def run(self, ctx: Any) -> Any:
            seen.setdefault("tools", []).append(
                [(t.name, t.description, dict(t.input_schema)) for t in ctx.tools]
            )
            seen.setdefault("instructions", []).append(ctx.server_instructions)
            seen.setdefault("instruction", []).append(ctx.instruction)
            return await super().run(ctx)

    row = matrix()[0]
    async with Rollouts.in_process(env, store_dir=tmp_path / "s") as ro:
        await ro.rollout(row, Looker())
    async with Rollouts.direct(env) as ro:
        await ro.rollout(row, Looker())
    assert seen["tools"][0] == seen["tools"][1]
    assert seen["instruction"][0] == seen["instruction"][1]
    assert seen["instructions"][0] == seen["instructions"][1]


async def test_unknown_task_is_refused_like_the_server_does() -> None:
    from mcpgym_clients.errors import ServerRequestError

    async with Rollouts.direct("helpdesk") as ro:
        with pytest.raises(ServerRequestError) as err:
            row = TrainingRow(
                "helpdesk/no-such-task@easy#0", "helpdesk", "no-such-task", "easy", 0, "", "train"
            )
            await ro.rollout(row, ReferenceAgent())
    assert err.value.status == 404 and "no-such-task" in str(err.value)


async def test_dropped_bundles_are_not_hashed_and_grade_the_same() -> None:
    """Without ``keep_bundles`` nobody reads a bundle's digests of its final state, so the
    direct path leaves them uncomputed (`EpisodeManager(hash_final=False)`): the grades do
    not change."""
    env = load_environment("helpdesk")
    rows = matrix()
    kept, dropped = DirectEpisodes(env, keep_bundles=True), DirectEpisodes(env)
    assert kept.manager.hash_final and not dropped.manager.hash_final
    try:
        for agent in (AGENTS["reference"], AGENTS["random"]):
            a = [await Rollouts(kept, env).rollout(row, agent) for row in rows]
            b = [await Rollouts(dropped, env).rollout(row, agent) for row in rows]
            assert [grade_form(x.grade) for x in a] == [grade_form(x.grade) for x in b]
        assert kept.bundles is not None
        assert all(len(x.meta.final_sha256) == 64 for x in kept.bundles.values())
        eid = dropped.manager.open(rows[0].task, rows[0].band, rows[0].seed).id
        dropped.manager.seal(eid, "ended")
        meta = dropped.store.take(eid).meta
        assert meta.final_sha256 == meta.delta_sha256 == meta.final_pages_sha256 == ""
        dropped.manager.forget_final_db(eid)
    finally:
        kept.close()
        dropped.close()


async def test_an_agent_that_only_calls_tools_still_meets_the_hard_cap() -> None:
    """Tool calls yield to the event loop only every few milliseconds (`YIELD_EVERY_S`),
    never less: a CPU-bound agent calling tools without end is still cancelled on time."""
    import anyio

    async def busy(task: HarnessContext) -> str:
        for _ in range(40_000):  # seconds of calls (refused once max_steps seals it)
            await task.call_tool("find_customers", {"query": "a"})
        return "done"

    env = load_environment("helpdesk")
    direct = DirectEpisodes(env, episode_timeout=0.2)
    direct.manager.max_steps = 20_000  # ~2 s of calls: ends a loop that never yields
    try:
        with anyio.fail_after(30):
            r = await Rollouts(direct, env).rollout(matrix()[0], FunctionAgent(busy))
    finally:
        direct.close()
    assert r.termination == "timeout" and r.record.steps > 1
