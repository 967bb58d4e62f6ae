"""Fixtures for the clients' tests: the toy environment and recorded model responses."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcpgym_clients import LocalServers, serve_locally
from mcpgym_server import Environment
from tests.toyenv import make_toy_env

CASSETTES = Path(__file__).parent / "cassettes"

# Ray reads this once, when it is first imported: set here, before any test of this folder
# imports it, so that its workers never run under `uv run` (which would sync an environment
# without Ray: workers that die at start and actors that never come up). A fixture that sets
# it later is too late once another test has imported Ray.
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")


@pytest.fixture(scope="session")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return make_toy_env(tmp_path_factory.mktemp("clients-toy"), lock=True)


class Cassette:
    """Serves recorded Chat Completions responses in order and keeps the requests sent.

    A cassette file is ``{"interactions": [{"status": 200, "response": {...}}, ...]}``.
    """

    def __init__(self, name: str) -> None:
        data = json.loads((CASSETTES / name).read_text())
        self.interactions: list[dict[str, Any]] = list(data["interactions"])
        self.requests: list[httpx.Request] = []

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The JSON bodies of the requests sent so far."""
        return [json.loads(r.content) for r in self.requests]

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.interactions:
            return httpx.Response(599, json={"error": {"message": "cassette exhausted"}})
        item = self.interactions.pop(0)
        return httpx.Response(
            item.get("status", 200), json=item["response"], headers=item.get("headers", {})
        )

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handler)


@pytest.fixture
def cassette() -> Callable[[str], Cassette]:
    return Cassette


@pytest.fixture
async def servers(toy_env: Environment, tmp_path: Path) -> AsyncIterator[LocalServers]:
    """The toy environment and its grading service on loopback (one pair per test)."""
    async with serve_locally(toy_env, tmp_path / "episodes") as s:
        yield s
