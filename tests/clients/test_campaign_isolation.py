"""No failure inside one episode reaches another episode or the campaign.

In process, over loopback servers: an episode whose code ends with a stray cancellation
(a cancel scope leaked out of a library, the kind that once made one killed server lose
62 of 84 episodes silently), an agent that raises, and an environment server that loses
its episode table under a live episode (as a restart does: 404 for an id the harness
opened). In each case every planned episode ends as exactly one stored row and the
campaign runs to its end. The same with real processes killed mid-campaign is in
``tests/e2e/test_campaign_accounting.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpgym_clients import (
    AgentResult,
    EpisodeContext,
    EpisodeDriver,
    EpisodeRecord,
    LocalServers,
    ReferenceAgent,
    RunStore,
    VariantKey,
    run_campaign,
)
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.containment import StrayCancellation, run_isolated
from mcpgym_clients.protocol import Agent
from mcpgym_server import Environment

NO_BACKOFF = infra_backoff(0.0)

SEEDS = range(10)
LEAKING = {3, 7}


def variants() -> list[VariantKey]:
    return [VariantKey("set-target", band, seed) for band in ("easy", "medium") for seed in SEEDS]


def slots(rows: list[dict[str, Any]]) -> Counter[tuple[str, int, int]]:
    return Counter((r["band"], r["seed"], r["epoch"]) for r in rows)


class LeakyDriver(EpisodeDriver):
    """A driver whose episodes of the `LEAKING` seeds end with a cancellation that no scope
    of the campaign asked for, after their episode was opened and run."""

    async def _run(self, agent: Agent, rec: EpisodeRecord, live: Any = None) -> None:
        await super()._run(agent, rec, live=live)
        if rec.seed in LEAKING:
            raise anyio.get_cancelled_exc_class()("leaked from a library's cancel scope")


@pytest.mark.anyio
@pytest.mark.parametrize("concurrency", [1, 4, 16])
async def test_a_stray_cancellation_ends_only_its_own_episode(
    servers: LocalServers, toy_env: Environment, concurrency: int
) -> None:
    async with LeakyDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(60):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                variants(),
                store,
                epochs=2,
                concurrency=concurrency,
                baseline=False,
                show_progress=False,
                infra_backoff=NO_BACKOFF,  # retries at once: the waits are tested apart
            )
            rows = store.episodes(result.run_id)
            run = store.run(result.run_id)
    assert len(slots(rows)) == 2 * len(SEEDS) * 2 and set(slots(rows).values()) == {1}
    for row in rows:
        if row["seed"] in LEAKING:
            assert (row["termination"], row["attempts"]) == ("infra_error", 3)
            assert "cancelled by a cancel scope that leaked" in row["error"]
        else:
            assert (row["termination"], row["score"]) == ("completed", 1.0)
    assert run["finished_at"] is None  # infra errors are not outcomes: the run is not done
    assert result.unscored() == {"infra_error": 2 * len(LEAKING) * 2}
    incomplete = result.incomplete()
    assert incomplete is not None and incomplete.startswith(
        f"incomplete: {2 * len(LEAKING) * 2} of {2 * len(SEEDS) * 2} planned episodes"
    )


class RaisingAgent(Agent):
    """A class-form agent used without `GuardedAgent`, raising on some seeds."""

    name = "raiser"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        if ctx.variant_id.endswith(("#3", "#7")):
            raise ValueError("the agent's own bug")
        await ctx.call_tool("get", {"key": "target"})
        return AgentResult("completed", answer="done")


@pytest.mark.anyio
async def test_an_agent_that_raises_fails_its_episode_and_the_campaign_goes_on(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(60):
            result = await run_campaign(
                driver,
                RaisingAgent(),
                variants(),
                store,
                concurrency=4,
                baseline=False,
                show_progress=False,
                infra_backoff=NO_BACKOFF,  # retries at once: the waits are tested apart
            )
            rows = store.episodes(result.run_id)
            run = store.run(result.run_id)
    assert len(rows) == len(slots(rows)) == 2 * len(SEEDS)
    raised = [r for r in rows if r["seed"] in LEAKING]
    assert {r["termination"] for r in raised} == {"model_error"}
    assert all("raised ValueError: the agent's own bug" in r["error"] for r in raised)
    assert all(r["scored"] for r in rows if r["seed"] not in LEAKING)
    assert run["finished_at"] is not None  # every slot has its outcome (model_error is one)
    assert result.unscored() == {"model_error": 4}


class ForgetfulServer:
    """The toy environment server in process, whose episode table can be wiped (what a
    restart does to the episodes it had open) while an episode is live."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def forget(self) -> None:
        manager = self.app.state.manager
        manager._open.clear()
        manager._sealed.clear()


