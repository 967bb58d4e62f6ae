"""One agent cannot flood the server with MCP sessions (issue 9, section 5), over loopback.

An episode URL holds at most ``max_sessions_per_episode`` live MCP sessions (2025-era
sessions and 2026-era requests in flight alike): past it an opening request is a 429
JSON-RPC error that says why and how to raise the cap, which the SDK's client shows;
closing a session frees its slot; other episodes are unaffected; the server's total is
bounded too (connect-to-start included, 503 past it).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette

from mcpgym_server import Environment
from mcpgym_server._session_caps import SESSION_CAP_ERROR, SessionCaps
from mcpgym_server.runtime import create_app, serve

pytestmark = pytest.mark.anyio

TOKEN = "control-test-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}
MCP = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
HANDSHAKE = "2025-06-18"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": HANDSHAKE,
        "capabilities": {},
        "clientInfo": {"name": "flood", "version": "1"},
    },
}


@asynccontextmanager
async def served(env: Environment, store: Path, **kwargs: Any) -> AsyncIterator[Any]:
    app: Starlette = create_app(env, store, control_token=TOKEN, **kwargs)
    async with (
        serve(app) as base,
        httpx.AsyncClient(base_url=base, headers=CONTROL, timeout=10) as http,
    ):
        http.app = app  # type: ignore[attr-defined]
        yield http


async def open_episode(http: httpx.AsyncClient) -> dict[str, Any]:
    resp = await http.post("/episodes", json={"task": "set-target", "seed": 1})
    assert resp.status_code == 201, resp.text
    return resp.json()


async def initialize(http: httpx.AsyncClient, url: str) -> httpx.Response:
    return await http.post(url, json=INITIALIZE, headers=MCP)


async def close(http: httpx.AsyncClient, url: str, session_id: str) -> None:
    headers = {**MCP, "mcp-session-id": session_id, "mcp-protocol-version": HANDSHAKE}
    assert (await http.delete(url, headers=headers)).status_code == 200


def caps(http: httpx.AsyncClient) -> SessionCaps:
    return http.app.state.session_caps  # type: ignore[attr-defined]


async def test_an_episode_past_its_cap_is_refused_and_a_closed_session_frees_a_slot(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_sessions_per_episode=3) as http:
        ep, other = await open_episode(http), await open_episode(http)
        with anyio.fail_after(20):
            sessions = []
            for _ in range(3):
                resp = await initialize(http, ep["mcp_url"])
                assert resp.status_code == 200, resp.text
                sessions.append(resp.headers["mcp-session-id"])
            refused = await initialize(http, ep["mcp_url"])
            assert caps(http).live(ep["episode_id"]) == 3

            # another episode is unaffected
            assert (await initialize(http, other["mcp_url"])).status_code == 200

            # the refused episode's live sessions still work
            call = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
            headers = {**MCP, "mcp-session-id": sessions[0], "mcp-protocol-version": HANDSHAKE}
            assert (await http.post(ep["mcp_url"], json=call, headers=headers)).status_code == 200

            await close(http, ep["mcp_url"], sessions[0])
            again = await initialize(http, ep["mcp_url"])
            assert again.status_code == 200, again.text
            assert caps(http).live(ep["episode_id"]) == 3

    assert refused.status_code == 429
    body = refused.json()
    assert body["id"] == 1 and body["error"]["code"] == SESSION_CAP_ERROR
    message = body["error"]["message"]
    assert f"episode {ep['episode_id']} already has 3 live MCP sessions" in message
    assert "--max-sessions-per-episode" in message and "DELETE" in message
    assert body["error"]["data"] == {
        "kind": "session_cap",
        "episode_id": ep["episode_id"],
        "limit": 3,
        "live": 3,
    }


async def test_the_sdk_client_shows_why_it_was_refused(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_sessions_per_episode=1) as http:
        ep = await open_episode(http)
        with anyio.fail_after(20):
            async with Client(ep["mcp_url"], mode="legacy") as first:
                await first.list_tools()
                for mode in ("legacy", "2026-07-28"):
                    with pytest.raises(BaseException) as caught:
                        async with Client(ep["mcp_url"], mode=mode) as second:  # type: ignore[arg-type]
                            await second.list_tools()
                    assert "live MCP sessions" in _messages(caught.value), mode
            # the first client's exit closed its session: the slot is free again
            async with Client(ep["mcp_url"], mode="legacy") as third:
                await third.list_tools()
        assert caps(http).live() == 0


async def test_2026_requests_take_a_slot_while_in_flight(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_sessions_per_episode=1) as http:
        ep = await open_episode(http)
        with anyio.fail_after(20):
            async with Client(ep["mcp_url"], mode="2026-07-28") as client:
                for _ in range(3):  # sequential requests: each frees its slot when answered
                    await client.list_tools()
                assert caps(http).live() == 0
                session = (await initialize(http, ep["mcp_url"])).headers["mcp-session-id"]
                with pytest.raises(MCPError) as refused:  # the one slot is the session's
                    await client.list_tools()
                await close(http, ep["mcp_url"], session)
                await client.list_tools()
    assert refused.value.error.code == SESSION_CAP_ERROR


async def test_a_refused_opening_request_holds_no_slot_a_kept_session_does(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_sessions_per_episode=2) as http:
        ep = await open_episode(http)
        url = ep["mcp_url"]
        with anyio.fail_after(20):
            not_initialize = {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}
            for _ in range(3):
                for body in (json.dumps(not_initialize).encode(), b"{not json", b"[]"):
                    resp = await http.post(url, content=body, headers=MCP)
                    assert resp.status_code == 400, resp.text
            assert caps(http).live() == 0
            # the SDK keeps the session of an initialize it answered with an error (200):
            # it is live until closed, so it holds its slot
            bad_params = {**INITIALIZE, "params": {"protocolVersion": HANDSHAKE}}
            kept = await http.post(url, json=bad_params, headers=MCP)
            assert "error" in kept.json() and caps(http).live(ep["episode_id"]) == 1
            await close(http, url, kept.headers["mcp-session-id"])
            assert caps(http).live() == 0
            for _ in range(2):
                assert (await initialize(http, url)).status_code == 200


async def test_the_server_total_is_bounded_connect_to_start_included(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_sessions=2) as http:
        start = "/tasks/set-target/mcp?seed=3"
        ep = await open_episode(http)
        with anyio.fail_after(20):
            first = await initialize(http, start)
            assert first.status_code == 200, first.text
            assert (await initialize(http, ep["mcp_url"])).status_code == 200
            full = await initialize(http, start)
            on_episode = await initialize(http, ep["mcp_url"])
            await close(http, start, first.headers["mcp-session-id"])
            assert (await initialize(http, start)).status_code == 200
    for resp in (full, on_episode):
        assert resp.status_code == 503
        error = resp.json()["error"]
        assert error["code"] == SESSION_CAP_ERROR and error["data"]["limit"] == 2
        assert "--max-open" in error["message"]


def test_the_default_total_follows_max_open(toy_env: Environment, store_dir: Path) -> None:
    app = create_app(toy_env, store_dir, control_token=TOKEN, max_open_episodes=5)
    assert (app.state.session_caps.per_episode, app.state.session_caps.total) == (8, 40)
    with pytest.raises(ValueError, match="at least 1"):
        create_app(toy_env, store_dir, control_token=TOKEN, max_sessions_per_episode=0)


def _messages(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return " | ".join(_messages(e) for e in exc.exceptions)
    return str(exc)


async def test_mcpgym_serve_takes_the_cap_from_its_option(tmp_path: Path) -> None:
    from .test_shutdown import CONTROL as SERVE_CONTROL
    from .test_shutdown import READY, _free_port, _Log, _process

    port, log = _free_port(), _Log()
    args = ["serve", "helpdesk", "--port", str(port), "--store", str(tmp_path / "episodes")]
    with anyio.fail_after(60):
        async with _process([*args, "--max-sessions-per-episode", "2"], log):
            await log.wait_for(READY)
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base, headers=SERVE_CONTROL) as http:
                ep = (await http.post("/episodes", json={"task": "order-status"})).json()
                codes = [(await initialize(http, ep["mcp_url"])).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


async def test_a_session_is_refused_on_another_episodes_url(
    toy_env: Environment, store_dir: Path
) -> None:
    # adversarial round 11, S3-1: episode A's session id sent to episode B's mcp_url was
    # served (as B); a session belongs to the URL that opened it, so it is answered as an
    # unknown session there, and B's log stays empty
    async with served(toy_env, store_dir) as http:
        a, b = await open_episode(http), await open_episode(http)
        with anyio.fail_after(20):
            opened = await initialize(http, a["mcp_url"])
            session = opened.headers["mcp-session-id"]
            headers = {**MCP, "mcp-session-id": session, "mcp-protocol-version": HANDSHAKE}
            note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            assert (await http.post(a["mcp_url"], json=note, headers=headers)).is_success
            call = {
                "jsonrpc": "2.0",
                "id": 7,
                "method": "tools/call",
                "params": {"name": "get", "arguments": {}},
            }
            elsewhere = [
                await http.post(url, json=call, headers=headers)
                for url in (b["mcp_url"], "/tasks/set-target/mcp?seed=1")
            ]
            own = await http.post(a["mcp_url"], json=call, headers=headers)
            status = (await http.get(f"/episodes/{b['episode_id']}")).json()
    for resp in elsewhere:
        assert resp.status_code == 404, resp.text
        assert resp.json()["error"]["message"] == "Session not found"
    assert status["steps"] == 0
    assert own.status_code == 200 and "result" in own.json(), own.text
