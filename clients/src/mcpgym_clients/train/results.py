"""What a rollout returns: `Rollout` (one episode: messages, tool calls, tokens, reward) and
`RolloutGroup` (``n`` rollouts of one variant, for group-relative advantages).

Split out of `mcpgym_clients.train.rollout`, which runs them; both are exported from
`mcpgym_clients.train`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcpgym_clients.protocol import Termination
from mcpgym_clients.records import EpisodeRecord
from mcpgym_clients.train.export import ExportedRollout, export_rollout
from mcpgym_clients.train.rows import TrainingRow


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call of a rollout as the model saw it.

    Attributes:
        name: the tool. arguments: the arguments object (``None`` when the model's text
            was not valid JSON). is_error: the result was an error. content: its text.
    """

    name: str
    arguments: dict[str, Any] | None
    is_error: bool
    content: str


@dataclass(frozen=True)
class TurnTokens:
    """The tokens of one model turn, where the server returned them.

    Attributes:
        message_index: index of the assistant message in `Rollout.messages`.
        prompt_token_ids: the whole prompt of that request, as the server tokenized it.
        generation_token_ids: the tokens the model generated.
        generation_log_probs: one log-probability per generated token.
    """

    message_index: int
    prompt_token_ids: list[int] | None
    generation_token_ids: list[int] | None
    generation_log_probs: list[float] | None


@dataclass
class Rollout:
    """One episode of one variant under a policy, with its grade.

    Attributes:
        row: the variant. record: the driver's full `EpisodeRecord`.
        messages: the conversation (Chat Completions shape, ``mcpgym_*`` notes kept).
        tool_calls: the calls made, in order.
        attempts: episodes played for it: 1, or more when earlier ones ended in
            ``infra_error`` and were retried (`Rollouts`: ``infra_retries``, or more while an
            outage is undecided); only the last is kept.
    """

    row: TrainingRow
    record: EpisodeRecord
    messages: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    attempts: int = 1

    @classmethod
    def from_record(cls, row: TrainingRow, record: EpisodeRecord, attempts: int = 1) -> Rollout:
        """Build a rollout from the driver's record of its episode (its ``attempts``-th)."""
        messages = list(record.transcript)
        return cls(row, record, messages, _tool_calls(messages), attempts)

    @property
    def episode_id(self) -> str | None:
        """The server's episode id (``None`` if it never answered)."""
        return self.record.episode_id

    @property
    def lock(self) -> str | None:
        """The lock digest of the environment the episode ran on."""
        return self.record.lock

    @property
    def termination(self) -> Termination:
        """Why the agent stopped."""
        return self.record.termination

    @property
    def episode_termination(self) -> str | None:
        """The server's seal reason (``submitted``, ``ended``, ``timeout``...)."""
        return self.record.episode_termination

    @property
    def grade(self) -> dict[str, Any] | None:
        """The Grade JSON, or ``None`` when not graded."""
        return self.record.grade

    @property
    def error(self) -> str | None:
        """What went wrong, for unscored terminations."""
        return self.record.error

    @property
    def duration_s(self) -> float:
        """Wall seconds from episode start to grade."""
        return self.record.duration_s

    @property
    def scored(self) -> bool:
        """Whether this rollout has a reward (graded; no infra or model error)."""
        return self.record.scored

    @property
    def score(self) -> float | None:
        """The grade's weighted score in [0, 1] when `scored`, else ``None``."""
        return self.record.score

    @property
    def passed(self) -> bool | None:
        """Whether the grade passed when `scored`, else ``None``."""
        return self.record.passed

    @property
    def checks(self) -> dict[str, bool | None]:
        """Per-check outcome: ``True``/``False``; ``None`` for a check not applicable to
        this variant. Empty when the rollout is not `scored`."""
        if not self.scored or self.grade is None:
            return {}
        return {
            c["name"]: (bool(c["passed"]) if c.get("applicable") else None)
            for c in self.grade.get("checks", [])
        }

    def reward(self) -> float | None:
        """The reward: the grade's score, or ``None`` when not `scored` (never 0 for it)."""
        return self.score

    def check_rewards(self) -> dict[str, float]:
        """One reward per applicable check: 1.0 passed, 0.0 failed (empty when unscored)."""
        return {k: float(v) for k, v in self.checks.items() if v is not None}

    def export(self, run_id: str | None = None) -> ExportedRollout:
        """This rollout as an export line (the shape of ``mcpgym export --format rollouts``)."""
        episode = dataclasses.asdict(self.record)
        episode.update(scored=self.scored, score=self.score, passed=self.passed)
        return export_rollout(episode, lock=self.lock, run_id=run_id)

    @property
    def turns(self) -> list[TurnTokens]:
        """Token ids and log-probs per model turn, for the turns the server returned them."""
        out = []
        for i, m in enumerate(self.messages):
            tokens = m.get("mcpgym_tokens") if m.get("role") == "assistant" else None
            if isinstance(tokens, Mapping):
                out.append(
                    TurnTokens(
                        i,
                        tokens.get("prompt_token_ids"),
                        tokens.get("generation_token_ids"),
                        tokens.get("generation_log_probs"),
                    )
                )
        return out


def _tool_calls(messages: list[dict[str, Any]]) -> list[ToolCallRecord]:
    results = {m.get("tool_call_id"): m for m in messages if m.get("role") == "tool"}
    out = []
    for m in messages:
        for call in m.get("tool_calls") or [] if m.get("role") == "assistant" else []:
            fn = call.get("function") or {}
            raw = fn.get("arguments")
            try:
                args = json.loads(raw) if isinstance(raw, str) else raw
            except json.JSONDecodeError:
                args = None
            result = results.get(call.get("id"), {})
            out.append(
                ToolCallRecord(
                    str(fn.get("name")),
                    args if isinstance(args, dict) else None,
                    bool(result.get("mcpgym_is_error", False)),
                    str(result.get("content") or ""),
                )
            )
    return out


@dataclass
class RolloutGroup:
    """G rollouts of one variant (what GRPO compares).

    Attributes:
        row: the variant. rollouts: every rollout, in order, scored or not.
    """

    row: TrainingRow
    rollouts: list[Rollout]

    @property
    def scored(self) -> list[Rollout]:
        """The rollouts that have a reward."""
        return [r for r in self.rollouts if r.scored]

    @property
    def rewards(self) -> list[float]:
        """The rewards of the scored rollouts (unscored ones are dropped, not 0)."""
        return [r.score for r in self.rollouts if r.score is not None]

    @property
    def dropped(self) -> int:
        """How many rollouts were dropped because they could not be scored."""
        return len(self.rollouts) - len(self.scored)

    def check_rewards(self) -> dict[str, list[float]]:
        """Per check, the rewards of the scored rollouts where the check applied."""
        out: dict[str, list[float]] = {}
        for r in self.scored:
            for name, value in r.check_rewards().items():
                out.setdefault(name, []).append(value)
        return out