@pytest.fixture
async def forgetful(
    toy_env: Environment, tmp_path: Path
) -> AsyncIterator[tuple[ForgetfulServer, LocalServers]]:
    from mcpgym_grading.service import create_app as create_grading_app
    from mcpgym_server.runtime import create_app as create_env_app
    from mcpgym_server.runtime import serve

    store = tmp_path / "episodes"
    app = create_env_app(toy_env, store, control_token="c", bundle_key="k")
    grading = create_grading_app(store, "t", env_loader=lambda _: toy_env, bundle_key="k")
    async with serve(app) as env_url, serve(grading) as grading_url:
        yield ForgetfulServer(app), LocalServers(env_url, grading_url, "t", store, "c")


class RestartedUnder(Agent):
    """Replays the reference, but the first attempt of each variant sees the server lose
    its episode table after the first call (``before``: before the first call)."""

    name = "restarted-under"
    uses_reference = True

    def __init__(self, server: ForgetfulServer, *, before: bool) -> None:
        self.server = server
        self.before = before
        self.hit: set[str] = set()

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        assert ctx.reference is not None
        first = ctx.variant_id not in self.hit
        self.hit.add(ctx.variant_id)
        if first and self.before:
            self.server.forget()
        for call in ctx.reference:
            await ctx.call_tool(call.name, dict(call.arguments))
            if first and not self.before:
                self.server.forget()
        return AgentResult("completed", answer="done")


@pytest.mark.anyio
@pytest.mark.parametrize("before", [False, True], ids=["after-a-call", "before-any-call"])
async def test_a_server_that_loses_a_live_episode_makes_it_an_infra_error_retried_afresh(
    forgetful: tuple[ForgetfulServer, LocalServers], toy_env: Environment, before: bool
) -> None:
    server, urls = forgetful
    agent = RestartedUnder(server, before=before)
    async with EpisodeDriver(
        urls.env_url,
        urls.grading_url,
        urls.grading_token,
        control_token=urls.control_token,
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(60):
            result = await run_campaign(
                driver,
                agent,
                variants()[:4],
                store,
                concurrency=2,
                baseline=False,
                show_progress=False,
                infra_backoff=NO_BACKOFF,  # retries at once: the waits are tested apart
            )
            rows = store.episodes(result.run_id)
            run = store.run(result.run_id)
    assert len(rows) == len(slots(rows)) == 4
    # each variant's first episode was lost (infra_error), a retry ran afresh and scored
    # (a wipe also loses the other variant's episode then in flight: up to 3 attempts)
    assert [(r["termination"], r["score"]) for r in rows] == [("completed", 1.0)] * 4
    assert all(r["attempts"] in (2, 3) for r in rows)
    assert run["finished_at"] is not None and result.incomplete() is None


@pytest.mark.anyio
async def test_a_lost_episode_that_stays_lost_is_stored_as_infra_error_saying_so(
    forgetful: tuple[ForgetfulServer, LocalServers], toy_env: Environment
) -> None:
    server, urls = forgetful

    class AlwaysRestarted(RestartedUnder):
        async def run(self, ctx: EpisodeContext) -> AgentResult:
            self.hit.clear()
            return await super().run(ctx)

    async with EpisodeDriver(
        urls.env_url,
        urls.grading_url,
        urls.grading_token,
        control_token=urls.control_token,
        environment=toy_env,
    ) as driver:
        rec = await driver.run_episode(
            AlwaysRestarted(server, before=False), "set-target", "easy", 0
        )
    assert rec.termination == "infra_error" and rec.grade is None
    assert rec.error is not None and "404" in rec.error and rec.episode_id in rec.error


@pytest.mark.anyio
async def test_run_isolated_turns_every_ending_into_a_value_but_the_callers_cancellation() -> None:
    async def returns() -> None:
        await anyio.lowlevel.checkpoint()

    async def raises() -> None:
        raise ExceptionGroup("x", [anyio.ClosedResourceError()])

    async def strays() -> None:
        raise anyio.get_cancelled_exc_class()()

    assert await run_isolated(returns) is None
    assert isinstance(await run_isolated(raises), ExceptionGroup)
    assert isinstance(await run_isolated(strays), StrayCancellation)
    started = anyio.Event()

    async def waits() -> None:
        started.set()
        await anyio.sleep_forever()

    with anyio.fail_after(5):
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as tg:
                tg.start_soon(run_isolated, waits)
                await started.wait()
                scope.cancel()
            pytest.fail("the caller's cancellation did not propagate")  # pragma: no cover
    assert scope.cancelled_caught
