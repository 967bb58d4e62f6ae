"""Interop fixtures: helpdesk and its grading service on loopback, and a grading helper."""

from __future__ import annotations

from typing import Any

import httpx

from mcpgym_clients import LocalServers
from tests.e2e import conftest as e2e

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
