"""A tiny environment for the clients' end-to-end tests: a key-value table.

Family ``set-target`` (bands easy, medium): "Set key `target` to N." The rubric
requires ``kv.target == N``; the reference solution is one ``put`` and the
answer ``"done"``. The snapshot is written into a throw-away package so that
`Snapshot` reads it through importlib.resources like a shipped environment.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck
from mcpgym_server import (
    Environment,
    Generation,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
)
from mcpgym_server.lock import current_lock, write_lock
from tests.snapshot_pkg import install_snapshot_package

PACKAGE = "mcpgym_clients_toyenv_data"


def target_value(band: str, seed: int) -> str:
    """The value variant ``set-target@band#seed`` asks for (read from the generator)."""
    return str(100 + seed) if band == "easy" else str(500 + seed)


def make_toy_env(tmp: Path) -> Environment:
    """Build the toy environment with its snapshot under ``tmp``."""

    def build(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        db.execute("INSERT INTO kv VALUES ('a', '1')")

    sha256 = install_snapshot_package(tmp, PACKAGE, build)
    env = Environment(
        name="toy",
        version="0.1.0",
        snapshot=Snapshot(PACKAGE, "data/kv.db", sha256=sha256),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
        instructions="A key-value store.",
    )

    @env.tool(kind="write")
    def put(sb: Sandbox, key: str, value: str) -> dict[str, Any]:
        """Set a key.

        Args:
            key: the key.
            value: the value ("reject" is refused with a tool error).
        """
        if value == "reject":
            raise ToolError(f"value {value!r} is not allowed")
        sb.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (key, value))
        return {"key": key, "value": value}

    @env.tool(kind="read")
    def get(sb: Sandbox, key: str) -> dict[str, Any]:
        """Read a key.

        Args:
            key: the key.
        """
        row = sb.db.execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        if row is None:
            raise ToolError(f"no key {key!r}")
        return {"key": key, "value": row[0]}

    def generate(g: Generation) -> VariantSpec:
        value = target_value(g.band, g.seed)
        return VariantSpec(
            instruction=f"Set key `target` to {value}.",
            params={"value": value},
            reference=[ToolCall("put", {"key": "target", "value": value})],
            answer="done",
        )

    env.add_family(
        TaskFamily(
            name="set-target",
            description="Set one key to a value.",
            bands=("easy", "medium"),
            generator=generate,
            generator_version="1",
            rubric=Rubric(
                checks=(
                    SqlCheck(
                        name="target-set",
                        sql="SELECT v FROM kv WHERE k = 'target'",
                        expected=Param(name="value"),
                        required=True,
                    ),
                )
            ),
        )
    )
    write_lock(env, current_lock(env))  # the CLI serves only locked environments
    return env
