"""The ship gate: `validate_environment` runs an environment through a real server over MCP
and checks the conditions of an instrument.

Everything goes through the environment server and the grading service on loopback
(`serve_locally`) with the `EpisodeDriver`, as an agent and a harness would. Conditions:

0. the lock file matches the code (``mcpgym.lock``, see `mcpgym_server.lockfile`);
1. every recorded run (``reference_runs/``) replays to its final-state digest, with the
   same call outcomes, and scores 1.0; every family and band has one;
2. the reference solution scores 1.0 on every family and band for seeds ``0..N-1``;
3. the `null` agent fails every variant, and the seeded `random` agent passes fewer
   than 5% of them;
4. every check of every rubric fails on at least one control run (null, random, and the
   mutants of `mcpgym_clients.instrument.controls` on the first ``mutant_seeds`` seeds);
   a check nothing fails is vacuous and named;
5. replaying the same run twice (each recorded run, and the random agent on seed 0 of
   every family and band) gives identical final databases, tool-call logs (timings and
   episode ids aside) and grades;
6. every family's rubric carries a sign-off valid for the rubric as it stands.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients.agents import NullAgent, RandomAgent, ReferenceAgent
from mcpgym_clients.driver import EpisodeDriver
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
from mcpgym_clients.instrument.runs import RecordedRun, load_runs
from mcpgym_clients.local import serve_locally
from mcpgym_server import Environment, EpisodeStore, LockError


@dataclass
class ValidationReport:
    """The outcome of `validate_environment` (JSON-ready through `to_json`).

    Attributes:
        env, version: the environment. lock: its current lock digest. seeds: N.
        conditions: the seven conditions, in order. episodes: episodes run.
        wall_s: wall time in seconds.
    """

    env: str
    version: str
    lock: str
    seeds: int
    conditions: list[Condition]
    episodes: int = 0
    wall_s: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every condition holds."""
        return all(c.passed for c in self.conditions)

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


def _jobs(env: Environment, seeds: int, runs: list[RecordedRun]) -> list[Job]:
    jobs: list[Job] = []
    null, rnd, ref = NullAgent(), RandomAgent(seed=0), ReferenceAgent()
    for fam in env.families.values():
        for band in fam.bands:
            for seed in range(seeds):
                jobs.append(Job("reference", ref, fam.name, band, seed))
                jobs.append(Job("null", null, fam.name, band, seed))
                jobs.append(Job("random", rnd, fam.name, band, seed))
            jobs.append(Job("random-again", rnd, fam.name, band, 0))
    for run in runs:
        calls = [(c.tool, c.arguments if isinstance(c.arguments, dict) else {}) for c in run.calls]
        for kind in ("replay-a", "replay-b"):
            agent = ScriptAgent(calls, "replay")
            jobs.append(Job(kind, agent, run.task, run.band, run.seed, run=run))
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
    mutant_seeds: int = 2,
    concurrency: int = 8,
    progress: Callable[[int, int], None] | None = None,
) -> ValidationReport:
    """Run the ship gate on ``env`` (see the module docstring for the conditions).

    Args:
        env: the environment. store_dir: episode store for the servers (created).
        seeds: seeds per family and band for conditions 2 and 3 (N, default 20).
        mutant_seeds: seeds per family and band whose reference gets mutants (condition 4).
        concurrency: episodes in flight. progress: called with ``(done, total)``.

    Returns:
        The `ValidationReport` (the caller decides what to do when it fails).

    Raises:
        InfraError: a server could not start.
    """
    t0 = time.perf_counter()
    conds = [
        Condition(0, "the lock file matches the code"),
        Condition(1, "every recorded run replays to its final state and scores 1.0"),
        Condition(2, f"the reference solution scores 1.0 on every family and band ({seeds} seeds)"),
        Condition(3, "null fails every variant; random passes fewer than 5%"),
        Condition(4, "every check fails on at least one control run (no vacuous check)"),
        Condition(5, "replaying a run twice gives identical databases, logs and grades"),
        Condition(6, "every rubric carries a sign-off valid for it as it stands"),
    ]
    report = ValidationReport(env.name, env.version, "", seeds, conds)
    lock = check_lock(env, conds[0], conds[6])
    report.lock = lock
    try:
        runs = [run for _, run in load_runs(env)]
    except LockError as exc:
        conds[1].fail(str(exc))
        runs = []
    jobs = _jobs(env, seeds, runs)
    mutant_count = 0
    async with serve_locally(env, store_dir) as servers:
        async with EpisodeDriver(
            servers.env_url, servers.grading_url, servers.grading_token, environment=env
        ) as driver:
            limiter = anyio.CapacityLimiter(concurrency)
            done = 0

            async def one(job: Job) -> None:
                nonlocal done
                async with limiter:
                    job.record = await driver.run_episode(job.agent, job.task, job.band, job.seed)
                done += 1
                if progress is not None:
                    progress(done, len(jobs))

            async def run_all(batch: list[Job]) -> None:
                async with anyio.create_task_group() as tg:
                    for job in batch:
                        tg.start_soon(one, job)

            await run_all(jobs)

            async def mutate(family: str) -> None:
                """Run the family's mutants in small batches until every check has failed."""
                nonlocal mutant_count
                names = {c.name for c in getattr(env.families[family].rubric, "checks", ())}
                pending = _mutant_jobs(env, family, mutant_seeds)
                while pending:
                    failed = {c for f, c in failed_checks(jobs) if f == family}
                    if names <= failed:
                        break
                    batch, pending = pending[:concurrency], pending[concurrency:]
                    jobs.extend(batch)
                    mutant_count += len(batch)
                    await run_all(batch)

            async with anyio.create_task_group() as tg:
                for family in env.families:
                    tg.start_soon(mutate, family)
    store = EpisodeStore(store_dir, create=False)
    report.episodes = len(jobs)
    check_recorded(env, jobs, store, conds[1], lock)
    check_reference(jobs, conds[2])
    check_baselines(jobs, conds[3])
    check_vacuous(env, jobs, conds[4])
    conds[4].figures["mutant_runs"] = mutant_count
    check_determinism(jobs, store, conds[5])
    report.wall_s = time.perf_counter() - t0
    return report
