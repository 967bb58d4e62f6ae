"""A small environment for the instrument's tests: a key-value store with a secret in a vault.

Family ``copy-secret`` (bands easy, medium): "Set key `target` to the secret stored under
key `vault`." The setup stores a per-variant secret under ``vault``; the reference reads
it (``get``) and writes it (``put``). Rubric: the target holds the secret (required), the
vault is intact, no stray keys, and ``get`` was called. A random agent cannot guess the
secret, so it never passes; every check fails on some control run.

`make_env` builds it in a fresh importable package under ``tmp`` (so its lock file and
``reference_runs/`` are private to the test), with options that break it on purpose.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcpgym_grading import Param, Rubric, SqlCheck, ToolCalled
from mcpgym_server import (
    Environment,
    Generation,
    Resource,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
)
from tests.snapshot_pkg import install_snapshot_package

_COUNTER = itertools.count()


def secret(band: str, seed: int) -> str:
    """The secret of variant ``copy-secret@band#seed``."""
    return f"q{seed * 7 + 3}z{band[0]}"


def new_package() -> str:
    """A package name no other test uses."""
    return f"mcpgym_instrument_toy_{next(_COUNTER)}_{time.monotonic_ns()}"


def build_snapshot(tmp: Path, package: str) -> str:
    """Write the snapshot package; return the snapshot's sha256."""

    def build(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, stamp INTEGER)")
        db.execute("INSERT INTO kv VALUES ('a', '1', 0)")

    return install_snapshot_package(tmp, package, build)


def make_env(
    tmp: Path,
    package: str,
    sha256: str,
    *,
    version: str = "0.1.0",
    vacuous_check: bool = False,
    nondeterministic: bool = False,
    weight: float = 1.0,
    generator_version: str = "1",
    instruction_suffix: str = "",
    get_description: str = "the key.",
    extra_tool: bool = False,
    instructions: str = "A key-value store.",
    policy: str | None = None,
    get_suffix: str = "",
    get_summary: str = "Read a key.",
    late_generator_change: bool = False,
    list_keys: bool = False,
) -> Environment:
    """The toy environment in ``package`` (built with `build_snapshot`), optionally broken.

    Args:
        vacuous_check: add a check nothing can fail. nondeterministic: ``put`` writes the
            wall-clock time into an unchecked column. weight: weight of ``vault-intact``.
        generator_version, instruction_suffix: change the generator (with or without a bump).
        get_description: the ``key`` argument's description of ``get`` (its schema).
        extra_tool: declare one more tool. instructions: server instructions.
        policy: a resource's text (no resource when ``None``).
        get_suffix: ``get`` returns the value with this appended (a behaviour change that
            leaves every schema alone). get_summary: ``get``'s description (not its schema).
        late_generator_change: seeds >= 3 get one more parameter (a generator change the
            lock's fingerprint seeds 0-2 do not see).
        list_keys: one more read tool, ``keys``, returning ``list(set_of_keys)`` (its order
            depends on the process's string hash seed).
    """
    env = Environment(
        name="toyvault",
        version=version,
        snapshot=Snapshot(package, "data/kv.db", sha256=sha256),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
        instructions=instructions,
    )
    if policy is not None:
        env.add_resource(Resource("toy://policy", "policy", "The policy.", "text/plain", policy))

    @env.tool(kind="write")
    def put(sb: Sandbox, key: str, value: str) -> dict[str, Any]:
        """Set a key.

        Args:
            key: the key.
            value: the value.
        """
        stamp = time.time_ns() if nondeterministic else 0
        sb.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?, ?)", (key, value, stamp))
        return {"key": key, "value": value}

    @env.tool(kind="write")
    def delete(sb: Sandbox, key: str) -> dict[str, Any]:
        """Delete a key.

        Args:
            key: the key.
        """
        sb.db.execute("DELETE FROM kv WHERE k = ?", (key,))
        return {"deleted": key}

    def get(sb: Sandbox, key: str) -> dict[str, Any]:
        row = sb.db.execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        if row is None:
            raise ToolError(f"no key {key!r}")
        return {"key": key, "value": row[0] + get_suffix}

    get.__doc__ = f"""{get_summary}

        Args:
            key: {get_description}
        """
    env.tool(kind="read", name="get")(get)

    if list_keys:

        @env.tool(kind="read")
        def keys(sb: Sandbox) -> dict[str, Any]:
            """List the keys."""
            found = {row[0] for row in sb.db.execute("SELECT k FROM kv")}
            return {"keys": list(found)}

    if extra_tool:

        @env.tool(kind="read")
        def count(sb: Sandbox) -> dict[str, Any]:
            """Count the keys."""
            return {"count": sb.db.execute("SELECT COUNT(*) FROM kv").fetchone()[0]}

    def generate(g: Generation) -> VariantSpec:
        value = secret(g.band, g.seed)
        return VariantSpec(
            instruction="Set key `target` to the secret stored under key `vault`."
            + instruction_suffix,
            setup=[("INSERT INTO kv VALUES ('vault', ?, 0)", (value,))],
            params={
                "value": value,
                **({"late": 1} if late_generator_change and g.seed >= 3 else {}),
            },
            reference=[
                ToolCall("get", {"key": "vault"}),
                ToolCall("put", {"key": "target", "value": value}),
            ],
        )

    checks: list[Any] = [
        SqlCheck(
            name="target-set",
            sql="SELECT v FROM kv WHERE k = 'target'",
            expected=Param("value"),
            required=True,
            weight=2,
        ),
        SqlCheck(
            name="vault-intact",
            sql="SELECT v FROM kv WHERE k = 'vault'",
            expected=Param("value"),
            weight=weight,
        ),
        SqlCheck(
            name="no-stray-keys",
            sql="SELECT COUNT(*) FROM kv WHERE k NOT IN ('a', 'vault', 'target')",
            expected=0,
        ),
        ToolCalled(name="read-the-vault", tool="get", arguments={"key": "vault"}),
    ]
    if vacuous_check:
        checks.append(SqlCheck(name="always-true", sql="SELECT 1", expected=1))
    env.add_family(
        TaskFamily(
            name="copy-secret",
            description="Copy the secret from the vault to the target key.",
            bands=("easy", "medium"),
            generator=generate,
            generator_version=generator_version,
            rubric=Rubric(checks=tuple(checks), threshold=1.0),
        )
    )
    return env
