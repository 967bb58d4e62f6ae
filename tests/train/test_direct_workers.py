"""`Rollouts.direct(workers=N)` grades what `Rollouts.direct` in this process does.

The worker processes run the same `DirectEpisodes`; what can differ is what crosses the
process boundary (the agent going out, the record and its grade coming back) and the
errors (raised in a worker, raised again here). One pool serves every check: starting
its processes is most of the cost.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcpgym_clients import FunctionAgent, HarnessContext, RandomAgent, ReferenceAgent
from mcpgym_clients.errors import ConfigurationError, ServerRequestError
from mcpgym_clients.train import Rollouts, TrainingRow, training_rows

pytestmark = pytest.mark.anyio


def matrix() -> list[TrainingRow]:
    first: dict[tuple[str, str], TrainingRow] = {}
    for row in training_rows("helpdesk", bands=["easy", "medium", "hard"], seeds=range(10)):
        first.setdefault((row.task, row.band), row)
    return list(first.values())


def form(r: Any) -> tuple[Any, ...]:
    grade = {k: v for k, v in (r.grade or {}).items() if k != "episode_id"}
    tools = [
        str(m.get("content")).replace(r.episode_id or "", "EP")
        for m in r.messages
        if m.get("role") == "tool"
    ]
    return r.termination, r.episode_termination, r.record.steps, grade, tools


async def test_worker_rollouts_grade_what_direct_rollouts_do() -> None:
    rows = matrix()
    agents = [ReferenceAgent(), RandomAgent(seed=5, max_calls=6)]
    async with Rollouts.direct("helpdesk") as ro:
        here = [[form(await ro.rollout(row, a)) for row in rows] for a in agents]
    async with Rollouts.direct("helpdesk", workers=2, concurrency=4) as ro:
        groups = [await ro.rollout_group(row, agents[0], n=4) for row in rows[:3]]
        there = [[form(await ro.rollout(row, a)) for row in rows] for a in agents]
        ids = {r.record.episode_id for g in groups for r in g.rollouts}

        with pytest.raises(ServerRequestError) as err:
            bad = TrainingRow("x", "helpdesk", "no-such-task", "easy", 0, "", "train")
            await ro.rollout(bad, ReferenceAgent())
        assert err.value.status == 404 and "no-such-task" in str(err.value)

        async def local(task: HarnessContext) -> str:  # a closure: does not pickle
            return "done"

        with pytest.raises(ConfigurationError, match="does not pickle"):
            await ro.rollout(rows[0], FunctionAgent(local))
        # a group is refused the same way, once: it raised an ExceptionGroup of one
        # ConfigurationError per worker part, which `except ConfigurationError` misses
        with pytest.raises(ConfigurationError, match="does not pickle"):
            await ro.rollout_group(rows[0], FunctionAgent(local), n=4)
        with pytest.raises(ConfigurationError, match="does not pickle"):
            await ro.rollout_groups(rows[:2], FunctionAgent(local), n=2)
    assert len(rows) == 21 and len(ids) == 12
    assert all(g.rewards == [1.0] * 4 for g in groups)
    assert there == here
    assert all(f[3]["score"] == 1.0 for f in here[0])


async def test_workers_must_be_at_least_one() -> None:
    with pytest.raises(ConfigurationError, match="at least 1"):
        async with Rollouts.direct("helpdesk", workers=0):
            pass
