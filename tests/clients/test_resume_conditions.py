"""A campaign resumes a run only under everything that decided its episodes: the same seed
salt (compared by a keyed fingerprint the server reports to its control-token holder), the
same caps, the same agent; otherwise it starts a new run and says what differed."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from rich.console import Console

from mcpgym_clients import (
    EpisodeDriver,
    ReferenceAgent,
    RunStore,
    VariantKey,
    run_campaign,
    serve_locally,
)
from mcpgym_clients.resume import differences
from mcpgym_server import Environment
from mcpgym_server.runtime import salt_fingerprint, salted_seed

from .test_cli import toy_installed

__all__ = ["toy_installed"]  # a fixture, used by name

pytestmark = pytest.mark.anyio

SALT_A = "salt-a-only-the-operator-knows"
SALT_B = "salt-b-only-the-operator-knows"
VARIANTS = [VariantKey("set-target", "easy", 0), VariantKey("set-target", "easy", 1)]


def crash_after_first_episode(db: Path, run_id: str) -> None:
    """What a ``kill -9`` after one stored episode leaves: the seed-1 row gone, unfinished."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DELETE FROM episodes WHERE run_id = ? AND seed = 1", [run_id])
        conn.execute("UPDATE runs SET finished_at = NULL WHERE id = ?", [run_id])
    conn.close()


async def campaign(
    env: Environment,
    episodes: Path,
    db: Path,
    *,
    salt: str | None,
    cap: float | None = 600.0,
    variants: Sequence[VariantKey] = VARIANTS,
    **server: Any,
) -> tuple[str, str]:
    """One campaign against a loopback server started with ``salt``, as ``--env-url`` gives
    the harness only its URL and control token (``server``: more of `serve_locally`'s
    settings); returns the run id and what was printed."""
    console = Console(record=True, width=400)
    with anyio.fail_after(30):
        async with serve_locally(env, episodes, seed_salt=salt, **server) as servers:
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=env,
                episode_timeout=cap,
            ) as driver:
                with RunStore(db) as store:
                    result = await run_campaign(
                        driver,
                        ReferenceAgent(),
                        variants,
                        store,
                        baseline=False,
                        concurrency=1,
                        argv=["mcpgym", "eval", "toy", "--seed-salt", "***"],
                        console=console,
                        show_progress=False,
                    )
    return result.run_id, console.export_text()


def store_holds(folder: Path, secret: str) -> bool:
    """Whether any file of the run store (database, WAL) holds ``secret``."""
    return any(secret.encode() in p.read_bytes() for p in folder.glob("runs.db*"))


def variant_ids(db: Path, run_id: str) -> dict[int, str]:
    with RunStore(db) as store:
        return {e["seed"]: e["variant_id"] for e in store.episodes(run_id)}


async def test_a_server_restarted_with_another_salt_starts_a_new_run_never_a_mixed_one(
    toy_env: Environment, tmp_path: Path
) -> None:
    db, episodes = tmp_path / "runs.db", tmp_path / "episodes"
    first, _ = await campaign(toy_env, episodes, db, salt=SALT_A)
    crash_after_first_episode(db, first)

    second, out = await campaign(toy_env, episodes, db, salt=SALT_B)  # the server came back
    assert second != first, "a run holding variants of two salts"
    assert f"starting a new run: run {first} " in out and "seed salt (--seed-salt" in out
    assert SALT_A not in out and SALT_B not in out
    assert variant_ids(db, first) == {
        0: f"toy/set-target@easy#{salted_seed(SALT_A, 'set-target', 'easy', 0)}"
    }
    assert (
        variant_ids(db, second)[1]
        == f"toy/set-target@easy#{salted_seed(SALT_B, 'set-target', 'easy', 1)}"
    )

    third, out = await campaign(toy_env, episodes, db, salt=SALT_A)  # the run's own salt
    assert third == first and f"resuming run {first}: 1 of 2 episodes done" in out
    assert (
        variant_ids(db, first)[1]
        == f"toy/set-target@easy#{salted_seed(SALT_A, 'set-target', 'easy', 1)}"
    )
    with RunStore(db) as store:
        assert store.run(first)["finished_at"] is not None
        stored = store.run(first)["conditions"]
    assert stored["server"]["seed_salt"] == salt_fingerprint(SALT_A)
    assert not store_holds(tmp_path, SALT_A) and not store_holds(tmp_path, SALT_B)


async def test_an_unsalted_rerun_of_a_salted_run_and_another_hard_cap_start_new_runs(
    toy_env: Environment, tmp_path: Path
) -> None:
    db, episodes = tmp_path / "runs.db", tmp_path / "episodes"
    first, _ = await campaign(toy_env, episodes, db, salt=SALT_A)
    crash_after_first_episode(db, first)
    unsalted, out = await campaign(toy_env, episodes, db, salt=None)
    assert unsalted != first and "seed salt" in out
    crash_after_first_episode(db, unsalted)
    capped, out = await campaign(toy_env, episodes, db, salt=None, cap=30.0)
    assert capped not in (first, unsalted), "a run mixing two hard caps per episode"
    assert f"starting a new run: run {unsalted} " in out
    assert "hard cap per episode (--timeout)" in out


