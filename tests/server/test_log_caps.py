"""The tool-call log is capped: each argument set and result, the answer, and the whole log."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from mcpgym_server import Environment, EpisodeManager, EpisodeSealedError, EpisodeStore
from mcpgym_server._http import create_app
from mcpgym_server._logcap import LOG_BUDGET, LOG_VALUE_CAP

MB = 1024 * 1024
# Tools refuse strings over 20,000 characters; 19,000 four-byte characters are 76 KB of JSON.
WIDE = "\N{GRINNING FACE}" * 19_000


def _compact(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def test_ten_refused_calls_with_a_huge_argument_keep_a_small_log(
    toy_env: Environment, store_dir: Path
) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    arguments = {"key": "k", "value": "v", "junk": "x" * (39 * MB // 10)}
    for _ in range(10):
        entry = manager.call(ep.id, "put", arguments)
        assert entry.status == "invalid_arguments"
    manager.seal(ep.id, "ended")
    log = store_dir / ep.id / "log.jsonl"
    assert log.stat().st_size < 10 * (LOG_VALUE_CAP + 1024)  # 39 MB before the cap
    whole = _compact(arguments)
    for logged in manager.store.read(ep.id).log:
        assert logged.arguments_capped is not None
        assert logged.arguments_capped.bytes == len(whole)
        assert logged.arguments_capped.sha256 == hashlib.sha256(whole).hexdigest()
        assert isinstance(logged.arguments, str)
        assert whole.startswith(logged.arguments.encode())
        assert len(logged.arguments.encode()) <= LOG_VALUE_CAP


def test_the_tool_and_the_agent_see_whole_values_only_the_log_is_capped(
    toy_env: Environment, store_dir: Path
) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    put = manager.call(ep.id, "put", {"key": "wide", "value": WIDE})
    got = manager.call(ep.id, "get", {"key": "wide"})
    small = manager.call(ep.id, "get", {"key": "a"})
    assert (put.status, got.result) == ("ok", {"key": "wide", "value": WIDE})
    manager.seal(ep.id, "ended")
    logged = manager.store.read(ep.id).log
    assert logged[0].arguments_capped is not None and logged[0].result_capped is not None
    assert (logged[1].arguments, logged[1].arguments_capped) == ({"key": "wide"}, None)
    assert logged[1].result_capped == _capped(got.result)
    assert logged[2] == small  # under the cap: kept as it was, no capped fields written
    assert '"arguments_capped"' not in (store_dir / ep.id / "log.jsonl").read_text().split("\n")[2]


def _capped(value: object) -> object:
    from mcpgym_server._bundle_meta import CappedValue

    whole = _compact(value)
    return CappedValue(bytes=len(whole), sha256=hashlib.sha256(whole).hexdigest())


def test_past_its_byte_budget_the_episode_is_sealed_with_log_budget(
    toy_env: Environment, store_dir: Path
) -> None:
    manager = EpisodeManager(
        toy_env, EpisodeStore(store_dir), log_value_cap=4096, log_budget=64 * 1024
    )
    ep = manager.open("set-target", "easy", 0)
    calls = 0
    with pytest.raises(EpisodeSealedError, match="termination reason: log_budget"):
        for _ in range(1_000):
            manager.call(ep.id, "put", {"key": "k", "value": "y" * 19_000})
            calls += 1
    meta = manager.store.read_meta(ep.id)
    assert (meta.termination, meta.steps) == ("log_budget", calls)
    assert calls < 20  # each call kept 4 KiB of its arguments
    assert (store_dir / ep.id / "log.jsonl").stat().st_size <= 64 * 1024 + 2 * 4096 + 1024


def test_a_huge_answer_is_kept_as_its_head_with_length_and_digest(
    toy_env: Environment, store_dir: Path
) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir))
    ep = manager.open("set-target", "easy", 0)
    manager.call(ep.id, "submit", {"answer": WIDE})
    meta = manager.store.read_meta(ep.id)
    assert meta.answer_capped is not None
    assert meta.answer_capped.bytes == len(WIDE.encode())
    assert meta.answer_capped.sha256 == hashlib.sha256(WIDE.encode()).hexdigest()
    assert meta.answer is not None and WIDE.startswith(meta.answer)
    assert len(meta.answer.encode()) <= LOG_VALUE_CAP
    plain = manager.open("set-target", "easy", 1)
    manager.call(plain.id, "submit", {"answer": "42"})
    assert manager.store.read_meta(plain.id).answer_capped is None
    assert "answer_capped" not in (store_dir / plain.id / "meta.json").read_text()


def test_the_caps_are_options_with_checked_values(toy_env: Environment, store_dir: Path) -> None:
    defaults = EpisodeManager(toy_env, EpisodeStore(store_dir))
    assert (defaults.log_value_cap, defaults.log_budget) == (LOG_VALUE_CAP, LOG_BUDGET)
    assert (LOG_VALUE_CAP, LOG_BUDGET) == (64 * 1024, 16 * MB)
    with pytest.raises(ValueError, match="below the minimum of 1024"):
        EpisodeManager(toy_env, EpisodeStore(store_dir), log_value_cap=100)
    with pytest.raises(ValueError, match="below the log value cap"):
        EpisodeManager(toy_env, EpisodeStore(store_dir), log_budget=1024)
    app = create_app(toy_env, store_dir, control_token=None, log_value_cap=2048, log_budget=MB)
    assert (app.state.manager.log_value_cap, app.state.manager.log_budget) == (2048, MB)


def test_a_signed_bundle_with_capped_values_verifies(toy_env: Environment, store_dir: Path) -> None:
    manager = EpisodeManager(toy_env, EpisodeStore(store_dir, sign_key="k"))
    ep = manager.open("set-target", "easy", 0)
    manager.call(ep.id, "put", {"key": "wide", "value": WIDE})
    manager.call(ep.id, "submit", {"answer": WIDE})
    manager.store.verify_signature(ep.id, "k")
