"""The environment server over real loopback HTTP: control routes and MCP in both protocol eras."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client

from mcpgym_server import Environment, EpisodeStore
from mcpgym_server._http import EPISODE_ID_HEADER, create_app
from mcpgym_server._serving import serve

pytestmark = pytest.mark.anyio

TOKEN = "control-test-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}
"""The harness's credential on the control routes (see tests/server/test_control_token.py)."""


@pytest.fixture
async def server(toy_env: Environment, store_dir: Path) -> AsyncIterator[str]:
    async with serve(create_app(toy_env, store_dir, control_token=TOKEN)) as base:
        yield base


@pytest.fixture
async def http(server: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server, headers=CONTROL) as client:
        yield client


async def _new_episode(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    resp = await http.post("/episodes", json={"task": "set-target", "seed": 1, **body})
    assert resp.status_code == 201, resp.text
    return resp.json()


async def test_health_and_task_listing_hide_solutions(http: httpx.AsyncClient) -> None:
    health = (await http.get("/healthz")).json()
    assert health["ok"] is True and health["env"] == "toy" and len(health["lock"]) == 64
    tasks = (await http.get("/tasks")).json()
    assert tasks["tasks"] == [
        {
            "name": "set-target",
            "description": "Set one key to a value.",
            "bands": ["easy", "medium"],
        }
    ]
    assert "reference" not in json.dumps(tasks)


async def test_create_episode_answers_with_urls_and_ids(
    http: httpx.AsyncClient, server: str
) -> None:
    ep = await _new_episode(http, band="medium")
    assert ep["mcp_url"] == f"{server}/episodes/{ep['episode_id']}/mcp"
    assert ep["variant_id"] == "toy/set-target@medium#1"
    assert ep["instruction"].startswith("Set key `target` to ")
    assert ep["episode_id"].startswith("ep_") and len(ep["episode_id"]) == 35
    other = await _new_episode(http, band="medium")
    assert other["episode_id"] != ep["episode_id"]


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"task": "nope"}, 404, "valid tasks: set-target"),
        ({"task": "set-target", "band": "expert"}, 404, "valid bands: easy, medium"),
        ({"task": "set-target", "seed": -1}, 422, "`seed`"),
        ({"task": "set-target", "sede": 1}, 422, "`sede`"),
        ({"seed": 1}, 422, "`task`"),
    ],
)
async def test_bad_episode_requests_name_the_problem(
    http: httpx.AsyncClient, body: dict[str, Any], status: int, needle: str
) -> None:
    resp = await http.post("/episodes", json=body)
    assert resp.status_code == status
    assert needle in resp.json()["error"]


async def test_malformed_json_is_a_400(http: httpx.AsyncClient) -> None:
    resp = await http.post(
        "/episodes", content=b'{"task": ', headers={"content-type": "application/json"}
    )
    assert resp.status_code == 400 and "malformed JSON" in resp.json()["error"]


async def test_unknown_episode_routes_are_404(http: httpx.AsyncClient) -> None:
    assert (await http.post("/episodes/ep_nope/end")).status_code == 404
    assert (await http.get("/episodes/ep_nope")).status_code == 404
    assert (await http.post("/episodes/ep_nope/mcp", json={})).status_code == 404


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_sdk_client_completes_an_episode_in_each_era(
    http: httpx.AsyncClient, store_dir: Path, mode: str
) -> None:
    ep = await _new_episode(http)
    value = ep["instruction"].split()[-1].rstrip(".")
    with anyio.fail_after(10):
        async with Client(ep["mcp_url"], mode=mode) as client:  # type: ignore[arg-type]
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == ["dump", "get", "put", "submit"]
            put = await client.call_tool("put", {"key": "target", "value": value})
            assert not put.is_error and put.structured_content["value"] == value
            missing = await client.call_tool("get", {"key": "zzz"})
            assert missing.is_error and missing.content[0].text == "no key 'zzz'"
            done = await client.call_tool("submit", {"answer": "ok"})
            assert done.structured_content == {"status": "ended", "episode_id": ep["episode_id"]}
            after = await client.call_tool("dump", {})
            assert after.is_error and "has ended" in after.content[0].text
    meta = EpisodeStore(store_dir).read(ep["episode_id"]).meta
    assert (meta.termination, meta.answer, meta.steps) == ("submitted", "ok", 3)


