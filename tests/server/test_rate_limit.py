"""One agent flooding its episode URL with requests cannot slow the others (issue 9, section 5;
adversarial round 12, S5-6), over loopback and on the bucket itself.

Each episode's MCP URL admits `DEFAULT_REQUEST_BURST` requests at once and
`DEFAULT_REQUESTS_PER_SECOND` sustained (a token bucket, `mcpgym_server._rate_limit`); past it
a request is refused with HTTP 429 and a JSON-RPC error naming the limit and how to raise it,
the server logs it once per episode, the episode's bundle counts the refusals, and other
episodes are served as before.
"""

from __future__ import annotations

import logging
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
from mcpgym_server._rate_limit import (
    DEFAULT_REQUEST_BURST,
    DEFAULT_REQUESTS_PER_SECOND,
    PRUNE_AT,
    RATE_LIMIT_ERROR,
    RequestRate,
)
from mcpgym_server.runtime import create_app, serve

pytestmark = pytest.mark.anyio

TOKEN = "control-test-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}
MCP = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
HANDSHAKE = "2025-06-18"
SLOW = 0.001  # tokens a second: none comes back within a test


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_bucket_admits_its_burst_then_its_rate_per_episode() -> None:
    clock = Clock()
    rate = RequestRate(8.0, 3, clock=clock)
    assert [rate.take("a") for _ in range(3)] == [None, None, None]
    refused = rate.take("a")
    assert refused is not None and refused.first
    assert refused.retry_after == 0.125
    again = rate.take("a")
    assert again is not None and not again.first
    assert rate.refused("a") == 2
    assert rate.take("b") is None  # another episode has its own bucket
    clock.now += 0.125  # one token back
    assert rate.take("a") is None
    assert rate.take("a") is not None
    clock.now += 60  # refilled to the burst, never past it
    assert [rate.take("a") is None for _ in range(4)] == [True, True, True, False]


def test_full_buckets_are_forgotten_refused_ones_kept() -> None:
    clock = Clock()
    rate = RequestRate(1.0, 1, clock=clock)
    assert rate.take("flooder") is None and rate.take("flooder") is not None
    for i in range(PRUNE_AT + 10):
        rate.take(f"ep{i}")
        clock.now += 2  # each earlier bucket is full again
    assert len(rate._buckets) < PRUNE_AT  # noqa: SLF001
    assert rate.refused("flooder") == 1


@pytest.mark.parametrize(
    ("per_second", "burst"), [(0.0, 1), (-1.0, 1), (float("inf"), 1), (1.0, 0)]
)
def test_a_limit_that_admits_nothing_is_refused(per_second: float, burst: int) -> None:
    with pytest.raises(ValueError, match="rate per episode|burst per episode"):
        RequestRate(per_second, burst)


def test_the_defaults_are_far_above_an_honest_episode() -> None:
    # the scripted reference, the fastest agent, makes at most ~15 requests an episode
    assert DEFAULT_REQUEST_BURST >= 10 * 15
    assert DEFAULT_REQUESTS_PER_SECOND >= 10


@asynccontextmanager
async def served(
    env: Environment, store: Path, *, hold_s: float = 0.0, **kwargs: Any
) -> AsyncIterator[httpx.AsyncClient]:
    app: Starlette = create_app(env, store, control_token=TOKEN, **kwargs)
    app.state.request_rate.hold_s = hold_s
    async with (
        serve(app) as base,
        httpx.AsyncClient(base_url=base, headers=CONTROL, timeout=30) as http,
    ):
        http.app = app  # type: ignore[attr-defined]
        yield http


async def open_episode(http: httpx.AsyncClient) -> dict[str, Any]:
    resp = await http.post("/episodes", json={"task": "set-target", "seed": 1})
    assert resp.status_code == 201, resp.text
    return resp.json()


