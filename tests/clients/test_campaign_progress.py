"""A campaign shows its episodes while they run, says what it will do, and asks before a
large one: live progress (turns, tool calls, retries, elapsed), the baseline interleaved,
the plan and the measured start's estimate, confirmation above the threshold."""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest
from rich.console import Console

from mcpgym_clients import (
    Agent,
    AgentResult,
    EpisodeDriver,
    NullAgent,
    ReferenceAgent,
    RunStore,
    VariantKey,
    run_campaign,
)
from mcpgym_clients.adapters.retry import NO_WAIT, with_retries
from mcpgym_clients.campaign import CampaignStatus
from mcpgym_clients.errors import ModelAPIError
from mcpgym_clients.plan import (
    CONFIRM_SECONDS,
    CampaignNotConfirmed,
    CampaignPlan,
    Estimate,
    Planner,
    sample_size,
)
from mcpgym_clients.progress import CampaignProgress
from mcpgym_clients.protocol import EpisodeContext
from mcpgym_clients.train._backends import in_process_driver
from mcpgym_server import Environment


class SlowAgent(Agent):
    """A scripted slow agent: one turn, one tool call, one retried model request, then it
    waits for the test to let it finish (steps taken on anyio events, never sleeps)."""

    name = "slow"

    def __init__(self) -> None:
        self.stepped = anyio.Event()
        self.finish = anyio.Event()

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        ctx.progress.usage["requests"] = 1
        await ctx.call_tool("put", {"key": "scratch", "value": "1"})
        failures = [ModelAPIError("503 overloaded", status=503, transient=True)]

        async def attempt() -> str:
            if failures:
                raise failures.pop()
            return "ok"

        await with_retries(NO_WAIT, attempt)
        ctx.progress.usage["requests"] = 2
        self.stepped.set()
        await self.finish.wait()
        return AgentResult("completed", answer="done")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.asynccontextmanager
async def _driver(env: Environment, tmp: Path) -> AsyncIterator[EpisodeDriver]:
    """The episode driver with the servers in process (ASGI transports: no socket)."""
    async with in_process_driver(env, store_dir=tmp / "episodes") as (driver, _app):
        yield driver


@pytest.mark.anyio
async def test_an_episode_in_flight_shows_its_turns_tool_calls_retries_and_elapsed_time(
    toy_env: Environment, tmp_path: Path
) -> None:
    clock = Clock()
    out = io.StringIO()
    shown = CampaignProgress(
        Console(file=out, width=200), {"r": ("slow", 1, 0)}, live=False, interval=30, clock=clock
    )
    agent = SlowAgent()
    async with _driver(toy_env, tmp_path) as driver:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                ep = shown.start("r", "set-target@easy#0", 0)

                async def run() -> None:
                    rec = await driver.run_episode(agent, "set-target", "easy", 0, live=ep)
                    shown.end("r", ep, rec, stored=True)

                tg.start_soon(run)
                await agent.stepped.wait()
                clock.now += 95
                assert shown.status_lines(all_=True) == [
                    "slow set-target@easy#0: 2 turns, 1 tool call, 1 retry, 1m35s"
                ]
                shown.tick()  # off a terminal: the retry is said at once, the status every 30 s
                agent.finish.set()
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "slow set-target@easy#0: 2 turns, 1 tool call, 1 retry, 1m35s (model request retried)"
    )
    assert lines[1] == "running: slow set-target@easy#0: 2 turns, 1 tool call, 1 retry, 1m35s"
    assert lines[2].startswith("slow 1/1 set-target@easy#0: ")
    assert lines[2].endswith("2 turns, 2 tool calls, 1 retry)")  # its answer was submitted


