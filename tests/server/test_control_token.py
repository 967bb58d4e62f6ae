"""The agent has no route to the answer: what an episode's ``mcp_url`` reaches without the
harness's control token names no variant, and opens no practice copy.

An adversary holding only the ``mcp_url`` probes every route of the server (and a few that
do not exist) and every MCP surface (instructions, resources, tools, error messages,
response headers); none of what comes back may carry the variant id or the seed, from
which the public generator regenerates the reference solution.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from mcpgym_server import Environment
from mcpgym_server._http import create_app
from mcpgym_server._serving import serve

pytestmark = pytest.mark.anyio

TOKEN = "the-harness-control-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}
SEED = 8675309123  # distinctive: it must not show up anywhere the agent can read
VARIANT = f"toy/set-target@medium#{SEED}"


@pytest.fixture
async def base(toy_env: Environment, store_dir: Path) -> AsyncIterator[str]:
    async with serve(create_app(toy_env, store_dir, control_token=TOKEN)) as url:
        yield url


async def _open(base: str) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=base, headers=CONTROL) as http:
        resp = await http.post(
            "/episodes", json={"task": "set-target", "band": "medium", "seed": SEED}
        )
    assert resp.status_code == 201, resp.text
    assert resp.json()["variant_id"] == VARIANT  # the harness, with the token, gets it
    return resp.json()


def _leaks(text: str) -> list[str]:
    return [needle for needle in (VARIANT, str(SEED), "@medium#", "variant_id") if needle in text]


async def _probe_http(mcp_url: str) -> dict[str, str]:
    """Every route (and some that are not) from the agent's side: ``{request: response}``."""
    episode = mcp_url.removesuffix("/mcp")
    root = episode.rsplit("/episodes/", 1)[0]
    eid = episode.rsplit("/", 1)[1]
    probes = [
        ("GET", f"{episode}"),
        ("POST", f"{episode}/end"),
        ("POST", f"{episode}/keepalive"),  # no agent keeps its episode alive past the TTL
        ("GET", f"{episode}/end"),
        ("GET", f"{episode}/meta"),
        ("GET", f"{episode}/bundle"),
        ("POST", f"{root}/episodes"),
        ("GET", f"{root}/episodes"),
        ("GET", f"{root}/healthz"),
        ("GET", f"{root}/tasks"),
        ("GET", f"{root}/tasks/set-target"),
        ("POST", f"{root}/tasks/set-target/mcp?seed={SEED}&band=medium"),
        ("POST", f"{root}/tasks/set-target/mcp?seed=x"),
        ("GET", f"{root}/grades/{eid}"),
        ("GET", f"{root}/"),
        ("GET", f"{root}/nope"),
        ("POST", f"{episode}/mcp"),  # not JSON-RPC
    ]
    seen: dict[str, str] = {}
    async with httpx.AsyncClient() as http:
        for method, url in probes:
            # what the agent can guess (the family, from its instruction); no server echo of
            # its own request counts as a leak, so the body carries no seed
            body = {"task": "set-target", "band": "medium"} if method == "POST" else None
            resp = await http.request(method, url, json=body)
            seen[f"{method} {url}"] = f"{resp.status_code} {dict(resp.headers)} {resp.text}"
    return seen


async def _probe_mcp(mcp_url: str, mode: str) -> dict[str, str]:
    """Every MCP surface of the episode, with the response headers of each exchange."""
    headers: list[str] = []

    async def hook(resp: httpx2.Response) -> None:
        headers.append(json.dumps(dict(resp.headers)))

    seen: dict[str, str] = {}
    async with (
        httpx2.AsyncClient(event_hooks={"response": [hook]}) as shared,
        Client(streamable_http_client(mcp_url, http_client=shared), mode=mode) as client,  # type: ignore[arg-type]
    ):
        info = client.server_info
        seen["server"] = json.dumps(
            [info.model_dump(mode="json") if info else None, client.instructions]
        )
        seen["tools"] = json.dumps(
            [t.model_dump(mode="json") for t in (await client.list_tools()).tools]
        )
        resources = (await client.list_resources()).resources
        seen["resources"] = json.dumps([r.model_dump(mode="json") for r in resources])
        for r in resources:
            seen[f"read {r.uri}"] = json.dumps(
                (await client.read_resource(str(r.uri))).model_dump(mode="json")
            )
        for name, args in [
            ("dump", {}),
            ("get", {"key": "nope"}),
            ("put", {"key": 1}),
            ("no_such_tool", {}),
            ("put", {"key": "x", "value": "explode"}),
        ]:
            result = await client.call_tool(name, args)
            seen[f"call {name} {args}"] = json.dumps(result.model_dump(mode="json"))
        try:
            await client.read_resource("mcpgym://nope")
        except Exception as exc:  # the error message is a surface too
            seen["read unknown"] = str(exc)
        await client.call_tool("submit", {})
        seen["after submit"] = json.dumps(
            (await client.call_tool("dump", {})).model_dump(mode="json")
        )
    seen["headers"] = "\n".join(headers)
    return seen


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_nothing_reachable_from_an_episode_url_names_its_variant(
    base: str, mode: str
) -> None:
    ep = await _open(base)
    with anyio.fail_after(20):
        seen = await _probe_http(ep["mcp_url"])
        seen |= await _probe_mcp(ep["mcp_url"], mode)
        seen |= {f"sealed {k}": v for k, v in (await _probe_http(ep["mcp_url"])).items()}
    leaked = {k: _leaks(v) for k, v in seen.items() if _leaks(v)}
    assert leaked == {}, {k: seen[k][:300] for k in leaked}
    async with httpx.AsyncClient() as http:  # the agent may still poll its own episode
        status = (await http.get(ep["mcp_url"].removesuffix("/mcp"))).json()
    assert status == {"episode_id": ep["episode_id"], "state": "sealed", "steps": 6}


