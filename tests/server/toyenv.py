"""A tiny environment for runtime tests: a key-value table, one read and three write tools.

`make_toy_env(tmp)` writes the snapshot into an importable package under ``tmp``
(so it is read through importlib.resources exactly as a shipped environment's is).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcpgym_grading.rubric import Rubric, SqlCheck
from mcpgym_server import (
    Environment,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
)
from tests.snapshot_pkg import install_snapshot_package


def _build_snapshot(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
    db.executemany("INSERT INTO kv VALUES (?, ?)", [("a", "1"), ("b", "2")])


def make_toy_env(tmp: Path, package: str = "toyenv_pkg") -> Environment:
    """Build the toy environment with its snapshot in ``tmp/<package>/data/kv.db``."""
    sha = install_snapshot_package(tmp, package, _build_snapshot)

    env = Environment(
        name="toy",
        version="0.1.0",
        snapshot=Snapshot(package, "data/kv.db", sha256=sha),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
        instructions="A key-value store.",
    )

    @env.tool(kind="write")
    def put(sb: Sandbox, key: str, value: str) -> dict[str, Any]:
        """Set a key.

        Args:
            key: the key.
            value: the value; "explode" triggers an environment bug, "reject" a tool error.
        """
        sb.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (key, value))
        if value == "explode":
            raise RuntimeError("secret internals")
        if value == "reject":
            raise ToolError(f"value {value!r} is not allowed; choose another value")
        return {"key": key, "value": value, "at": sb.clock.iso()}

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

    @env.tool(kind="read")
    def dump(sb: Sandbox) -> dict[str, str]:
        """Every key and value."""
        return {r[0]: r[1] for r in sb.db.execute("SELECT k, v FROM kv ORDER BY k")}

    def generate(g: Any) -> VariantSpec:
        value = str(g.rng.randint(100, 999))
        return VariantSpec(
            instruction=f"Set key `target` to {value}.",
            params={"value": value},
            reference=[ToolCall("put", {"key": "target", "value": value})],
        )

    env.add_family(
        TaskFamily(
            name="set-target",
            description="Set one key to a value.",
            bands=("easy", "medium"),
            generator=generate,
            generator_version="1",
            rubric=Rubric(
                checks=[
                    SqlCheck(
                        name="target-set",
                        sql="SELECT v FROM kv WHERE k = 'target'",
                        expected={"kind": "param", "name": "value"},
                        required=True,
                    )
                ]
            ),
        )
    )
    return env
