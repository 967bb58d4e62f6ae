"""The grading service over a real uvicorn server on a loopback port, driven by httpx."""

from __future__ import annotations

import gzip
import json
import socket
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcpgym_grading import Grade, ReferenceCache, Rubric, ToolCalled, create_app, grade_bundle
from mcpgym_server import (
    BundleError,
    Environment,
    EpisodeStore,
    UnknownEnvironmentError,
    compute_lock,
)
from mcpgym_server.bundles import FINAL_DB, STATE_DELTA

from .episodes import make_env, reference_calls, run_episode

pytestmark = pytest.mark.anyio

TOKEN = "s3cret-grading-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@asynccontextmanager
async def serve(app: ASGIApp) -> AsyncGenerator[str, None]:
    """Run ``app`` under uvicorn on a free loopback port; yield its base URL once started."""
    started = anyio.Event()

    async def watched(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_and_watch(message: Message) -> None:
            await send(message)
            if message["type"] == "lifespan.startup.complete":
                started.set()

        await app(scope, receive, send_and_watch if scope["type"] == "lifespan" else send)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections queue here until uvicorn accepts them
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        watched, lifespan="on", log_config=None, access_log=False, ws="none", http="h11"
    )
    server = uvicorn.Server(config)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve, [sock])
            with anyio.fail_after(5):
                await started.wait()
            try:
                yield f"http://127.0.0.1:{port}"
            finally:
                server.should_exit = True
    finally:
        sock.close()


class Setup:
    """An episode store holding one sealed reference episode of the toy environment."""

    def __init__(self, root: Path) -> None:
        self.env = make_env()
        self.store_dir = root / "episodes"
        store = EpisodeStore(self.store_dir)
        variant = self.env.variant("refund", "easy", 0)
        bundle = run_episode(
            self.env, reference_calls(self.env), answer=variant.answer, store=store
        )
        self.episode_id = bundle.meta.episode_id
        self.expected = grade_bundle(bundle, self.env, reference_cache=ReferenceCache())
        self.loads: list[str] = []

    def loader(self, env: Environment | None = None) -> Callable[[str], Environment]:
        def load(name: str) -> Environment:
            self.loads.append(name)
            if name != "toy":
                raise UnknownEnvironmentError(name, ["toy"])
            return env or self.env

        return load

    def app(self, **kwargs: Any) -> Any:
        kwargs.setdefault("env_loader", self.loader())
        return create_app(self.store_dir, TOKEN, **kwargs)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@asynccontextmanager
async def client_for(app: Any) -> AsyncGenerator[httpx.AsyncClient, None]:
    async with serve(app) as url, httpx.AsyncClient(base_url=url) as client:
        yield client


async def test_healthz_needs_no_token(setup: Setup) -> None:
    async with client_for(setup.app()) as client:
        response = await client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"ok": True})


async def test_missing_token_is_401_with_a_bearer_challenge(setup: Setup) -> None:
    async with client_for(setup.app()) as client:
        post = await client.post("/grades", json={"episode_id": setup.episode_id})
        get = await client.get(f"/grades/{setup.episode_id}")
        basic = await client.get(
            f"/grades/{setup.episode_id}", headers={"Authorization": "Basic x"}
        )
    for response in (post, get, basic):
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
    assert post.json() == {"error": "missing `Authorization: Bearer <token>` header"}
    assert basic.json() == {"error": "the `Authorization` header must be `Bearer <token>`"}


async def test_wrong_token_is_refused_with_403(setup: Setup) -> None:
    async with client_for(setup.app()) as client:
        response = await client.post(
            "/grades",
            json={"episode_id": setup.episode_id},
            headers={b"Authorization": "Bearer wrong-token-é".encode()},
        )
    assert response.status_code == 403
    assert response.json() == {"error": "the bearer token is not valid for this grading service"}


