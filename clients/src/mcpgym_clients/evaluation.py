"""One entry point for an evaluation: servers, checks, the campaign and its baseline.

`evaluate` is what ``mcpgym eval`` and ``mcpgym demo`` run, and what trainers and tests
can call: given an `EvalOptions`, it checks everything the user can get wrong (selection,
run store, model endpoint) before starting anything, starts the environment server and
grading service on loopback unless URLs are given, runs the campaign (and the null
baseline) and returns its result. `evaluate_until_stopped` adds the signal watcher of the
command line.
"""

from __future__ import annotations

import logging
import sqlite3
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import anyio
from rich.console import Console

from mcpgym_clients.campaign import CampaignResult, CampaignStatus, infra_backoff, run_campaign
from mcpgym_clients.child_servers import serve_in_processes, use_child_processes
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.errors import ConfigurationError, InfraError, message
from mcpgym_clients.local import serve_locally
from mcpgym_clients.plan import campaign_planner
from mcpgym_clients.preflight import preflight
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import ServerInfo, TaskInfo
from mcpgym_clients.runstore import DEFAULT_STORE, RunStore
from mcpgym_clients.selection import check_planned, select_variants
from mcpgym_clients.server_logs import server_logs
from mcpgym_clients.stopping import Stopper, stop_signals, watch_signals
from mcpgym_server import load_environment, verify_lock
from mcpgym_server.runtime import DEFAULT_REQUEST_BURST, DEFAULT_REQUESTS_PER_SECOND


@dataclass
class EvalOptions:
    """What to evaluate, where, and how.

    Attributes:
        env: Environment name.
        agent: The agent to run (closed when the evaluation ends).
        tasks: Task families (``None``: all).
        bands: Bands (``None``: all).
        seeds: Variant seeds.
        epochs: Attempts per variant.
        concurrency: Episodes in flight.
        env_url: Environment server URL; ``None`` starts both servers locally.
        grading_url: Grading service URL (with ``env_url``).
        grading_token: Grading bearer token (with ``env_url``).
        store: Run store (SQLite file).
        episodes: Episode store of local servers (directory).
        baseline: Whether to run the null agent beside.
        timeout: Hard cap per episode, seconds (``None``: none).
        argv: The command line stored with the run (secrets redacted).
        key_hint: Where the API key comes from, named in a 401/403 message.
        new_run: Start a new run instead of resuming an identical unfinished one.
        infra_retries: Fresh episodes to try after an ``infra_error``.
        infra_retry_wait: Base of the wait before each (seconds, doubling; 0: at once;
            `mcpgym_clients.campaign.infra_backoff`).
        control_token: Control token of the ``env_url`` server.
        seed_salt: Seed salt of local servers.
        max_requests_per_second, request_burst: The request rate per episode of local
            servers (`mcpgym_server.runtime.create_app`; a rate of ``None``: no limit).
        backend: ``local`` (servers in this process) or ``ray`` (servers as Ray actors,
            `mcpgym_clients.backends.ray`).
        ray_address: The Ray cluster to join (``None``: a local Ray).
        ray_actors: Environment actors on Ray.
        yes: Run a campaign above the confirmation threshold without asking
            (`mcpgym_clients.plan`).
        servers: Where local servers run: ``auto`` (child processes when the
            environment is installed by name and more than one core is available,
            `mcpgym_clients.child_servers`; else in this process), ``processes`` or
            ``in-process``.
    """

    env: str
    agent: Agent
    tasks: list[str] | None
    bands: list[str] | None
    seeds: list[int]
    epochs: int
    concurrency: int
    env_url: str | None
    grading_url: str | None
    grading_token: str | None
    store: Path
    episodes: Path
    baseline: bool
    timeout: float | None
    argv: list[str]
    key_hint: str = "--api-key"
    new_run: bool = False
    infra_retries: int = 2
    infra_retry_wait: float = 3.0
    control_token: str | None = None
    seed_salt: str | None = None
    max_requests_per_second: float | None = DEFAULT_REQUESTS_PER_SECOND
    request_burst: int = DEFAULT_REQUEST_BURST
    backend: str = "local"
    ray_address: str | None = None
    ray_actors: int = 2
    yes: bool = False
    servers: Literal["auto", "processes", "in-process"] = "auto"


