"""The official MCP TypeScript SDK (from npm) drives helpdesk episodes over loopback HTTP.

`examples/typescript/episode.mjs` opens an episode with ``POST /episodes``, connects to
its ``mcp_url``, lists the tools, provokes two tool errors, solves the ticket and
submits; the test then grades the sealed episode. The SDK is installed with ``npm ci``
from the committed lock file into ``.mcpgym/interop/`` (gitignored), once per lock file:
later runs reuse it. Without node and npm the test is skipped, saying so; with
``MCPGYM_INTEROP_REQUIRED=1`` (set by ``.ci/run`` when node is present) a failed install
fails the test instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpgym_clients import LocalServers

from .conftest import grade

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "typescript"
CACHE = REPO / ".mcpgym"
REQUIRED = os.environ.get("MCPGYM_INTEROP_REQUIRED") == "1"


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason} (MCPGYM_INTEROP_REQUIRED=1)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def ts_client() -> Path:
    """A folder holding ``episode.mjs`` next to an installed ``node_modules``."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        _unavailable("node and npm are needed to run the MCP TypeScript SDK; install Node >= 18")
    assert node is not None and npm is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 18:
        _unavailable(f"the MCP TypeScript SDK needs Node >= 18, found {version.stdout.strip()}")
    lock = (EXAMPLE / "package-lock.json").read_bytes()
    folder = CACHE / "interop" / f"ts-{hashlib.sha256(lock).hexdigest()[:12]}"
    marker = folder / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
    if not marker.is_file():
        staging = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(EXAMPLE / name, staging / name)
        started = time.perf_counter()
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
            _unavailable(f"npm ci of @modelcontextprotocol/sdk failed (offline?): {'|'.join(tail)}")
        print(f"npm ci took {time.perf_counter() - started:.1f} s")  # shown with -s
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    shutil.copy2(EXAMPLE / "episode.mjs", folder / "episode.mjs")  # always the current script
    return folder


async def run_client(folder: Path, *args: str, control_token: str) -> dict[str, Any]:
    """Run ``node episode.mjs ARGS`` (the server's control token in its environment, as
    a harness would give it) and return the JSON report it prints."""
    node = shutil.which("node")
    assert node is not None
    env = {**os.environ, "MCPGYM_CONTROL_TOKEN": control_token}
    with anyio.fail_after(60):
        done = await anyio.run_process(
            [node, "episode.mjs", *args], cwd=folder, check=False, env=env
        )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


async def assert_full_marks(servers: LocalServers, episode_id: str, variant_id: str) -> None:
    graded = await grade(servers, episode_id)
    assert graded["variant_id"] == variant_id
    failed = [c["name"] for c in graded["checks"] if c["applicable"] and not c["passed"]]
    assert (graded["status"], graded["score"], graded["passed"], failed) == (
        "graded",
        1.0,
        True,
        [],
    )
    assert graded["termination"] == "submitted"


@pytest.mark.anyio
@pytest.mark.parametrize("band", ["easy", "medium", "hard"])
async def test_the_typescript_sdk_solves_an_episode_that_grades_full_marks(
    ts_client: Path, servers: LocalServers, band: str
) -> None:
    report = await run_client(
        ts_client, servers.env_url, "order-status", band, "3", control_token=servers.control_token
    )

    # a 2025-era client with a session, speaking to the episode URL
    assert report["server"] == "mcpgym-helpdesk 1.0.0"
    assert report["protocol_version"] == "2025-11-25" and report["session"] is True
    assert len(report["tools"]) == 23 and report["tools"][-1] == "submit"
    # tool errors reach the client as error results with the tool's message
    assert report["missing_order"] == {
        "isError": True,
        "text": "no order with id 1; order numbers look like 100234 "
        "(use find_orders to list a customer's orders)",
    }
    assert report["bad_arguments"]["isError"] is True
    assert "`ticket_id`: Input should be a valid integer" in report["bad_arguments"]["text"]
    assert report["submitted"] == {"status": "ended", "episode_id": report["episode_id"]}
    assert report["after_seal"]["isError"] is True
    assert "has ended (termination reason: submitted)" in report["after_seal"]["text"]
    await assert_full_marks(servers, report["episode_id"], f"helpdesk/order-status@{band}#3")


@pytest.mark.anyio
async def test_the_typescript_sdk_on_the_connect_to_start_url_gets_its_own_episode(
    ts_client: Path, servers: LocalServers
) -> None:
    url = f"{servers.env_url}/tasks/order-status/mcp?seed=4&band=medium"
    first = await run_client(ts_client, url, control_token=servers.control_token)
    second = await run_client(ts_client, url, control_token=servers.control_token)
    assert first["episode_id"].startswith("ep_") and first["episode_id"] != second["episode_id"]
    assert first["variant_id"] is None  # the agent never learns the seed or variant
    assert first["submitted"] == {"status": "ended", "episode_id": first["episode_id"]}
    for report in (first, second):
        await assert_full_marks(servers, report["episode_id"], "helpdesk/order-status@medium#4")
