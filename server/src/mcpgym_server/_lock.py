"""The environment lock: one digest over everything that defines the instrument.

The lock covers the environment name and version, the snapshot sha256, the MCP tool
list as served (canonical JSON of every tool definition, ``submit`` included), what
else the agent reads (server instructions, resources such as a written policy, the
virtual clock's start and step), and per task family its bands, generator version,
rubric digest and a *generator fingerprint*: the digest of the variants the generator
makes for `FINGERPRINT_SEEDS` in every band (instruction, setup, params, reference
calls, answer), so a generator edited without a version bump changes the lock too.

Every bundle, grade and run records the digest; two runs on the same lock can be
compared. The lock file that pins it (``mcpgym.lock``) is `mcpgym_server._lockfile`.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from typing import Any

from mcpgym_server._bundle import canonical_json
from mcpgym_server._environment import Environment
from mcpgym_server._mcp_tools import tool_definitions
from mcpgym_server._tasks import TaskFamily

FINGERPRINT_SEEDS: tuple[int, ...] = (0, 1, 2)
"""Seeds whose variants (in every band) make up a family's generator fingerprint."""

_FINGERPRINTS: weakref.WeakKeyDictionary[Environment, dict[str, tuple[TaskFamily, str]]] = (
    weakref.WeakKeyDictionary()
)


def _sha(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def served_tools(env: Environment) -> list[dict[str, Any]]:
    """The MCP tool list exactly as served (``tools/list``), as JSON-ready dicts.

    Each dict is the wire form of one `mcp.types.Tool` (camelCase keys: ``name``,
    ``title``, ``description``, ``inputSchema``, ``annotations``), in served order
    (``submit`` last).
    """
    return [
        t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tool_definitions(env)
    ]


def tool_parts(env: Environment) -> dict[str, dict[str, str]]:
    """``{tool: {field: sha256}}`` over each served definition's fields (``description``,
    ``inputSchema``, ``annotations``...), so a lock change can name the part that changed."""
    return {t["name"]: {k: _sha(v) for k, v in sorted(t.items())} for t in served_tools(env)}


def _variant_json(env: Environment, family: TaskFamily, band: str, seed: int) -> Any:
    try:
        with env._generation_lock:  # noqa: SLF001 - uncached on purpose: see generator_fingerprint
            v = env._generate(family.name, band, seed)  # type: ignore[arg-type]  # noqa: SLF001
    except Exception as exc:  # a generator that fails is part of what it does
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {
        "instruction": v.instruction,
        "setup": [[sql, params] for sql, params in v.setup],
        "params": dict(v.params),
        "reference": [c.to_json() for c in v.reference],
        "answer": v.answer,
    }


def generator_fingerprint(env: Environment, family: TaskFamily) -> str:
    """Hex sha256 of the variants ``family`` generates for `FINGERPRINT_SEEDS` in each band.

    Generation bypasses the environment's variant cache, and the result is cached per
    family object (about 6 ms per helpdesk variant, once per process). A generator that
    raises contributes its error message.
    """
    cached = _FINGERPRINTS.setdefault(env, {}).get(family.name)
    if cached is not None and cached[0] is family:
        return cached[1]
    variants = {
        f"{band}#{seed}": _variant_json(env, family, band, seed)
        for band in family.bands
        for seed in FINGERPRINT_SEEDS
    }
    text = json.dumps(variants, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()
    _FINGERPRINTS[env][family.name] = (family, digest)
    return digest


def lock_components(env: Environment) -> dict[str, Any]:
    """The parts the lock digest is computed over (JSON-ready dict).

    Keys: ``env``, ``version``, ``snapshot_sha256``, ``tools_sha256`` (the served tool
    list), ``tools`` (``{name: sha256}`` of each served definition), ``surface_sha256``
    and ``surface`` (``instructions``, ``clock``, ``resources: {uri: sha256}``), and
    ``families: {name: {bands, generator_version, generator_fingerprint, rubric_digest}}``.
    """
    tools = served_tools(env)
    surface = {
        "instructions": _sha(env.instructions),
        "clock": _sha([env.clock_start.isoformat(), env.clock_step.total_seconds()]),
        "resources": {
            uri: _sha([r.name, r.description, r.mime_type, r.text])
            for uri, r in sorted(env.resources.items())
        },
    }
    return {
        "env": env.name,
        "version": env.version,
        "snapshot_sha256": env.snapshot.sha256,
        "tools_sha256": _sha(tools),
        "tools": {t["name"]: _sha(t) for t in tools},
        "surface_sha256": _sha(surface),
        "surface": surface,
        "families": {
            name: {
                "bands": list(fam.bands),
                "generator_version": fam.generator_version,
                "generator_fingerprint": generator_fingerprint(env, fam),
                "rubric_digest": fam.rubric.digest(),
            }
            for name, fam in sorted(env.families.items())
        },
    }


def lock_digest(components: dict[str, Any]) -> str:
    """Hex sha256 of canonical JSON of `lock_components` output."""
    return _sha(components)


def compute_lock(env: Environment) -> str:
    """The environment's lock digest: hex sha256 over `lock_components` (canonical JSON)."""
    return lock_digest(lock_components(env))
