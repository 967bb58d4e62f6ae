"""The whole path over real loopback HTTP: episodes served over MCP, graded by the grader."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from mcpgym_clients import EpisodeDriver, EpisodeRecord, LocalServers, NullAgent, ReferenceAgent
from mcpgym_clients.protocol import Agent
from mcpgym_server import Environment, EpisodeStore

pytestmark = pytest.mark.anyio

SEEDS = range(5)


def _variants(env: Environment, *, every_seed: bool = False) -> list[tuple[str, str, int]]:
    """Every family x band, over one seed each (rotating through `SEEDS`); with
    ``every_seed`` over all of `SEEDS` (the slow tests).

    The full reference/null matrix is graded in process by ``tests/helpdesk/test_families.py``
    (and by the ship gate, ``mcpgym validate``); here it is the path over loopback HTTP that is
    under test, which one seed per family and band walks as well as five."""
    keys = [(f.name, b) for f in env.families.values() for b in f.bands]
    if every_seed:
        return [(f, b, s) for f, b in keys for s in SEEDS]
    return [(f, b, SEEDS[i % len(SEEDS)]) for i, (f, b) in enumerate(keys)]


async def _run_all(
    servers: LocalServers, env: Environment, agent: Agent, keys: list[tuple[str, str, int]]
) -> list[EpisodeRecord]:
    records: list[EpisodeRecord] = []
    limiter = anyio.CapacityLimiter(4)
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=env,
    ) as driver:
        await driver.server_info()

        async def one(key: tuple[str, str, int]) -> None:
            async with limiter:
                records.append(await driver.run_episode(agent, *key))

        with anyio.fail_after(600):
            async with anyio.create_task_group() as tg:
                for key in keys:
                    tg.start_soon(one, key)
    return records


@pytest.mark.parametrize(
    "every_seed",
    [False, pytest.param(True, marks=pytest.mark.slow)],
    ids=["one-seed", "every-seed"],
)
async def test_reference_agent_scores_full_marks_on_every_family_and_band(
    servers: LocalServers, helpdesk: Environment, every_seed: bool
) -> None:
    keys = _variants(helpdesk, every_seed=every_seed)
    assert len({k[0] for k in keys}) >= 6 and {k[1] for k in keys} >= {"easy", "medium", "hard"}
    records = await _run_all(servers, helpdesk, ReferenceAgent(), keys)
    failures = [
        (r.variant_id, r.termination, r.error, r.grade and r.grade.get("error"))
        for r in records
        if r.score != 1.0 or not r.passed
    ]
    assert failures == []
    assert len(records) == len(keys)


@pytest.mark.parametrize(
    "every_seed",
    [False, pytest.param(True, marks=pytest.mark.slow)],
    ids=["one-seed", "every-seed"],
)
async def test_null_agent_fails_every_family_and_band(
    servers: LocalServers, helpdesk: Environment, every_seed: bool
) -> None:
    records = await _run_all(
        servers, helpdesk, NullAgent(), _variants(helpdesk, every_seed=every_seed)
    )
    assert all(r.scored for r in records), [r.error for r in records if not r.scored]
    assert [r.variant_id for r in records if r.passed] == []
    assert max(r.score or 0.0 for r in records) < 1.0


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_mcp_clients_of_both_eras_complete_a_graded_episode(
    servers: LocalServers, helpdesk: Environment, mode: str
) -> None:
    async with EpisodeDriver(
        servers.env_url,
        servers.grading_url,
        servers.grading_token,
        control_token=servers.control_token,
        environment=helpdesk,
        mcp_mode=mode,  # type: ignore[arg-type]
    ) as driver:
        await driver.server_info()
        with anyio.fail_after(60):
            record = await driver.run_episode(ReferenceAgent(), "refund-damaged-item", "medium", 3)
    assert (record.score, record.passed, record.episode_termination) == (1.0, True, "submitted")


async def test_same_solution_twice_gives_identical_state_and_grade(
    servers: LocalServers, helpdesk: Environment
) -> None:
    keys = [("duplicate-charge", "hard", 2), ("duplicate-charge", "hard", 2)]
    records = await _run_all(servers, helpdesk, ReferenceAgent(), keys)
    store = EpisodeStore(servers.store_dir)
    a, b = (store.read(r.episode_id or "") for r in records)
    assert a.final_db == b.final_db
    assert a.meta.final_sha256 == b.meta.final_sha256
    volatile = {"episode_id"}
    ga, gb = ({k: v for k, v in (r.grade or {}).items() if k not in volatile} for r in records)
    assert ga == gb and ga["score"] == 1.0


async def test_grading_routes_refuse_a_missing_or_wrong_token(
    servers: LocalServers, helpdesk: Environment
) -> None:
    async with httpx.AsyncClient(base_url=servers.grading_url) as http:
        missing = await http.post("/grades", json={"episode_id": "ep_x"})
        wrong = await http.post(
            "/grades", json={"episode_id": "ep_x"}, headers={"authorization": "Bearer nope"}
        )
        read = await http.get("/grades/ep_x", headers={"authorization": "Bearer nope"})
    assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
    assert wrong.status_code == 403 and read.status_code == 403


async def test_agent_surface_exposes_no_rubric_reference_or_grading_route(
    servers: LocalServers,
) -> None:
    async with httpx.AsyncClient(base_url=servers.env_url, headers=servers.control_headers) as http:
        ep = (await http.post("/episodes", json={"task": "order-status", "band": "hard"})).json()
        tasks = (await http.get("/tasks")).text
        assert (await http.get("/grades/" + ep["episode_id"])).status_code == 404
    async with Client(ep["mcp_url"]) as client:
        listing = json.dumps(
            [t.model_dump() for t in (await client.list_tools()).tools]
            + [r.model_dump() for r in (await client.list_resources()).resources]
        )
    assert "rubric" not in tasks.lower() and "reference" not in tasks.lower()
    assert "rubric" not in listing.lower() and "mcpgym://episode" in listing


async def test_fifty_concurrent_helpdesk_episodes_end_with_exactly_their_own_state(
    servers: LocalServers,
) -> None:
    n = 50
    async with httpx.AsyncClient(base_url=servers.env_url, headers=servers.control_headers) as http:
        eps = [
            (await http.post("/episodes", json={"task": "order-status", "seed": i})).json()
            for i in range(n)
        ]
    shared = httpx2.AsyncClient()

    async def work(i: int, ep: dict[str, Any]) -> None:
        ticket = await _ticket_of(ep)
        async with Client(streamable_http_client(ep["mcp_url"], http_client=shared)) as client:
            for step in range(3):
                res = await client.call_tool(
                    "add_ticket_note", {"ticket_id": ticket, "body": f"note {i}.{step}"}
                )
                assert not res.is_error, res.content
            await client.call_tool("submit", {})

    async def _ticket_of(ep: dict[str, Any]) -> int:
        digits = "".join(c if c.isdigit() else " " for c in ep["instruction"]).split()
        return next(int(d) for d in digits if len(d) == 4)

    with anyio.fail_after(120):
        async with shared, anyio.create_task_group() as tg:
            for i, ep in enumerate(eps):
                tg.start_soon(work, i, ep)
    store = EpisodeStore(servers.store_dir)
    for i, ep in enumerate(eps):
        db = store.read(ep["episode_id"]).open_final_db()
        notes = [
            r[0]
            for r in db.execute(
                "SELECT body FROM ticket_messages WHERE author = 'note' AND body LIKE 'note %' "
                "ORDER BY id"
            )
        ]
        assert notes == [f"note {i}.0", f"note {i}.1", f"note {i}.2"]