async def test_raw_handshake_session_gets_instructions_and_policy_resources(
    http: httpx.AsyncClient,
) -> None:
    ep = await _new_episode(http)
    with anyio.fail_after(10):
        async with streamable_http_client(ep["mcp_url"]) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert init.protocol_version == "2025-11-25"
                assert ep["instruction"] in (init.instructions or "")
                res = await session.read_resource("mcpgym://episode")
                body = json.loads(res.contents[0].text)
                assert body == {"episode_id": ep["episode_id"], "instruction": ep["instruction"]}


async def test_internal_error_shows_generic_text_to_the_agent(
    http: httpx.AsyncClient, store_dir: Path
) -> None:
    ep = await _new_episode(http)
    async with Client(ep["mcp_url"]) as client:
        bug = await client.call_tool("put", {"key": "k", "value": "explode"})
        bad = await client.call_tool("put", {"key": 3})
    assert bug.is_error and "secret internals" not in bug.content[0].text
    assert "internal error in tool `put`" in bug.content[0].text
    assert bad.is_error and "invalid arguments for tool `put`" in bad.content[0].text
    meta = (await http.post(f"/episodes/{ep['episode_id']}/end", json={"answer": "x"})).json()
    assert meta["termination"] == "ended" and meta["internal_errors"] == 1
    log = EpisodeStore(store_dir).read(ep["episode_id"]).log
    assert [e.status for e in log] == ["internal_error", "invalid_arguments"]


async def test_connect_to_start_opens_one_episode_per_session_and_seals_on_close(
    server: str, http: httpx.AsyncClient, store_dir: Path
) -> None:
    seen: list[str] = []

    async def hook(resp: httpx2.Response) -> None:
        if EPISODE_ID_HEADER in resp.headers:
            seen.append(resp.headers[EPISODE_ID_HEADER])

    url = f"{server}/tasks/set-target/mcp?seed=4&band=medium"
    async with httpx2.AsyncClient(event_hooks={"response": [hook]}, headers=CONTROL) as shared:
        for expected_value in ("first", "second"):
            with anyio.fail_after(10):
                async with Client(
                    streamable_http_client(url, http_client=shared), mode="legacy"
                ) as client:
                    await client.call_tool("put", {"key": "mine", "value": expected_value})
                    dump = (await client.call_tool("dump", {})).structured_content
                    assert dump == {"a": "1", "b": "2", "mine": expected_value}
                    res = await client.read_resource("mcpgym://episode")
                    assert json.loads(res.contents[0].text)["episode_id"] == seen[-1]
    assert len(seen) == 2 and seen[0] != seen[1]
    store = EpisodeStore(store_dir)
    for eid in seen:
        status = (await http.get(f"/episodes/{eid}")).json()
        assert status == {
            "episode_id": eid,
            "state": "sealed",
            "steps": 2,
            "termination": "session_closed",
        }
        assert store.read(eid).meta.variant_id == "toy/set-target@medium#4"


@pytest.mark.parametrize(("query", "status"), [("seed=x", 422), ("band=expert", 404)])
async def test_connect_to_start_validates_its_query(
    http: httpx.AsyncClient, query: str, status: int
) -> None:
    resp = await http.post(f"/tasks/set-target/mcp?{query}", json={})
    assert resp.status_code == status
    resp = await http.post("/tasks/nope/mcp", json={})
    assert resp.status_code == 404 and "valid tasks" in resp.json()["error"]["message"]


async def test_concurrent_episodes_end_with_exactly_their_own_state(
    http: httpx.AsyncClient, store_dir: Path
) -> None:
    n = 50
    episodes = [await _new_episode(http, seed=i) for i in range(n)]
    shared = httpx2.AsyncClient()

    async def work(i: int, ep: dict[str, Any]) -> None:
        async with Client(streamable_http_client(ep["mcp_url"], http_client=shared)) as client:
            for step in range(3):
                await client.call_tool("put", {"key": "owner", "value": f"{i}-{step}"})
            await client.call_tool("submit", {})

    with anyio.fail_after(60):
        async with shared, anyio.create_task_group() as tg:
            for i, ep in enumerate(episodes):
                tg.start_soon(work, i, ep)
    store = EpisodeStore(store_dir)
    for i, ep in enumerate(episodes):
        db = store.read(ep["episode_id"]).open_final_db()
        rows = dict(db.execute("SELECT k, v FROM kv").fetchall())
        assert rows == {"a": "1", "b": "2", "owner": f"{i}-2"}


