"""``POST /episodes/{id}/keepalive``: the harness keeps an episode open while its agent waits
on a model slower than the idle TTL (issue 9 §8, adversarial round 19, S19-R2)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from mcpgym_server import Environment, EpisodeManager, EpisodeSealedError, EpisodeStore
from mcpgym_server._errors import UnknownEpisodeError
from mcpgym_server._http import create_app
from mcpgym_server._serving import serve

pytestmark = pytest.mark.anyio

TOKEN = "the-harness-control-token"
CONTROL = {"authorization": f"Bearer {TOKEN}"}


def test_a_keep_alive_starts_the_idle_ttl_again(toy_env: Environment, store_dir: Path) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir), idle_ttl=10)
    kept = manager.open("set-target", "easy", 1)
    left = manager.open("set-target", "easy", 2)
    now = time.monotonic()
    kept.last_activity = left.last_activity = now - 60  # both idle past the TTL
    assert manager.keep_alive(kept.id) is kept
    assert manager.reap_idle(now=now + 1) == [left.id]
    assert manager.open_episodes == [kept.id]
    with pytest.raises(EpisodeSealedError) as sealed:
        manager.keep_alive(left.id)
    assert sealed.value.reason == "timeout"
    with pytest.raises(UnknownEpisodeError):
        manager.keep_alive("ep_nope")


async def test_the_keepalive_route_needs_the_token_and_says_the_episode_state(
    toy_env: Environment, store_dir: Path
) -> None:
    app = create_app(toy_env, store_dir, control_token=TOKEN, idle_ttl=30)
    manager: EpisodeManager = app.state.manager
    async with (
        serve(app) as url,
        httpx.AsyncClient(base_url=url, headers=CONTROL) as http,
        httpx.AsyncClient(base_url=url) as agent,  # the episode's MCP URL only: no token
    ):
        body = {"task": "set-target", "band": "easy", "seed": 3}
        eid = (await http.post("/episodes", json=body)).json()["episode_id"]
        manager.get(eid).last_activity -= 60
        bare = await agent.post(f"/episodes/{eid}/keepalive")
        idle = manager.get(eid).last_activity
        kept = await http.post(f"/episodes/{eid}/keepalive")
        touched = manager.get(eid).last_activity
        await http.post(f"/episodes/{eid}/end")
        sealed = await http.post(f"/episodes/{eid}/keepalive")
        unknown = await http.post("/episodes/ep_nope/keepalive")
    assert bare.status_code == 401  # an agent cannot keep its episode alive
    assert touched > idle + 59
    assert kept.status_code == 200
    assert kept.json() == {"episode_id": eid, "state": "open", "idle_ttl": 30}
    assert sealed.json() == {"episode_id": eid, "state": "sealed", "termination": "ended"}
    assert unknown.status_code == 404 and unknown.json()["kind"] == "episode"