async def test_a_run_served_at_another_request_rate_is_not_resumed(
    toy_env: Environment, tmp_path: Path
) -> None:
    db, episodes = tmp_path / "runs.db", tmp_path / "episodes"
    first, _ = await campaign(toy_env, episodes, db, salt=None, max_requests_per_second=50.0)
    crash_after_first_episode(db, first)
    faster, out = await campaign(toy_env, episodes, db, salt=None, max_requests_per_second=60.0)
    assert faster != first, "a run served at two request rates"
    assert f"starting a new run: run {first} " in out
    assert "(--max-requests-per-second)" in out and "(--request-burst)" not in out
    crash_after_first_episode(db, faster)
    burst, out = await campaign(
        toy_env, episodes, db, salt=None, max_requests_per_second=60.0, request_burst=300
    )
    assert burst not in (first, faster) and "(--request-burst)" in out
    again, out = await campaign(toy_env, episodes, db, salt=None, max_requests_per_second=50.0)
    assert again == first and f"resuming run {first}: 1 of 2 episodes done" in out
    with RunStore(db) as store:
        stored = store.run(first)["conditions"]["server"]
    assert (stored["max_requests_per_second"], stored["request_burst"]) == (50.0, 200)


async def test_a_new_run_of_a_finished_runs_inputs_says_that_run_exists(
    toy_env: Environment, tmp_path: Path
) -> None:
    """A finished run's variants spelled otherwise (here: the other order, as ``--seeds 1,0``
    for ``0-1``) play again as a new run, as documented, and the campaign says that an
    identical finished run exists and how to read it; before (stop 26, LOW), nothing said
    so. Under another seed salt (another measurement) nothing is said."""
    db, episodes = tmp_path / "runs.db", tmp_path / "episodes"
    first, _ = await campaign(toy_env, episodes, db, salt=None)

    again, out = await campaign(toy_env, episodes, db, salt=None, variants=VARIANTS[::-1])

    assert again != first
    said = " ".join(out.split())
    assert (
        f"starting a new run: run {first} (same agent, variants and settings) finished at "
    ) in said, said
    assert f"every episode is played again; its results: mcpgym show {first}" in said
    salted, out = await campaign(toy_env, episodes, db, salt=SALT_A)
    assert salted not in (first, again) and "starting a new run" not in out, out


async def test_a_run_recorded_without_its_conditions_is_not_resumed(
    toy_env: Environment, tmp_path: Path
) -> None:
    db, episodes = tmp_path / "runs.db", tmp_path / "episodes"
    first, _ = await campaign(toy_env, episodes, db, salt=None)
    crash_after_first_episode(db, first)
    conn = sqlite3.connect(db)  # as a store written before runs recorded their conditions
    with conn:
        conn.execute("UPDATE runs SET conditions = NULL")
    conn.close()
    second, out = await campaign(toy_env, episodes, db, salt=None)
    assert second != first and "did not record (an older mcpgym)" in out


async def test_the_salt_fingerprint_is_reported_only_to_the_control_token_holder(
    toy_env: Environment, tmp_path: Path
) -> None:
    with anyio.fail_after(20):
        async with serve_locally(toy_env, tmp_path / "episodes", seed_salt=SALT_A) as servers:
            async with httpx.AsyncClient(base_url=servers.env_url) as http:
                open_body = (await http.get("/tasks")).json()
                harness = (await http.get("/tasks", headers=servers.control_headers)).json()
    assert "episode_settings" not in open_body  # an agent's view: nothing about the salt
    reported = harness["episode_settings"]
    assert reported["seed_salt"] == salt_fingerprint(SALT_A) != salt_fingerprint(SALT_B)
    assert SALT_A not in str(harness)
    assert {"idle_ttl", "log_value_cap", "log_budget"} <= set(reported)


def test_fingerprints_are_keyed_and_never_the_salt_or_a_seed() -> None:
    fp = salt_fingerprint(SALT_A)
    assert fp == salt_fingerprint(SALT_A) and fp is not None and fp.startswith("hmac-sha256:")
    assert SALT_A not in fp and salt_fingerprint(None) is None
    with pytest.raises(ValueError, match="must not be empty"):
        salt_fingerprint("")


