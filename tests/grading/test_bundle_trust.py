"""The grading service grades only bytes it verified, and serves only grades bound to them.

Issue 9, section 5:

- a writer who swaps a bundle's files after the service has verified them is graded on
  the verified bytes (each file is read once), or refused: never on the swapped content;
- a grade file planted or edited in ``grades_dir`` is never served as the grade: cached
  grades are bound (MAC, bundle digest) to the bundle they graded, else it is graded again.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcpgym_grading import create_app
from mcpgym_grading._grade_cache import CACHE_FORMAT
from mcpgym_server import EpisodeStore

from .episodes import DEFAULT_RUBRIC, make_env, reference_calls, run_episode
from .test_service import AUTH, TOKEN, client_for

pytestmark = pytest.mark.anyio

KEY = "bundle-key-for-tests"


class Store:
    """A signed store with a passing (reference) and a failing (no work) episode."""

    def __init__(self, root: Path, *, key: str | None = KEY) -> None:
        self.env = make_env()
        self.key = key
        self.dir = root / "episodes"
        store = EpisodeStore(self.dir, sign_key=key)
        answer = self.env.variant("refund", "easy", 0).answer
        self.passing = run_episode(
            self.env, reference_calls(self.env), answer=answer, store=store
        ).meta.episode_id
        self.failing = run_episode(self.env, [], store=store).meta.episode_id
        # the failing episode's files, relabelled as the passing episode's
        self.forged = root / "forged"
        shutil.copytree(self.dir / self.failing, self.forged)
        meta = json.loads((self.forged / "meta.json").read_text())
        meta["episode_id"] = self.passing
        (self.forged / "meta.json").write_text(json.dumps(meta))

    def app(self, **kwargs: Any) -> Any:
        kwargs.setdefault("env_loader", lambda name: self.env)
        kwargs.setdefault("bundle_key", self.key)
        return create_app(self.dir, TOKEN, **kwargs)

    def swap_in_forged(self) -> None:
        folder = self.dir / self.passing
        for path in folder.iterdir():
            path.unlink()
        for path in self.forged.iterdir():
            (folder / path.name).write_bytes(_READ_BYTES(path))


_READ_BYTES = Path.read_bytes
_READ_TEXT = Path.read_text


def swap_when(
    monkeypatch: pytest.MonkeyPatch, store: Store, ready: Callable[[set[str]], bool]
) -> list[str]:
    """Swap the forged files into the passing episode's folder once the files read from
    it so far satisfy ``ready``; returns the names read, in order."""
    folder = store.dir / store.passing
    read: list[str] = []
    swapped: list[bool] = []

    def noted(path: Path) -> None:
        if path.parent == folder:
            read.append(path.name)
            if not swapped and ready(set(read)):
                swapped.append(True)
                store.swap_in_forged()

    def read_bytes(self: Path) -> bytes:
        data = _READ_BYTES(self)
        noted(self)
        return data

    def read_text(self: Path, *args: Any, **kwargs: Any) -> str:
        data = _READ_TEXT(self, *args, **kwargs)
        noted(self)
        return data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(Path, "read_text", read_text)
    return read


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path)


async def test_files_swapped_after_verification_are_not_graded(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with client_for(store.app()) as client:
        truth = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert truth.json()["passed"] is True

    # the writer waits until the verifier has read the signature and the log, then swaps
    read = swap_when(monkeypatch, store, lambda names: {"signature", "log.jsonl"} <= names)
    async with client_for(store.app()) as client:
        response = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert response.status_code == 200, response.text
    graded = response.json()
    assert (graded["passed"], graded["signature"]) == (True, "verified"), graded["checks"]
    assert graded == truth.json()  # the verified bytes, not the forged ones
    assert read.count("meta.json") == read.count("log.jsonl") == 1, read


async def test_files_swapped_while_being_read_are_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap_when(monkeypatch, store, lambda names: "meta.json" in names)
    async with client_for(store.app()) as client:
        response = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert response.status_code == 422, response.text
    assert response.json()["signature"] == "invalid"


async def test_a_planted_grade_file_is_not_served(store: Store, tmp_path: Path) -> None:
    grades = tmp_path / "grades"
    async with client_for(store.app(grades_dir=grades)) as client:
        good = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    # planted: the passing grade, relabelled for the failing episode, bare and in an
    # envelope whose MAC was made without the key
    planted = {**good.json(), "episode_id": store.failing}
    stored = json.loads((grades / f"{store.passing}.json").read_text())
    forms = [
        planted,
        {**stored, "episode_id": store.failing, "grade": planted},
    ]
    for form in forms:
        (grades / f"{store.failing}.json").write_text(json.dumps(form))
        async with client_for(store.app(grades_dir=grades)) as client:
            get = await client.get(f"/grades/{store.failing}", headers=AUTH)
            post = await client.post("/grades", json={"episode_id": store.failing}, headers=AUTH)
        assert get.status_code == 404, get.text
        assert post.status_code == 200 and post.json()["passed"] is False
        assert post.json()["episode_id"] == store.failing


async def test_an_edited_cached_grade_is_graded_again(store: Store, tmp_path: Path) -> None:
    grades = tmp_path / "grades"
    async with client_for(store.app(grades_dir=grades)) as client:
        bad = await client.post("/grades", json={"episode_id": store.failing}, headers=AUTH)
    path = grades / f"{store.failing}.json"
    envelope = json.loads(path.read_text())
    assert envelope["format"] == CACHE_FORMAT and envelope["grade"] == bad.json()
    envelope["grade"] = {**envelope["grade"], "passed": True, "score": 1.0}
    path.write_text(json.dumps(envelope))
    async with client_for(store.app(grades_dir=grades)) as client:
        again = await client.post("/grades", json={"episode_id": store.failing}, headers=AUTH)
    assert again.json() == bad.json()
    assert json.loads(path.read_text())["grade"] == bad.json()  # rewritten


async def test_a_cached_grade_of_another_bundle_is_not_served(tmp_path: Path) -> None:
    store = Store(tmp_path, key=None)  # no bundle key: the MAC is keyed by the token
    grades = tmp_path / "grades"
    async with client_for(store.app(grades_dir=grades)) as client:
        good = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert good.json()["passed"] is True
    store.swap_in_forged()  # the store now holds another bundle under that id
    async with client_for(store.app(grades_dir=grades)) as client:
        again = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert again.status_code == 200 and again.json()["passed"] is False


async def test_a_cached_grade_of_another_lock_is_not_served(store: Store, tmp_path: Path) -> None:
    grades = tmp_path / "grades"
    async with client_for(store.app(grades_dir=grades)) as client:
        good = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert good.status_code == 200 and good.json()["passed"] is True
    # the rubric is fixed (another lock): the grade of the old one is stale
    fixed = make_env(DEFAULT_RUBRIC.model_copy(update={"checks": DEFAULT_RUBRIC.checks[:1]}))
    async with client_for(store.app(grades_dir=grades, env_loader=lambda name: fixed)) as client:
        again = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert again.status_code == 409, again.text
    assert again.json()["bundle_lock"] == good.json()["lock"] != again.json()["installed_lock"]
    # the same environment again: the cached grade is served
    async with client_for(store.app(grades_dir=grades)) as client:
        back = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert back.status_code == 200 and back.json() == good.json()


async def test_a_bundle_edited_after_its_grade_is_not_answered_from_memory(tmp_path: Path) -> None:
    """Round 9 S5-2: the grade kept in memory was served, ``verified``, after meta.json was
    edited. Now it is served only while the bundle has the digest of the bytes it graded;
    else the bundle is graded again, and the edit refused."""
    store = Store(tmp_path)
    async with client_for(store.app()) as client:
        ask = {"episode_id": store.passing}
        first = await client.post("/grades", json=ask, headers=AUTH)
        assert (first.status_code, first.json()["signature"]) == (200, "verified")
        again = await client.post("/grades", json=ask, headers=AUTH)
        assert again.json() == first.json()  # unchanged bundle: the kept grade
        meta_path = store.dir / store.passing / "meta.json"
        meta = json.loads(meta_path.read_text())
        meta["answer"] = "tampered"
        meta_path.write_text(json.dumps(meta))
        edited = await client.post("/grades", json=ask, headers=AUTH)
        assert edited.status_code == 422, edited.text
        assert edited.json()["signature"] == "invalid"
        kept = await client.get(f"/grades/{store.passing}", headers=AUTH)
        assert kept.status_code == 404


@pytest.mark.parametrize(
    ("name", "how", "named"),
    [
        ("meta.json", "truncate", "meta.json does not parse"),
        ("meta.json", "empty", "meta.json does not parse"),
        ("meta.json", "delete", "meta.json is missing"),
        ("log.jsonl", "truncate", "log.jsonl line"),
        ("log.jsonl", "delete", "log.jsonl"),
    ],
)
async def test_a_cut_or_missing_bundle_file_is_422_naming_it(
    tmp_path: Path, name: str, how: str, named: str
) -> None:
    """Round 9 S5-2: these were HTTP 500 (or 404, "end the episode first")."""
    store = Store(tmp_path, key=None)
    path = store.dir / store.passing / name
    if how == "delete":
        path.unlink()
    else:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2] if how == "truncate" else b"")
    async with client_for(store.app()) as client:
        reply = await client.post("/grades", json={"episode_id": store.passing}, headers=AUTH)
    assert reply.status_code == 422, reply.text
    assert reply.json()["bundle"] == "malformed"
    assert named in reply.json()["error"]
