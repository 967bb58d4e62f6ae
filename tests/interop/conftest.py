"""Interop fixtures: helpdesk and its grading service on loopback, and a grading helper."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcpgym_clients import LocalServers, serve_locally
from mcpgym_server import Environment, load_environment


@pytest.fixture(scope="session")
def helpdesk() -> Environment:
    return load_environment("helpdesk")


@pytest.fixture
async def servers(helpdesk: Environment, tmp_path: Path) -> AsyncIterator[LocalServers]:
    async with serve_locally(helpdesk, tmp_path / "episodes") as running:
        yield running


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