OFFLINE_AGENTS = frozenset({"reference", "null", "random"})
"""The built-in agents that make no model request."""


def default_concurrency(agent: Agent) -> int:
    """Episodes in flight when ``--concurrency`` is not given: 4 for an agent that calls a
    model (what a vendor's rate limit or a local model server takes), 16 for the built-in
    agents that make no model request (`OFFLINE_AGENTS`): their episodes wait only on the
    servers, which then run in processes of their own and need episodes in flight to keep
    both cores busy (``docs/benchmarks.md``: 4 -> 16 about doubles a reference campaign's
    episodes/s)."""
    return 16 if agent.name in OFFLINE_AGENTS and agent.model is None else 4


def _served_info(env: Any) -> ServerInfo:
    """What the environment server will say about ``env`` (for checks before it starts)."""
    return ServerInfo(
        env=env.name,
        version=env.version,
        lock="",
        tasks=tuple(TaskInfo(f.name, f.description, tuple(f.bands)) for f in env.families.values()),
    )


def open_store(path: Path) -> RunStore:
    """Open (create) the run store at ``path``.

    Raises:
        ConfigurationError: ``path`` is a directory, lies under a file, or cannot be
            opened, e.g. it is not SQLite (the message names ``--store``).
    """
    if path.is_dir():
        raise ConfigurationError(
            f"--store {path} is a directory; give the database file, "
            f"e.g. --store {path / DEFAULT_STORE.name}"
        )
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise ConfigurationError(
            f"--store {path}: its folder {blocking} is a file; give a path under a folder"
        )
    try:
        return RunStore(path)
    except (OSError, sqlite3.Error) as exc:
        hint = (
            "; give a new path, or the store of an earlier `mcpgym eval`"
            if isinstance(exc, sqlite3.DatabaseError)
            else ""
        )
        raise ConfigurationError(
            f"--store {path}: cannot open the run store: {message(exc)}{hint}"
        ) from None


