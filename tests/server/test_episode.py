"""The in-process runtime: episodes, the tool-call log, sealing, isolation, determinism."""

from __future__ import annotations

import gzip
import hashlib
import logging
from pathlib import Path

import pytest

from mcpgym_server import (
    BundleError,
    Environment,
    EpisodeManager,
    EpisodeSealedError,
    EpisodeStore,
    Snapshot,
    SnapshotError,
    ToolCall,
    UnknownEpisodeError,
    replay,
)
from mcpgym_server._bundle import STATE_DELTA


@pytest.fixture
def manager(toy_env: Environment, store_dir: Path) -> EpisodeManager:
    return EpisodeManager(toy_env, EpisodeStore(store_dir))


def test_episode_runs_tools_and_seals_a_bundle(manager: EpisodeManager) -> None:
    ep = manager.open("set-target", "easy", 1)
    ok = manager.call(ep.id, "put", {"key": "x", "value": "9"})
    assert ok.status == "ok"
    assert ok.result == {"key": "x", "value": "9", "at": "2026-06-15T09:00:30Z"}
    assert manager.call(ep.id, "get", {"key": "x"}).result == {"key": "x", "value": "9"}
    meta = manager.seal(ep.id, "ended", answer="done")
    assert (meta.termination, meta.steps, meta.answer) == ("ended", 2, "done")
    bundle = manager.store.read(ep.id)
    assert [e.tool for e in bundle.log] == ["put", "get"]
    assert dict(bundle.open_final_db().execute("SELECT k, v FROM kv").fetchall()) == {
        "a": "1",
        "b": "2",
        "x": "9",
    }
    assert hashlib.sha256(bundle.final_db).hexdigest() == meta.final_sha256
    assert meta.lock == manager.lock and meta.variant_id == "toy/set-target@easy#1"


def test_tool_error_and_internal_error_are_told_apart(
    manager: EpisodeManager, caplog: pytest.LogCaptureFixture
) -> None:
    ep = manager.open("set-target", "easy", 1)
    with caplog.at_level(logging.ERROR, logger="mcpgym.episode"):
        bug = manager.call(ep.id, "put", {"key": "x", "value": "explode"})
    rejected = manager.call(ep.id, "put", {"key": "x", "value": "reject"})
    assert bug.status == "internal_error"
    assert "secret internals" not in (bug.error or "")
    assert bug.internal_detail == "RuntimeError: secret internals"
    assert "Traceback" in caplog.text and "secret internals" in caplog.text
    assert rejected.status == "tool_error"
    assert rejected.error == "value 'reject' is not allowed; choose another value"
    meta = manager.seal(ep.id, "ended")
    assert meta.internal_errors == 1
    statuses = [e.status for e in manager.store.read(ep.id).log]
    assert statuses == ["internal_error", "tool_error"]


def test_failed_calls_leave_no_writes(manager: EpisodeManager) -> None:
    ep = manager.open("set-target", "easy", 1)
    manager.call(ep.id, "put", {"key": "x", "value": "explode"})
    manager.call(ep.id, "put", {"key": "y", "value": "reject"})
    assert manager.call(ep.id, "dump", {}).result == {"a": "1", "b": "2"}


def test_malformed_calls_are_logged_with_clear_errors(manager: EpisodeManager) -> None:
    ep = manager.open("set-target", "easy", 1)
    unknown = manager.call(ep.id, "drop_tables", {})
    invalid = manager.call(ep.id, "put", {"key": 5})
    not_object = manager.call(ep.id, "put", "key=x")
    assert unknown.status == "unknown_tool" and "available tools: dump, get, put, submit" in (
        unknown.error or ""
    )
    assert invalid.status == "invalid_arguments" and "`value`: Field required" in (
        invalid.error or ""
    )
    assert not_object.status == "invalid_arguments"
    assert manager.is_open(ep.id)


def test_calls_after_sealing_get_a_clear_error(manager: EpisodeManager) -> None:
    ep = manager.open("set-target", "easy", 1)
    manager.call(ep.id, "submit", {"answer": "finished"})
    with pytest.raises(EpisodeSealedError, match="termination reason: submitted"):
        manager.call(ep.id, "get", {"key": "a"})
    assert manager.store.read(ep.id).meta.answer == "finished"
    assert manager.seal(ep.id, "ended").termination == "submitted"  # idempotent
    with pytest.raises(UnknownEpisodeError):
        manager.call("ep_doesnotexist", "get", {"key": "a"})


