"""Any MCP client works the first time: the Python SDK's `Client` in each mode, over loopback.

- connect-to-start with the default ``Client(url)`` (auto mode) falls back to the 2025
  handshake, so its session is an episode: tools listed, calls work, sealed on close;
- a client pinned to 2026-07-28 is refused there on its first request, before any tool
  call, with the explanation (use the episode URL);
- on an episode URL both eras read the same instructions (environment + task);
- refusals of the MCP endpoints keep their explanation (a JSON-RPC error body), which
  `Client` shows instead of "Not Found".
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION

from mcpgym_server import Environment, EpisodeStore
from mcpgym_server.runtime import EPISODE_ID_HEADER, create_app, serve

pytestmark = pytest.mark.anyio

TOKEN = "control-test-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture
async def server(toy_env: Environment, store_dir: Path) -> AsyncIterator[str]:
    async with serve(create_app(toy_env, store_dir, control_token=TOKEN)) as base:
        yield base


def _messages(exc: BaseException) -> str:
    """Every message in an exception (group), as a client's user would read them."""
    if isinstance(exc, BaseExceptionGroup):
        return " | ".join(_messages(e) for e in exc.exceptions)
    return str(exc)


async def test_default_client_on_connect_to_start_gets_an_episode_sealed_on_close(
    server: str, store_dir: Path
) -> None:
    seen: list[str] = []
    versions: list[str | None] = []

    async def hook(resp: httpx2.Response) -> None:
        versions.append(resp.request.headers.get("mcp-protocol-version"))
        if EPISODE_ID_HEADER in resp.headers:
            seen.append(resp.headers[EPISODE_ID_HEADER])

    url = f"{server}/tasks/set-target/mcp?seed=4&band=medium"
    with anyio.fail_after(10):
        async with (
            httpx2.AsyncClient(headers=CONTROL, event_hooks={"response": [hook]}) as http,
            Client(streamable_http_client(url, http_client=http)) as client,  # mode="auto"
        ):
            assert client.protocol_version == "2025-11-25"  # fell back to the handshake
            assert "Your task:" in (client.instructions or "")
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == ["dump", "get", "put", "submit"]
            put = await client.call_tool("put", {"key": "mine", "value": "v"})
            assert not put.is_error, put.content
            dump = await client.call_tool("dump", {})
            assert dump.structured_content == {"a": "1", "b": "2", "mine": "v"}
    assert versions[0] == "2026-07-28"  # the discover probe, refused
    assert len(set(seen)) == 1
    async with httpx.AsyncClient(base_url=server, headers=CONTROL) as control:
        status = (await control.get(f"/episodes/{seen[0]}")).json()  # waits for the bundle
    assert status["state"] == "sealed"
    meta = EpisodeStore(store_dir).read(seen[0]).meta
    assert (meta.termination, meta.steps, meta.variant_id) == (
        "session_closed",
        2,
        "toy/set-target@medium#4",
    )