@pytest.mark.parametrize(
    "body",
    [b'{"task": "set-target\xff"}', b'{"task": "set-target", "seed": ' + b"9" * 5000 + b"}"],
)
async def test_undecodable_bodies_are_a_400(http: httpx.AsyncClient, body: bytes) -> None:
    resp = await http.post("/episodes", content=body)
    assert resp.status_code == 400 and "not valid JSON" in resp.json()["error"]


@pytest.mark.parametrize("seed", ["%C2%B2", "%D9%A3", "9" * 30])
async def test_connect_to_start_refuses_non_ascii_or_huge_seeds(
    http: httpx.AsyncClient, seed: str
) -> None:
    resp = await http.post(f"/tasks/set-target/mcp?seed={seed}", json={})
    assert resp.status_code == 422 and "`seed`" in resp.json()["error"]["message"]


async def test_foreign_host_or_origin_is_refused_on_every_route(http: httpx.AsyncClient) -> None:
    evil = await http.post(
        "/episodes", json={"task": "set-target"}, headers={"host": "evil.example"}
    )
    assert evil.status_code == 421 and "evil.example" in evil.json()["error"]
    cross = await http.post(
        "/episodes", json={"task": "set-target"}, headers={"origin": "http://evil.example"}
    )
    assert cross.status_code == 421
    assert (await http.get("/healthz", headers={"host": "localhost:1"})).status_code == 200


async def test_host_verdicts_stay_right_once_remembered_and_stay_bounded(
    http: httpx.AsyncClient,
) -> None:
    # the Host check remembers each value's verdict: asking again must give the same answer,
    # and a flood of distinct values must neither grow the memory past its bound nor let a
    # refused host through once it was forgotten
    from mcpgym_server._http import _HostCheck

    for _ in range(2):
        bad = await http.get("/healthz", headers={"host": "evil.example"})
        good = await http.get("/healthz", headers={"host": "127.0.0.1:9"})
        assert (bad.status_code, good.status_code) == (421, 200)
    check = _HostCheck(None, ["127.0.0.1:*"])
    for i in range(3 * _HostCheck.VERDICTS):
        assert check._allowed(f"h{i}.example") is False  # noqa: SLF001
        assert len(check._verdicts) <= _HostCheck.VERDICTS  # noqa: SLF001
    assert check._allowed("127.0.0.1:5") and not check._allowed("evil.example")  # noqa: SLF001


async def test_the_first_origin_header_decides(http: httpx.AsyncClient) -> None:
    # as Starlette's `Headers.get`: a second Origin header does not override the first
    first_bad = [("origin", "http://evil.example"), ("origin", "http://127.0.0.1:1")]
    first_good = [("origin", "http://127.0.0.1:1"), ("origin", "http://evil.example")]
    assert (await http.get("/healthz", headers=first_bad)).status_code == 421
    assert (await http.get("/healthz", headers=first_good)).status_code == 200


async def test_open_episodes_are_capped_with_a_503(toy_env: Environment, store_dir: Path) -> None:
    app = create_app(toy_env, store_dir, control_token=TOKEN, max_open_episodes=2)
    async with serve(app) as base:
        async with httpx.AsyncClient(base_url=base, headers=CONTROL) as http:
            first = [await http.post("/episodes", json={"task": "set-target"}) for _ in range(2)]
            over = await http.post("/episodes", json={"task": "set-target"})
            assert [r.status_code for r in first] == [201, 201]
            assert over.status_code == 503 and over.json()["limit"] == 2
            await http.post(f"/episodes/{first[0].json()['episode_id']}/end")
            again = await http.post("/episodes", json={"task": "set-target"})
            assert again.status_code == 201


async def test_malformed_ids_and_names_are_404_never_500(http: httpx.AsyncClient) -> None:
    long_id = "ep_" + "a" * 300
    assert (await http.get(f"/episodes/{long_id}")).status_code == 404
    assert (await http.post(f"/episodes/{long_id}/end")).status_code == 404
    assert (await http.post(f"/episodes/{long_id}/mcp", json={})).status_code == 404
    body = b'{"task": "set\\ud800target"}'  # a lone surrogate, escaped in valid JSON
    resp = await http.post("/episodes", content=body)
    assert resp.status_code == 404 and "valid tasks: set-target" in resp.json()["error"]