def count_gradings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Episode ids graded by the service from now on (`grade_bundle` calls)."""
    graded: list[str] = []
    real = grade_bundle

    def counting(bundle: Any, *args: Any, **kwargs: Any) -> Grade:
        graded.append(bundle.meta.episode_id)
        return real(bundle, *args, **kwargs)

    monkeypatch.setattr("mcpgym_grading.service.grade_bundle", counting)
    return graded


async def test_post_grades_the_bundle_and_get_returns_it(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    graded = count_gradings(monkeypatch)
    async with client_for(setup.app()) as client:
        before = await client.get(f"/grades/{setup.episode_id}", headers=AUTH)
        post = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
        again = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
        get = await client.get(f"/grades/{setup.episode_id}", headers=AUTH)
    assert before.status_code == 404
    assert before.json() == {
        "error": f"no grade for episode {setup.episode_id} yet; create it with POST /grades "
        f'{{"episode_id": "{setup.episode_id}"}}'
    }
    assert post.status_code == 200
    grade = Grade.model_validate(post.json())
    assert grade == setup.expected
    assert (grade.score, grade.passed) == (1.0, True)
    assert again.json() == get.json() == post.json()
    # graded once, then served from memory (each hit loads the environment for its lock)
    assert graded == [setup.episode_id]
    assert setup.loads == ["toy"] * 3


async def test_concurrent_requests_grade_once(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    graded = count_gradings(monkeypatch)
    results: list[httpx.Response] = []
    async with client_for(setup.app()) as client:

        async def post() -> None:
            payload = {"episode_id": setup.episode_id}
            results.append(await client.post("/grades", json=payload, headers=AUTH))

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(post)
    assert [r.status_code for r in results] == [200] * 4
    assert graded == [setup.episode_id]


async def test_a_first_grade_with_no_grades_dir_looks_for_no_kept_grade_in_a_thread(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With nothing kept in memory and no ``grades_dir``, `_GradingService.cached` has
    nothing to read: the first grade does not send it to a worker thread; the second,
    served from memory, does (it checks the bundle's digest there)."""
    from mcpgym_grading.service import _GradingService

    looked: list[str] = []
    real = _GradingService.cached

    def cached(self: _GradingService, episode_id: str) -> Grade | None:
        looked.append(episode_id)
        return real(self, episode_id)

    monkeypatch.setattr(_GradingService, "cached", cached)
    graded = count_gradings(monkeypatch)
    async with client_for(setup.app()) as client:
        first = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
        assert looked == []
        again = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert first.json() == again.json() and Grade.model_validate(first.json()) == setup.expected
    assert looked == [setup.episode_id] and graded == [setup.episode_id]


async def test_unknown_episode_is_404_saying_how_to_seal_it(setup: Setup) -> None:
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json={"episode_id": "ep_missing"}, headers=AUTH)
    assert response.status_code == 404
    assert response.json() == {
        "error": f"no sealed bundle for episode ep_missing in store {setup.store_dir}; end the "
        "episode first (POST /episodes/ep_missing/end)"
    }


@pytest.mark.parametrize("bad", ["ep_" + "a" * 300, "ep_\ud800", "../../etc/passwd"])
async def test_malformed_episode_ids_are_404_never_500(setup: Setup, bad: str) -> None:
    async with client_for(setup.app()) as client:
        posted = await client.post(
            "/grades", content=json.dumps({"episode_id": bad}).encode(), headers=AUTH
        )
        fetched = await client.get("/grades/x" + "a" * 300, headers=AUTH)
    assert posted.status_code == 404 and "episode ids look like" in posted.json()["error"]
    assert fetched.status_code == 404


def test_a_missing_store_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="does not exist"):
        create_app(tmp_path / "typo", "token")


async def test_malformed_json_is_400(setup: Setup) -> None:
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", content=b'{"episode_id": ', headers=AUTH)
    assert response.status_code == 400
    body = response.json()
    assert body["field"] is None
    assert body["error"].startswith("request body is not valid JSON")


@pytest.mark.parametrize(
    ("payload", "field", "error"),
    [
        ({}, "episode_id", "field `episode_id` is required"),
        ({"episode_id": 7}, "episode_id", "field `episode_id` must be a non-empty string"),
        ({"episode_id": " "}, "episode_id", "field `episode_id` must be a non-empty string"),
        (
            {"episode_id": "x", "episode": "y"},
            "episode",
            "unknown field `episode`; the only field is `episode_id`",
        ),
        (["x"], None, 'request body must be a JSON object: {"episode_id": "<id>"}'),
    ],
)
async def test_invalid_bodies_are_422_naming_the_field(
    setup: Setup, payload: Any, field: str | None, error: str
) -> None:
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json=payload, headers=AUTH)
    assert (response.status_code, response.json()) == (422, {"error": error, "field": field})