async def test_plain_client_url_with_a_control_header_on_connect_to_start(
    server: str, store_dir: Path
) -> None:
    # the docs' snippet: `Client(url)` itself, the header on an httpx2 client it is given
    url = f"{server}/tasks/set-target/mcp?seed=1"
    with anyio.fail_after(10):
        async with (
            httpx2.AsyncClient(headers=CONTROL) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            episode = json.loads((await client.read_resource("mcpgym://episode")).contents[0].text)
            done = await client.call_tool("submit", {"answer": "x"})
    assert done.structured_content == {"status": "ended", "episode_id": episode["episode_id"]}
    async with httpx.AsyncClient(base_url=server, headers=CONTROL) as control:
        await control.get(f"/episodes/{episode['episode_id']}")  # waits for the bundle
    assert EpisodeStore(store_dir).read(episode["episode_id"]).meta.termination == "submitted"


async def test_client_pinned_to_2026_is_refused_before_any_tool_call(
    server: str, toy_env: Environment
) -> None:
    url = f"{server}/tasks/set-target/mcp?seed=1"
    with anyio.fail_after(10):
        async with (
            httpx2.AsyncClient(headers=CONTROL) as http,
            Client(streamable_http_client(url, http_client=http), mode="2026-07-28") as client,
        ):
            # mcp 2.3 sends nothing at connect in pinned mode: its first request is refused
            with pytest.raises(MCPError) as listed:
                await client.list_tools()
            with pytest.raises(MCPError) as called:  # an error, never a tool result
                await client.call_tool("dump", {})
    for exc in (listed.value, called.value):
        assert exc.error.code == UNSUPPORTED_PROTOCOL_VERSION
        assert "connect-to-start URL /tasks/set-target/mcp" in exc.error.message
        assert "episode URL" in exc.error.message and "POST /episodes" in exc.error.message
        assert "2025-11-25" in exc.error.data["supported"]


async def test_discover_is_refused_on_connect_to_start_and_opens_no_episode(
    toy_env: Environment, store_dir: Path
) -> None:
    body = {"jsonrpc": "2.0", "id": 7, "method": "server/discover", "params": {}}
    headers = {
        **CONTROL,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
        "accept": "application/json, text/event-stream",
    }
    app = create_app(toy_env, store_dir, control_token=TOKEN)
    async with serve(app) as base, httpx.AsyncClient(base_url=base) as http:
        resp = await http.post("/tasks/set-target/mcp?seed=1", json=body, headers=headers)
        assert app.state.manager.open_episodes == []
    assert resp.status_code == 400
    answer = resp.json()
    assert answer["id"] == 7 and answer["error"]["code"] == UNSUPPORTED_PROTOCOL_VERSION
    assert answer["error"]["data"]["requested"] == "2026-07-28"


async def test_both_eras_read_the_task_in_the_instructions_of_an_episode_url(
    server: str,
) -> None:
    async with httpx.AsyncClient(base_url=server, headers=CONTROL) as http:
        ep = (await http.post("/episodes", json={"task": "set-target", "seed": 1})).json()
    got = {}
    with anyio.fail_after(10):
        for mode in ("legacy", "auto", "2026-07-28"):
            async with Client(ep["mcp_url"], mode=mode) as client:  # type: ignore[arg-type]
                if mode == "2026-07-28":  # pinned: no probe at connect; send one
                    got[mode] = (await client.session.send_discover(mode)).get("instructions")
                else:
                    got[mode] = client.instructions
    assert got["auto"] is not None and ep["instruction"] in got["auto"]
    assert got["legacy"] == got["auto"] == got["2026-07-28"]
    assert got["auto"].startswith("A key-value store.")


async def test_unknown_episode_url_shows_the_explanation_not_not_found(server: str) -> None:
    url = f"{server}/episodes/ep_{'0' * 32}/mcp"
    for mode in ("auto", "legacy"):
        with anyio.fail_after(10), pytest.raises(BaseException) as caught:
            async with Client(url, mode=mode):  # type: ignore[arg-type]
                pass
        shown = _messages(caught.value)
        assert "unknown episode 'ep_000" in shown, shown
        assert "POST /episodes" in shown and "Not Found" not in shown


@pytest.mark.parametrize(
    ("query", "headers", "status", "expected"),
    [
        ("seed=1", {}, 401, "needs the environment server's control token"),
        ("seed=1", {"authorization": "Bearer wrong"}, 403, "not this environment server's"),
        ("seed=x", CONTROL, 422, "query parameter `seed` must be a non-negative integer"),
        ("band=expert", CONTROL, 404, "unknown band 'expert'; valid bands: easy, medium"),
    ],
)
async def test_connect_to_start_refusals_reach_the_client(
    server: str, query: str, headers: dict[str, str], status: int, expected: str
) -> None:
    url = f"{server}/tasks/set-target/mcp?{query}"
    async with httpx.AsyncClient() as raw:
        resp = await raw.post(
            url, json={"jsonrpc": "2.0", "id": 3, "method": "initialize"}, headers=headers
        )
    assert resp.status_code == status
    assert resp.json()["id"] == 3 and expected in resp.json()["error"]["message"]
    if status == 401:
        assert resp.headers["www-authenticate"] == "Bearer"
    with anyio.fail_after(10), pytest.raises(BaseException) as caught:
        async with (
            httpx2.AsyncClient(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http)),
        ):
            pass
    assert expected in _messages(caught.value)


async def test_a_foreign_host_on_an_mcp_endpoint_is_a_json_rpc_refusal(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, headers=CONTROL) as http:
        resp = await http.post(
            "/tasks/set-target/mcp",
            json={"jsonrpc": "2.0", "id": 9, "method": "initialize"},
            headers={"host": "evil.example"},
        )
    assert resp.status_code == 421
    assert resp.json()["id"] == 9 and "evil.example" in resp.json()["error"]["message"]
