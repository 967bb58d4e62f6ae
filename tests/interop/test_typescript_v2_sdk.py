"""The MCP TypeScript SDK v2 client (``@modelcontextprotocol/client``, from npm) over loopback.

`examples/typescript-v2/connect.mjs` connects in a given version-negotiation mode, lists
the tools, reads the episode resource, calls a tool and submits. On the connect-to-start
URL the auto mode (its ``server/discover`` probe refused) falls back to the 2025 handshake,
whose session is the episode; a client pinned to 2026-07-28 fails at connect with the
explanation. On an episode URL both modes work in the 2026 era, with the task in the
instructions. Installed with ``npm ci`` from the committed lock (see `npm_example`).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from mcpgym_clients import LocalServers

from .conftest import npm_example

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "typescript-v2"

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="session")
def ts_v2() -> Path:
    return npm_example(EXAMPLE, "connect.mjs")


async def _connect(folder: Path, url: str, mode: str, control_token: str) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None
    env = {**os.environ, "MCPGYM_CONTROL_TOKEN": control_token}
    with anyio.fail_after(60):
        done = await anyio.run_process(
            [node, "connect.mjs", url, mode], cwd=folder, check=False, env=env
        )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


async def test_auto_mode_on_connect_to_start_falls_back_to_a_session_that_is_an_episode(
    ts_v2: Path, servers: LocalServers
) -> None:
    url = f"{servers.env_url}/tasks/order-status/mcp?seed=4&band=medium"
    report = await _connect(ts_v2, url, "auto", servers.control_token)
    assert (report["protocol_version"], report["session"]) == ("2025-11-25", True)
    assert len(report["tools"]) == 23 and report["tools"][-1] == "submit"
    assert "Your task:" in report["instructions"]
    assert report["called"]["isError"] is False  # the tool call works: there is an episode
    assert json.loads(report["submitted"]["text"]) == {
        "status": "ended",
        "episode_id": report["episode_id"],
    }


async def test_client_pinned_to_2026_fails_at_connect_on_connect_to_start(
    ts_v2: Path, servers: LocalServers
) -> None:
    url = f"{servers.env_url}/tasks/order-status/mcp?seed=4"
    report = await _connect(ts_v2, url, "2026-07-28", servers.control_token)
    assert set(report) == {"error"}
    assert "connect-to-start URL /tasks/order-status/mcp" in report["error"]
    assert "POST /episodes" in report["error"]


@pytest.mark.parametrize("mode", ["auto", "2026-07-28"])
async def test_episode_url_serves_the_2026_era_with_the_task_in_the_instructions(
    ts_v2: Path, servers: LocalServers, mode: str
) -> None:
    async with httpx.AsyncClient(headers=servers.control_headers) as http:
        opened = await http.post(f"{servers.env_url}/episodes", json={"task": "order-status"})
    ep = opened.json()
    report = await _connect(ts_v2, ep["mcp_url"], mode, servers.control_token)
    assert (report["protocol_version"], report["session"]) == ("2026-07-28", False)
    assert ep["instruction"] in report["instructions"]
    assert report["episode_id"] == ep["episode_id"] and report["called"]["isError"] is False
