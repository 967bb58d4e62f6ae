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

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio

from mcpgym_clients.agents import NullAgent, RandomAgent, ReferenceAgent
from mcpgym_clients.driver import EpisodeDriver, EpisodeRecord
from mcpgym_clients.instrument.controls import ScriptAgent, mutants
from mcpgym_clients.instrument.runs import RecordedRun, load_runs
from mcpgym_clients.local import serve_locally
from mcpgym_clients.protocol import Agent
from mcpgym_server import Environment, EpisodeStore, LockError
from mcpgym_server.lockfile import read_lock, verify_lock

RANDOM_PASS_LIMIT = 0.05
"""The random agent must pass fewer than this share of the variants."""


@dataclass
class Condition:
    """One condition of the gate.

    Attributes:
        id: 0 to 6. title: what it requires. passed: whether it holds.
        figures: headline numbers. failures: one line per violation. notes: remarks.
    """

    id: int
    title: str
    passed: bool = True
    figures: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def fail(self, line: str) -> None:
        """Record a violation (the condition no longer holds)."""
        self.passed = False
        self.failures.append(line)


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


@dataclass
class _Job:
    kind: str  # reference | null | random | random-again | replay-a | replay-b | mutant
    agent: Agent
    task: str
    band: str
    seed: int
    label: str = ""
    run: RecordedRun | None = None
    record: EpisodeRecord | None = None


def _checks(record: EpisodeRecord) -> list[dict[str, Any]]:
    return list((record.grade or {}).get("checks", []))


def _normal_log(bundle: Any) -> list[dict[str, Any]]:
    eid = bundle.meta.episode_id
    out = []
    for e in bundle.log:
        text = json.dumps(e.model_dump(mode="json", exclude={"duration_ms"}), sort_keys=True)
        out.append(json.loads(text.replace(eid, "<episode>")))
    return out


def _normal_grade(grade: dict[str, Any] | None) -> Any:
    if grade is None:
        return None
    eid = grade.get("episode_id", "")
    return json.loads(json.dumps(grade, sort_keys=True).replace(eid, "<episode>"))


def _jobs(env: Environment, seeds: int, runs: list[RecordedRun]) -> list[_Job]:
    jobs: list[_Job] = []
    null, rnd, ref = NullAgent(), RandomAgent(seed=0), ReferenceAgent()
    for fam in env.families.values():
        for band in fam.bands:
            for seed in range(seeds):
                jobs.append(_Job("reference", ref, fam.name, band, seed))
                jobs.append(_Job("null", null, fam.name, band, seed))
                jobs.append(_Job("random", rnd, fam.name, band, seed))
            jobs.append(_Job("random-again", rnd, fam.name, band, 0))
    for run in runs:
        calls = [(c.tool, c.arguments if isinstance(c.arguments, dict) else {}) for c in run.calls]
        for kind in ("replay-a", "replay-b"):
            agent = ScriptAgent(calls, "replay")
            jobs.append(_Job(kind, agent, run.task, run.band, run.seed, run=run))
    return jobs


def _mutant_jobs(env: Environment, family: str, seeds: int) -> list[_Job]:
    fam = env.families[family]
    jobs: list[_Job] = []
    for seed in range(seeds):
        for band in fam.bands:
            for label, calls in mutants(env, env.variant(family, band, seed)):
                jobs.append(_Job("mutant", ScriptAgent(calls, label), family, band, seed, label))
    jobs.sort(key=lambda j: (_OPERATOR_ORDER.index(_operator(j.label)), j.seed))
    return jobs


_OPERATOR_ORDER = (
    "insert",
    "transplant",
    "enum",
    "retarget",
    "leak",
    "drop",
    "repeat",
    "blank",
    "no",
    "wrong",
)
"""Mutation operators from the likeliest to fail a check to the least (run in this order)."""


def _operator(label: str) -> str:
    head = label.split("-", 1)[0]
    return head if head in _OPERATOR_ORDER else "wrong"


