"""The environment lock: one digest over everything that defines the instrument.

The lock covers the environment name and version, the snapshot sha256, the tool
schemas as served (canonical JSON of name, description, kind and input schema),
and per task family its generator version and rubric digest. Every bundle, grade
and run records it; two runs on the same lock can be compared.
"""

from __future__ import annotations

import hashlib
from typing import Any

from mcpgym_server.bundle import canonical_json
from mcpgym_server.environment import Environment


def tool_schemas(env: Environment) -> list[dict[str, Any]]:
    """The tool list as served over MCP, sorted by name (JSON-ready dicts)."""
    return [
        {
            "name": t.name,
            "description": t.description,
            "kind": t.kind,
            "input_schema": t.input_schema,
        }
        for t in sorted(env.tools.values(), key=lambda t: t.name)
    ]


def lock_components(env: Environment) -> dict[str, Any]:
    """The parts the lock digest is computed over (JSON-ready dict)."""
    return {
        "env": env.name,
        "version": env.version,
        "snapshot_sha256": env.snapshot.sha256,
        "tools_sha256": hashlib.sha256(canonical_json(tool_schemas(env)).encode()).hexdigest(),
        "families": {
            name: {
                "generator_version": fam.generator_version,
                "rubric_digest": fam.rubric.digest(),
            }
            for name, fam in sorted(env.families.items())
        },
    }


def compute_lock(env: Environment) -> str:
    """Hex sha256 over `lock_components` (canonical JSON)."""
    return hashlib.sha256(canonical_json(lock_components(env)).encode()).hexdigest()
