"""A grading service that answers oddly costs that episode its score, never the campaign.

Issue 9 section 1 (round 6b, B4-B7, B9): a 200 grade without ``score`` aborted the campaign
(``KeyError`` in the run store); a score of ``"NaN"`` or 7.5, or another episode's grade,
was stored as scored; a non-JSON or list body was counted as a grade error with no reason;
a 429 stopped the campaign; infra retries fired at once, inside the outage. The real
servers run on loopback (`serve_locally`); a transport in front of the grading service
rewrites its answers. No test sleeps: the waits go through an injected ``sleep``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx
import pytest

from mcpgym_clients import EpisodeDriver, LocalServers, ReferenceAgent, RunStore, run_campaign
from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.local import serve_locally
from mcpgym_clients.selection import VariantKey
from mcpgym_clients.services import RATE_LIMIT
from mcpgym_server import Environment

pytestmark = pytest.mark.anyio

Rewrite = Callable[[dict, str], httpx.Response | None]
"""Given the real grade and the episode id asked for: the answer to send instead (None:
the real one)."""


class OddGrading(httpx.AsyncBaseTransport):
    """Forwards to the real grading service; the first ``times`` grade answers go through
    ``rewrite``."""

    def __init__(self, rewrite: Rewrite, times: int = 1) -> None:
        self.rewrite, self.times = rewrite, times
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        real = await self.inner.handle_async_request(request)
        if request.method != "POST" or request.url.path != "/grades" or not self.times:
            return real
        self.times -= 1
        await real.aread()
        odd = self.rewrite(json.loads(real.content), json.loads(request.content)["episode_id"])
        return real if odd is None else odd

    async def aclose(self) -> None:
        await self.inner.aclose()


def ok(body: object) -> httpx.Response:
    return httpx.Response(200, content=json.dumps(body).encode())


ODD = {
    "no-score": lambda g, eid: ok({"status": "graded", "episode_id": eid}),
    "nan-string": lambda g, eid: ok({**g, "score": "NaN"}),
    "nan-literal": lambda g, eid: httpx.Response(
        200, content=json.dumps({**g, "score": float("nan")}).encode()
    ),
    "score-7.5": lambda g, eid: ok({**g, "score": 7.5, "passed": True}),
    "other-episode": lambda g, eid: ok({**g, "episode_id": "ep_" + "0" * 32}),
    "not-json": lambda g, eid: httpx.Response(200, content=b"{'status': graded"),
    "json-list": lambda g, eid: ok([1, 2]),
}
WHY = {
    "no-score": "`score`: missing",
    "nan-string": "`score`: Input should be a valid number",
    "nan-literal": "`score`: Input should be a finite number",
    "score-7.5": "`score`: Input should be less than or equal to 1",
    "other-episode": "it grades episode 'ep_00000000000000000000000000000000'",
    "not-json": "not a JSON object: {'status': graded",
    "json-list": "not a JSON object: [1, 2]",
}


def recorder() -> tuple[list[float], Callable]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return waits, sleep


def driver_for(s: LocalServers, env: Environment, grading: OddGrading, **kw: object):
    return EpisodeDriver(
        s.env_url,
        s.grading_url,
        s.grading_token,
        control_token=s.control_token,
        grading_transport=grading,
        environment=env,
        **kw,  # type: ignore[arg-type]
    )


async def campaign(driver: EpisodeDriver, store: RunStore, **kw: object) -> list[dict]:
    waits, sleep = recorder()
    result = await run_campaign(
        driver,
        ReferenceAgent(),
        [VariantKey("set-target", "easy", 0), VariantKey("set-target", "easy", 1)],
        store,
        baseline=False,
        concurrency=1,
        show_progress=False,
        infra_backoff=dataclasses.replace(infra_backoff(0.0), sleep=sleep),
        **kw,  # type: ignore[arg-type]
    )
    return sorted(store.episodes(result.run_id), key=lambda r: r["seed"])


@pytest.mark.parametrize("odd", sorted(ODD))
async def test_a_malformed_grade_is_infra_error_quoting_it_and_the_campaign_goes_on(
    servers: LocalServers, toy_env: Environment, odd: str
) -> None:
    async with driver_for(servers, toy_env, OddGrading(ODD[odd])) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            first, second = await campaign(driver, store, infra_retries=0)
    assert (first["termination"], first["scored"], first["score"]) == ("infra_error", 0, None)
    assert first["error"].startswith("grading server: POST /grades answered"), first["error"]
    assert WHY[odd] in first["error"], first["error"]
    assert (second["termination"], second["scored"], second["score"]) == ("completed", 1, 1.0)


async def test_a_malformed_grade_is_retried_as_a_fresh_episode(
    servers: LocalServers, toy_env: Environment
) -> None:
    async with driver_for(servers, toy_env, OddGrading(ODD["no-score"])) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            first, _ = await campaign(driver, store, infra_retries=1)
    assert (first["termination"], first["score"], first["attempts"]) == ("completed", 1.0, 2)


async def test_a_429_is_retried_after_its_retry_after_then_scored(
    servers: LocalServers, toy_env: Environment
) -> None:
    waits, sleep = recorder()
    limited = OddGrading(
        lambda g, eid: httpx.Response(429, headers={"retry-after": "7"}, json={"error": "slow"}),
        times=2,
    )
    rate_limit = dataclasses.replace(RATE_LIMIT, sleep=sleep)
    async with driver_for(servers, toy_env, limited, rate_limit=rate_limit) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            first, second = await campaign(driver, store, infra_retries=0)
    assert waits == [7.0, 7.0]
    assert (first["termination"], first["score"], first["attempts"]) == ("completed", 1.0, 1)
    assert second["score"] == 1.0


async def test_a_429_that_persists_is_infra_error_after_backoff_not_a_stopped_campaign(
    servers: LocalServers, toy_env: Environment
) -> None:
    waits, sleep = recorder()
    limited = OddGrading(lambda g, eid: httpx.Response(429, text="slow down"), times=6)
    rate_limit = RetryPolicy(max_retries=5, base_delay=2.0, max_delay=30.0, sleep=sleep)
    rate_limit.rng = random.Random(0)
    async with driver_for(servers, toy_env, limited, rate_limit=rate_limit) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            first, second = await campaign(driver, store, infra_retries=0)
    assert len(waits) == 5
    assert all(2.0 * 2**n * 0.5 <= w <= min(2.0 * 2**n, 30.0) for n, w in enumerate(waits)), waits
    assert first["termination"] == "infra_error"
    assert first["error"] == (
        "grading server: POST /grades answered 429 (rate limited) 6 times: slow down"
    )
    assert second["score"] == 1.0


async def test_an_infra_retry_waits_first_so_a_restarting_service_is_back(
    servers: LocalServers, toy_env: Environment
) -> None:
    """The grading service is down (connection refused) until the campaign has waited once:
    the retry, after the wait, finds it back. Retried at once (no wait), it failed again."""
    down = {"on": True}
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        down["on"] = False  # the restart completes during the wait

    class Restarting(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if down["on"] and request.url.path == "/grades":
                raise httpx.ConnectError("All connection attempts failed", request=request)
            return await self.inner.handle_async_request(request)

    backoff = dataclasses.replace(infra_backoff(), sleep=sleep)
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        grading_transport=Restarting(),
        environment=toy_env,
    ) as driver:
        with RunStore(":memory:") as store, anyio.fail_after(20):
            result = await run_campaign(
                driver,
                ReferenceAgent(),
                [VariantKey("set-target", "easy", 0)],
                store,
                baseline=False,
                concurrency=1,
                infra_retries=1,
                infra_backoff=backoff,
                show_progress=False,
            )
            (row,) = store.episodes(result.run_id)
    assert len(waits) == 1 and 1.5 <= waits[0] <= 3.0, waits
    assert (row["termination"], row["score"], row["attempts"]) == ("completed", 1.0, 2)


async def test_a_grading_service_that_answers_404_for_every_episode_stops_the_campaign(
    servers: LocalServers, toy_env: Environment, tmp_path: Path
) -> None:
    """A grading service on another episode store (a real one, on loopback) answers 404 to
    every grade: the campaign stops with the breaker's reason once 3 attempts in a row after
    their wait got no grade, and every planned slot still ends as one row. Before (adversarial
    round 15, ``p1_grading15.py otherstore``), each slot was played 3 times to its end for
    nothing: 6 slots, 18 grade requests, no stop."""
    asked: list[str] = []

    class Counting(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/grades":
                asked.append(request.url.path)
            return await self.inner.handle_async_request(request)

        async def aclose(self) -> None:
            await self.inner.aclose()

    waits, sleep = recorder()
    variants = [VariantKey("set-target", "easy", seed) for seed in range(6)]
    async with serve_locally(toy_env, tmp_path / "another-store") as other:
        async with EpisodeDriver(
            servers.env_url,
            other.grading_url,
            other.grading_token,
            control_token=servers.control_token,
            grading_transport=Counting(),
            environment=toy_env,
        ) as driver:
            with RunStore(":memory:") as store, anyio.fail_after(60):
                result = await run_campaign(
                    driver,
                    ReferenceAgent(),
                    variants,
                    store,
                    baseline=False,
                    concurrency=1,
                    infra_retries=2,
                    infra_backoff=dataclasses.replace(infra_backoff(0.0), sleep=sleep),
                    show_progress=False,
                )
                rows = store.episodes(result.run_id)
                finished = store.run(result.run_id)["finished_at"]
    assert result.stopped is not None, "the campaign played on"
    assert "the grading service keeps failing grades" in result.stopped, result.stopped
    assert "answered 404" in result.stopped, result.stopped
    assert len(asked) < len(variants) * 3, len(asked)
    assert sorted(r["seed"] for r in rows) == list(range(6))  # every slot, one row
    assert all(r["termination"] == "infra_error" and not r["scored"] for r in rows)
    assert finished is None
    incomplete = result.incomplete()
    assert incomplete is not None and "6 of 6" in incomplete, incomplete
