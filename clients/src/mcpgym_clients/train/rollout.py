"""Rollouts as a library: run a policy on training rows and get rewards from the grader.

::

    rows = training_rows("helpdesk", bands=["easy"], seeds=range(200))
    async with Rollouts.direct("helpdesk") as ro:    # or .in_process(...), .over_http(...)
        group = await ro.rollout_group(rows[0], OpenAIPolicy(url, "qwen"), n=8)
        group.rewards            # scored rollouts only; group.dropped counts the others

Every rollout is one `EpisodeDriver.run_episode`, the path ``mcpgym eval`` takes, so the
reward is the grade ``mcpgym eval`` would give; `Rollouts.direct` runs the same episode
code without HTTP and MCP (`mcpgym_clients.train._direct`): the same bundle and grade for
the same calls, several times faster. A rollout that could not be scored
(``infra_error``, ``model_error``, a grade whose status is ``error``) has no reward: it is
dropped from `RolloutGroup.rewards` and counted in `RolloutGroup.dropped`, never given 0.

Over HTTP (`Rollouts.over_http`) a rollout that ends in ``infra_error`` is retried as a fresh
episode, as ``mcpgym eval`` retries a slot (``infra_retries``, 2 by default, each after the
campaign's `mcpgym_clients.campaign.infra_backoff` wait: 1.5-3 s, then 3-6 s), so that a
server restarting under a group costs a few seconds, not the group. A server that stays down
trips the campaign's breaker (`mcpgym_clients.breaker.ServiceBreaker`: `BREAKER_THRESHOLD`
attempts in a row, each after its retry wait, over at least one rollout's whole retry wait,
`retry_window`; a rollout whose retries are spent before that is decided retries on) and the
rollouts raise `ServerDownError` instead of returning empty groups.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Self

import anyio

from mcpgym_clients.adapters.retry import RetryPolicy
from mcpgym_clients.breaker import (
    BREAKER_THRESHOLD,
    SERVICE_NAMES,
    ServiceBreaker,
    lasted,
    retry_window,
)
from mcpgym_clients.campaign import INFRA_BACKOFF
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import ClientError, ConfigurationError, InfraError, redact_urls
from mcpgym_clients.local import serve_locally
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.train._backends import in_process_driver
from mcpgym_clients.train._direct import DirectEpisodes
from mcpgym_clients.train._workers import WorkerEpisodes
from mcpgym_clients.train.policies import Policy, as_agent
from mcpgym_clients.train.results import Rollout, RolloutGroup
from mcpgym_clients.train.rows import TrainingRow
from mcpgym_server import Environment, load_environment


class ServerDownError(InfraError):
    """A server stayed down under the rollouts: a breaker tripped (see `Rollouts`).

    Attributes:
        service: ``"env"``, ``"grading"`` or ``"model"``. url: its URL (secrets redacted;
            ``None`` for a model API whose URL is unknown). attempts: the episode
            attempts in a row that failed on it, each after its retry wait. seconds: from
            the first of them to the last (monotonic). last_error: the last one's error.
    """

    def __init__(
        self, service: str, url: str | None, attempts: int, seconds: float, last_error: str
    ) -> None:
        where = SERVICE_NAMES.get(service, service) + (f" at {url}" if url else "")
        ClientError.__init__(
            self,
            f"rollouts stopped: {where} stayed down: {attempts} episode attempts in a row"
            f"{lasted(seconds)} failed on it, each after its retry wait (the last: "
            f"{last_error}). Check that it is running and reachable from here (its process, "
            "its log), then open Rollouts.over_http again; the rollouts of this call are "
            "lost, those returned before are not",
        )
        self.service, self.unanswered = service, service != "model"
        self.url, self.attempts, self.seconds, self.last_error = (
            url,
            attempts,
            seconds,
            last_error,
        )


class Rollouts:
    """Runs rollouts through an `EpisodeDriver` (see the module docstring).

    Make one with `direct` (no HTTP, no MCP: fastest), `in_process` (the servers in this
    event loop over ASGI, no sockets: what an outside MCP client can also reach) or
    `over_http` (running servers: scale out), or wrap a driver you built.

    Args:
        driver: the episode driver (an `EpisodeDriver`, `DirectEpisodes` or
            `WorkerEpisodes`).
            environment: the local environment (for rows).
        concurrency: most rollouts running at once in `rollout_group` / `rollout_many`.
        infra_retries: fresh episodes to try after one ends in ``infra_error`` (>= 0; not
            for `WorkerEpisodes`); 0 (default): none, the rollout is dropped.
        infra_backoff: the wait before each of them (`RetryPolicy.delay` of the retry's
            index; the campaign's `INFRA_BACKOFF` by default).
        breaker: stop with `ServerDownError` once a server stays down: the campaign's
            `ServiceBreaker` (`BREAKER_THRESHOLD` attempts in a row that a server did not
            answer, each after its wait, over at least ``min_run`` = `retry_window` of the
            two above). A rollout whose retries are spent while that run of failures is
            open and shorter than ``min_run`` retries on (at its next wait) until the
            server answers or the breaker trips: the rollouts of one call all retry at
            once, within one retry window, so without this a call on a dead server would
            return every rollout dropped before the floor was reached. An outage shorter
            than ``min_run`` is ridden out; a longer one raises. Once tripped, every later
            rollout raises at once.

    Raises:
        ConfigurationError: ``infra_retries`` < 0.
    """

    def __init__(
        self,
        driver: EpisodeDriver | DirectEpisodes | WorkerEpisodes,
        environment: Environment | None = None,
        concurrency: int = 8,
        *,
        infra_retries: int = 0,
        infra_backoff: RetryPolicy = INFRA_BACKOFF,
        breaker: bool = False,
    ) -> None:
        if infra_retries < 0:
            raise ConfigurationError(f"infra_retries must be at least 0, got {infra_retries}")
        self.driver = driver
        self.environment = environment
        self.env_app: Any = None
        """The in-process environment server's ASGI app (`in_process` only)."""
        self._limit = anyio.CapacityLimiter(max(1, concurrency))
        self.infra_retries = infra_retries
        self.infra_backoff = infra_backoff
        self.breaker = (
            ServiceBreaker(BREAKER_THRESHOLD, min_run=retry_window(infra_retries, infra_backoff))
            if breaker
            else None
        )
        self._stopped: ServerDownError | None = None

    @classmethod
    @contextlib.asynccontextmanager
    async def direct(
        cls,
        env: Environment | str,
        *,
        concurrency: int = 8,
        episode_timeout: float | None = 600.0,
        workers: int | None = None,
    ) -> AsyncIterator[Self]:
        """Run rollouts without HTTP or MCP (`DirectEpisodes`): the agent's tool calls go
        to `EpisodeManager.call`, bundles stay in memory, the sealed sandbox is graded in
        place. Same bundles and grades as `in_process` for the same calls.

        Args:
            env: the environment or its installed name. concurrency: see the class.
            episode_timeout: the hard cap per episode, seconds.
            workers: run the episodes in this many worker processes (`WorkerEpisodes`: one
                core each; the policy must pickle, and each worker runs one episode at a
                time); ``None`` (default): in this process, on this event loop.

        Raises:
            ConfigurationError: ``workers`` < 1, or ``env`` is not the installed one.
        """
        environment = load_environment(env) if isinstance(env, str) else env
        episodes: DirectEpisodes | WorkerEpisodes
        if workers is None:
            episodes = DirectEpisodes(environment, episode_timeout=episode_timeout)
        else:
            episodes = WorkerEpisodes(environment, workers=workers, episode_timeout=episode_timeout)
        try:
            yield cls(episodes, environment, concurrency)
        finally:
            episodes.close()

    @classmethod
    @contextlib.asynccontextmanager
    async def in_process(
        cls,
        env: Environment | str,
        *,
        store_dir: str | Path | None = None,
        concurrency: int = 8,
        episode_timeout: float | None = 600.0,
    ) -> AsyncIterator[Self]:
        """Serve ``env`` and its grader in this event loop and run rollouts against them.

        Args:
            env: the environment or its installed name. store_dir: the episode store
                (default: a temporary directory). concurrency: see the class.
            episode_timeout: the hard cap per episode, seconds.
        """
        environment = load_environment(env) if isinstance(env, str) else env
        async with in_process_driver(
            environment, store_dir=store_dir, episode_timeout=episode_timeout
        ) as (driver, env_app):
            ro = cls(driver, environment, concurrency)
            ro.env_app = env_app
            yield ro

    @classmethod
    @contextlib.asynccontextmanager
    async def over_http(
        cls,
        env_url: str,
        grading_url: str,
        grading_token: str,
        control_token: str | None = None,
        *,
        concurrency: int = 8,
        episode_timeout: float | None = 600.0,
        infra_retries: int = 2,
        infra_backoff: RetryPolicy = INFRA_BACKOFF,
    ) -> AsyncIterator[Self]:
        """Run rollouts against running servers (``mcpgym serve`` and the grading service).

        A rollout that ends in ``infra_error`` is retried as a fresh episode, and a server
        that stays down raises `ServerDownError` (see the module docstring).

        Args:
            env_url, grading_url, grading_token: the servers and the grading token.
            control_token: the environment server's control token, if it has one.
            infra_retries, infra_backoff: see the class (``mcpgym eval``'s defaults: 2
                retries, `INFRA_BACKOFF`; 0 retries: the breaker counts alone).

        Raises:
            InfraError: the environment server cannot be reached.
            ConfigurationError: ``infra_retries`` < 0.
        """
        async with EpisodeDriver(
            env_url,
            grading_url,
            grading_token,
            control_token=control_token,
            episode_timeout=episode_timeout,
        ) as driver:
            await driver.server_info()
            yield cls(
                driver,
                None,
                concurrency,
                infra_retries=infra_retries,
                infra_backoff=infra_backoff,
                breaker=True,
            )

    @classmethod
    @contextlib.asynccontextmanager
    async def served(
        cls, env: Environment | str, store_dir: str | Path, *, concurrency: int = 8
    ) -> AsyncIterator[Self]:
        """Start the servers on loopback (`serve_locally`) and roll out over HTTP."""
        environment = load_environment(env) if isinstance(env, str) else env
        async with serve_locally(environment, store_dir) as s:
            async with EpisodeDriver(
                s.env_url,
                s.grading_url,
                s.grading_token,
                control_token=s.control_token,
                environment=environment,
            ) as driver:
                yield cls(driver, environment, concurrency)

    async def rollout(self, row: TrainingRow, policy: Policy | Agent, *, epoch: int = 0) -> Rollout:
        """One rollout of ``row`` under ``policy``.

        An ``infra_error`` episode is retried as a fresh one up to ``infra_retries`` times,
        or more while a server outage is undecided (see the class; the limiter's slot is
        given up during each wait).

        Raises:
            ServerRequestError: the server refused the variant (unknown task or band).
            ConfigurationError: ``policy`` is not usable (see `as_agent`).
            ServerDownError: the breaker tripped (now or before; see the class).
        """
        agent = as_agent(policy)
        attempts = 0
        try:
            while True:
                if self._stopped is not None:
                    raise self._stopped
                attempts += 1
                async with self._limit:
                    record = await self.driver.run_episode(
                        agent, row.task, row.band, row.seed, epoch=epoch
                    )
                spent = attempts > self.infra_retries
                self._note(record, agent, after_wait=attempts > 1 or spent)
                undecided = self.breaker is not None and self.breaker.open_run(record)
                if record.termination != "infra_error" or (spent and not undecided):
                    break
                await self.infra_backoff.sleep(self.infra_backoff.delay(attempts - 1, None))
        finally:
            if agent is not policy:
                await agent.aclose()
        return Rollout.from_record(row, record, attempts)

    def _note(self, record: EpisodeRecord, agent: Agent, *, after_wait: bool) -> None:
        """Count one attempt on the breaker; raise `ServerDownError` once it trips."""
        if self.breaker is None or self._stopped is not None:
            return
        if self.breaker.note(record, after_wait=after_wait) is None:
            return
        assert self.breaker.tripped is not None  # set with the reason
        service, attempts, seconds = self.breaker.tripped
        url: str | None = None
        if isinstance(self.driver, EpisodeDriver) and service in ("env", "grading"):
            url = self.driver.env_url if service == "env" else self.driver.grading_url
        elif service == "model":
            base = agent.settings().get("base_url")
            url = base if isinstance(base, str) else None
        self._stopped = ServerDownError(
            service,
            redact_urls(url) if url else None,
            attempts,
            seconds,
            record.error or record.termination,
        )
        raise self._stopped

    async def _check_agent(self, agent: Agent, policy: Policy | Agent) -> None:
        """With worker processes, refuse ``agent`` once, before any rollout, when it does not
        pickle (`WorkerEpisodes.check_agent`), closing it when it was made from ``policy``.

        Raises:
            ConfigurationError: it does not pickle.
        """
        if isinstance(self.driver, WorkerEpisodes):
            try:
                self.driver.check_agent(agent)
            except ConfigurationError:
                if agent is not policy:
                    await agent.aclose()
                raise

    @contextlib.asynccontextmanager
    async def _stops_plainly(self) -> AsyncIterator[None]:
        """Raise a tripped breaker's `ServerDownError` itself, not inside the task group's
        exception group (other errors pass unchanged)."""
        try:
            yield
        except BaseExceptionGroup as group:
            if self._stopped is not None and group.subgroup(ServerDownError) is not None:
                raise self._stopped from None
            raise

    async def rollout_group(
        self, row: TrainingRow, policy: Policy | Agent, n: int = 8
    ) -> RolloutGroup:
        """``n`` rollouts of one variant, run concurrently (up to ``concurrency``).

        Raises:
            ConfigurationError: ``n`` < 1; with workers, ``policy`` does not pickle (raised
                once, before any rollout).
            ServerDownError: the breaker tripped (the group's other rollouts are cancelled).
        """
        if n < 1:
            raise ConfigurationError(f"a group needs at least one rollout, got n={n}")
        agent = as_agent(policy)
        out: list[Rollout | None] = [None] * n
        driver = self.driver
        await self._check_agent(agent, policy)

        async def one(i: int) -> None:
            out[i] = await self.rollout(row, agent, epoch=i)

        async def part(epochs: list[int]) -> None:  # in one worker process, in one go
            assert isinstance(driver, WorkerEpisodes)
            async with self._limit:
                records = await driver.run_episodes(agent, row.task, row.band, row.seed, epochs)
            for i, record in zip(epochs, records, strict=True):
                out[i] = Rollout.from_record(row, record)

        try:
            async with self._stops_plainly(), anyio.create_task_group() as tg:
                if isinstance(driver, WorkerEpisodes):
                    k = min(driver.workers, n)
                    for j in range(k):
                        tg.start_soon(part, list(range(j, n, k)))
                else:
                    for i in range(n):
                        tg.start_soon(one, i)
        finally:
            if agent is not policy:
                await agent.aclose()
        return RolloutGroup(row, [r for r in out if r is not None])

    async def rollout_groups(
        self, rows: list[TrainingRow], policy: Policy | Agent, n: int = 8
    ) -> list[RolloutGroup]:
        """One group per row, all run concurrently (up to ``concurrency`` rollouts).

        Raises:
            ConfigurationError: as `rollout_group`, once.
            ServerDownError: the breaker tripped (the other rollouts are cancelled).
        """
        agent = as_agent(policy)
        out: list[RolloutGroup | None] = [None] * len(rows)
        await self._check_agent(agent, policy)

        async def one(i: int) -> None:
            out[i] = await self.rollout_group(rows[i], agent, n)

        try:
            async with self._stops_plainly(), anyio.create_task_group() as tg:
                for i in range(len(rows)):
                    tg.start_soon(one, i)
        finally:
            if agent is not policy:
                await agent.aclose()
        return [g for g in out if g is not None]