def _row(**changes: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": "r",
        "lock": "L" * 64,
        "model": None,
        "settings": {"max_turns": 30},
        "conditions": {
            "server": {"seed_salt": "hmac-sha256:aa", "idle_ttl": 600.0, "log_budget": 1},
            "episode_timeout": 600.0,
        },
    }
    row.update(changes)
    return row


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({}, []),
        ({"lock": "M" * 64}, ["environment lock (MMMMMMMMMMMM vs LLLLLLLLLLLL)"]),
        ({"model": "m1"}, ["model (m1 vs None)"]),
        ({"settings": {"max_turns": 5}}, ["agent settings: max_turns (--max-turns)"]),
        (
            {
                "conditions": {
                    "server": {"seed_salt": None, "idle_ttl": 60.0, "log_budget": 1},
                    "episode_timeout": 600.0,
                }
            },
            [
                "seed salt (--seed-salt, compared by its fingerprint)",
                "the server's idle TTL (--idle-ttl)",
            ],
        ),
        (  # a request rate one side reports and the other does not (a server before stop 24)
            {
                "conditions": {
                    "server": {
                        **_row()["conditions"]["server"],
                        "max_requests_per_second": 20.0,
                        "request_burst": 200,
                    },
                    "episode_timeout": 600.0,
                }
            },
            [
                "MCP requests per episode a second (--max-requests-per-second)",
                "MCP requests per episode at once (--request-burst)",
            ],
        ),
        (
            {"conditions": {"server": None, "episode_timeout": 600.0}},
            [
                "the environment server's settings (seed salt, idle TTL, log caps), which "
                "that run's server did not report"
            ],
        ),
        (
            {"conditions": {"server": _row()["conditions"]["server"], "episode_timeout": 5.0}},
            ["hard cap per episode (--timeout)"],
        ),
    ],
)
def test_every_input_that_differs_is_named(changes: dict[str, Any], named: list[str]) -> None:
    want = _row()
    found = differences(
        _row(**changes),
        lock=want["lock"],
        model=want["model"],
        settings=want["settings"],
        conditions=want["conditions"],
    )
    assert found == named


def test_the_store_matches_runs_on_their_conditions_and_old_stores_gain_the_column(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)  # a store from before runs recorded their conditions
    conn.execute(
        "CREATE TABLE runs (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, finished_at TEXT, "
        "env TEXT NOT NULL, env_version TEXT, lock TEXT, agent TEXT NOT NULL, model TEXT, "
        "settings TEXT, selection TEXT, argv TEXT, baseline_of TEXT)"
    )
    conn.execute(
        "INSERT INTO runs (id, created_at, env, lock, agent, settings, selection, argv) "
        "VALUES ('old', '2026-01-01', 'toy', 'l', 'null', '{}', '{}', '[]')"
    )
    conn.commit()
    conn.close()
    salted = {"server": {"seed_salt": salt_fingerprint(SALT_A)}, "episode_timeout": 600.0}
    unsalted = {"server": {"seed_salt": None}, "episode_timeout": 600.0}
    with RunStore(path) as store:
        assert store.run("old")["conditions"] is None
        kw: dict[str, Any] = {"env": "toy", "lock": "l", "agent": "null", "model": None}
        sel = {"variants": ["set-target@easy#0"], "epochs": 1}
        a = store.create_run(env_version="1", selection=sel, conditions=salted, **kw)
        assert store.run(a)["conditions"] == salted
        find = store.find_resumable
        assert find(settings={}, selection=sel, conditions=salted, **kw) == a
        assert find(settings={}, selection=sel, conditions=unsalted, **kw) is None
        assert find(settings={}, selection={}, **kw) == "old"  # recorded without: only None


def test_eval_sets_the_request_rate_of_the_servers_it_starts_and_a_rerun_compares_it(
    toy_installed: Environment, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from mcpgym_clients.cli import app

    store = tmp_path / "runs.db"
    args = ["eval", "toy", "--agent", "reference", "--seeds", "0-1", "--no-baseline"]
    args += ["--store", str(store), "--max-requests-per-second", "50", "--request-burst", "300"]
    cli = CliRunner()
    first = cli.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == 0, first.output
    with RunStore(store) as runs:
        (run,) = runs.runs()
    served = run["conditions"]["server"]
    assert (served["max_requests_per_second"], served["request_burst"]) == (50.0, 300)
    crash_after_first_episode(store, run["id"])
    other = cli.invoke(app, [*args[:-1], "301"], env={"COLUMNS": "200"})
    assert other.exit_code == 0, other.output
    out = " ".join(other.output.split())
    assert f"starting a new run: run {run['id']} " in out and "(--request-burst)" in out, out
    again = cli.invoke(app, args, env={"COLUMNS": "200"})
    assert f"resuming run {run['id']}" in " ".join(again.output.split()), again.output

    remote = ["eval", "toy", "--env-url", "http://127.0.0.1:9", "--grading-url"]
    remote += ["http://127.0.0.1:9", "--grading-token", "t", "--request-burst", "300"]
    refused = cli.invoke(app, remote, env={"COLUMNS": "200"})
    assert refused.exit_code == 2 and "the --env-url server has its own" in " ".join(
        refused.output.split()
    ), refused.output
