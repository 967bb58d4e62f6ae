"""The NeMo Gym resources server: /seed_session, tools, /verify, rollouts kept apart.

nemo-gym 0.7 needs Python >= 3.13.14, so it cannot be installed next to this project's
Python 3.11; these tests send the requests NeMo Gym's agents send (a dataset row with
``responses_create_params``, the session cookie, a Responses API ``response``).
"""

from __future__ import annotations

import json

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from mcpgym_clients.train.nemo_gym import COOKIE, create_app
from mcpgym_server import Environment, compute_lock
from mcpgym_server.runtime import serve
from tests.toyenv import target_value

pytestmark = pytest.mark.anyio


def row(seed: int) -> dict[str, object]:
    return {
        "responses_create_params": {"input": [{"role": "user", "content": "..."}]},
        "task": "set-target",
        "band": "easy",
        "seed": seed,
    }


def response(text: str) -> dict[str, object]:
    return {
        "id": "resp_1",
        "output": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text}],
            }
        ],
    }


async def test_two_concurrent_rollouts_are_kept_apart_and_graded(toy_env: Environment) -> None:
    app = create_app(toy_env)
    async with app.router.lifespan_context(app), serve(app, name="resources") as url:
        async with (
            httpx.AsyncClient(base_url=url, trust_env=False) as a,
            httpx.AsyncClient(base_url=url, trust_env=False) as b,
        ):
            seeded_a, seeded_b = (
                await a.post("/seed_session", json=row(0)),
                await b.post("/seed_session", json=row(1)),
            )
            assert seeded_a.status_code == seeded_b.status_code == 200, seeded_a.text
            ea, eb = seeded_a.json(), seeded_b.json()
            assert ea["episode_id"] != eb["episode_id"] and a.cookies[COOKIE] == ea["episode_id"]
            assert ea["variant_id"] == "toy/set-target@easy#0" and ea["lock"] == compute_lock(
                toy_env
            )
            assert {t["name"] for t in ea["tools"]} == {"put", "get", "dump", "submit"}

            async def act(http: httpx.AsyncClient, value: str) -> None:
                put = await http.post("/put", json={"key": "target", "value": value})
                result = json.loads(put.text)
                assert (result["key"], result["value"]) == ("target", value)

            async with anyio.create_task_group() as tg:  # interleaved, each in its sandbox
                tg.start_soon(act, a, target_value("easy", 0))
                tg.start_soon(act, b, "wrong")
            # the episode's MCP endpoint is reachable through the resources server
            async with httpx2.AsyncClient(trust_env=False) as mcp_http:
                async with Client(streamable_http_client(ea["mcp_url"], http_client=mcp_http)) as c:
                    got = await c.call_tool("get", {"key": "target"})
            assert target_value("easy", 0) in got.content[0].text
            bad = await b.post("/get", json={"key": "nope"})
            assert bad.status_code == 200 and bad.text.startswith("Error")

            va = await a.post("/verify", json={**row(0), "response": response("done")})
            vb = await b.post("/verify", json={**row(1), "response": response("done")})
        stats = (await httpx.AsyncClient(trust_env=False).get(f"{url}/stats")).json()
    assert va.status_code == vb.status_code == 200
    assert va.json()["reward"] == 1.0 and va.json()["reward_components"] == {"target-set": 1.0}
    assert vb.json()["reward"] == 0.0 and vb.json()["passed"] is False
    assert va.json()["responses_create_params"] == row(0)["responses_create_params"]
    assert stats == {"seeded": 2, "verified": 2, "scored": 2, "dropped": 0}


async def test_an_unscored_rollout_gets_no_reward(toy_env: Environment) -> None:
    app = create_app(toy_env)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:9") as http:
            assert (await http.post("/seed_session", json={"task": "nope"})).status_code == 422
            unknown = await http.post("/seed_session", json={**row(0), "band": "x"})
            assert unknown.status_code == 404
            eid = (await http.post("/seed_session", json=row(0))).json()["episode_id"]
            state = app.state.mcpgym
            episode = state.episodes[eid]

            async def broken(name: str, arguments: object) -> object:
                from mcpgym_clients import InfraError

                raise InfraError("mcp", "stream reset")

            assert episode.context is not None
            object.__setattr__(episode.context, "call_tool", broken)
            await http.post("/put", json={"key": "target", "value": "1"})
            verified = await http.post("/verify", json={"episode_id": eid, "response": {}})
    assert verified.status_code == 503
    body = verified.json()
    assert "reward" not in body and body["mask_sample"] is True
    assert body["failure_kind"] == "infra_error" and "stream reset" in body["failure_reason"]
    assert state.stats["dropped"] == 1 and state.stats["scored"] == 0