def call(i: int) -> dict[str, Any]:
    """A 2026-07-28 (sessionless) tool call: one request, no session to open first."""
    return {
        "jsonrpc": "2.0",
        "id": i,
        "method": "tools/call",
        "params": {
            "name": "get",
            "arguments": {"key": "a"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "flood", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }


async def post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> httpx.Response:
    headers = {**MCP, "mcp-protocol-version": "2026-07-28", "mcp-method": body["method"]}
    headers["mcp-name"] = body["params"]["name"]
    return await http.post(url, json=body, headers=headers)


async def test_past_its_rate_an_episode_is_refused_logged_once_and_recorded(
    toy_env: Environment, store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="mcpgym.http")
    async with served(toy_env, store_dir, max_requests_per_second=SLOW, request_burst=3) as http:
        flooder, other = await open_episode(http), await open_episode(http)
        with anyio.fail_after(30):
            served_calls = [await post(http, flooder["mcp_url"], call(i)) for i in range(3)]
            refused = [await post(http, flooder["mcp_url"], call(10 + i)) for i in range(3)]
            notification = await http.post(
                flooder["mcp_url"],
                json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                headers={**MCP, "mcp-protocol-version": HANDSHAKE},
            )
            # another episode is served as before, up to its own burst
            others = [await post(http, other["mcp_url"], call(20 + i)) for i in range(3)]
            ended = await http.post(f"/episodes/{flooder['episode_id']}/end")
            ended_other = await http.post(f"/episodes/{other['episode_id']}/end")
    assert [r.status_code for r in served_calls] == [200, 200, 200]
    assert [r.status_code for r in refused] == [429, 429, 429]
    assert notification.status_code == 429  # notifications count
    assert [r.status_code for r in others] == [200, 200, 200]
    body = refused[0].json()
    assert body["id"] == 10 and body["error"]["code"] == RATE_LIMIT_ERROR
    message = body["error"]["message"]
    assert f"episode {flooder['episode_id']} sent MCP requests" in message
    assert "0.001 a second, bursts of up to 3" in message
    assert "--max-requests-per-second" in message and "--request-burst" in message
    data = body["error"]["data"]
    assert data["kind"] == "rate_limit" and data["episode_id"] == flooder["episode_id"]
    assert (data["limit_per_second"], data["burst"]) == (SLOW, 3)
    assert int(refused[0].headers["retry-after"]) >= 1
    # the server says it once for the episode; the bundle counts every refusal
    said = [r for r in caplog.records if "faster than" in r.getMessage()]
    assert len(said) == 1 and flooder["episode_id"] in said[0].getMessage()
    meta = ended.json()
    assert meta["rate_limited"] == {"refused": 4, "per_second": SLOW, "burst": 3}
    assert meta["steps"] == 3  # the refused calls were never run
    assert "rate_limited" not in ended_other.json()  # unset: left out, as before


async def test_a_held_refusal_does_not_hold_up_other_episodes(
    toy_env: Environment, store_dir: Path
) -> None:
    kwargs: dict[str, Any] = {"max_requests_per_second": SLOW, "request_burst": 1}
    async with served(toy_env, store_dir, hold_s=3.0, **kwargs) as http:
        flooder, other = await open_episode(http), await open_episode(http)
        rate = http.app.state.request_rate  # type: ignore[attr-defined]
        held, answers = anyio.Event(), []
        hold = rate.hold

        def holding(episode_id: str) -> bool:
            started = hold(episode_id)
            if started:
                held.set()
            return started

        rate.hold = holding
        with anyio.fail_after(30):
            assert (await post(http, flooder["mcp_url"], call(1))).status_code == 200

            async def refused() -> None:
                answers.append(await post(http, flooder["mcp_url"], call(2)))

            async with anyio.create_task_group() as tg:
                tg.start_soon(refused)
                await held.wait()
                bystander = await post(http, other["mcp_url"], call(3))
                assert bystander.status_code == 200
                assert not answers  # still held while the other episode was served
    assert answers[0].status_code == 429
    assert answers[0].json()["error"]["data"]["retry_after_s"] >= 0


async def test_a_connect_to_start_session_counts_for_its_episode(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_requests_per_second=SLOW, request_burst=2) as http:
        url = "/tasks/set-target/mcp?seed=1"
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": HANDSHAKE,
                "capabilities": {},
                "clientInfo": {"name": "flood", "version": "1"},
            },
        }
        with anyio.fail_after(30):
            opened = await http.post(url, json=init, headers=MCP)
            assert opened.status_code == 200, opened.text
            headers = {
                **MCP,
                "mcp-session-id": opened.headers["mcp-session-id"],
                "mcp-protocol-version": HANDSHAKE,
            }
            ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
            codes = [(await http.post(url, json=ping, headers=headers)).status_code for _ in "abc"]
            eid = opened.headers["mcp-episode-id"]
            refused = await http.post(url, json=ping, headers=headers)
    assert codes == [200, 200, 429]
    assert refused.json()["error"]["data"]["episode_id"] == eid


async def test_the_sdk_client_shows_why_it_was_refused(
    toy_env: Environment, store_dir: Path
) -> None:
    async with served(toy_env, store_dir, max_requests_per_second=SLOW, request_burst=8) as http:
        ep = await open_episode(http)
        with anyio.fail_after(30):
            async with Client(ep["mcp_url"], mode="2026-07-28") as client:
                with pytest.raises(MCPError) as caught:
                    for _ in range(20):
                        await client.call_tool("get", {"key": "a"})
    assert caught.value.error.code == RATE_LIMIT_ERROR
    assert "--max-requests-per-second" in str(caught.value)


async def test_mcpgym_serve_takes_the_limit_from_its_options(tmp_path: Path) -> None:
    from .test_session_caps import initialize
    from .test_shutdown import CONTROL as SERVE_CONTROL
    from .test_shutdown import READY, _free_port, _Log, _process

    port, log = _free_port(), _Log()
    args = ["serve", "helpdesk", "--port", str(port), "--store", str(tmp_path / "episodes")]
    limit = ["--max-requests-per-second", "0.001", "--request-burst", "2"]
    with anyio.fail_after(60):
        async with _process([*args, *limit], log):
            await log.wait_for(READY)
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base, headers=SERVE_CONTROL) as http:
                ep = (await http.post("/episodes", json={"task": "order-status"})).json()
                answers = [await initialize(http, ep["mcp_url"]) for _ in range(3)]
    assert [r.status_code for r in answers] == [200, 200, 429]
    assert answers[2].json()["error"]["data"]["burst"] == 2


@pytest.mark.parametrize(
    ("kwargs", "reported"),
    [
        ({}, (DEFAULT_REQUESTS_PER_SECOND, DEFAULT_REQUEST_BURST)),
        ({"max_requests_per_second": 7.5, "request_burst": 9}, (7.5, 9)),
        ({"max_requests_per_second": None, "request_burst": 9}, (None, None)),
    ],
)
async def test_the_limit_is_one_of_the_episode_settings_a_run_records(
    toy_env: Environment, tmp_path: Path, kwargs: dict[str, Any], reported: tuple[Any, Any]
) -> None:
    # what the harness compares before it resumes a run (`mcpgym_clients.resume`): a run
    # served at one limit is never resumed on a server with another
    app: Starlette = create_app(toy_env, tmp_path, control_token=TOKEN, **kwargs)
    with anyio.fail_after(20):
        async with (
            serve(app) as base,
            httpx.AsyncClient(base_url=base, headers=CONTROL, timeout=30) as http,
        ):
            settings = (await http.get("/tasks")).json()["episode_settings"]
    assert (settings["max_requests_per_second"], settings["request_burst"]) == reported
