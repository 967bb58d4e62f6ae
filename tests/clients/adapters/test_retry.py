"""Retry-After parsing, backoff bounds, what is retried, and the time budget."""

from __future__ import annotations

import email.utils
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from mcpgym_clients.adapters.base import ModelAdapter, ModelSettings, ModelTurn
from mcpgym_clients.adapters.retry import (
    RetryPolicy,
    TimeBudget,
    charged_to,
    retry_after_seconds,
    with_retries,
)
from mcpgym_clients.agents.model import ModelAgent
from mcpgym_clients.errors import ModelAPIError

from ..fakes import FakeEpisode
from .conftest import Waits

pytestmark = pytest.mark.anyio


def test_retry_after_reads_seconds_milliseconds_and_http_dates() -> None:
    now = 1_764_500_000.0
    assert retry_after_seconds({"Retry-After": "3"}) == 3.0
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = email.utils.formatdate(now + 12, usegmt=True)
    assert retry_after_seconds({"retry-after": date}, now=now) == pytest.approx(12.0)
    past = email.utils.formatdate(now - 60, usegmt=True)
    assert retry_after_seconds({"retry-after": past}, now=now) == 0.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=10.0, jitter=0.5)
    for n in range(8):
        cap = min(2.0**n, 10.0)
        assert cap / 2 <= policy.delay(n, None) <= cap
    assert policy.delay(0, 120.0) == 10.0  # a server's Retry-After is capped too
    assert policy.delay(3, 0.5) == 0.5


async def test_only_transient_failures_are_retried() -> None:
    attempts = 0

    async def bad_request() -> None:
        nonlocal attempts
        attempts += 1
        raise ModelAPIError("model API answered 400: bad", status=400)

    with pytest.raises(ModelAPIError) as info:
        await with_retries(RetryPolicy(sleep=Waits()), bad_request)
    assert attempts == 1 and not info.value.transient
    assert ModelAPIError("x", status=529).transient  # Anthropic "overloaded"
    assert ModelAPIError("x", status=401).transient is False


async def test_retry_waits_move_the_deadline_back() -> None:
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise ModelAPIError("429", status=429, retry_after=4.0)
        return "ok"

    budget = TimeBudget(10.0)
    start = budget.scope.deadline
    with charged_to(budget):
        assert await with_retries(RetryPolicy(sleep=Waits()), flaky) == "ok"
    assert budget.retries == 2
    assert budget.excluded >= 8.0
    assert budget.scope.deadline - start == pytest.approx(budget.excluded)


class Hanging(ModelAdapter):
    """An adapter whose model never answers (to hit the time limit)."""

    vendor = "hanging"

    def __init__(self) -> None:
        super().__init__(ModelSettings("m"), retry=None, base_url="http://h")

    def declare_tools(self, tools: list[Any]) -> list[Any]:
        return []

    def start(self, system: str, instruction: str) -> list[Any]:
        return []

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        await anyio.Event().wait()
        raise AssertionError("unreachable")


async def test_the_time_limit_ends_the_episode_as_timeout() -> None:
    agent = ModelAgent(Hanging(), time_limit=0.05)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "timeout"
    assert result.error == "the episode exceeded its time limit of 0.05 s"
    assert result.transcript[0]["role"] == "system"


class NeverAnswers(Hanging):
    """An adapter whose API never answers, sent through `with_retries` like every vendor."""

    def __init__(self, waits: Waits) -> None:
        super().__init__()
        self.retry = RetryPolicy(request_timeout=0.01, max_retries=2, sleep=waits)

    async def complete(self, history: list[Any], tools: list[Any]) -> ModelTurn:
        await with_retries(self.retry, anyio.Event().wait)
        raise AssertionError("unreachable")


async def test_a_model_api_that_never_answers_is_retried_then_infra_error() -> None:
    waits = Waits()
    # the time limit is far shorter than the hung attempts: they never count against it
    agent = ModelAgent(NeverAnswers(waits), time_limit=0.001)
    with anyio.fail_after(5):
        result = await agent.run(FakeEpisode().context())
    assert result.termination == "infra_error"
    assert "did not answer within 0.01 s (--request-timeout) (after 3 attempts)" in str(
        result.error
    )
    assert len(waits.asked) == 2 and result.usage["retries"] == 2


async def test_the_time_limit_never_cuts_a_request_in_flight_but_counts_its_time() -> None:
    reached_after = False
    got = None

    async def answers() -> str:
        budget.exclude(-100.0)  # as if the request took 100 s: the deadline passes in flight
        await anyio.lowlevel.checkpoint()
        return "ok"

    budget = TimeBudget(10.0)
    with charged_to(budget):
        got = await with_retries(RetryPolicy(sleep=Waits()), answers)
        await anyio.lowlevel.checkpoint()  # past the deadline: the loop stops here
        reached_after = True
    assert got == "ok"  # the request in flight was not cut off
    assert budget.expired and not reached_after
