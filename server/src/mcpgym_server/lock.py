"""The environment lock: one digest over everything that defines the instrument.

The lock covers the environment name and version, the snapshot sha256, the tool
schemas as served (canonical JSON of name, description, kind and input schema),
what else the agent reads (server instructions, resources such as a written
policy, the virtual clock's start and step), and per task family its generator
version and rubric digest. Every bundle, grade
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


def _sha(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def lock_components(env: Environment) -> dict[str, Any]:
    """The parts the lock digest is computed over (JSON-ready dict)."""
    return {
        "env": env.name,
        "version": env.version,
        "snapshot_sha256": env.snapshot.sha256,
        "tools_sha256": _sha(tool_schemas(env)),
        "surface_sha256": _sha(
            {
                "instructions": env.instructions,
                "resources": {
                    uri: [r.name, r.description, r.mime_type, r.text]
                    for uri, r in sorted(env.resources.items())
                },
                "clock": [env.clock_start.isoformat(), env.clock_step.total_seconds()],
            }
        ),
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
