"""The breaker's rule does not depend on the concurrency (adversarial round 16, R16-5).

It counted attempts only: at ``--concurrency 4`` the retries of the 4 slots in flight during
a grading-service restart of ~3 s all failed together and stopped the campaign within a
second, where at concurrency 1 the same restart had to outlast ~10 s. Now a run of counted
attempts trips it only once it has lasted one slot's whole retry wait (`retry_window`), on
an injected clock; no test sleeps.
"""

from __future__ import annotations

import dataclasses

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeDriver, LocalServers, ReferenceAgent, RunStore, run_campaign
from mcpgym_clients.breaker import ServiceBreaker, lasted, retry_window
from mcpgym_clients.campaign import INFRA_BACKOFF, infra_backoff
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.selection import VariantKey
from mcpgym_server import Environment


class FakeClock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def unanswered(service: str = "grading") -> EpisodeRecord:
    return EpisodeRecord(
        agent="reference",
        task="t",
        band="easy",
        seed=0,
        termination="infra_error",
        error=f"{service} server: ConnectError",
        unanswered=service,
    )


def test_the_window_is_one_slots_whole_retry_wait() -> None:
    assert retry_window(2, INFRA_BACKOFF) == 9.0  # 3 + 6, the default
    assert retry_window(4, infra_backoff(3.0)) == 3 + 6 + 12 + 15  # at most 5 x base
    assert retry_window(0, INFRA_BACKOFF) == 0.0
    assert retry_window(2, infra_backoff(0.0)) == 0.0


def test_four_slots_retries_failing_within_a_second_do_not_trip_it() -> None:
    clock = FakeClock()
    breaker = ServiceBreaker(3, min_run=9.0, clock=clock)
    for _ in range(4):  # the 4 slots in flight: first attempts (not counted), then retries
        assert breaker.note(unanswered(), after_wait=False) is None
    for _ in range(4):
        clock.now += 0.25
        assert breaker.note(unanswered(), after_wait=True) is None
    assert breaker.counts == {"grading": 4}
    # The service is back: an answered attempt ends the run; a later blip starts afresh.
    scored = EpisodeRecord(agent="reference", task="t", band="easy", seed=0)
    assert breaker.note(scored, after_wait=True) is None
    assert breaker.counts == {} and breaker.since == {}
    clock.now = 100.0
    for _ in range(3):
        assert breaker.note(unanswered(), after_wait=True) is None


def test_a_server_still_down_after_the_window_trips_it() -> None:
    clock = FakeClock()
    breaker = ServiceBreaker(3, min_run=9.0, clock=clock)
    clock.now = 50.0
    for _ in range(5):
        assert breaker.note(unanswered("env"), after_wait=True) is None
        clock.now += 1.0  # 50 .. 54: 5 counted in 4 s
    clock.now = 58.9
    assert breaker.note(unanswered("env"), after_wait=True) is None  # 8.9 s: not yet
    clock.now = 59.0
    reason = breaker.note(unanswered("env"), after_wait=True)
    assert reason is not None
    assert reason.startswith("stopped: the environment server is not answering: 7 episode")
    # how long the failures lasted, not only how many (stop 26: "7 in a row" said no time)
    assert "7 episode attempts in a row over 9.0 s got no answer from it" in reason, reason
    assert breaker.since == {"env": 50.0}  # measured from the run's first counted attempt


def test_the_stop_line_says_how_long_the_failures_lasted() -> None:
    clock = FakeClock()
    breaker = ServiceBreaker(3, min_run=9.0, clock=clock)
    for now in (10.0, 70.0, 135.4):
        clock.now = now
        reason = breaker.note(unanswered(), after_wait=True)
    assert reason is not None
    assert "3 episode attempts in a row over 2 min 5 s got no answer" in reason, reason
    assert lasted(0.04) == " over 0.0 s" and lasted(59.94) == " over 59.9 s"


def test_the_window_alone_does_not_trip_it_below_the_count() -> None:
    clock = FakeClock()
    breaker = ServiceBreaker(3, min_run=9.0, clock=clock)
    assert breaker.note(unanswered(), after_wait=True) is None
    clock.now = 1_000.0
    assert breaker.note(unanswered(), after_wait=True) is None
    clock.now = 1_001.0
    assert breaker.note(unanswered(), after_wait=True) is not None


def refusing_grades(down: dict[str, int], clock: FakeClock) -> httpx.AsyncBaseTransport:
    """The grading service refusing connections while ``down["grades"]`` is above 0 (each
    refused grade request takes one off and 0.1 s on ``clock``); ``-1``: down for good."""

    class Restarting(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/grades" and down["grades"] != 0:
                down["grades"] -= down["grades"] > 0
                clock.now += 0.1
                raise httpx.ConnectError("All connection attempts failed", request=request)
            return await self.inner.handle_async_request(request)

        async def aclose(self) -> None:
            await self.inner.aclose()

    return Restarting()


@pytest.mark.anyio
async def test_a_short_restart_under_four_slots_does_not_stop_the_campaign(
    servers: LocalServers, toy_env: Environment
) -> None:
    """The grading service refuses the first 8 grade requests (the first attempts and the
    first retries of the 4 slots in flight, within 0.8 s), then answers: every slot is
    scored on its last attempt and the campaign goes on. Before, the 4 retries counted 3 and
    it stopped."""
    clock = FakeClock()
    down = {"grades": 8}
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)  # the restart goes on: the clock moves only on refusals

    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        grading_transport=refusing_grades(down, clock),
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(60):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                [VariantKey("set-target", "easy", seed) for seed in range(4)],
                store,
                baseline=False,
                concurrency=4,
                infra_backoff=dataclasses.replace(infra_backoff(), sleep=sleep),
                show_progress=False,
                clock=clock,
            )
            rows = store.episodes(result.run_id)
    assert result.stopped is None, result.stopped
    assert down["grades"] == 0 and clock.now <= 1.0
    assert sorted((r["seed"], r["score"]) for r in rows) == [(s, 1.0) for s in range(4)]


@pytest.mark.anyio
async def test_a_grading_service_down_past_the_window_stops_a_four_slot_campaign(
    servers: LocalServers, toy_env: Environment
) -> None:
    """Down for good: the campaign stops once the counted run has lasted the window (the
    waits move the clock), with fewer grade requests than the slots' attempts."""
    clock = FakeClock()
    down = {"grades": -1}

    async def sleep(seconds: float) -> None:
        clock.now += seconds

    variants = [VariantKey("set-target", "easy", seed) for seed in range(20)]
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        grading_transport=refusing_grades(down, clock),
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(60):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                variants,
                store,
                baseline=False,
                concurrency=4,
                infra_backoff=dataclasses.replace(infra_backoff(), sleep=sleep),
                show_progress=False,
                clock=clock,
            )
            rows = store.episodes(result.run_id)
    assert result.stopped is not None, "the campaign played on"
    assert "the grading service is not answering" in result.stopped, result.stopped
    assert clock.now >= 9.0
    assert len(rows) == len(variants)  # every slot, one row
    assert all(r["termination"] == "infra_error" and not r["scored"] for r in rows)
    played = [r for r in rows if r["attempts"] > 0]
    assert len(played) < len(variants), len(played)
