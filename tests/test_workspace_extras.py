"""The workspace root exposes the extras of ``mcpgym-clients`` (adversarial round 18, F11).

``uv sync --extra ray`` at the root of a clone reads ``--extra`` as the root project's (the
``mcpgym`` meta-distribution): without the extra there it failed with ``Extra `ray` is not
defined in the optional-dependencies table for `mcpgym```, while the docs name the extra. The
root's extras forward to the package's, one for one, and the lock records them (so that
``uv sync --frozen --extra ray`` installs what the lock holds).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _extras(pyproject: Path) -> dict[str, list[str]]:
    data = tomllib.loads(pyproject.read_text())
    return data["project"].get("optional-dependencies", {})


def test_every_extra_of_the_clients_package_is_an_extra_of_the_root() -> None:
    clients = _extras(ROOT / "clients" / "pyproject.toml")
    root = _extras(ROOT / "pyproject.toml")
    assert {"ray", "train", "openai", "anthropic", "gemini", "all"} <= set(clients)
    assert root == {name: [f"mcpgym-clients[{name}]"] for name in clients}


def test_the_lock_holds_the_roots_extras() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    (meta,) = [p for p in lock["package"] if p["name"] == "mcpgym"]
    assert sorted(meta["metadata"]["provides-extras"]) == sorted(
        _extras(ROOT / "pyproject.toml")
    )
