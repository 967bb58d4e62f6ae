"""The conditions of the ship gate, evaluated over the episodes `validate_environment` ran.

Each ``check_*`` function reads the finished jobs (and, for replays, the sealed bundles in
the episode store) and records violations on its `Condition`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from mcpgym_clients.instrument.runs import RecordedRun, variant_digest
from mcpgym_clients.protocol import Agent
from mcpgym_clients.records import EpisodeRecord
from mcpgym_server import Environment, EpisodeStore, LockError
from mcpgym_server.lock import current_lock, read_lock, verify_lock

CONTROL_KINDS = ("null", "random", "mutant", "adversarial")
"""The jobs that are control runs (condition 4 counts the checks they fail)."""

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

    kind: (
        str  # reference | null | random | random-again | replay-a | replay-b | mutant | adversarial
    )
    agent: Agent
    task: str
    band: str
    seed: int
    label: str = ""
    run: RecordedRun | None = None
    record: EpisodeRecord | None = None
    where: str = ""  # the run file of a replay, as shown in failures
    error: str | None = None  # the episode could not be run (not an infrastructure error)
    infra: str | None = None  # a persistent infrastructure error (after retries)
    attempts: int = 0
    adversary: Any = None  # an adversarial mutant (`instrument.adversarial.Adversary`)


def _first_diff(got: Any, want: Any, path: str = "") -> str:
    """``path: want -> got`` at the first place two JSON values differ (short)."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in want:
                return f"{sub}: not recorded, now {_short(got[key])}"
            if key not in got:
                return f"{sub}: recorded {_short(want[key])}, now missing"
            if _canon(got[key]) != _canon(want[key]):
                return _first_diff(got[key], want[key], sub)
    elif isinstance(got, list) and isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            if _canon(g) != _canon(w):
                return _first_diff(g, w, f"{path}[{i}]")
        if len(got) != len(want):
            return f"{path or '(value)'}: {len(want)} items recorded, now {len(got)}"
    return f"{path or '(value)'}: recorded {_short(want)}, now {_short(got)}"


EPISODE_ID = re.compile(r"ep_[0-9a-f]{32}")
"""The framework's episode ids: the only volatile values in a tool-call log (the clock is
virtual), written ``<episode>`` before logs are compared."""


def _episode_free(value: Any) -> Any:
    return json.loads(EPISODE_ID.sub("<episode>", json.dumps(value)))


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _short(value: Any, limit: int = 60) -> str:
    text = _canon(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare_calls(
    got: list[dict[str, Any]], want: list[dict[str, Any]], label: str = "recorded"
) -> str | None:
    """The first difference between two tool-call logs (dicts with ``step``, ``tool``,
    ``status``, ``result``, ``error``), as one line naming the step, the tool and the
    field (``want`` is called ``label``); ``None`` when they agree (same calls, outcomes,
    results and errors, in order)."""
    for g, w in zip(got, want, strict=False):
        for key in ("tool", "status", "result", "error"):
            if _canon(g.get(key)) != _canon(w.get(key)):
                what = "result" if key in ("result", "status") else key
                if key == "status":
                    return (
                        f"step {w['step']} `{w['tool']}` was {g.get('status')}, "
                        f"{label} {w.get('status')}"
                    )
                diff = _first_diff(g.get(key), w.get(key), key).replace("recorded", label)
                return f"step {w['step']} `{w['tool']}` {what} differs ({diff})"
    if len(got) != len(want):
        return f"{len(got)} calls logged, {len(want)} {label}"
    return None


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
        if job.kind in CONTROL_KINDS and _graded(job.record):
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
                f"family `{name}`: rubric not signed off "
                f'(mcpgym sign {env.name} {name} --by "Name <email>")'
            )
        elif signoff.rubric_digest != fam.rubric.digest():
            sign_cond.fail(
                f"family `{name}`: the sign-off by {signoff.by} ({signoff.at}) is void: the rubric "
                "changed since (checks, weights, required flags or threshold); sign it again "
                f'(mcpgym sign {env.name} {name} --by "Name <email>")'
            )
    sign_cond.figures["signed_families"] = len(env.families) - len(sign_cond.failures)
    return now.digest


