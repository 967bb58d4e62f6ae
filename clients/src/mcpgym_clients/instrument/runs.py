"""Recorded reference runs: the run file format and where environments ship them.

A recorded run is one episode worked by an expert (``mcpgym record``), saved as JSON at
``<environment package>/reference_runs/<family>/<band>-<seed>.json``::

    {
      "format": 1,
      "env": "helpdesk", "env_version": "1.0.0", "lock": "<lock digest it was recorded on>",
      "variant_id": "helpdesk/order-status@easy#100", "task": "order-status", "band": "easy",
      "seed": 100, "instruction": "...", "variant_digest": "<sha256 of the variant>",
      "recorded_by": "Jane Doe <jane@example.org>", "recorded_at": "2026-11-30T12:00:00Z",
      "unlocked": false,
      "calls": [{"step": 1, "tool": "get_ticket", "arguments": {...}, "status": "ok",
                 "result": {...}, "error": null}, ...],
      "answer": "...", "termination": "submitted",
      "final_sha256": "<sha256 of the final SQLite database>",
      "grade": {<the grading service's Grade JSON>}
    }

``calls`` is the framework's tool-call log of the episode (every call, from the prompt or
from any MCP client connected to the episode URL), in order, without timings.
``variant_digest`` is `variant_digest` of the variant as generated when the run was
recorded (setup, params, reference calls and answer), so a generator that changes what it
makes for the run's seed is caught even when the lock's fingerprint seeds do not show it.
``mcpgym validate`` replays ``calls`` over MCP and requires the same variant, the same
result (or error) from every call, the same number of calls, the same ``final_sha256`` and
a score of 1.0, on the current lock.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from mcpgym_server import Environment, LockError, TaskVariant
from mcpgym_server.lock import lock_path

RUNS_DIR = "reference_runs"
"""Folder of recorded runs inside the environment's package."""


class RecordedCall(BaseModel):
    """One logged tool call of a recorded run (`mcpgym_server.LogEntry` without timings)."""

    model_config = ConfigDict(extra="forbid")
    step: int
    tool: str
    arguments: Any
    status: str
    result: Any = None
    error: str | None = None


class RecordedRun(BaseModel):
    """A recorded reference run (see the module docstring for the JSON layout)."""

    model_config = ConfigDict(extra="forbid")
    format: Literal[1] = 1
    env: str
    env_version: str
    lock: str
    variant_id: str
    task: str
    band: str
    seed: int
    instruction: str
    variant_digest: str | None = None
    recorded_by: str | None = None
    recorded_at: str
    unlocked: bool = False
    calls: list[RecordedCall]
    answer: str | None = None
    termination: str
    final_sha256: str
    grade: dict[str, Any]

    def to_json(self) -> str:
        """Indented JSON text (stable key order, trailing newline)."""
        return json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def variant_digest(variant: TaskVariant) -> str:
    """Hex sha256 of canonical JSON of what ``variant`` sets up and expects: its
    instruction, setup statements and parameters, params, reference calls and answer."""
    body = {
        "instruction": variant.instruction,
        "setup": [
            [sql, dict(params) if isinstance(params, Mapping) else list(params)]
            for sql, params in variant.setup
        ],
        "params": dict(variant.params),
        "reference": [c.to_json() for c in variant.reference],
        "answer": variant.answer,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def runs_dir(env: Environment) -> Path:
    """``<package dir>/reference_runs`` of ``env`` (it may not exist).

    Raises:
        LockError: the package is not a directory on disk.
    """
    return lock_path(env).parent / RUNS_DIR


def run_path(env: Environment, task: str, band: str, seed: int) -> Path:
    """Where the run of ``task@band#seed`` ships: ``reference_runs/<task>/<band>-<seed>.json``."""
    return runs_dir(env) / task / f"{band}-{seed}.json"


def read_run(path: Path) -> RecordedRun:
    """Read one run file.

    Raises:
        LockError: the file is not a recorded run (naming the field). OSError: unreadable.
    """
    try:
        return RecordedRun.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = ".".join(str(p) for p in first["loc"]) or "(file)"
        raise LockError(f"{path} is not a recorded run: `{field}`: {first['msg']}") from None


def load_runs(env: Environment) -> list[tuple[Path, RecordedRun]]:
    """Every recorded run ``env`` ships, sorted by path (empty when there are none).

    Raises:
        LockError: a run file is malformed.
    """
    root = runs_dir(env)
    if not root.is_dir():
        return []
    return [(p, read_run(p)) for p in sorted(root.glob("*/*.json"))]
