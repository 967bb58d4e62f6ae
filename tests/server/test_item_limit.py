"""One malformed tool call never stalls the other episodes (issue 9 §5/§6, round 9 S5-1).

A call with 200,000 unknown argument keys (3.6 MB, under the 4 MiB body limit) held the event
loop for its whole call: the SDK's parse and validation, the argument checks and one error per
key, seconds in all. Now a message over `MAX_MESSAGE_ITEMS` JSON items is counted in a worker
thread and refused before anything parses it, and the checks behind it are bounded.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import httpx
import pytest
from mcp_types import INVALID_PARAMS

from mcpgym_server import Environment, EpisodeManager, EpisodeStore, _body_limit
from mcpgym_server._errors import MAX_LISTED_ERRORS
from mcpgym_server._http import create_app
from mcpgym_server._item_limit import MAX_MESSAGE_ITEMS, count_items
from mcpgym_server._plain_json import MAX_ARGUMENT_ITEMS
from mcpgym_server._serving import serve

TOKEN = "control-test-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}
MCP_HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _items(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_items(v) for v in value.values())
    if isinstance(value, list):
        return len(value) + sum(_items(v) for v in value)
    return 0


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.4:
        return rng.choice(
            [0, -1.5e3, None, True, "", "a,b", '"[]{}', "\\", '\\"', "x\\\\", " [ ] "]
        )
    if roll < 0.7:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["k", "a,", '"', "[]", "\\", "{}", "k:"]
    return {
        rng.choice(keys) + str(i): _random_json(rng, depth + 1) for i in range(rng.randrange(4))
    }


def test_count_items_is_exact_on_any_json_however_it_is_sliced() -> None:
    rng = random.Random(9)
    for _ in range(500):
        value = _random_json(rng)
        for text in (json.dumps(value), json.dumps(value, indent=1, ensure_ascii=False)):
            for slice_bytes in (1, 2, 3, 7, 65536):
                got = count_items(text.encode(), slice_bytes=slice_bytes)
                assert got == _items(value), (text, slice_bytes)


def test_count_items_stops_once_past_the_limit() -> None:
    body = json.dumps({f"k{i}": i for i in range(200_000)}).encode()
    assert count_items(body) == 200_000
    assert MAX_MESSAGE_ITEMS < count_items(body, stop=MAX_MESSAGE_ITEMS) < 200_000


def _call(name: str, arguments: dict[str, Any]) -> bytes:
    message = {"jsonrpc": "2.0", "id": 3, "method": "tools/call"}
    params = {"name": name, "arguments": arguments, "_meta": META}
    return json.dumps({**message, "params": params}).encode()


@pytest.fixture
async def served(toy_env: Environment, store_dir: Path) -> AsyncIterator[tuple[str, Any]]:
    app = create_app(toy_env, store_dir, control_token=TOKEN)
    async with serve(app) as base:
        yield base, app


@pytest.mark.anyio
async def test_a_call_with_too_many_items_is_refused_off_the_loop_while_others_are_served(
    served: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the 200,000-key call is being counted (held in its worker thread until the test
    lets it go), `/healthz` and another episode's call are answered: the counting is off
    the loop, and the refusal comes before any parsing of the body."""
    base, app = served
    counting, release = anyio.Event(), threading.Event()

    def held_count(body: bytes, **kw: Any) -> int:
        anyio.from_thread.run_sync(counting.set)
        release.wait(10)
        return count_items(body, **kw)

    monkeypatch.setattr(_body_limit, "count_items", held_count)
    huge = _call("put", {f"k{i}": i for i in range(200_000)})
    async with httpx.AsyncClient(base_url=base, headers=CONTROL, timeout=30) as c:
        a = (await c.post("/episodes", json={"task": "set-target"})).json()
        b = (await c.post("/episodes", json={"task": "set-target"})).json()
        replies: dict[str, httpx.Response] = {}

        async def big() -> None:
            replies["big"] = await c.post(
                a["mcp_url"], content=huge, headers={**MCP_HEADERS, "mcp-name": "put"}
            )

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                tg.start_soon(big)
                await counting.wait()
                assert (await c.get("/healthz")).status_code == 200
                other = await c.post(
                    b["mcp_url"],
                    content=_call("get", {"key": "a"}),
                    headers={**MCP_HEADERS, "mcp-name": "get"},
                )
                assert other.status_code == 200 and "result" in other.json()
                assert "big" not in replies
                release.set()
    refused = replies["big"]
    assert refused.status_code == 413
    error = refused.json()["error"]
    assert error["code"] == INVALID_PARAMS
    assert f"more than {MAX_MESSAGE_ITEMS:,} JSON items" in error["message"]
    assert error["data"]["item_limit"] == MAX_MESSAGE_ITEMS
    assert len(refused.content) < 1000  # the answer does not grow with the request
    manager: EpisodeManager = app.state.manager
    assert manager.is_open(a["episode_id"]) and manager.get(a["episode_id"]).log == []
    assert [e.status for e in manager.get(b["episode_id"]).log] == ["ok"]


@pytest.mark.anyio
async def test_a_call_within_the_item_limit_still_reaches_the_tool(
    served: tuple[str, Any],
) -> None:
    base, app = served
    # over `COUNT_FROM_BYTES`, so counted, and within the limit: served as before
    arguments = {"key": "target", "value": "v," * 5000}
    async with httpx.AsyncClient(base_url=base, headers=CONTROL, timeout=30) as c:
        a = (await c.post("/episodes", json={"task": "set-target"})).json()
        reply = await c.post(
            a["mcp_url"],
            content=_call("put", arguments),
            headers={**MCP_HEADERS, "mcp-name": "put"},
        )
    assert reply.status_code == 200 and not reply.json()["result"].get("isError")
    assert [e.status for e in app.state.manager.get(a["episode_id"]).log] == ["ok"]


def test_in_process_a_call_with_too_many_items_is_a_bounded_tool_error(
    toy_env: Environment, store_dir: Path
) -> None:
    """stdio and in-process callers have no HTTP body to count: the manager refuses the call,
    logs it capped with the sha256 of the whole, and the episode goes on."""
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    arguments = {f"k{i}": i for i in range(MAX_ARGUMENT_ITEMS + 1)}
    entry = manager.call(ep.id, "put", arguments)
    assert entry.status == "invalid_arguments"
    assert f"more than {MAX_ARGUMENT_ITEMS:,} JSON items" in (entry.error or "")
    assert len(entry.error or "") < 300
    assert manager.call(ep.id, "get", {"key": "a"}).status == "ok"
    manager.seal(ep.id, "ended")
    logged = manager.store.read(ep.id).log[0]
    whole = json.dumps(arguments, separators=(",", ":")).encode()
    assert logged.arguments_capped is not None
    assert logged.arguments_capped.sha256 == hashlib.sha256(whole).hexdigest()


def test_unknown_keys_are_listed_a_few_and_counted(toy_env: Environment, store_dir: Path) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    entry = manager.call(ep.id, "put", {"key": "k", **{f"x{i}": i for i in range(5000)}})
    assert entry.status == "invalid_arguments"
    error = entry.error or ""
    assert error.count("Extra inputs are not permitted") == MAX_LISTED_ERRORS - 1
    # `value` is missing (listed first), so 9 unknown keys are listed and 4,991 counted
    assert error.startswith("invalid arguments for tool `put`: `value`: Field required; `x0`")
    assert error.endswith("; and 4,991 more problems")
