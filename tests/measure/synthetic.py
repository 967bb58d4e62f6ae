"""Synthetic episode records with known grades, stored in a real run store."""

from __future__ import annotations

from typing import Any

from mcpgym_clients import EpisodeRecord, RunStore

LOCK = "a" * 64


def check(name: str, status: str, expected: Any = 1, found: Any = 0) -> dict[str, Any]:
    """A grade's check result with ``status`` pass, fail, skip or error."""
    return {
        "name": name,
        "kind": "sql",
        "weight": 1.0,
        "required": True,
        "applicable": status != "skip",
        "passed": {"pass": True, "fail": False}.get(status),
        "detail": {"expected": expected, "found": found if status == "fail" else expected},
        "error": "boom" if status == "error" else None,
    }


def grade(
    score: float | None, passed: bool, checks: dict[str, str] | None = None
) -> dict[str, Any]:
    """A grade JSON: ``graded`` with a score, or ``error`` when score is None."""
    return {
        "status": "graded" if score is not None else "error",
        "error": None if score is not None else "check `x`: boom",
        "score": score,
        "passed": passed,
        "lock": LOCK,
        "checks": [check(n, s) for n, s in (checks or {}).items()],
    }


def rec(
    task: str,
    band: str,
    seed: int,
    epoch: int,
    score: float | None,
    passed: bool = False,
    *,
    termination: str = "completed",
    checks: dict[str, str] | None = None,
    agent: str = "openai",
) -> EpisodeRecord:
    """One episode; ``score=None`` with termination ``completed`` is a grade error."""
    no_grade = termination == "infra_error"
    return EpisodeRecord(
        agent=agent,
        task=task,
        band=band,
        seed=seed,
        epoch=epoch,
        variant_id=f"toy/{task}@{band}#{seed}",
        termination=termination,  # type: ignore[arg-type]
        transcript=[{"role": "user", "content": f"Do {task} #{seed}."}],
        grade=None if no_grade else grade(score, passed, checks),
    )


def store_run(
    store: RunStore,
    records: list[EpisodeRecord],
    *,
    agent: str = "openai",
    epochs: int = 1,
    lock: str = LOCK,
    baseline_of: str | None = None,
    **kw: Any,
) -> str:
    """Store ``records`` as one finished run; return its id."""
    run_id = store.create_run(
        env="toy",
        env_version="1.0.0",
        lock=lock,
        agent=agent,
        selection={"epochs": epochs},
        baseline_of=baseline_of,
        **kw,
    )
    for r in records:
        store.add_episode(run_id, r)
    store.finish_run(run_id)
    return run_id