def _failed_checks(jobs: list[_Job]) -> set[tuple[str, str]]:
    """``(family, check)`` pairs some control run (null, random, mutant) failed."""
    out: set[tuple[str, str]] = set()
    for job in jobs:
        if job.kind in ("null", "random", "mutant") and _graded(job.record):
            assert job.record is not None
            for c in _checks(job.record):
                if c.get("applicable") and c.get("passed") is False:
                    out.add((job.task, c["name"]))
    return out


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
    lock = _check_lock(env, conds[0], conds[6])
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

            async def one(job: _Job) -> None:
                nonlocal done
                async with limiter:
                    job.record = await driver.run_episode(job.agent, job.task, job.band, job.seed)
                done += 1
                if progress is not None:
                    progress(done, len(jobs))

            async def run_all(batch: list[_Job]) -> None:
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
                    failed = {c for f, c in _failed_checks(jobs) if f == family}
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
    _recorded(env, jobs, store, conds[1], lock)
    _reference(jobs, conds[2])
    _baselines(jobs, conds[3])
    _vacuous(env, jobs, conds[4])
    conds[4].figures["mutant_runs"] = mutant_count
    _determinism(jobs, store, conds[5])
    report.wall_s = time.perf_counter() - t0
    return report


def _check_lock(env: Environment, lock_cond: Condition, sign_cond: Condition) -> str:
    from mcpgym_server.lockfile import current_lock

    now = current_lock(env)
    try:
        verify_lock(env)
    except LockError as exc:
        lock_cond.fail(str(exc))
    try:
        locked = read_lock(env)
    except LockError as exc:
        sign_cond.fail(f"no sign-offs can be read: {exc}")
        return now.digest
    for name, fam in sorted(env.families.items()):
        signoff = locked.signoffs.get(name)
        if signoff is None:
            sign_cond.fail(
                f"family `{name}`: rubric not signed off (mcpgym sign {env.name} {name})"
            )
        elif signoff.rubric_digest != fam.rubric.digest():
            sign_cond.fail(
                f"family `{name}`: the sign-off by {signoff.by} ({signoff.at}) is void: the rubric "
                "changed since (checks, weights, required flags or threshold); sign it again"
            )
    sign_cond.figures["signed_families"] = len(env.families) - len(sign_cond.failures)
    return now.digest


def _recorded(
    env: Environment, jobs: list[_Job], store: EpisodeStore, cond: Condition, lock: str
) -> None:
    replays = [j for j in jobs if j.kind == "replay-a" and j.run is not None]
    cond.figures["recorded_runs"] = len(replays)
    covered = {(j.task, j.band) for j in replays}
    for fam in env.families.values():
        for band in fam.bands:
            if (fam.name, band) not in covered:
                cond.fail(
                    f"no recorded run of `{fam.name}` band `{band}`; record one with "
                    f"`mcpgym record {env.name} --task {fam.name} --band {band} --seed N`"
                )
    for job in (j for j in jobs if j.kind in ("replay-a", "replay-b")):
        run, rec = job.run, job.record
        assert run is not None and rec is not None
        where = f"{run.variant_id} ({job.kind})"
        if job.kind == "replay-a" and run.lock != lock:
            cond.notes.append(f"{run.variant_id} was recorded on lock {run.lock[:12]}")
        if rec.grade is None or rec.episode_id is None:
            cond.fail(f"{where}: not graded ({rec.termination}: {rec.error})")
            continue
        bundle = store.read(rec.episode_id)
        if bundle.meta.final_sha256 != run.final_sha256:
            cond.fail(
                f"{where}: final state {bundle.meta.final_sha256[:12]} differs from the "
                f"recorded {run.final_sha256[:12]}"
            )
        for got, want in zip(bundle.log, run.calls, strict=False):
            if got.status != want.status:
                cond.fail(
                    f"{where}: call {want.step} `{want.tool}` was {got.status}, "
                    f"recorded {want.status}"
                )
                break
        if rec.grade.get("score") != 1.0:
            failing = [c["name"] for c in _checks(rec) if c.get("passed") is False]
            cond.fail(f"{where}: scores {rec.grade.get('score')} (failing: {', '.join(failing)})")


def _graded(rec: EpisodeRecord | None) -> bool:
    return rec is not None and rec.grade is not None and rec.grade.get("status") == "graded"