def check_recorded(
    env: Environment, jobs: list[Job], store: EpisodeStore, cond: Condition, lock: str
) -> None:
    """Condition 1: each recorded run, on the current lock and for the variant the generator
    still makes, replays (twice) call by call to the recorded results, the recorded final
    state and a score of 1.0.
    """
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
    for job in replays:
        assert job.run is not None
        _check_recorded_variant(env, job.run, job.where or job.run.variant_id, cond, lock)
    for job in (j for j in jobs if j.kind in ("replay-a", "replay-b")):
        run, rec = job.run, job.record
        assert run is not None
        where = f"{job.where or run.variant_id} ({job.kind})"
        if job.infra is not None:
            continue  # reported as an infrastructure failure
        if job.error is not None or rec is None:
            cond.fail(f"{where}: could not be replayed: {job.error}")
            continue
        if rec.grade is None or rec.episode_id is None:
            cond.fail(f"{where}: not graded ({rec.termination}: {rec.error})")
            continue
        bundle = store.read(rec.episode_id)
        got = _episode_free(
            [e.model_dump(mode="json", exclude={"duration_ms"}) for e in bundle.log]
        )
        want = _episode_free([c.model_dump(mode="json") for c in run.calls])
        diff = compare_calls(got, want)
        if diff is not None:
            cond.fail(f"{where}: {diff}")
        if bundle.meta.final_sha256 != run.final_sha256:
            cond.fail(
                f"{where}: final state {bundle.meta.final_sha256[:12]} differs from the "
                f"recorded {run.final_sha256[:12]}"
            )
        if rec.grade.get("score") != 1.0:
            failing = [c["name"] for c in _checks(rec) if c.get("passed") is False]
            cond.fail(f"{where}: scores {rec.grade.get('score')} (failing: {', '.join(failing)})")


def _check_recorded_variant(
    env: Environment, run: RecordedRun, where: str, cond: Condition, lock: str
) -> None:
    """The run is on the current lock and its variant is still the one generated."""
    if run.unlocked:
        cond.fail(
            f"{where}: recorded on an unlocked environment; re-record it on the locked one "
            f"(`mcpgym record {env.name} --task {run.task} --band {run.band} --seed {run.seed} "
            "--force`)"
        )
    elif run.lock != lock:
        cond.fail(
            f"{where}: recorded on lock {run.lock[:12]}, not the current {lock[:12]}; "
            f"re-record it (`mcpgym record {env.name} --task {run.task} --band {run.band} "
            f"--seed {run.seed} --force`)"
        )
    try:
        variant = env.variant(run.task, run.band, run.seed)
    except Exception as exc:  # noqa: BLE001 - unknown task or band, a failing generator
        cond.fail(f"{where}: its variant cannot be generated: {type(exc).__name__}: {exc}")
        return
    changed = variant.instruction != run.instruction or (
        run.variant_digest is not None and variant_digest(variant) != run.variant_digest
    )
    if changed:
        part = "instruction" if variant.instruction != run.instruction else "setup/params/reference"
        same = run.lock == lock and not run.unlocked
        cond.fail(
            f"{where}: generator of family `{run.task}` produces a different variant for "
            f"{run.band} seed {run.seed} ({part})"
            + (
                " without a generator_version bump; bump it (then `mcpgym lock`) and "
                "re-record the run"
                if same
                else " than when the run was recorded; re-record the run"
            )
        )


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
                controls = sum(j.kind in CONTROL_KINDS and j.task == name for j in jobs)
                cond.fail(
                    f"family `{name}` check `{check.name}` is vacuous: none of its {controls} "
                    "control runs (null, random, mutants of the reference) fails it; with "
                    "--seeds or --mutant-seeds lowered, raise them before concluding so"
                )
    cond.figures["control_runs"] = sum(j.kind in CONTROL_KINDS for j in jobs)
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
        if len(pair) != 2 or any(p.error for p in pair):
            continue  # an episode that could not run is a failure of its own condition
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
            diff = compare_calls(lb, la, "first run") or "arguments differ"
            cond.fail(f"{where}: the tool-call logs differ: {diff}")
        if _normal_grade(a.grade) != _normal_grade(b.grade):
            cond.fail(f"{where}: the two grades differ")
    cond.figures["pairs_compared"] = compared
    cond.notes.append(
        "both runs of a pair ran in this process (one hash seed); condition 1 compares the "
        "replays with results recorded in another process"
    )