@pytest.mark.anyio
async def test_the_baseline_runs_interleaved_with_the_agent_and_lines_say_time_and_calls(
    toy_env: Environment, tmp_path: Path
) -> None:
    out = io.StringIO()
    variants = [VariantKey("set-target", "easy", s) for s in range(3)]
    with RunStore(tmp_path / "runs.db") as store:
        async with _driver(toy_env, tmp_path) as driver:
            with anyio.fail_after(30):
                result = await run_campaign(
                    driver,
                    ReferenceAgent(),
                    variants,
                    store,
                    epochs=2,
                    concurrency=1,
                    console=Console(file=out, width=300),
                    planner=Planner(Console(file=out, width=300)),
                )
        order = store.db.query("SELECT run_id, seed, epoch FROM episodes ORDER BY id")
        runs = [("agent" if r["run_id"] == result.run_id else "null", r["seed"]) for r in order]
    # each variant's baseline episode right after its agent's epochs, not all at the end
    assert runs == [(who, s) for s in range(3) for who in ("agent", "agent", "null")]
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("plan: toy, 3 variants x 2 epochs = 6 episodes of reference + 3")
    assert any(
        line.startswith("reference 1/6 set-target@easy#0: score 1.000 (") and "tool call" in line
        for line in lines
    )


def plan(todo: int) -> CampaignPlan:
    return CampaignPlan("toy", "reference", None, todo, 1, False, 1, todo, 0)


def test_the_estimate_extrapolates_the_measured_start_and_names_the_figures() -> None:
    e = Estimate(measured=8, seconds=2.0, bytes_measured=8 * 12 * 1024, total=168_042)
    assert e.total_seconds == pytest.approx(2.0 * 168_042 / 8)
    assert e.needs_confirmation()
    assert e.describe() == (
        "estimate: about 11h40m and 1.9 GB for 168,042 episodes (the first 8 took 2.0s, 12 KB each)"
    )
    assert not Estimate(8, 2.0, 8 * 12 * 1024, 80).needs_confirmation()


@pytest.mark.anyio
async def test_a_large_campaign_off_a_terminal_stops_after_its_measured_start(
    toy_env: Environment, tmp_path: Path
) -> None:
    clock = Clock()
    out = io.StringIO()
    planner = Planner(Console(file=out, width=400), ask=None, clock=clock)
    variants = [VariantKey("set-target", "easy", s) for s in range(40)]

    class Timed(NullAgent):
        async def run(self, ctx: EpisodeContext) -> AgentResult:
            clock.now += CONFIRM_SECONDS / 8  # each measured episode "takes" 7.5 minutes
            return await super().run(ctx)

    with RunStore(tmp_path / "runs.db") as store:
        async with _driver(toy_env, tmp_path) as driver:
            with anyio.fail_after(30), pytest.raises(CampaignNotConfirmed) as stopped:
                await run_campaign(
                    driver, Timed(), variants, store, planner=planner, show_progress=False
                )
            run_id = store.runs()[0]["id"]
            rows = store.episodes(run_id)
            # the rest never started: each is one unscored row naming the stop (issue 9 §1)
            assert sum(r["scored"] for r in rows) == sample_size(4) and len(rows) == 40
            assert all(
                "not run to its end: the campaign stopped (not confirmed" in r["error"]
                for r in rows
                if not r["scored"]
            )
            assert store.run(run_id)["finished_at"] is None  # resumable
            message = str(stopped.value)
            assert "not on a terminal to confirm" in message and "--yes" in message
            assert f"run {run_id} keeps the 8 episodes it played" in message
            # confirmed (--yes): the same campaign resumes the run and runs the rest
            planner = Planner(Console(file=out, width=400), yes=True, clock=clock)
            with anyio.fail_after(30):
                result = await run_campaign(
                    driver, Timed(), variants, store, planner=planner, show_progress=False
                )
    assert result.run_id == run_id and len(result.records) == 40
    text = out.getvalue()
    assert "plan: toy, 40 variants x 1 epoch = 40 episodes of null; 4 at a time" in text
    assert "estimate: about 5h00m" in text
    assert "8 already scored in run" in text


