"""Signed bundles: an environment server with a bundle key signs what it seals, and a grading
service with the same key grades nothing else (a forged meta.json is refused), and each
bundle only as the episode it was sealed for (a copied bundle folder is refused)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from mcpgym_clients.local import LocalServers, serve_locally
from mcpgym_grading.service import create_app as create_grading_app
from mcpgym_server import BundleSignatureError, EpisodeManager, EpisodeStore
from mcpgym_server.bundles import SIGNATURE, bundle_signature
from mcpgym_server.runtime import serve
from tests.toyenv import secret

from .conftest import ToyFactory

pytestmark = pytest.mark.anyio


async def _sealed(servers: LocalServers, seed: int) -> str:
    async with httpx.AsyncClient(
        base_url=servers.env_url, trust_env=False, headers=servers.control_headers
    ) as http:
        meta = (
            await http.post("/episodes", json={"task": "copy-secret", "band": "easy", "seed": seed})
        ).json()
        await http.post(f"/episodes/{meta['episode_id']}/end", json={})
    return meta["episode_id"]


async def _grade(url: str, token: str, eid: str) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, trust_env=False, headers=headers) as http:
        return await http.post("/grades", json={"episode_id": eid})


async def test_a_forged_unlocked_bundle_is_refused_and_a_sealed_one_is_verified(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    store_dir = tmp_path / "episodes"
    with anyio.fail_after(30):
        async with serve_locally(env, store_dir, unlocked=True) as servers:
            honest, forged = await _sealed(servers, 1), await _sealed(servers, 2)
            meta_path = store_dir / forged / "meta.json"
            meta = json.loads(meta_path.read_text())
            assert meta["unlocked"] is True
            meta_path.write_text(json.dumps({**meta, "unlocked": False}))  # the forgery
            refused = await _grade(servers.grading_url, servers.grading_token, forged)
            graded = await _grade(servers.grading_url, servers.grading_token, honest)
            (store_dir / honest / SIGNATURE).unlink()
            unsigned_id = honest
        # A grading service without a key grades it, and says nothing proves it.
        keyless = create_grading_app(store_dir, "t", env_loader=lambda name: env)
        async with serve(keyless, name="grading") as url:
            unchecked = await _grade(url, "t", forged)
    assert refused.status_code == 422
    assert refused.json()["signature"] == "invalid"
    assert "signature does not verify" in refused.json()["error"]
    assert graded.status_code == 200, graded.text
    assert graded.json()["signature"] == "verified" and graded.json()["unlocked"] is True
    assert unchecked.status_code == 200 and unchecked.json()["signature"] == "unchecked"
    with pytest.raises(BundleSignatureError, match="is unsigned"):
        EpisodeStore(store_dir, create=False).verify_signature(unsigned_id, "any key")


async def _solved(servers: LocalServers, seed: int) -> str:
    """An episode of copy-secret@easy#seed that did the task (put the secret), sealed."""
    async with httpx.AsyncClient(
        base_url=servers.env_url, trust_env=False, headers=servers.control_headers
    ) as http:
        meta = (
            await http.post("/episodes", json={"task": "copy-secret", "band": "easy", "seed": seed})
        ).json()
        async with Client(meta["mcp_url"]) as client:
            await client.call_tool("get", {"key": "vault"})
            done = await client.call_tool("put", {"key": "target", "value": secret("easy", seed)})
            assert not done.is_error, done.content
        await http.post(f"/episodes/{meta['episode_id']}/end", json={})
    return meta["episode_id"]


def _copy_over(store_dir: Path, source: str, target: str) -> None:
    """What an agent with write access to the store would do: replace ``target``'s bundle
    folder with a copy of ``source``'s."""
    shutil.rmtree(store_dir / target)
    shutil.copytree(store_dir / source, store_dir / target)


async def test_a_passing_bundle_copied_over_a_failing_episode_is_refused(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    store_dir = tmp_path / "episodes"
    with anyio.fail_after(30):
        async with serve_locally(env, store_dir, unlocked=True) as servers:
            passing = await _solved(servers, 3)
            failing, relabelled = await _sealed(servers, 3), await _sealed(servers, 3)
            # graded as itself, the passing bundle passes: the copy is worth stealing
            own = await _grade(servers.grading_url, servers.grading_token, passing)
            _copy_over(store_dir, passing, failing)
            copied = await _grade(servers.grading_url, servers.grading_token, failing)
            # the forger also rewrites meta.json to name the failing episode
            _copy_over(store_dir, passing, relabelled)
            meta_path = store_dir / relabelled / "meta.json"
            meta_path.write_text(
                json.dumps({**json.loads(meta_path.read_text()), "episode_id": relabelled})
            )
            forged = await _grade(servers.grading_url, servers.grading_token, relabelled)
        # without a bundle key the copy is refused all the same (the folder names another id)
        keyless = create_grading_app(store_dir, "t", env_loader=lambda name: env)
        async with serve(keyless, name="grading") as url:
            unchecked = await _grade(url, "t", failing)
    assert own.status_code == 200 and own.json()["passed"] is True, own.text
    assert own.json()["signature"] == "verified"
    assert copied.status_code == 422, copied.text
    assert copied.json()["signature"] == "mismatch"
    assert (
        f"the bundle stored for episode {failing} ({store_dir / failing}) was sealed for "
        f"episode {passing}: a bundle folder was copied or moved" in copied.json()["error"]
    )
    assert forged.status_code == 422 and forged.json()["signature"] == "invalid", forged.text
    assert f"does not verify for episode {relabelled}" in forged.json()["error"]
    assert unchecked.status_code == 422 and unchecked.json()["signature"] == "mismatch"


def test_the_signature_covers_the_episode_id_environment_and_lock(
    toy: ToyFactory, tmp_path: Path
) -> None:
    env = toy()
    manager = EpisodeManager(env, EpisodeStore(tmp_path / "s", sign_key="k"), unlocked=True)
    eid = manager.open("copy-secret", "easy", 1).id
    meta = manager.seal(eid, "ended")
    log = (tmp_path / "s" / eid / "log.jsonl").read_bytes()
    signed = bundle_signature("k", meta, log)
    assert (tmp_path / "s" / eid / SIGNATURE).read_text().strip() == signed
    assert signed != bundle_signature("k", meta, log, episode_id="ep_other")
    for field, value in [("env", "other"), ("lock", "0" * 64), ("env_version", "9")]:
        assert bundle_signature("k", meta.model_copy(update={field: value}), log) != signed
