"""The lock file: what it pins, how a mismatch is named, sign-offs and stamps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcpgym_server import LockError, LockMissingError, StaleLockError, compute_lock
from mcpgym_server.lock import (
    ValidationStamp,
    current_lock,
    lock_path,
    read_lock,
    relock,
    sign,
    verify_lock,
    write_lock,
)
from tests.snapshot_pkg import install_snapshot_package
from tests.toyenv import RESOURCE, SCHEMA, toyvault

from .conftest import ToyFactory

BY = "Ada Lovelace <ada@example.org>"


def test_a_written_lock_verifies_and_its_digest_is_the_episodes_lock(toy: ToyFactory) -> None:
    env = toy()
    path = write_lock(env, current_lock(env))
    assert path.name == "mcpgym.lock" and path.parent.name == env.package
    locked = verify_lock(env)
    assert locked.digest == compute_lock(env)
    assert set(locked.tools) == {"delete", "get", "put", "submit"}
    assert list(locked.families) == ["copy-secret"]


def test_a_missing_lock_file_is_a_clear_error(toy: ToyFactory) -> None:
    env = toy()
    with pytest.raises(LockMissingError, match=r"has no lock file .*mcpgym lock toyvault"):
        verify_lock(env)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"version": "0.2.0"}, "version 0.1.0 -> 0.2.0"),
        ({"get_description": "which key to read."}, "tool `get` input schema changed"),
        ({"extra_tool": True}, "tool `count` added"),
        ({"instructions": "Another text."}, "server instructions changed"),
        ({"policy": "Be nice."}, "resource `toy://policy` added"),
        ({"weight": 2.0}, "rubric of family `copy-secret` changed"),
        ({"generator_version": "2"}, "generator of family `copy-secret` changed (version 1 -> 2)"),
        (
            {"instruction_suffix": " Quickly."},
            "generator of family `copy-secret` produces different variants without a "
            "generator_version bump",
        ),
    ],
)
def test_serving_refuses_changed_code_naming_what_changed(
    toy: ToyFactory, change: dict[str, Any], named: str
) -> None:
    write_lock(toy(), current_lock(toy()))
    changed = toy(**change)
    with pytest.raises(StaleLockError) as info:
        verify_lock(changed)
    assert info.value.changes == [named]
    assert named in str(info.value) and "mcpgym lock toyvault" in str(info.value)


def test_a_changed_snapshot_is_named(toy: ToyFactory, tmp_path: Path) -> None:
    env = toy()
    write_lock(env, current_lock(env))

    def build(db: Any) -> None:
        db.executescript(SCHEMA)
        db.execute("UPDATE kv SET v = '2' WHERE k = 'a'")

    sha = install_snapshot_package(tmp_path, env.package, build, RESOURCE)

    with pytest.raises(StaleLockError) as info:
        verify_lock(toyvault(env.package, sha))
    assert len(info.value.changes) == 1
    assert info.value.changes[0].startswith("snapshot changed (sha256 ")


def test_a_hand_edited_lock_file_is_refused(toy: ToyFactory) -> None:
    env = toy()
    path = write_lock(env, current_lock(env))
    path.write_text(path.read_text().replace('version = "0.1.0"', 'version = "9.9.9"'))
    with pytest.raises(LockError, match="digest does not match its content"):
        read_lock(env)
    path.write_text("env = [")
    with pytest.raises(LockError, match="is not valid TOML"):
        read_lock(env)


def test_signoffs_and_the_stamp_are_outside_the_digest(toy: ToyFactory) -> None:
    env = toy()
    lock = sign(current_lock(env), "copy-secret", BY, at="2026-11-30T12:00:00Z")
    stamp = ValidationStamp(at="x", digest=lock.digest, mcpgym_version="0", seeds=1)
    lock = lock.model_copy(update={"validation": stamp})
    write_lock(env, lock)
    again = verify_lock(env)
    assert again.digest == current_lock(env).digest
    assert again.signoffs["copy-secret"].by == BY and again.validated
    assert again.signoff_status("copy-secret") == "valid"
    text = lock_path(env).read_text()
    assert "[signoffs.copy-secret]" in text and "[validation]" in text


@pytest.mark.parametrize("by", ["Ada", "ada@example.org", "<ada@example.org>", "Ada <ada>"])
def test_a_signer_must_be_a_name_and_an_email(toy: ToyFactory, by: str) -> None:
    with pytest.raises(ValueError, match="must be a name and an email address"):
        sign(current_lock(toy()), "copy-secret", by)


def test_changing_a_weight_voids_the_signoff_and_relock_drops_it(toy: ToyFactory) -> None:
    env = toy()
    signed = sign(current_lock(env), "copy-secret", BY)
    stamp = ValidationStamp(at="x", digest=signed.digest, mcpgym_version="0", seeds=1)
    write_lock(env, signed.model_copy(update={"validation": stamp}))
    same, notes = relock(env, read_lock(env))
    assert same.signoffs == signed.signoffs and same.validated and notes == []
    heavier = toy(weight=3.0)
    fresh, notes = relock(heavier, read_lock(heavier))
    assert fresh.signoffs == {} and fresh.validation is None
    assert notes[0] == "rubric of family `copy-secret` changed"
    assert any("sign-off of family `copy-secret` by Ada Lovelace" in n for n in notes)
    assert any("validation stamp dropped" in n for n in notes)


def test_the_rubric_digest_covers_checks_weights_required_flags_and_threshold(
    toy: ToyFactory,
) -> None:
    rubric: Any = toy().families["copy-secret"].rubric
    base = rubric.digest()
    first = rubric.checks[0]
    variants = [
        rubric.model_copy(update={"threshold": 0.5}),
        rubric.model_copy(
            update={"checks": (first.model_copy(update={"required": False}), *rubric.checks[1:])}
        ),
        rubric.model_copy(
            update={"checks": (first.model_copy(update={"weight": 5.0}), *rubric.checks[1:])}
        ),
        rubric.model_copy(update={"checks": rubric.checks[1:]}),
    ]
    assert len({base, *(v.digest() for v in variants)}) == 5
