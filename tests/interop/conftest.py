"""Interop fixtures: helpdesk and its grading service on loopback, and a grading helper."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcpgym_clients import LocalServers
from tests.e2e import conftest as e2e

CACHE = Path(__file__).resolve().parents[2] / ".mcpgym"
"""Installed npm examples and the npm cache (gitignored)."""

helpdesk = e2e.helpdesk  # the same fixtures as the end-to-end tests
servers = e2e.servers


async def grade(servers: LocalServers, episode_id: str) -> dict[str, Any]:
    """Ask the grading service (with the token no agent gets) for the episode's grade."""
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        response = await http.post(
            f"{servers.grading_url}/grades",
            json={"episode_id": episode_id},
            headers={"authorization": f"Bearer {servers.grading_token}"},
        )
    assert response.status_code == 200, response.text
    return response.json()


def npm_example(example: Path, entry: str) -> Path:
    """A folder holding ``example/entry`` beside the ``node_modules`` that ``npm ci`` installs
    from ``example``'s committed lock file, under ``.mcpgym/interop/`` (gitignored), once per
    lock file. Skips the test without Node >= 20 and npm, or when the install fails
    (offline); with ``MCPGYM_INTEROP_REQUIRED=1`` those fail it instead."""
    required = os.environ.get("MCPGYM_INTEROP_REQUIRED") == "1"

    def unavailable(reason: str) -> None:
        if required:
            pytest.fail(f"{reason} (MCPGYM_INTEROP_REQUIRED=1)")
        pytest.skip(reason)

    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        unavailable("node and npm are needed to run the MCP TypeScript SDK; install Node >= 20")
    assert node is not None and npm is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 20:
        unavailable(f"the MCP TypeScript SDK v2 needs Node >= 20, found {version.stdout.strip()}")
    lock = (example / "package-lock.json").read_bytes()
    folder = CACHE / "interop" / f"{example.name}-{hashlib.sha256(lock).hexdigest()[:12]}"
    if not (folder / "node_modules" / ".package-lock.json").is_file():
        staging = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(example / name, staging / name)
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"]
            + ["--cache", str(CACHE / "npm")],
            cwd=staging,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            unavailable(f"npm ci in {example.name} failed (offline?): {'|'.join(tail)}")
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    shutil.copy2(example / entry, folder / entry)  # always the current script
    return folder


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here starts real tools (node and npm, `mcpgym new`, wheel builds): `slow`,
    deselected by the default `uv run pytest`; `.ci/run` runs them with `-m slow`."""
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.slow)