def test_episodes_never_share_state(manager: EpisodeManager) -> None:
    eps = [manager.open("set-target", "easy", i) for i in range(20)]
    for i, ep in enumerate(eps):
        manager.call(ep.id, "put", {"key": "who", "value": str(i)})
    for i, ep in enumerate(eps):
        assert manager.call(ep.id, "get", {"key": "who"}).result["value"] == str(i)
        manager.seal(ep.id, "ended")
    finals = {
        manager.store.read(ep.id)
        .open_final_db()
        .execute("SELECT v FROM kv WHERE k='who'")
        .fetchone()[0]
        for ep in eps
    }
    assert finals == {str(i) for i in range(20)}


def test_same_trajectory_gives_byte_identical_state(toy_env: Environment) -> None:
    calls = [ToolCall("put", {"key": "x", "value": "1"}), ToolCall("get", {"key": "x"})]
    a = replay(toy_env, "set-target", "medium", 7, calls)
    b = replay(toy_env, "set-target", "medium", 7, calls)
    assert a.final_db == b.final_db
    assert [e.model_dump(exclude={"duration_ms"}) for e in a.log] == [
        e.model_dump(exclude={"duration_ms"}) for e in b.log
    ]


def test_idle_episodes_are_sealed_with_timeout(toy_env: Environment, store_dir: Path) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir), idle_ttl=10.0)
    idle = manager.open("set-target", "easy", 1)
    busy = manager.open("set-target", "easy", 2)
    busy.last_activity = idle.last_activity + 8.0
    sealed = manager.reap_idle(now=idle.last_activity + 11.0)
    assert sealed == [idle.id]
    assert manager.store.read(idle.id).meta.termination == "timeout"
    assert manager.is_open(busy.id)


def test_snapshot_digest_is_checked(toy_env: Environment) -> None:
    bad = Snapshot(toy_env.snapshot.package, toy_env.snapshot.resource, sha256="0" * 64)
    with pytest.raises(SnapshotError, match="declares 0000"):
        _ = bad.data
    with pytest.raises(SnapshotError, match="not found"):
        _ = Snapshot(toy_env.snapshot.package, "data/missing.db", None).data


def test_store_refuses_overwrite_and_detects_tampering(manager: EpisodeManager) -> None:
    ep = manager.open("set-target", "easy", 1)
    manager.seal(ep.id, "ended")
    bundle = manager.store.read(ep.id)
    with pytest.raises(BundleError, match="already exists"):
        manager.store.write(bundle)
    final = manager.store.path(ep.id) / STATE_DELTA
    final.write_bytes(gzip.compress(b"tampered"))
    with pytest.raises(BundleError, match="does not match delta_sha256"):
        manager.store.read(ep.id)
    final.write_bytes(b"not gzip")
    with pytest.raises(BundleError, match="malformed"):
        manager.store.read(ep.id)
    # status lookups read only meta.json, never the database
    assert manager.store.read_meta(ep.id).termination == "ended"
    with pytest.raises(UnknownEpisodeError):
        manager.store.read_meta("ep_never")
    assert not any(p.name.startswith(".tmp-") for p in manager.store.root.iterdir())


def test_arguments_that_are_not_json_are_refused_and_the_episode_still_seals(
    manager: EpisodeManager,
) -> None:
    ep = manager.open("set-target", "easy", 1)
    deep: object = "x"
    for _ in range(300):
        deep = [deep]
    raw = manager.call(ep.id, "put", {"key": b"\xff", "value": "1"})
    surrogate = manager.call(ep.id, "put", {"key": "\ud800", "value": "1"})
    nested = manager.call(ep.id, "put", {"key": "k", "value": deep})
    bad_name = manager.call(ep.id, "put\ud800", {})
    assert raw.status == surrogate.status == nested.status == "invalid_arguments"
    assert "must be JSON in valid Unicode, nested at most 32 deep" in (raw.error or "")
    assert bad_name.status == "unknown_tool" and bad_name.tool == "'put\\ud800'"
    meta = manager.seal(ep.id, "ended")
    assert meta.steps == 4
    log = manager.store.read(ep.id).log  # every bundle reads back
    assert [e.status for e in log] == ["invalid_arguments"] * 3 + ["unknown_tool"]