async def test_control_routes_refuse_a_missing_or_wrong_token_and_open_no_episode(
    toy_env: Environment, store_dir: Path
) -> None:
    app = create_app(toy_env, store_dir, control_token=TOKEN)
    manager = app.state.manager
    async with serve(app) as url, httpx.AsyncClient(base_url=url) as http:
        ep = await _open(url)
        eid = ep["episode_id"]
        body = {"task": "set-target", "band": "medium", "seed": SEED}
        wrong = {"authorization": "Bearer not-it"}
        missing = await http.post("/episodes", json=body)
        refused = await http.post("/episodes", json=body, headers=wrong)
        basic = await http.post("/episodes", json=body, headers={"authorization": f"Basic {TOKEN}"})
        start = await http.post("/tasks/set-target/mcp?seed=1", json={})
        end = await http.post(f"/episodes/{eid}/end", json={})
        end_wrong = await http.post(f"/episodes/{eid}/end", json={}, headers=wrong)
        assert manager.open_episodes == [eid]  # no practice copy, and the episode still runs
        status = (await http.get(f"/episodes/{eid}", headers=CONTROL)).json()
        ended = await http.post(f"/episodes/{eid}/end", json={}, headers=CONTROL)
        sealed = (await http.get(f"/episodes/{eid}")).json()
        sealed_control = (await http.get(f"/episodes/{eid}", headers=CONTROL)).json()
    for resp in (missing, basic, start, end):
        assert resp.status_code == 401, resp.text
        assert resp.headers["www-authenticate"] == "Bearer"
        error = resp.json()["error"]  # a JSON-RPC error on the MCP endpoint (`start`)
        message = error["message"] if resp is start else error
        assert "needs the environment server's control token" in message
        assert "MCPGYM_CONTROL_TOKEN" in message
    for resp in (refused, end_wrong):
        assert resp.status_code == 403 and "not this environment server's" in resp.json()["error"]
    assert status == {"episode_id": eid, "state": "open", "steps": 0, "variant_id": VARIANT}
    assert ended.status_code == 200 and ended.json()["variant_id"] == VARIANT
    assert sealed == {"episode_id": eid, "state": "sealed", "steps": 0}
    assert sealed_control == {**sealed, "termination": "ended"}


async def test_connect_to_start_with_the_token_still_opens_an_episode(base: str) -> None:
    url = f"{base}/tasks/set-target/mcp?seed=2&band=easy"
    with anyio.fail_after(10):
        async with (
            httpx2.AsyncClient(headers=CONTROL) as shared,
            Client(streamable_http_client(url, http_client=shared), mode="legacy") as client,
        ):
            res = await client.read_resource("mcpgym://episode")
    assert set(json.loads(res.contents[0].text)) == {"episode_id", "instruction"}


async def test_an_open_server_is_an_explicit_choice(
    toy_env: Environment, store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(TypeError, match="control_token"):
        create_app(toy_env, store_dir)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="must not be empty"):
        create_app(toy_env, store_dir, control_token=" ")
    with caplog.at_level(logging.WARNING, logger="mcpgym.http"):
        app = create_app(toy_env, store_dir, control_token=None)
    assert "without a control token" in caplog.text
    async with serve(app) as url, httpx.AsyncClient(base_url=url) as http:
        opened = await http.post("/episodes", json={"task": "set-target"})
    assert opened.status_code == 201
