"""The ship gate: `validate_environment` runs an environment through a real server over MCP
and checks the conditions of an instrument.

Everything goes through the environment server and the grading service on loopback
(`serve_locally`) with the `EpisodeDriver`, as an agent and a harness would. The gate
checks the issue's six conditions (1 to 6) plus condition 0 (the lock matches the code):

0. the lock file matches the code (``mcpgym.lock``, see `mcpgym_server._lockfile`);
1. every recorded run (``reference_runs/``) was recorded on the current lock, for the
   variant the generator still makes, and replays call by call to the recorded results
   (or errors), the same number of calls, its final-state digest and a score of 1.0;
   every family and band has one;
2. the reference solution scores 1.0 on every family and band for seeds ``0..N-1``;
3. the `null` agent fails every variant, and the seeded `random` agent passes fewer
   than 5% of them;
4. every check of every rubric fails on at least one control run (null, random, and the
   mutants of `mcpgym_clients.instrument.controls` on the first ``mutant_seeds`` seeds);
   a check nothing fails is vacuous and named;
5. replaying the same run twice (each recorded run, and the random agent on seed 0 of
   every family and band) gives identical final databases, tool-call logs (timings and
   episode ids aside) and grades;
6. every family's rubric carries a sign-off valid for the rubric as it stands;
7. no shortcut to a pass: on the first ``mutant_seeds`` seeds, the adversarial mutants of
   `mcpgym_clients.instrument.adversarial` (every answer field stuffed with every candidate
   value or amount of the variant; leaked values; the same in look-alike forms and spread
   over several calls; a write the task does not call for, undone by a second call; two
   values of one kind an answer states exchanged) find no shotgun answer that passes, no
   check that a look-alike form evades, no undone write and no swap that passes.

The two servers run in child processes of their own when the environment is the one
installed under its name and the machine has more than one core (as ``mcpgym eval`` runs
them: `mcpgym_clients.child_servers`), so that the harness, the environment server and
the grading service do not share one interpreter lock; an environment built in this
process (a test fixture) is served in process (`serve_locally`). Both serve the same
episodes and give the same grades: only where the work runs differs.

An episode that hits an infrastructure error (a server or transport failure) is retried
on a fresh episode up to `INFRA_RETRIES` times (after a child server that died is up
again); one that still fails is reported apart
from the conditions (`ValidationReport.infrastructure`). Any other per-episode failure
(a run file for an unknown task, a refused request) is a failure of its condition.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio
import anyio.to_thread

from mcpgym_clients.agents import NullAgent, RandomAgent, ReferenceAgent
from mcpgym_clients.child_servers import (
    START_TIMEOUT,
    ChildServers,
    serve_in_processes,
    use_child_processes,
)
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.instrument.adversarial import adversaries, shortcut_failures
from mcpgym_clients.instrument.conditions import (
    Condition,
    Job,
    check_baselines,
    check_determinism,
    check_lock,
    check_recorded,
    check_reference,
    check_vacuous,
    failed_checks,
)
from mcpgym_clients.instrument.controls import ScriptAgent, mutants
from mcpgym_clients.instrument.runs import RecordedRun, load_runs, runs_dir
from mcpgym_clients.local import LocalServers, serve_locally
from mcpgym_server import Environment, EpisodeStore, LockError


def _bundle_needed(job: Job) -> bool:
    """Whether the gate reads this job's bundle after grading (replays and paired runs)."""
    return job.kind in ("replay-a", "replay-b", "random-again") or (
        job.kind == "random" and job.seed == 0
    )


def _remove_bundle(store_dir: Path, episode_id: str) -> None:
    shutil.rmtree(EpisodeStore(store_dir, create=False).path(episode_id), ignore_errors=True)


INFRA_RETRIES = 2
"""Fresh episodes tried after one that hit an infrastructure error (server or transport)."""