@pytest.mark.anyio
async def test_a_campaign_answered_yes_on_a_terminal_goes_on(
    toy_env: Environment, tmp_path: Path
) -> None:
    asked: list[str] = []

    async def ask(question: str) -> bool:
        asked.append(question)
        return True

    planner = Planner(Console(file=io.StringIO()), ask=ask, clock=lambda: 0.0)
    variants = [VariantKey("set-target", "easy", s) for s in range(12)]
    big = 10 * 1024**3  # every episode "takes" 10 GiB of disk

    with RunStore(tmp_path / "runs.db") as store:
        async with _driver(toy_env, tmp_path) as driver:
            original = planner.decide

            async def decide(p: CampaignPlan, e: Estimate, run_id: str) -> str | None:
                return await original(p, Estimate(e.measured, e.seconds, big, e.total), run_id)

            planner.decide = decide  # type: ignore[method-assign]
            with anyio.fail_after(30):
                result = await run_campaign(
                    driver, NullAgent(), variants, store, planner=planner, show_progress=False
                )
    assert len(result.records) == 12
    assert len(asked) == 1 and "run it all?" in asked[0]


def test_a_small_campaign_makes_no_measured_start() -> None:
    planner = Planner(Console(file=io.StringIO()))
    assert planner.announce(plan(sample_size(1))) is None
    assert planner.announce(plan(sample_size(1) + 1)) is not None


def test_on_a_terminal_the_live_display_tables_the_episodes_in_flight() -> None:
    clock = Clock()
    console = Console(file=io.StringIO(), width=120, record=True)
    shown = CampaignProgress(console, {"r": ("slow", 4, 1)}, live=True, clock=clock)
    ep = shown.start("r", "set-target@easy#1", 0, attempt=2)
    ep.phase = "agent"
    clock.now += 12.5
    console.print(shown.renderable())
    text = console.export_text()
    assert "slow" in text and "1/4" in text
    row = next(line for line in text.splitlines() if "set-target@easy#1" in line)
    assert row.split() == ["slow", "set-target@easy#1", "agent", "0", "0", "1", "12.5s"]


@pytest.mark.anyio
async def test_a_campaign_not_confirmed_stores_rows_only_for_what_it_started_above_the_cap(
    toy_env: Environment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stop 25, F3: `eval helpdesk --agent null --seeds 0-35713` off a terminal stored
    # 999,960 rows (427 MB) for the slots it never played; only a stop signal was capped.
    # Its `incomplete:` line advised "run the same command again" (it stops again), and
    # the second stop said the run "keeps its 32 measured episodes" when it held 64.
    from mcpgym_clients import stop_rows

    monkeypatch.setattr(stop_rows, "SIGNAL_ROWS_MAX", 16)
    clock = Clock()
    variants = [VariantKey("set-target", "easy", s) for s in range(40)]

    class Timed(NullAgent):
        async def run(self, ctx: EpisodeContext) -> AgentResult:
            clock.now += CONFIRM_SECONDS / 8
            return await super().run(ctx)

    with RunStore(tmp_path / "runs.db") as store:
        async with _driver(toy_env, tmp_path) as driver:
            for kept in (8, 16):
                status = CampaignStatus()
                planner = Planner(Console(file=io.StringIO()), ask=None, clock=clock)
                with anyio.fail_after(30), pytest.raises(CampaignNotConfirmed) as stopped:
                    await run_campaign(
                        driver,
                        Timed(),
                        variants,
                        store,
                        planner=planner,
                        show_progress=False,
                        status=status,
                    )
                run_id = store.runs()[0]["id"]
                assert len(store.runs()) == 1  # resumed
                assert store.episode_count(run_id) == kept  # the measured ones, no more
                assert f"keeps the {kept} episodes it played" in str(stopped.value)
                line = str(status.incomplete)
                assert f"{40 - kept} never started have no row" in line
                assert f"run the same command with --yes to resume run {run_id}" in line
                assert "same command again" not in line