async def test_a_changed_instrument_is_409(setup: Setup) -> None:
    changed = make_env(Rubric(checks=(ToolCalled(name="c", tool="get_order"),)))
    async with client_for(setup.app(env_loader=setup.loader(changed))) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 409
    body = response.json()
    assert (body["bundle_lock"], body["installed_lock"]) == (
        compute_lock(setup.env),
        compute_lock(changed),
    )
    assert "the instrument changed" in body["error"]


async def test_an_environment_not_installed_is_404_listing_the_installed_ones(
    setup: Setup,
) -> None:
    def none_installed(name: str) -> Environment:
        raise UnknownEnvironmentError(name, ["helpdesk"])

    async with client_for(setup.app(env_loader=none_installed)) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 404
    assert response.json() == {
        "error": f"episode {setup.episode_id} ran in environment `toy`, which is not installed "
        "in this grading service; installed environments: helpdesk",
        "installed": ["helpdesk"],
    }


async def test_grades_dir_keeps_grades_across_restarts(
    setup: Setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grades_dir = tmp_path / "grades"
    async with client_for(setup.app(grades_dir=grades_dir)) as client:
        post = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert (grades_dir / f"{setup.episode_id}.json").is_file()

    def no_grading(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a kept grade was graded again")

    monkeypatch.setattr("mcpgym_grading.service.grade_bundle", no_grading)
    async with client_for(setup.app(grades_dir=grades_dir)) as client:
        get = await client.get(f"/grades/{setup.episode_id}", headers=AUTH)
    assert (get.status_code, get.json()) == (200, post.json())
    assert setup.loads == ["toy", "toy"]  # the second for the installed lock only


async def test_a_corrupt_bundle_is_422_naming_it(setup: Setup) -> None:
    """The bundle's fault, not the service's (round 9 S5-2: it was a 500)."""
    final = setup.store_dir / setup.episode_id / STATE_DELTA
    final.write_bytes(gzip.compress(gzip.decompress(final.read_bytes()) + b"tampered"))
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 422
    assert response.json() == {
        "error": f"cannot grade episode {setup.episode_id}: bundle {setup.episode_id}: "
        f"{STATE_DELTA} does not match delta_sha256 in meta",
        "bundle": "malformed",
    }


@pytest.mark.parametrize(
    ("field", "drop", "message"),
    [
        # a bundle with a page-wise digest: the rebuilt state is checked page-wise (cheap)
        ("final_pages_sha256", None, "does not match final_pages_sha256 000000000000 in meta"),
        # one sealed before page-wise digests: rebuilt whole and checked against its sha256
        ("final_sha256", "final_pages_sha256", "does not match final_sha256 000000000000 in meta"),
    ],
)
async def test_a_rebuilt_database_that_differs_from_final_sha256_is_422_never_a_grade(
    setup: Setup, field: str, drop: str | None, message: str
) -> None:
    meta_path = setup.store_dir / setup.episode_id / "meta.json"
    meta = json.loads(meta_path.read_text())
    assert meta["bundle_format"] == 2 and meta["final_pages_sha256"]
    meta[field] = "0" * 64
    if drop is not None:
        del meta[drop]
    meta_path.write_text(json.dumps(meta))
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 422
    assert message in response.json()["error"]


def test_final_sha256_stays_checkable_on_a_bundle_with_page_digests(setup: Setup) -> None:
    import hashlib

    from mcpgym_server import BundleError

    store = EpisodeStore(setup.store_dir)
    bundle = store.read(setup.episode_id)
    final = bundle.final_db  # rebuilt whole and checked against final_sha256
    assert hashlib.sha256(final).hexdigest() == bundle.meta.final_sha256
    meta_path = setup.store_dir / setup.episode_id / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["final_sha256"] = "0" * 64
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(BundleError, match="does not match final_sha256"):
        _ = store.read(setup.episode_id).final_db


async def test_a_format_1_bundle_is_still_graded(setup: Setup) -> None:
    d = setup.store_dir / setup.episode_id
    bundle = EpisodeStore(setup.store_dir).read(setup.episode_id)
    (d / FINAL_DB).write_bytes(gzip.compress(bundle.final_state(setup.env.snapshot)[0]))
    (d / STATE_DELTA).unlink()
    meta = json.loads((d / "meta.json").read_text())
    for k in ("bundle_format", "base_sha256", "final_size", "delta_sha256", "final_pages_sha256"):
        del meta[k]
    (d / "meta.json").write_text(json.dumps(meta))
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 200
    assert response.json() == setup.expected.model_dump(mode="json")


async def test_an_unknown_bundle_format_is_422_naming_it(setup: Setup) -> None:
    meta_path = setup.store_dir / setup.episode_id / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["bundle_format"] = 7
    meta_path.write_text(json.dumps(meta))
    async with client_for(setup.app()) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 422
    assert "has bundle format 7; this mcpgym reads formats 1 and 2" in response.json()["error"]


async def test_an_unexpected_failure_is_a_json_500(setup: Setup) -> None:
    def broken_loader(name: str) -> Environment:
        raise RuntimeError("loader exploded")

    async with client_for(setup.app(env_loader=broken_loader)) as client:
        response = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert response.status_code == 500
    assert response.json() == {
        "error": "internal error in the grading service: RuntimeError: loader exploded"
    }


def test_an_empty_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="non-empty bearer token"):
        create_app(tmp_path, "")


async def test_a_grade_is_sent_as_the_bytes_jsonresponse_made_of_it(setup: Setup) -> None:
    """The grade's JSON is written in one pass (`grade_response`) with the bytes the
    service sent before (`JSONResponse` of ``model_dump(mode="json")``), non-ASCII text,
    floats and nested details included."""
    from starlette.responses import JSONResponse

    from mcpgym_grading.service import grade_response

    tricky = setup.expected.model_copy(update={"error": "réponse — 1e-7 ✓", "threshold": 0.1 + 0.2})
    for grade in (setup.expected, tricky):
        before = JSONResponse(grade.model_dump(mode="json"))
        after = grade_response(grade)
        assert after.body == before.body
        assert after.headers["content-type"] == before.headers["content-type"]
    async with client_for(setup.app()) as client:
        posted = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
        got = await client.get(f"/grades/{setup.episode_id}", headers=AUTH)
    want = JSONResponse(setup.expected.model_dump(mode="json")).body
    assert posted.content == got.content == want
    assert posted.headers["content-type"] == "application/json"


async def test_at_most_grading_threads_grades_run_at_once(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six episodes asked at once: two are graded (``grading_threads=2``) while the other
    four wait for the limiter, not in threads of their own; then every one is graded."""
    import threading

    import anyio.lowlevel

    store = EpisodeStore(setup.store_dir)
    variant = setup.env.variant("refund", "easy", 0)
    ids = [setup.episode_id] + [
        run_episode(
            setup.env, reference_calls(setup.env), answer=variant.answer, store=store
        ).meta.episode_id
        for _ in range(5)
    ]
    inside, peak = [0], [0]
    turn = threading.Condition()
    release = threading.Event()
    real = grade_bundle

    def held(bundle: Any, *args: Any, **kwargs: Any) -> Grade:
        with turn:
            inside[0] += 1
            peak[0] = max(peak[0], inside[0])
            turn.notify_all()
        release.wait(10)
        with turn:
            inside[0] -= 1
        return real(bundle, *args, **kwargs)

    monkeypatch.setattr("mcpgym_grading.service.grade_bundle", held)

    def two_inside() -> None:
        with turn:
            assert turn.wait_for(lambda: inside[0] >= 2, timeout=10)

    app = setup.app(grading_threads=2)
    limiter = app.state.grading.limiter()
    answers: list[int] = []
    async with client_for(app) as client:

        async def post(episode_id: str) -> None:
            r = await client.post("/grades", json={"episode_id": episode_id}, headers=AUTH)
            answers.append(r.status_code)

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                for i in ids:
                    tg.start_soon(post, i)
                await anyio.to_thread.run_sync(two_inside)
                while limiter.statistics().tasks_waiting < 4:
                    await anyio.lowlevel.checkpoint()  # the other requests reach it
                assert (inside[0], peak[0]) == (2, 2)
                release.set()
    assert answers == [200] * 6 and peak[0] == 2


def test_grading_threads_below_one_is_refused(setup: Setup) -> None:
    with pytest.raises(ValueError, match="grading_threads"):
        setup.app(grading_threads=0)
