"""The conditions of the ship gate, evaluated over the episodes `validate_environment` ran.

Each ``check_*`` function reads the finished jobs (and, for replays, the sealed bundles in
the episode store) and records violations on its `Condition`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mcpgym_clients.driver import EpisodeRecord
from mcpgym_clients.instrument.runs import RecordedRun
from mcpgym_clients.protocol import Agent
from mcpgym_server import Environment, EpisodeStore, LockError
from mcpgym_server.lockfile import current_lock, read_lock, verify_lock

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
class Job:
    """One episode to run: kind, agent, variant, and its record once run."""

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


def failed_checks(jobs: list[Job]) -> set[tuple[str, str]]:
    """``(family, check)`` pairs some control run (null, random, mutant) failed."""
    out: set[tuple[str, str]] = set()
    for job in jobs:
        if job.kind in ("null", "random", "mutant") and _graded(job.record):
            assert job.record is not None
            for c in _checks(job.record):
                if c.get("applicable") and c.get("passed") is False:
                    out.add((job.task, c["name"]))
    return out


def check_lock(env: Environment, lock_cond: Condition, sign_cond: Condition) -> str:
    """Conditions 0 and 6: the lock file matches; every family carries a valid sign-off.

    Returns:
        The current lock digest.
    """
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


def check_recorded(
    env: Environment, jobs: list[Job], store: EpisodeStore, cond: Condition, lock: str
) -> None:
    """Condition 1: each recorded run replayed (twice) to its final state, outcomes, 1.0."""
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


def check_reference(jobs: list[Job], cond: Condition) -> None:
    """Condition 2: the reference agent scored 1.0 on every variant."""
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


def check_baselines(jobs: list[Job], cond: Condition) -> None:
    """Condition 3: null passed nothing; random passed fewer than `RANDOM_PASS_LIMIT`."""
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


def check_vacuous(env: Environment, jobs: list[Job], cond: Condition) -> None:
    """Condition 4: every check of every rubric failed on some control run."""
    failed = failed_checks(jobs)
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


def check_determinism(jobs: list[Job], store: EpisodeStore, cond: Condition) -> None:
    """Condition 5: the paired runs gave identical databases, logs and grades."""
    pairs: dict[tuple[str, str, int, str], list[Job]] = {}
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
