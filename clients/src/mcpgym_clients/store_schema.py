"""The run store's tables (`mcpgym_clients.runstore`): their creation, the check that a file
holds them, and the row of one episode record."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlite_utils import Database

from mcpgym_clients.errors import ConfigurationError

if TYPE_CHECKING:  # the driver (the MCP client stack) is not needed to read a store
    from mcpgym_clients.records import EpisodeRecord

SLOT_COLUMNS = ("run_id", "task", "band", "seed", "epoch")
"""The columns naming one planned episode of a run: a run holds at most one row for each;
they are indexed together."""
EPISODE_COLUMNS = (
    "run_id", "agent", "variant_id", "task", "band", "seed", "epoch", "episode_id",
    "termination", "episode_termination", "scored", "score", "passed", "grade", "transcript",
    "usage", "answer", "error", "steps", "started_at", "ended_at", "duration_s", "timings",
    "attempts",
)  # fmt: skip
"""The ``episodes`` columns a stored row sets (all but ``id``), in insertion order."""


def check_schema(db: Database, path: Path | None) -> None:
    """Refuse a file that is not a run store (a reader's check: `RunStore.open_read_only`).

    Raises:
        ConfigurationError: naming ``path``, when the file is not SQLite or lacks the
            ``runs`` or ``episodes`` table.
    """
    try:
        tables = set(db.table_names())
    except sqlite3.DatabaseError as exc:
        raise ConfigurationError(
            f"{path} is not a run store: cannot read it as SQLite ({exc})"
        ) from None
    missing = [t for t in ("runs", "episodes") if t not in tables]
    if missing:
        raise ConfigurationError(
            f"{path} is not a run store (no {' or '.join(missing)} table); "
            "give the file `mcpgym eval --store` wrote"
        )


def create_schema(db: Database) -> None:
    """Create the run store's tables and indexes where missing, and add the columns added
    after the first release to an older store (`mcpgym_clients.runstore`)."""
    db.table("runs").create(
        {
            "id": str,
            "created_at": str,
            "finished_at": str,
            "env": str,
            "env_version": str,
            "lock": str,
            "agent": str,
            "model": str,
            "settings": str,
            "selection": str,
            "argv": str,
            "baseline_of": str,
        },
        pk="id",
        not_null=["created_at", "env", "agent"],
        if_not_exists=True,
    )
    db.table("episodes").create(
        {
            "id": int,
            "run_id": str,
            "agent": str,
            "variant_id": str,
            "task": str,
            "band": str,
            "seed": int,
            "epoch": int,
            "episode_id": str,
            "termination": str,
            "episode_termination": str,
            "scored": int,
            "score": float,
            "passed": int,
            "grade": str,
            "transcript": str,
            "usage": str,
            "answer": str,
            "error": str,
            "steps": int,
            "started_at": str,
            "ended_at": str,
            "duration_s": float,
            "timings": str,
        },
        pk="id",
        foreign_keys=[("run_id", "runs", "id")],
        not_null=["run_id", "task", "band", "seed", "epoch", "termination"],
        if_not_exists=True,
    )
    db.table("episodes").create_index(["run_id"], if_not_exists=True)
    # A run's slot: what `add_episode` replaces. Without it each stored episode's
    # DELETE read every row of its run (3.7 ms at 4,000 rows, 6.3 ms at 8,000: a
    # campaign's cost per episode grew with its size). Older stores get it on open.
    db.table("episodes").create_index(list(SLOT_COLUMNS), if_not_exists=True)
    # Columns added after the first release: older stores get them on open.
    if "lock_components" not in db.table("runs").columns_dict:
        db.table("runs").add_column("lock_components", str)
    if "conditions" not in db.table("runs").columns_dict:
        db.table("runs").add_column("conditions", str)
    if "attempts" not in db.table("episodes").columns_dict:
        db.table("episodes").add_column("attempts", int)


def episode_row(run_id: str, rec: EpisodeRecord, *, attempts: int = 1) -> dict[str, Any]:
    """The ``episodes`` table row of one episode record of ``run_id``: a column name to its
    value (booleans as 0/1, the grade, transcript, usage and timings as JSON text)."""
    return {
        "run_id": run_id,
        "agent": rec.agent,
        "variant_id": rec.variant_id,
        "task": rec.task,
        "band": rec.band,
        "seed": rec.seed,
        "epoch": rec.epoch,
        "episode_id": rec.episode_id,
        "termination": rec.termination,
        "episode_termination": rec.episode_termination,
        "scored": int(rec.scored),
        "score": rec.score,
        "passed": None if rec.passed is None else int(rec.passed),
        "grade": None if rec.grade is None else json.dumps(rec.grade),
        "transcript": json.dumps(rec.transcript),
        "usage": json.dumps(rec.usage),
        "answer": rec.answer,
        "error": rec.error,
        "steps": rec.steps,
        "started_at": rec.started_at,
        "ended_at": rec.ended_at,
        "duration_s": rec.duration_s,
        "timings": json.dumps(rec.timings),
        "attempts": attempts,
    }
