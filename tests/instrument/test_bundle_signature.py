"""Signed bundles: an environment server with a bundle key signs what it seals, and a grading
service with the same key grades nothing else (a forged meta.json is refused)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import httpx
import pytest

from mcpgym_clients.local import serve_locally
from mcpgym_grading.service import create_app as create_grading_app
from mcpgym_server import BundleSignatureError, EpisodeStore
from mcpgym_server.bundle import SIGNATURE
from mcpgym_server.serving import serve

from .conftest import ToyFactory

pytestmark = pytest.mark.anyio


async def _sealed(env_url: str, seed: int) -> str:
    async with httpx.AsyncClient(base_url=env_url, trust_env=False) as http:
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
            honest, forged = await _sealed(servers.env_url, 1), await _sealed(servers.env_url, 2)
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
