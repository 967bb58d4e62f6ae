"""An infra retry waits first, so a grading service that restarts costs no episode.

Issue 9 section 1 (round 6b, B9): retries of an ``infra_error`` episode fired at once,
inside the outage, so a 3 s restart of the grading service at ``--concurrency 1
--infra-retries 1`` left 5 of 56 episodes unscored. Real processes on loopback: the
grading service is killed (SIGKILL) once episodes are stored, and started again only once
the campaign has said it is retrying (so the retry can only succeed if it waited); the
campaign ends complete: exit 0, every episode scored, the run finished.
"""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import pytest

from mcpgym_clients import RunStore

from .test_campaign_accounting import (
    CONTROL,
    MCPGYM,
    TOKEN,
    env_server,
    free_port,
    process,
    stored,
    wait_healthy,
)

PLANNED = 3 * 2  # families x bands, seed 0


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_grading_restart_during_the_retry_wait_loses_no_episode(tmp_path: Path) -> None:
    episodes, db = tmp_path / "episodes", tmp_path / "runs.db"
    episodes.mkdir()
    env_port, grading_port = free_port(), free_port()
    env_url, grading_url = f"http://127.0.0.1:{env_port}", f"http://127.0.0.1:{grading_port}"
    command = [MCPGYM, "eval", "helpdesk", "--agent", "reference", "--no-baseline"]
    command += ["--tasks", "order-status,cancel-order,change-shipping-address"]
    command += ["--bands", "easy,medium", "--seeds", "0", "--concurrency", "1"]
    command += ["--infra-retries", "1", "--infra-retry-wait", "20"]  # 10-20 s: room to restart
    command += ["--env-url", env_url, "--grading-url", grading_url, "--grading-token", TOKEN]
    command += ["--control-token", CONTROL, "--store", str(db)]
    grading_args = [MCPGYM, "grading", "serve", "--port", str(grading_port)]
    grading_args += ["--store", str(episodes), "--token", TOKEN]
    log, out = tmp_path / "servers.log", tmp_path / "eval.out"
    with anyio.fail_after(120):
        async with process(env_server(env_port, episodes), log) as server:
            async with process(grading_args, log) as grading:
                await wait_healthy(env_url, server)
                await wait_healthy(grading_url, grading)
                async with process(command, out) as campaign:
                    while stored(db) < 2:
                        assert campaign.returncode is None, out.read_text()
                        await anyio.sleep(0.01)
                    grading.send_signal(signal.SIGKILL)
                    assert await grading.wait() == -signal.SIGKILL
                    # restart only once the campaign waits to retry: an immediate retry
                    # would already have failed
                    while "infra_error; retrying in" not in out.read_text():
                        assert campaign.returncode is None, out.read_text()
                        await anyio.sleep(0.05)
                    async with process(grading_args, log) as restarted:
                        await wait_healthy(grading_url, restarted)
                        code = await campaign.wait()
    text = out.read_text()
    assert code == 0, text
    with RunStore(db) as runs:
        (run,) = runs.runs()
        rows = runs.episodes(run["id"])
    assert run["finished_at"] is not None
    assert len(rows) == PLANNED and all(r["score"] == 1.0 for r in rows), text
    assert [r["attempts"] for r in rows].count(2) >= 1, text
