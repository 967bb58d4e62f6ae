"""Bundle format 2: the final database as a page delta against the snapshot (issue 12 §1)."""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
from pathlib import Path

import pytest

from mcpgym_server import BundleError, Environment, EpisodeManager, EpisodeStore
from mcpgym_server._bundle import FINAL_DB, STATE_DELTA, EpisodeBundle, EpisodeMeta, canonical_json
from mcpgym_server._snapshot import counted_commits


def _sealed(toy_env: Environment, store: EpisodeStore) -> str:
    manager = EpisodeManager(toy_env, store)
    ep = manager.open("set-target", "easy", 1)
    manager.call(ep.id, "put", {"key": "x", "value": "9"})
    # what sealing takes: the sandbox's bytes, the header's change counter written
    expected = counted_commits(ep.sandbox.db.serialize(), ep.commits)
    manager.seal(ep.id, "ended")
    bundle = store.read(ep.id)
    assert bundle.final_db == expected  # rebuilt byte for byte from the snapshot
    return ep.id


def test_a_sealed_bundle_holds_only_the_changed_pages(
    toy_env: Environment, store_dir: Path
) -> None:
    store = EpisodeStore(store_dir)
    eid = _sealed(toy_env, store)
    d = store.path(eid)
    assert sorted(p.name for p in d.iterdir()) == ["log.jsonl", "meta.json", STATE_DELTA]
    meta = store.read_meta(eid)
    snapshot = toy_env.snapshot
    assert (meta.bundle_format, meta.base_sha256) == (2, snapshot.sha256)
    bundle = store.read(eid)
    final, delta = bundle.final_state(snapshot)
    assert len(final) == meta.final_size
    assert hashlib.sha256(final).hexdigest() == meta.final_sha256
    assert 0 < len(delta.pages) <= len(snapshot.data) // delta.page_size
    assert delta.apply(snapshot.data) == final


def test_a_delta_that_rebuilds_another_database_is_refused(
    toy_env: Environment, store_dir: Path
) -> None:
    store = EpisodeStore(store_dir)
    eid = _sealed(toy_env, store)
    meta_path = store.path(eid) / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["final_sha256"] = "f" * 64
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(BundleError, match="does not match final_sha256 ffffffffffff"):
        _ = store.read(eid).final_db


def test_format_1_bundles_are_still_read_and_their_signatures_verify(
    toy_env: Environment, store_dir: Path
) -> None:
    store = EpisodeStore(store_dir)
    eid = _sealed(toy_env, store)
    new = store.read(eid)
    old_meta = {
        k: v
        for k, v in new.meta.model_dump(mode="json").items()
        if k
        not in ("bundle_format", "base_sha256", "final_size", "delta_sha256", "final_pages_sha256")
    }
    old_meta["episode_id"] = "ep_old"
    old = EpisodeBundle(EpisodeMeta.model_validate(old_meta), new.log, final_db=new.final_db)
    signing = EpisodeStore(store_dir, sign_key="k")
    d = signing.write(old)
    assert (d / FINAL_DB).is_file() and not (d / STATE_DELTA).exists()
    assert json.loads((d / "meta.json").read_text())["bundle_format"] == 1
    # a bundle signed before page deltas: the signature covers meta.json without them
    log_text = (d / "log.jsonl").read_bytes()
    body = canonical_json({"meta": old_meta, "log_sha256": hashlib.sha256(log_text).hexdigest()})
    (d / "signature").write_text(hmac.new(b"k", body.encode(), hashlib.sha256).hexdigest())
    (d / "meta.json").write_text(json.dumps(old_meta))
    signing.verify_signature("ep_old", "k")
    back = signing.read("ep_old")
    assert not back.has_delta and back.final_db == new.final_db
    assert gzip.decompress((d / FINAL_DB).read_bytes()) == new.final_db


def test_a_damaged_page_delta_is_refused(toy_env: Environment) -> None:
    from mcpgym_server._delta import PageDelta

    base = toy_env.snapshot.data
    final = base[:4096] + b"\x01" * 4096 + base[8192:] + b"\x02" * 4096
    data = PageDelta.between(base, final).encode_against(base)
    assert PageDelta.decode(data, base).apply(base) == final
    for bad, why in (
        (b"NOTADELT" + data[8:], "bad magic"),
        (data[:-1], "left over or missing"),
        (data + b"\x00", "left over or missing"),
    ):
        with pytest.raises(BundleError, match=why):
            PageDelta.decode(bad, base)
