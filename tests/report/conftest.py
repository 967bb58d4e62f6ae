"""Real runs for the report's tests: reference + null baseline on helpdesk, and a second run.

One small campaign per test session over real loopback servers (environment server,
grading service, MCP): the `reference` agent with its `null` baseline, then the hostile
agent (`agents.HostileAgent`, same variants and lock) as the second run for ``--vs``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from rich.console import Console

from mcpgym_clients import (
    EpisodeDriver,
    ReferenceAgent,
    RunStore,
    run_campaign,
    select_variants,
    serve_locally,
)
from mcpgym_server import load_environment

from .agents import HostileAgent

TASKS = ["order-status", "refund-damaged-item"]
BANDS = ["easy", "hard"]
SEEDS = [0, 1]
EPOCHS = 2


@dataclass(frozen=True)
class Campaign:
    """The stored runs: ``reference`` (with ``baseline``, the null agent) and ``hostile``."""

    store: Path
    reference: str
    baseline: str
    hostile: str


async def _run(store_path: Path, episodes: Path) -> Campaign:
    env = load_environment("helpdesk")
    quiet = Console(file=io.StringIO())
    with anyio.fail_after(120), RunStore(store_path) as store:
        async with serve_locally(env, episodes) as servers:
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
            ) as driver:
                info = await driver.server_info()
                variants = select_variants(info, TASKS, BANDS, SEEDS)
                ref = await run_campaign(
                    driver,
                    ReferenceAgent(),
                    variants,
                    store,
                    epochs=EPOCHS,
                    console=quiet,
                    show_progress=False,
                )
                hostile = await run_campaign(
                    driver,
                    HostileAgent(),
                    variants,
                    store,
                    epochs=EPOCHS,
                    baseline=False,
                    console=quiet,
                    show_progress=False,
                )
    assert ref.baseline_run_id is not None
    return Campaign(store_path, ref.run_id, ref.baseline_run_id, hostile.run_id)


@pytest.fixture(scope="session")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp("report-campaign")
    return anyio.run(_run, root / "mcpgym.db", root / "episodes", backend="asyncio")