async def evaluate(
    opts: EvalOptions, console: Console, status: CampaignStatus, stopper: Stopper | None = None
) -> tuple[CampaignResult, str | None] | None:
    """Start local servers if needed, run the campaign; return it and the bundle directory.

    Everything the user can get wrong (selection, run store, model endpoint) is checked
    before the servers start.

    Args:
        opts: What to evaluate.
        console: Where progress goes (the command line gives stderr).
        status: Filled in as the campaign runs (run ids, episodes stored).
        stopper: Cancels the campaign on request (default: a fresh one, never stopped).

    Returns:
        The campaign result and the local episode store (``None`` with ``env_url``), or
        ``None`` when ``stopper`` stopped it.

    Raises:
        ConfigurationError: A bad selection, run store, model endpoint or server.
        LockError: A local environment's code no longer matches its lock.
    """
    stopper = stopper or Stopper()
    async with AsyncExitStack() as stack:
        stack.push_async_callback(opts.agent.aclose)
        local_env = None
        bundles: str | None = None
        env_url, grading_url, token = opts.env_url, opts.grading_url, opts.grading_token
        control = opts.control_token
        if env_url is None:
            local_env = load_environment(opts.env)
            verify_lock(local_env)  # eval/demo serve only locked environments
            planned = select_variants(_served_info(local_env), opts.tasks, opts.bands, opts.seeds)
            if opts.epochs >= 1:  # fewer: `run_campaign` says so
                baseline = opts.baseline and opts.agent.name != "null"
                check_planned(len(planned), opts.epochs, baseline=baseline)
        store = open_store(opts.store)
        stack.callback(store.close)
        with stopper.cancellable():
            await preflight(opts.agent, opts.key_hint)
        if stopper.requested:
            return None
        driver: Any = None
        backoff = infra_backoff(opts.infra_retry_wait)
        if opts.backend == "ray" and local_env is not None:  # servers as Ray actors
            from mcpgym_clients.backends.ray import ray_backend

            opts.episodes.parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(server_logs(opts.episodes.parent / "servers.log"))
            driver = await stack.enter_async_context(
                ray_backend(
                    local_env,
                    opts.episodes.resolve(),
                    actors=opts.ray_actors,
                    address=opts.ray_address,
                    seed_salt=opts.seed_salt,
                    max_requests_per_second=opts.max_requests_per_second,
                    request_burst=opts.request_burst,
                    episode_timeout=opts.timeout,
                )
            )
            bundles = str(opts.episodes)
            console.print(
                f"serving {opts.env} on Ray: {opts.ray_actors} environment actors",
                soft_wrap=True,
                highlight=False,
                markup=False,
            )
        if local_env is not None and driver is None:
            try:
                opts.episodes.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigurationError(
                    f"--episodes {opts.episodes}: cannot create the episode store: {message(exc)}"
                ) from None
            log = opts.episodes.parent / "servers.log"
            served: dict[str, Any] = {  # what eval decides of the environment server
                "seed_salt": opts.seed_salt,
                "max_requests_per_second": opts.max_requests_per_second,
                "request_burst": opts.request_burst,
            }
            if opts.servers == "processes" or (
                opts.servers == "auto" and use_child_processes(local_env)
            ):  # the servers on cores of their own
                children = await stack.enter_async_context(
                    serve_in_processes(local_env.name, opts.episodes, log_path=log, **served)
                )
                backoff = children.retry_policy(backoff)  # a retry waits for a restart
                servers = children
            else:
                stack.enter_context(server_logs(log))
                servers = await stack.enter_async_context(
                    serve_locally(local_env, opts.episodes, **served)
                )
            env_url, grading_url, token, control = (
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                servers.control_token,
            )
            bundles = str(servers.store_dir)
            console.print(
                f"serving {opts.env} at {env_url}, grading at {grading_url}",
                soft_wrap=True,
                highlight=False,
                markup=False,
            )
        if driver is None:
            assert env_url is not None and grading_url is not None and token is not None
            driver = await stack.enter_async_context(
                EpisodeDriver(
                    env_url,
                    grading_url,
                    token,
                    control_token=control,
                    episode_timeout=opts.timeout,
                    environment=local_env,
                )
            )
        result: CampaignResult | None = None
        with stopper.cancellable():
            try:
                info = await driver.server_info()
            except InfraError as exc:
                if opts.env_url is None:
                    raise
                raise InfraError(
                    exc.service,
                    str(exc).removeprefix(f"{exc.service} server: ")
                    + f"; is `mcpgym serve` running at {opts.env_url}?",
                ) from exc
            if info.env != opts.env:
                raise ConfigurationError(
                    f"the server at {env_url} serves `{info.env}`, not `{opts.env}`"
                )
            await driver.check_control()
            try:
                await driver.check_grading()
            except InfraError as exc:
                if opts.grading_url is None:
                    raise
                raise InfraError(
                    exc.service,
                    str(exc).removeprefix(f"{exc.service} server: ")
                    + f"; is `mcpgym grading serve` running at {opts.grading_url}, and is "
                    "--grading-url right?",
                ) from exc
            variants = select_variants(info, opts.tasks, opts.bands, opts.seeds)
            result = await run_campaign(
                driver,
                opts.agent,
                variants,
                store,
                epochs=opts.epochs,
                concurrency=opts.concurrency,
                baseline=opts.baseline,
                argv=opts.argv,
                console=console,
                status=status,
                resume=not opts.new_run,
                infra_retries=opts.infra_retries,
                infra_backoff=backoff,
                environment=local_env,
                planner=campaign_planner(console, yes=opts.yes, bundles=bundles, store=opts.store),
                stopper=stopper,
            )
        return None if result is None else (result, bundles)


async def evaluate_until_stopped(
    opts: EvalOptions, console: Console, status: CampaignStatus, stopper: Stopper
) -> tuple[CampaignResult, str | None] | None:
    """Run `evaluate` until it ends or a stop signal (`stop_signals`: SIGINT, SIGTERM,
    SIGHUP and every other signal whose default action would end the process) stops it.

    Returns:
        What `evaluate` returns; ``None`` when a signal stopped it (``stopper.signum``
        says which). A campaign that finished before the signal took effect is returned.
    """
    result: tuple[CampaignResult, str | None] | None = None
    async with anyio.create_task_group() as tg:
        if stop_signals():
            await tg.start(watch_signals, stopper)
        try:
            result = await evaluate(opts, console, status, stopper)
        except Exception:
            if not stopper.requested:
                raise
            # raised while stopping after a signal: the interruption is what to report
            logging.getLogger("mcpgym").debug("error while stopping", exc_info=True)
        finally:
            tg.cancel_scope.cancel()
    return result