def _reference(jobs: list[_Job], cond: Condition) -> None:
    refs = [j for j in jobs if j.kind == "reference"]
    full = 0
    for job in refs:
        rec = job.record
        if not _graded(rec):
            why = (rec.grade or {}).get("error") if rec and rec.grade else (rec and rec.error)
            cond.fail(f"{job.task}@{job.band}#{job.seed}: not graded: {why}")
        elif rec is not None and rec.grade is not None and rec.grade["score"] != 1.0:
            failing = [c["name"] for c in _checks(rec) if c.get("passed") is False]
            cond.fail(
                f"{job.task}@{job.band}#{job.seed}: scores {rec.grade['score']:.3f} "
                f"(failing: {', '.join(failing)})"
            )
        else:
            full += 1
    cond.figures["reference_episodes"] = len(refs)
    cond.figures["reference_full_marks"] = full


def _baselines(jobs: list[_Job], cond: Condition) -> None:
    for kind in ("null", "random"):
        runs = [j for j in jobs if j.kind == kind]
        passed = [j for j in runs if j.record is not None and (j.record.grade or {}).get("passed")]
        ungraded = [j for j in runs if not _graded(j.record)]
        rate = len(passed) / len(runs) if runs else 0.0
        cond.figures[f"{kind}_episodes"] = len(runs)
        cond.figures[f"{kind}_pass_rate"] = round(rate, 4)
        for j in ungraded[:5]:
            rec = j.record
            why = (rec.grade or {}).get("error") if rec and rec.grade else (rec and rec.error)
            cond.fail(f"{kind} on {j.task}@{j.band}#{j.seed}: not graded: {why}")
        if kind == "null":
            for j in passed:
                cond.fail(f"null passes {j.task}@{j.band}#{j.seed}: doing nothing is graded a pass")
        elif runs and rate >= RANDOM_PASS_LIMIT:
            cond.fail(f"random passes {len(passed)} of {len(runs)} variants ({rate:.1%} >= 5%)")


def _vacuous(env: Environment, jobs: list[_Job], cond: Condition) -> None:
    failed = _failed_checks(jobs)
    total = 0
    for name, fam in sorted(env.families.items()):
        for check in getattr(fam.rubric, "checks", ()):
            total += 1
            if (name, check.name) not in failed:
                cond.fail(
                    f"family `{name}` check `{check.name}` is vacuous: no control run fails it "
                    "(null, random, mutants of the reference)"
                )
    cond.figures["control_runs"] = sum(j.kind in ("null", "random", "mutant") for j in jobs)
    cond.figures["checks"] = total


def _determinism(jobs: list[_Job], store: EpisodeStore, cond: Condition) -> None:
    pairs: dict[tuple[str, str, int, str], list[_Job]] = {}
    for j in jobs:
        if j.kind in ("replay-a", "replay-b"):
            pairs.setdefault((j.task, j.band, j.seed, "replay"), []).append(j)
        elif j.kind == "random-again" or (j.kind == "random" and j.seed == 0):
            pairs.setdefault((j.task, j.band, j.seed, "random"), []).append(j)
    compared = 0
    for (task, band, seed, what), pair in sorted(pairs.items()):
        if len(pair) != 2:
            continue
        a, b = (p.record for p in pair)
        where = f"{what} of {task}@{band}#{seed}"
        if a is None or b is None or a.episode_id is None or b.episode_id is None:
            cond.fail(f"{where}: an episode did not run")
            continue
        if not (store.exists(a.episode_id) and store.exists(b.episode_id)):
            cond.fail(f"{where}: a bundle is missing ({a.error or b.error})")
            continue
        compared += 1
        ba, bb = store.read(a.episode_id), store.read(b.episode_id)
        if ba.meta.final_sha256 != bb.meta.final_sha256:
            cond.fail(f"{where}: the two final databases differ (nondeterministic tool or setup?)")
        la, lb = _normal_log(ba), _normal_log(bb)
        if la != lb:
            step = next((x["step"] for x, y in zip(la, lb, strict=False) if x != y), None)
            cond.fail(f"{where}: the tool-call logs differ (first at step {step})")
        if _normal_grade(a.grade) != _normal_grade(b.grade):
            cond.fail(f"{where}: the two grades differ")
    cond.figures["pairs_compared"] = compared
