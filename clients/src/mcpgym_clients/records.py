"""What the harness records: the served environment's description and one episode's outcome.

`ServerInfo` (with its `TaskInfo` families) is what ``GET {env_url}/tasks`` says;
`EpisodeRecord` is one episode as `mcpgym_clients.driver.EpisodeDriver.run_episode`
saw it, what the run store keeps (`mcpgym_clients.runstore`) and what summaries and
reports read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcpgym_clients.errors import UnknownNameError
from mcpgym_clients.protocol import Termination

UNSCORED_TERMINATIONS: frozenset[str] = frozenset({"infra_error", "model_error"})
"""Terminations excluded from model scores (the failure was not the model's answer)."""


@dataclass(frozen=True)
class TaskInfo:
    """One task family as listed by ``GET /tasks``."""

    name: str
    description: str
    bands: tuple[str, ...]


@dataclass(frozen=True)
class ServerInfo:
    """What ``GET {env_url}/tasks`` says about the served environment.

    ``episode_settings`` is what the server reports, to the holder of its control token,
    about how it serves episodes besides the lock: its seed salt's fingerprint
    (`mcpgym_server.runtime.salt_fingerprint`, ``None``: no salt), idle TTL, log caps,
    MCP session cap and request rate per episode; ``None`` when the server reports none
    (an older server).
    """

    env: str
    version: str
    lock: str
    tasks: tuple[TaskInfo, ...]
    episode_settings: dict[str, Any] | None = None

    def task(self, name: str) -> TaskInfo:
        """The family called ``name``.

        Raises:
            ConfigurationError: no such family (the message lists the valid ones).
        """
        for t in self.tasks:
            if t.name == name:
                return t
        raise UnknownNameError("task", name, [t.name for t in self.tasks])


@dataclass(frozen=True)
class ModelRefusal:
    """A model request the model API refused for longer than the harness waits: a 429,
    503 or 529 whose ``Retry-After`` asked for more than the per-retry wait cap
    (`mcpgym_clients.adapters.retry.refusal_of`).

    Attributes:
        status: the HTTP status. retry_after: the wait the server asked for, in seconds.
        cap: the longest wait the harness makes before a retry (``RetryPolicy.max_delay``),
            in seconds. message: the refusal's message (``ModelAPIError.reason``).
    """

    status: int
    retry_after: float
    cap: float
    message: str = ""


@dataclass
class EpisodeRecord:
    """The outcome of one episode as the harness saw it.

    Attributes:
        agent: agent name. task, band, seed, epoch: what was asked for (epoch is 0-based).
        variant_id, episode_id, lock: from the environment server (``None`` if it never answered).
        termination: the agent's termination, or ``infra_error`` if a server failed.
        episode_termination: the server's seal reason (``submitted``, ``ended``, ``timeout``...).
        answer: the final answer. transcript, usage: from the agent.
        grade: the grading service's Grade JSON, or ``None`` when not graded.
        error: what went wrong, for ``infra_error`` / ``model_error`` / ``timeout``.
        steps: tool calls made through MCP. started_at, ended_at: wall-clock ISO 8601.
        duration_s: seconds from start to grade. timings: milliseconds per phase
            (``create``, ``connect``, ``agent``, ``end``, ``grade``).
        unanswered: for an ``infra_error`` because a server did not answer at all (a
            timeout, a refused or broken connection: `InfraError.unanswered`), which one:
            ``"env"`` or ``"grading"``; else ``None``. Not stored; the campaign's breaker
            reads it (`mcpgym_clients.breaker`).
        refused: for an ``infra_error`` episode whose model requests got no answer and
            the last was refused with a wait beyond the cap, that refusal; else ``None``.
            Not stored; read by the breaker.
        model_answered: model requests the model API answered in this episode (counted
            by `mcpgym_clients.adapters.retry.with_retries`). Not stored; read by the
            breaker.
        ungraded: for an ``infra_error`` whose grade request the grading service answered
            with a failure (a 404 for the episode, a 5xx, a 429 after its retries, a grade
            of the wrong shape), ``True``. Not stored; read by the breaker.
    """

    agent: str
    task: str
    band: str
    seed: int
    epoch: int = 0
    variant_id: str | None = None
    episode_id: str | None = None
    lock: str | None = None
    termination: Termination = "infra_error"
    episode_termination: str | None = None
    answer: str | None = None
    transcript: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)
    grade: dict[str, Any] | None = None
    error: str | None = None
    steps: int = 0
    started_at: str = ""
    ended_at: str = ""
    duration_s: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    unanswered: str | None = None
    refused: ModelRefusal | None = None
    model_answered: int = 0
    ungraded: bool = False

    @property
    def scored(self) -> bool:
        """Whether this episode counts in model scores (graded, not an infra/model error)."""
        return (
            self.termination not in UNSCORED_TERMINATIONS
            and self.grade is not None
            and self.grade.get("status") == "graded"
        )

    @property
    def score(self) -> float | None:
        """The weighted score in [0, 1] when `scored`, else ``None``."""
        return float(self.grade["score"]) if self.scored and self.grade else None

    @property
    def passed(self) -> bool | None:
        """Whether the grade passed when `scored`, else ``None``."""
        return bool(self.grade["passed"]) if self.scored and self.grade else None


def record_from_row(row: dict[str, Any]) -> EpisodeRecord:
    """Rebuild the `EpisodeRecord` of a stored episode row (``RunStore.episodes``)."""
    return EpisodeRecord(
        agent=row["agent"],
        task=row["task"],
        band=row["band"],
        seed=row["seed"],
        epoch=row["epoch"],
        variant_id=row["variant_id"],
        episode_id=row["episode_id"],
        lock=(row["grade"] or {}).get("lock"),
        termination=row["termination"],
        episode_termination=row["episode_termination"],
        answer=row["answer"],
        transcript=row["transcript"] or [],
        usage=row["usage"] or {},
        grade=row["grade"],
        error=row["error"],
        steps=row["steps"] or 0,
        started_at=row["started_at"] or "",
        ended_at=row["ended_at"] or "",
        duration_s=row["duration_s"] or 0.0,
        timings=row["timings"] or {},
    )