def test_a_cut_non_json_call_is_marked_cut_in_the_log(manager: EpisodeManager) -> None:
    # the log kept `ascii(arguments)[:1000]` unmarked: a head that read as the whole call
    ep = manager.open("set-target", "easy", 1)
    long_args = {"key": "\ud800" * 400, "value": "1"}
    short = manager.call(ep.id, "put", {"key": "\ud800", "value": "1"})
    cut = manager.call(ep.id, "put", long_args)
    whole = ascii(long_args)
    assert short.arguments == ascii({"key": "\ud800", "value": "1"})  # short: whole, unmarked
    assert cut.arguments == f"{whole[:1000]}… (cut, {len(whole)} chars)"
    manager.seal(ep.id, "ended")
    log = manager.store.read(ep.id).log
    assert [e.arguments for e in log[:2]] == [short.arguments, cut.arguments]


def test_an_episode_is_sealed_when_it_reaches_its_step_limit(
    toy_env: Environment, store_dir: Path
) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir), max_steps=3)
    ep = manager.open("set-target", "easy", 1)
    for _ in range(3):
        manager.call(ep.id, "dump", {})
    with pytest.raises(EpisodeSealedError, match="max_steps"):
        manager.call(ep.id, "dump", {})
    assert manager.store.read(ep.id).meta.termination == "max_steps"


@pytest.mark.parametrize("bad", ["x" * 300, "../etc", ".hidden", "a/b", "\ud800"])
def test_malformed_episode_ids_are_unknown_not_file_errors(
    manager: EpisodeManager, bad: str
) -> None:
    with pytest.raises(UnknownEpisodeError):
        manager.get(bad)
    with pytest.raises(UnknownEpisodeError):
        manager.seal(bad, "ended")


def test_virtual_clock_text_follows_every_tick() -> None:
    # `iso` is made once per instant: a tick must give the next instant's text, not the last
    from datetime import UTC, datetime, timedelta

    from mcpgym_server import VirtualClock

    clock = VirtualClock(datetime(2025, 1, 1, 23, 59, 30, tzinfo=UTC), timedelta(seconds=45))
    assert clock.iso() == clock.iso() == "2025-01-01T23:59:30Z"
    clock.tick()
    assert clock.iso() == "2025-01-02T00:00:15Z" == clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")


def test_unknown_tool_names_are_logged_in_bounded_ascii(manager: EpisodeManager) -> None:
    # only declared names skip the plain-JSON check: others still go to the log as ascii()
    ep = manager.open("set-target", "easy", 0)
    lone = manager.call(ep.id, "nope\ud800", {})
    huge = manager.call(ep.id, "x" * 500, {})
    assert lone.status == huge.status == "unknown_tool"
    assert lone.tool == ascii("nope\ud800") and manager.get(ep.id).log[0].tool == lone.tool
    assert manager.get(ep.id).log[1].tool.startswith("x" * 200)


@pytest.mark.parametrize("depth", [31, 32, 33])
def test_argument_nesting_is_refused_past_the_limit_exactly(
    manager: EpisodeManager, depth: int
) -> None:
    # the arguments object is level 0: `value` nested `depth` lists deep puts its innermost
    # item at level depth + 1 (`MAX_ARGUMENT_DEPTH` is 32); short JSON skips the depth walk,
    # so the boundary must hold both for the shortest such values and for long ones
    from mcpgym_server._plain_json import MAX_ARGUMENT_DEPTH, is_plain_json

    ep = manager.open("set-target", "easy", 1)
    for leaf in ("", "x" * 200):
        value: object = leaf
        for _ in range(depth):
            value = [value]
        entry = manager.call(ep.id, "put", {"key": "k", "value": value})
        ok = depth + 1 <= MAX_ARGUMENT_DEPTH
        assert is_plain_json({"value": value}) is ok
        # (`put` wants a string: a shallow enough list is refused by its schema instead)
        assert ("nested at most 32 deep" in (entry.error or "")) is not ok, entry.error
    assert is_plain_json([[[[1]]]]) and is_plain_json({"a": "x" * 100})