async def _run_job(
    driver: EpisodeDriver,
    job: Job,
    limiter: anyio.CapacityLimiter,
    store_dir: Path,
    servers_up: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Run ``job``'s episode: an infrastructure error is retried on a fresh episode (up to
    `INFRA_RETRIES` times, each after ``servers_up``: a child server's restart under way)
    and, when it persists, kept in ``job.infra``; any other failure (unknown task or band,
    a refused request, an agent that raises) is kept in ``job.error``. Never raises (except
    cancellation)."""
    for attempt in range(1 + INFRA_RETRIES):
        job.attempts = attempt + 1
        if attempt and servers_up is not None:
            await servers_up()
        try:
            async with limiter:
                rec = await driver.run_episode(job.agent, job.task, job.band, job.seed)
        except Exception as exc:  # noqa: BLE001 - one episode's failure is a condition failure
            job.error = _describe(exc)
            return
        job.record = rec
        if rec.termination != "infra_error" or rec.grade is not None:
            job.infra = None
            return
        job.infra = rec.error or "infrastructure error"
        if rec.episode_id is not None:
            await anyio.to_thread.run_sync(_remove_bundle, store_dir, rec.episode_id)


def _describe(exc: BaseException) -> str:
    payload = getattr(exc, "payload", None)
    if isinstance(payload, dict) and payload.get("error"):
        return str(payload["error"])
    return f"{type(exc).__name__}: {exc}"


@dataclass
class ValidationReport:
    """The outcome of `validate_environment` (JSON-ready through `to_json`).

    Attributes:
        env, version: the environment. lock: its current lock digest. seeds: N.
        conditions: conditions 0 to 7, in order (the issue's six conditions, condition 0:
            the lock matches the code, and condition 7: no shortcut to a pass).
            episodes: episodes run.
        wall_s: wall time in seconds. infrastructure: one line per episode that still hit
            an infrastructure error after `INFRA_RETRIES` retries (those episodes are left
            out of the conditions; the gate does not pass while there are any).
        server_log: where the servers' log went, when the caller kept one.
    """

    env: str
    version: str
    lock: str
    seeds: int
    conditions: list[Condition]
    episodes: int = 0
    wall_s: float = 0.0
    infrastructure: list[str] = field(default_factory=list)
    server_log: str | None = None

    @property
    def passed(self) -> bool:
        """Whether every condition holds and no episode hit a persistent infrastructure error."""
        return all(c.passed for c in self.conditions) and not self.infrastructure

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON (``passed`` included)."""
        return {**asdict(self), "passed": self.passed}

    def summary(self) -> dict[str, Any]:
        """Headline figures for the lock file's validation stamp."""
        out: dict[str, Any] = {"episodes": self.episodes, "wall_s": round(self.wall_s, 1)}
        for c in self.conditions:
            for key, value in c.figures.items():
                if isinstance(value, int | float | str | bool):
                    out[key] = value
        return out


MUTANT_BATCH = 8
"""Mutant controls a family runs between two looks at which of its checks have failed (the
phase stops per family once all have): the batch, not the episodes in flight, decides how
many mutants run, so ``concurrency`` changes the gate's speed and never its episode set."""

ServerMode = Literal["auto", "in-process", "processes"]
"""Where `validate_environment` runs the servers: ``"processes"`` (child processes,
`serve_in_processes`), ``"in-process"`` (`serve_locally`) or ``"auto"`` (processes when
`use_child_processes` allows)."""


@contextlib.asynccontextmanager
async def _servers(
    env: Environment, store_dir: Path, mode: ServerMode, log: Path | None
) -> AsyncIterator[LocalServers]:
    """The environment server and the grading service for the gate, per ``mode``."""
    if mode == "processes" or (mode == "auto" and use_child_processes(env)):
        log_path = log if log is not None else store_dir.parent / "servers.log"
        async with serve_in_processes(env.name, store_dir, log_path=log_path) as children:
            yield children
    else:
        async with serve_locally(env, store_dir) as servers:
            yield servers


def _restarts_awaited(children: ChildServers) -> Callable[[], Awaitable[None]]:
    """What a retry awaits first: a child server's restart under way (at most
    `START_TIMEOUT` seconds; a child that will not be restarted fails the retry as before)."""

    async def servers_up() -> None:
        with anyio.move_on_after(START_TIMEOUT):
            await children.wait_up()

    return servers_up


DEFAULT_MUTANT_SEEDS = 2
"""`validate_environment`'s default ``mutant_seeds`` (what a stamp without the figure used)."""


def weaker_than_stamp(stamp: Any, *, seeds: int, mutant_seeds: int) -> str | None:
    """Why a validation with ``seeds`` / ``mutant_seeds`` is weaker than ``stamp`` (a
    `mcpgym_server._lockfile.ValidationStamp` of the same lock digest), or ``None`` when it
    is at least as strong (as many seeds and mutant seeds), so it may replace the stamp."""
    old_mutants = int(stamp.summary.get("mutant_seeds", DEFAULT_MUTANT_SEEDS))
    reasons = []
    if seeds < stamp.seeds:
        reasons.append(f"{seeds} seeds < {stamp.seeds}")
    if mutant_seeds < old_mutants:
        reasons.append(f"{mutant_seeds} mutant seeds < {old_mutants}")
    if not reasons:
        return None
    episodes = stamp.summary.get("episodes")
    what = f"{stamp.seeds} seeds" + (f", {episodes:,} episodes" if episodes else "")
    return f"the lock's stamp ({what}, {stamp.at}) is stronger: {'; '.join(reasons)}"


def _jobs(env: Environment, seeds: int, runs: list[tuple[str, RecordedRun]]) -> list[Job]:
    jobs: list[Job] = []
    null, rnd, ref = NullAgent(), RandomAgent(seed=0), ReferenceAgent()
    for fam in env.families.values():
        for band in fam.bands:
            for seed in range(seeds):
                jobs.append(Job("reference", ref, fam.name, band, seed))
                jobs.append(Job("null", null, fam.name, band, seed))
                jobs.append(Job("random", rnd, fam.name, band, seed))
            jobs.append(Job("random-again", rnd, fam.name, band, 0))
    for path, run in runs:
        calls = [(c.tool, c.arguments if isinstance(c.arguments, dict) else {}) for c in run.calls]
        for kind in ("replay-a", "replay-b"):
            agent = ScriptAgent(calls, "replay")
            job = Job(kind, agent, run.task, run.band, run.seed, run=run, where=str(path))
            jobs.append(job)
    return jobs


def _adversarial_jobs(env: Environment, seeds: int) -> list[Job]:
    jobs: list[Job] = []
    for fam in env.families.values():
        for band in fam.bands:
            for seed in range(seeds):
                for adv in adversaries(env, env.variant(fam.name, band, seed)):
                    agent = ScriptAgent(adv.calls, adv.label)
                    job = Job("adversarial", agent, fam.name, band, seed, adv.label)
                    job.adversary = adv
                    jobs.append(job)
    return jobs


def _mutant_jobs(env: Environment, family: str, seeds: int) -> list[Job]:
    fam = env.families[family]
    jobs: list[Job] = []
    for seed in range(seeds):
        for band in fam.bands:
            for label, calls in mutants(env, env.variant(family, band, seed)):
                jobs.append(Job("mutant", ScriptAgent(calls, label), family, band, seed, label))
    # Round robin over the kinds of mutant (operator and tool: ``insert-issue_refund``,
    # ``retarget``, ``drop``...), so the first batches are diverse: a family stops as soon as
    # every check has failed, usually after one or two rounds.
    seen: dict[str, int] = {}
    order: list[tuple[int, str, int]] = []
    for i, job in enumerate(jobs):
        kind = re.sub(r"-(\d+|from-\w+)(?=-|$)", "", job.label)
        order.append((seen.get(kind, 0), kind, i))
        seen[kind] = seen.get(kind, 0) + 1
    return [jobs[i] for _, _, i in sorted(order)]


async def validate_environment(
    env: Environment,
    *,
    store_dir: Path,
    seeds: int = 20,
    mutant_seeds: int = DEFAULT_MUTANT_SEEDS,
    concurrency: int = 8,
    progress: Callable[[int, int | None], None] | None = None,
    servers: ServerMode = "auto",
    server_log: Path | None = None,
) -> ValidationReport:
    """Run the ship gate on ``env`` (see the module docstring for the conditions).

    Args:
        env: the environment. store_dir: episode store for the servers (created).
        seeds: seeds per family and band for conditions 2 and 3 (N, default 20).
        mutant_seeds: seeds per family and band whose reference gets mutants (condition 4).
        concurrency: episodes in flight (the mutant controls still run in batches of
            `MUTANT_BATCH`, so it changes no result). progress: called with ``(done,
            total)`` after each episode; ``total`` is ``None`` once the mutant controls run
            (they stop per family when every check has failed).
        servers: where the servers run (`ServerMode`; ``"processes"`` needs ``env``
            installed under its name). server_log: the file child servers append their
            log to (default: ``servers.log`` beside ``store_dir``); in process, the
            caller routes the log (`mcpgym_clients.server_logs`).

    Returns:
        The `ValidationReport` (the caller decides what to do when it fails).

    Raises:
        InfraError: a server could not start.
    """
    t0 = time.perf_counter()
    conds = [
        Condition(0, "the lock file matches the code"),
        Condition(
            1,
            "every recorded run (current lock, same variant) replays call by call to its "
            "results and final state and scores 1.0",
        ),
        Condition(2, f"the reference solution scores 1.0 on every family and band ({seeds} seeds)"),
        Condition(3, "null fails every variant; random passes fewer than 5%"),
        Condition(4, "every check fails on at least one control run (no vacuous check)"),
        Condition(5, "replaying a run twice gives identical databases, logs and grades"),
        Condition(6, "every rubric carries a sign-off valid for it as it stands"),
        Condition(
            7,
            "no shortcut to a pass: no shotgun answer passes, no look-alike form evades a "
            "check, no write undone later passes, no swap of two stated values passes "
            "(adversarial mutants of the reference)",
        ),
    ]
    report = ValidationReport(env.name, env.version, "", seeds, conds)
    lock = check_lock(env, conds[0], conds[6])
    report.lock = lock
    try:
        root = runs_dir(env).parent
        runs = [(str(p.relative_to(root)), run) for p, run in load_runs(env)]
    except LockError as exc:
        conds[1].fail(str(exc))
        runs = []
    jobs = _jobs(env, seeds, runs)
    adversarial = await anyio.to_thread.run_sync(_adversarial_jobs, env, mutant_seeds)
    jobs += adversarial
    mutant_count = 0
    async with _servers(env, store_dir, servers, server_log) as served:
        servers_up = _restarts_awaited(served) if isinstance(served, ChildServers) else None
        async with EpisodeDriver(
            served.env_url,
            served.grading_url,
            served.grading_token,
            control_token=served.control_token,
            environment=env,
        ) as driver:
            limiter = anyio.CapacityLimiter(concurrency)
            done = 0
            planned: int | None = len(jobs)  # None once the open-ended mutant phase starts

            async def one(job: Job) -> None:
                nonlocal done
                await _run_job(driver, job, limiter, store_dir, servers_up)
                eid = job.record.episode_id if job.record is not None else None
                if eid is not None and not _bundle_needed(job):
                    # graded: the bundle (about 300 KB) is not read again
                    await anyio.to_thread.run_sync(_remove_bundle, store_dir, eid)
                done += 1
                if progress is not None:
                    progress(done, planned)

            async def run_all(batch: list[Job]) -> None:
                async with anyio.create_task_group() as tg:
                    for job in batch:
                        tg.start_soon(one, job)

            await run_all(jobs)
            planned = None

            async def mutate(family: str) -> None:
                """Run the family's mutants in small batches until every check has failed."""
                nonlocal mutant_count
                names = {c.name for c in getattr(env.families[family].rubric, "checks", ())}
                pending = _mutant_jobs(env, family, mutant_seeds)
                while pending:
                    failed = {c for f, c in failed_checks(jobs) if f == family}
                    if names <= failed:
                        break
                    batch, pending = pending[:MUTANT_BATCH], pending[MUTANT_BATCH:]
                    jobs.extend(batch)
                    mutant_count += len(batch)
                    await run_all(batch)

            async with anyio.create_task_group() as tg:
                for family in env.families:
                    tg.start_soon(mutate, family)
    store = EpisodeStore(store_dir, create=False)
    report.episodes = sum(j.attempts for j in jobs)
    for job in jobs:
        if job.infra is not None:
            report.infrastructure.append(
                f"{job.kind} {job.label or job.agent.name} on {job.task}@{job.band}#{job.seed}: "
                f"{job.infra} ({job.attempts} attempts)"
            )
    ran = [j for j in jobs if j.infra is None]
    check_recorded(env, jobs, store, conds[1], lock)  # skips the infrastructure failures
    check_reference(ran, conds[2])
    check_baselines(ran, conds[3])
    check_vacuous(env, ran, conds[4])
    conds[4].figures["mutant_runs"] = mutant_count
    conds[4].figures["mutant_seeds"] = mutant_seeds
    check_determinism(ran, store, conds[5])
    found, compared = shortcut_failures(env, ran)
    for line in found:
        conds[7].fail(line)
    conds[7].figures["adversarial_runs"] = len(adversarial)
    conds[7].figures["adversarial_compared"] = compared
    report.wall_s = time.perf_counter() - t0
    return report
