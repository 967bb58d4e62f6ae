"""End-to-end fixtures: the helpdesk environment server and the grading service on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

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
