"""The records of a bundle: its tool-call log entries and its metadata, and the JSON forms
used for digests (see `mcpgym_server._bundle` for the on-disk format)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CappedValue",
    "EpisodeMeta",
    "LogEntry",
    "RateLimited",
    "StepStatus",
    "TerminationReason",
    "canonical_json",
    "to_jsonable",
]


StepStatus = Literal["ok", "tool_error", "invalid_arguments", "unknown_tool", "internal_error"]
"""Outcome of one tool call: ``internal_error`` is an environment fault, never the agent's."""

TerminationReason = Literal[
    "submitted",
    "ended",
    "timeout",
    "session_closed",
    "eof",
    "shutdown",
    "max_steps",
    "log_budget",
]
"""Why an episode was sealed (``log_budget``: its tool-call log outgrew its byte budget,
see `mcpgym_server._logcap`; ``shutdown``: the server was stopped by a signal)."""


def _is_none(value: Any) -> bool:
    # Fields added to the format are left out while unset, so bundles written before they
    # existed keep the same bytes, digests and signatures.
    return value is None


class CappedValue(BaseModel):
    """What the log records of a value too large to keep whole (see `mcpgym_server._logcap`).

    Attributes:
        bytes: length of the whole value as compact UTF-8 JSON.
        sha256: hex sha256 of that JSON (a harness can check its own call against it).
    """

    model_config = ConfigDict(extra="forbid")
    bytes: int
    sha256: str


class LogEntry(BaseModel):
    """One tool call in the tool-call log (written by the framework, never by tools).

    Attributes:
        step: 1-based call index. tool: tool name. arguments: raw arguments as received.
        status: see `StepStatus`. result: the JSON result when ``status == "ok"``.
        error: the message shown to the agent (for internal errors: the generic text).
        internal_detail: exception type and message for internal errors (never shown to the agent).
        clock: virtual time at the call (ISO 8601). duration_ms: wall time spent (volatile).
        arguments_capped, result_capped: set when the value was larger than the log's
            value cap: ``arguments`` / ``result`` then hold only the head of its JSON text
            (a string), never the value itself.
    """

    model_config = ConfigDict(extra="forbid")
    step: int
    tool: str
    arguments: Any
    status: StepStatus
    result: Any = None
    error: str | None = None
    internal_detail: str | None = None
    clock: str
    duration_ms: float = 0.0
    arguments_capped: CappedValue | None = Field(default=None, exclude_if=_is_none)
    result_capped: CappedValue | None = Field(default=None, exclude_if=_is_none)


class RateLimited(BaseModel):
    """What an episode's MCP URL refused for coming faster than the server's request rate
    per episode (`mcpgym_server._rate_limit`), recorded in its bundle's metadata.

    Attributes:
        refused: requests refused (HTTP 429, never run) while the episode was open.
        per_second, burst: the limit they went past (sustained rate, bucket size).
    """

    model_config = ConfigDict(extra="forbid")
    refused: int
    per_second: float
    burst: int


class EpisodeMeta(BaseModel):
    """Metadata of a sealed episode.

    Attributes:
        episode_id, env, env_version, task (family), band, seed, variant_id: identity.
        lock: the environment lock digest the episode ran on; unlocked: served with ``--unlocked``.
        opened_at, sealed_at: wall-clock ISO timestamps (informational, volatile).
        termination: why it was sealed. answer: the text passed to ``submit``, if any.
        steps: number of tool calls. internal_errors: how many of them were internal errors.
        final_sha256: sha256 of the (uncompressed) final database.
        clock_end: virtual time at sealing.
        bundle_format: 1 (whole database in ``final.db.gz``) or 2 (page delta).
        base_sha256, final_size, delta_sha256 (format 2): the snapshot the delta is against,
            the final database's size in bytes, and the sha256 of the uncompressed delta.
        answer_capped: set when the answer was larger than the log's value cap: ``answer``
            then holds only its head (graders must not match it as the answer).
        final_pages_sha256 (format 2, since page-wise digests): the final database's
            page-wise digest (`mcpgym_server._delta.PageDigests`): a grader that rebuilds the
            final state from the snapshot checks it against this, at the cost of the pages
            the episode changed; ``final_sha256`` stays the whole file's sha256.
        rate_limited: set when requests to the episode's MCP URL were refused for coming
            faster than the server admits (`RateLimited`): the agent flooded its URL.
    """

    model_config = ConfigDict(extra="forbid")
    episode_id: str
    env: str
    env_version: str
    task: str
    band: str
    seed: int
    variant_id: str
    lock: str
    unlocked: bool = False
    opened_at: str
    sealed_at: str
    termination: TerminationReason
    answer: str | None = None
    steps: int
    internal_errors: int
    final_sha256: str
    clock_end: str
    bundle_format: int = 1
    base_sha256: str | None = None
    final_size: int | None = None
    delta_sha256: str | None = None
    answer_capped: CappedValue | None = Field(None, exclude_if=_is_none)
    final_pages_sha256: str | None = Field(None, exclude_if=_is_none)
    rate_limited: RateLimited | None = Field(None, exclude_if=_is_none)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    """Convert a tool result to plain JSON types (pydantic models, Rows, tuples, sets).

    Exact built-in types are dispatched first: this runs on every tool call.

    Raises:
        TypeError: the value contains something JSON cannot represent.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {
            (k if type(k) is str else str(k)): (v if type(v) in _SCALARS else to_jsonable(v))
            for k, v in value.items()
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else to_jsonable(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, sqlite3.Row):
        return {k: to_jsonable(value[k]) for k in value.keys()}  # noqa: SIM118
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"tool result of type {type(value).__name__} is not JSON-serialisable")


def canonical_json(value: Any) -> str:
    """Sorted-key, compact JSON used for digests."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
