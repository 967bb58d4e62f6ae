"""A grade kept by the grading service (in memory or in ``grades_dir``) is served only
under the installed environment's lock, exactly as a fresh grading would be (issue 9 §5).

A rubric fixed while the service runs (or between restarts) gives the environment a new
lock: a bundle of the old lock is then refused 409 as a lock mismatch whether or not it
was graded before, never answered with the grade of the old rubric.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgym_grading import Rubric, ToolCalled, create_app
from mcpgym_server import Environment, EpisodeStore, UnknownEnvironmentError, compute_lock

from .episodes import DEFAULT_RUBRIC, make_env, reference_calls, run_episode
from .test_service import AUTH, TOKEN, Setup, client_for

pytestmark = pytest.mark.anyio


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def _changed() -> Environment:
    """The toy environment with another rubric, hence another lock."""
    return make_env(Rubric(checks=(ToolCalled(name="c", tool="get_order"),)))


async def test_a_grade_on_disk_is_not_served_after_the_lock_changed(tmp_path: Path) -> None:
    """The adversary's case (round 2): graded under the old lock with ``grades_dir``,
    then asked of a service with a changed environment, with and without the kept grade."""
    env_old = make_env()
    store = EpisodeStore(tmp_path / "episodes", sign_key="k")
    variant = env_old.variant("refund", "easy", 0)
    bundle = run_episode(env_old, reference_calls(env_old), answer=variant.answer, store=store)
    episode = {"episode_id": bundle.meta.episode_id}
    changed = make_env(DEFAULT_RUBRIC.model_copy(update={"checks": DEFAULT_RUBRIC.checks[:1]}))
    assert compute_lock(changed) != compute_lock(env_old)
    grades = tmp_path / "grades"

    def app(env: Environment, **kwargs: object) -> object:
        return create_app(
            tmp_path / "episodes", TOKEN, env_loader=lambda _n: env, bundle_key="k", **kwargs
        )

    async with client_for(app(env_old, grades_dir=grades)) as client:
        first = await client.post("/grades", json=episode, headers=AUTH)
    async with client_for(app(changed)) as client:
        fresh = await client.post("/grades", json=episode, headers=AUTH)
    async with client_for(app(changed, grades_dir=grades)) as client:
        kept = await client.post("/grades", json=episode, headers=AUTH)
    assert first.status_code == 200 and first.json()["lock"] == compute_lock(env_old)
    assert fresh.status_code == 409
    assert (kept.status_code, kept.json()) == (409, fresh.json())


@pytest.mark.parametrize("grades_dir", [False, True], ids=["memory", "memory+grades_dir"])
async def test_a_grade_in_memory_is_not_served_after_the_lock_changed(
    setup: Setup, tmp_path: Path, grades_dir: bool
) -> None:
    """The environment changes under a running service: its next answer is the 409 a fresh
    grading gives, the GET finds no grade, and the old lock's grade is back with the old
    environment."""
    installed = {"env": setup.env}
    changed = _changed()
    app = setup.app(
        env_loader=lambda _n: installed["env"],
        **({"grades_dir": tmp_path / "grades"} if grades_dir else {}),
    )
    episode = {"episode_id": setup.episode_id}
    async with client_for(app) as client:
        first = await client.post("/grades", json=episode, headers=AUTH)
        installed["env"] = changed
        after = await client.post("/grades", json=episode, headers=AUTH)
        get = await client.get(f"/grades/{setup.episode_id}", headers=AUTH)
        installed["env"] = setup.env
        back = await client.post("/grades", json=episode, headers=AUTH)
    assert first.status_code == 200
    assert after.status_code == 409
    body = after.json()
    assert (body["bundle_lock"], body["installed_lock"]) == (
        compute_lock(setup.env),
        compute_lock(changed),
    )
    assert get.status_code == 404
    assert (back.status_code, back.json()) == (200, first.json())


async def test_a_grade_in_memory_is_not_served_once_its_environment_is_gone(
    setup: Setup,
) -> None:
    installed: dict[str, Environment | None] = {"env": setup.env}

    def load(name: str) -> Environment:
        env = installed["env"]
        if env is None:
            raise UnknownEnvironmentError(name, [])
        return env

    async with client_for(setup.app(env_loader=load)) as client:
        first = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
        installed["env"] = None
        after = await client.post("/grades", json={"episode_id": setup.episode_id}, headers=AUTH)
    assert first.status_code == 200
    assert after.status_code == 404
    assert "not installed" in after.json()["error"]
