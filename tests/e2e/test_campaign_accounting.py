"""A campaign accounts for every episode it planned, whatever happens to the servers under it.

Real processes on loopback: ``mcpgym serve helpdesk``, ``mcpgym grading serve`` and
``mcpgym eval ... --env-url`` as a user runs them. The environment server is killed
(SIGKILL) once some episodes are stored, with others in flight (the campaign is held
with SIGSTOP from that moment until the server is dead): every planned episode
must still end as exactly one row of the run store (those the kill hit as
``infra_error``), the run must stay unfinished and the command must exit with status 3
(incomplete). Rerunning the same command against a restarted server resumes the run,
retries the unscored episodes, and ends with every episode scored.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from anyio.abc import Process

from mcpgym_clients import RunStore

ROOT = Path(__file__).resolve().parents[2]
MCPGYM = str(Path(sys.executable).with_name("mcpgym"))  # the console script of this venv
TOKEN = "accounting-test-token"
CONTROL = "accounting-control-token"
TASKS = "order-status,cancel-order,change-shipping-address"
BANDS = "easy,medium,hard"
PLANNED = 3 * 3 * 4  # families x bands x seeds (0-3)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def wait_healthy(url: str, proc: Process) -> None:
    """Poll ``url/healthz`` until it answers (bounded by the caller's ``fail_after``)."""
    async with httpx.AsyncClient(trust_env=False) as http:
        while True:
            assert proc.returncode is None, f"the server behind {url} exited"
            try:
                if (await http.get(f"{url}/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await anyio.sleep(0.05)


@asynccontextmanager
async def process(args: list[str], log: Path) -> AsyncIterator[Process]:
    """A child process writing to ``log``, killed (and reaped) on exit if still running."""
    with log.open("ab") as out:
        proc = await anyio.open_process(args, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
        with anyio.CancelScope(shield=True):
            await proc.wait()
            await proc.aclose()


def env_server(port: int, store: Path) -> list[str]:
    return [MCPGYM, "serve", "helpdesk", "--port", str(port), "--store", str(store)] + [
        "--control-token",
        CONTROL,
    ]


def stored(db: Path) -> int:
    """Episode rows committed so far (0 before the store or its schema exists)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM episodes").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.anyio
@pytest.mark.parametrize("concurrency", [1, 4, 16])
async def test_a_server_killed_mid_campaign_leaves_one_row_per_planned_episode(
    tmp_path: Path, concurrency: int
) -> None:
    episodes, db = tmp_path / "episodes", tmp_path / "runs.db"
    episodes.mkdir()
    env_port, grading_port = free_port(), free_port()
    env_url, grading_url = f"http://127.0.0.1:{env_port}", f"http://127.0.0.1:{grading_port}"
    command = [MCPGYM, "eval", "helpdesk", "--agent", "reference", "--tasks", TASKS]
    command += ["--bands", BANDS, "--seeds", "0-3", "--concurrency", str(concurrency)]
    command += ["--no-baseline", "--env-url", env_url, "--grading-url", grading_url]
    command += ["--grading-token", TOKEN, "--control-token", CONTROL, "--store", str(db)]
    command += ["--infra-retry-wait", "0"]  # a dead server: waiting would not bring it back
    env = {**os.environ, "COLUMNS": "200"}
    grading_args = [MCPGYM, "grading", "serve", "--port", str(grading_port)]
    grading_args += ["--store", str(episodes), "--token", TOKEN]
    log = tmp_path / "servers.log"
    async with process(grading_args, log) as grading:
        with anyio.fail_after(60):
            async with process(env_server(env_port, episodes), log) as server:
                await wait_healthy(env_url, server)
                await wait_healthy(grading_url, grading)
                out = tmp_path / "eval.out"
                async with process(command, out) as campaign:
                    # the kill waits on the store (rows committed), never on a clock; the
                    # campaign is frozen (SIGSTOP) meanwhile, so episodes are in flight
                    while stored(db) < 3:
                        assert campaign.returncode is None, out.read_text()
                        await anyio.sleep(0.01)
                    campaign.send_signal(signal.SIGSTOP)
                    server.send_signal(signal.SIGKILL)
                    assert await server.wait() == -signal.SIGKILL
                    campaign.send_signal(signal.SIGCONT)
                    code = await campaign.wait()
        text = out.read_text()
        assert code == 3, text

        with RunStore(db) as runs:
            (run,) = runs.runs()
            rows = runs.episodes(run["id"])
        slots = Counter((r["task"], r["band"], r["seed"], r["epoch"]) for r in rows)
        assert len(slots) == PLANNED and set(slots.values()) == {1}, slots
        assert run["finished_at"] is None
        outcomes = Counter(r["termination"] for r in rows)
        killed = outcomes["infra_error"]
        assert killed >= 1 and outcomes["completed"] + killed == PLANNED, outcomes
        assert all(r["score"] == 1.0 for r in rows if r["termination"] == "completed")
        assert all(r["error"] for r in rows if r["termination"] == "infra_error")
        assert f"incomplete: {killed} of {PLANNED} planned episodes are unscored" in text
        assert f"infra_error {killed}" in text

        # the same command against a restarted server resumes the run and retries them
        with anyio.fail_after(90):
            async with process(env_server(env_port, episodes), log) as server:
                await wait_healthy(env_url, server)
                result = await anyio.run_process(command, cwd=ROOT, env=env, check=False)
        again = result.stdout.decode() + result.stderr.decode()
        assert result.returncode == 0, again
        assert f"resuming run {run['id']}: {PLANNED - killed} of {PLANNED} episodes done" in again
        with RunStore(db) as runs:
            assert [r["id"] for r in runs.runs()] == [run["id"]]
            rows = runs.episodes(run["id"])
            assert runs.run(run["id"])["finished_at"] is not None
        assert len(rows) == PLANNED and all(r["score"] == 1.0 for r in rows)


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_server_restarted_under_live_episodes_costs_retries_not_the_campaign(
    tmp_path: Path,
) -> None:
    """The server is killed and started again on the same port while episodes are open:
    they answer 404 there (unknown episode), are retried as fresh episodes, and the
    campaign ends complete (exit 0, run finished, every episode scored)."""
    episodes, db = tmp_path / "episodes", tmp_path / "runs.db"
    episodes.mkdir()
    env_port, grading_port = free_port(), free_port()
    env_url, grading_url = f"http://127.0.0.1:{env_port}", f"http://127.0.0.1:{grading_port}"
    command = [MCPGYM, "eval", "helpdesk", "--agent", "reference", "--tasks", TASKS]
    command += ["--bands", BANDS, "--seeds", "0-3", "--concurrency", "8", "--no-baseline"]
    command += [
        "--env-url",
        env_url,
        "--grading-url",
        grading_url,
        "--grading-token",
        TOKEN,
        "--control-token",
        CONTROL,
    ]
    command += ["--store", str(db)]
    grading_args = [MCPGYM, "grading", "serve", "--port", str(grading_port)]
    grading_args += ["--store", str(episodes), "--token", TOKEN]
    log, out = tmp_path / "servers.log", tmp_path / "eval.out"
    async with process(grading_args, log) as grading:
        with anyio.fail_after(90):
            async with process(env_server(env_port, episodes), log) as server:
                await wait_healthy(env_url, server)
                await wait_healthy(grading_url, grading)
                async with process(command, out) as campaign:
                    while stored(db) < 3:
                        assert campaign.returncode is None, out.read_text()
                        await anyio.sleep(0.01)
                    campaign.send_signal(signal.SIGSTOP)  # hold its episodes open meanwhile
                    server.send_signal(signal.SIGKILL)
                    assert await server.wait() == -signal.SIGKILL
                    async with process(env_server(env_port, episodes), log) as restarted:
                        await wait_healthy(env_url, restarted)
                        campaign.send_signal(signal.SIGCONT)
                        code = await campaign.wait()
    text = out.read_text()
    assert code == 0, text
    with RunStore(db) as runs:
        (run,) = runs.runs()
        rows = runs.episodes(run["id"])
    assert run["finished_at"] is not None
    assert len(rows) == PLANNED and all(r["score"] == 1.0 for r in rows)
    retried = [r for r in rows if r["attempts"] > 1]
    assert retried, "no episode was live when the server restarted"
    assert "404" in (tmp_path / "servers.log").read_text()


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_server_that_comes_back_with_another_seed_salt_stops_the_campaign(
    tmp_path: Path,
) -> None:
    """The server is killed and started again on the same port with a seed salt it did not
    have: its episodes are other variants under the same ids. The campaign stops with the
    reason (exit 1, run unfinished) instead of finishing a run of two measurements
    (adversarial round 14, S1-8: rc 0, run finished, 15 of 28 rows salted variants)."""
    episodes, db = tmp_path / "episodes", tmp_path / "runs.db"
    episodes.mkdir()
    env_port, grading_port = free_port(), free_port()
    env_url, grading_url = f"http://127.0.0.1:{env_port}", f"http://127.0.0.1:{grading_port}"
    command = [MCPGYM, "eval", "helpdesk", "--agent", "reference", "--tasks", "order-status"]
    command += ["--bands", "easy,medium", "--seeds", "0-3", "--concurrency", "2", "--no-baseline"]
    command += ["--env-url", env_url, "--grading-url", grading_url, "--grading-token", TOKEN]
    command += ["--control-token", CONTROL, "--store", str(db), "--infra-retry-wait", "0"]
    grading_args = [MCPGYM, "grading", "serve", "--port", str(grading_port)]
    grading_args += ["--store", str(episodes), "--token", TOKEN]
    salted = [*env_server(env_port, episodes), "--seed-salt", "a-salt-it-did-not-have"]
    log, out = tmp_path / "servers.log", tmp_path / "eval.out"
    async with process(grading_args, log) as grading:
        with anyio.fail_after(180):
            async with process(env_server(env_port, episodes), log) as server:
                await wait_healthy(env_url, server)
                await wait_healthy(grading_url, grading)
                async with process(command, out) as campaign:
                    while stored(db) < 2:
                        assert campaign.returncode is None, out.read_text()
                        await anyio.sleep(0.01)
                    campaign.send_signal(signal.SIGSTOP)  # no episode starts meanwhile
                    server.send_signal(signal.SIGKILL)
                    assert await server.wait() == -signal.SIGKILL
                    async with process(salted, log) as restarted:
                        await wait_healthy(env_url, restarted)
                        campaign.send_signal(signal.SIGCONT)
                        code = await campaign.wait()
    text = out.read_text()
    assert code == 1, text
    assert "not the one this campaign started with" in text and "seed_salt" in text
    with RunStore(db) as runs:
        (run,) = runs.runs()
        rows = runs.episodes(run["id"])
    assert run["finished_at"] is None
    scored = [r for r in rows if r["scored"]]
    assert scored and all(r["variant_id"].endswith(f"#{r['seed']}") for r in scored)
    # every planned slot (2 bands x 4 seeds) is one row; those not played name the stop
    assert sorted((r["band"], r["seed"]) for r in rows) == [
        (b, s) for b in ("easy", "medium") for s in range(4)
    ], rows
    assert all(
        "not the one this campaign started with" in (r["error"] or "")
        for r in rows
        if not r["scored"]
    ), rows
    assert "incomplete: " in text and "of 8 planned episodes are unscored" in text, text
