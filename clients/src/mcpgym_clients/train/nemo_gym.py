"""A NeMo Gym resources server for an mcpgym environment (the shape of nemo-gym 0.7).

Routes (NeMo Gym threads a rollout's session by cookie; ``episode_id`` in the body works
too):

=========================  ==========================================================
``POST /seed_session``     body: the dataset row (``responses_create_params`` plus
                           ``task``, ``band``, ``seed``); opens an mcpgym episode of that
                           variant; answers ``episode_id``, ``mcp_url`` (the episode's
                           MCP endpoint), ``variant_id``, ``instruction``, ``lock``,
                           ``tools``; sets the ``mcpgym_episode`` cookie
``POST /{tool}``           body: the tool's arguments; answers the text the model sees
                           (NeMo Gym's simple agent calls tools this way; MCP-native
                           agents use ``mcp_url`` instead)
``POST /verify``           body: NeMo Gym's verify request (``responses_create_params``,
                           ``response``); ends and grades the episode; answers the body
                           with ``reward`` (the grade's score), ``reward_components``
                           (per check), ``passed``, ``episode_id``, ``lock``
``GET  /stats``            ``{"seeded", "verified", "scored", "dropped"}``
=========================  ==========================================================

A rollout that cannot be scored (``infra_error``, a grade error) is never given a
reward: ``/verify`` answers 503 with ``mask_sample: true``, ``failure_kind`` and
``failure_reason`` and no ``reward`` field, so NeMo Gym drops the rollout; ``/stats``
counts it. The episode runs through `EpisodeDriver.run_episode` like every mcpgym
rollout (`SteeredEpisode`).

Serve it: ``uvicorn --factory`` on ``create_app`` with a bound environment, or
``mcpgym_clients.train.nemo_gym.serve(env, port=...)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio.abc import TaskGroup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route

from mcpgym_clients.adapters.base import text_of
from mcpgym_clients.driver import EpisodeDriver
from mcpgym_clients.train._steered import SteeredEpisode
from mcpgym_clients.train.results import Rollout
from mcpgym_clients.train.rollout import Rollouts
from mcpgym_clients.train.rows import TrainingRow, split_of
from mcpgym_server import Environment

COOKIE = "mcpgym_episode"
"""The cookie naming a rollout's episode."""

RESERVED = frozenset({"seed_session", "verify", "stats", "env"})


def _answer(response: Any) -> str | None:
    """The last output text of a Responses API response object, if any."""
    if not isinstance(response, dict):
        return None
    texts = []
    for item in response.get("output") or []:
        if isinstance(item, dict) and item.get("type") == "message":
            for part in item.get("content") or []:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    texts.append(part["text"])
    return texts[-1].strip() or None if texts else None


class _State:
    def __init__(self) -> None:
        self.rollouts: Rollouts | None = None
        self.tg: TaskGroup | None = None
        self.lock: str | None = None
        self.episodes: dict[str, SteeredEpisode] = {}
        self.stats = {"seeded": 0, "verified": 0, "scored": 0, "dropped": 0}


def create_app(
    env: Environment, *, servers: tuple[str, ...] | None = None, concurrency: int = 256
) -> Starlette:
    """The resources server's ASGI app for ``env`` (see the module docstring).

    Args:
        env: the environment.
        servers: ``(env_url, grading_url, grading_token[, control_token])`` of running
            mcpgym servers; default: both run inside this app, the environment server
            mounted at ``/env`` so that ``mcp_url`` is reachable through this server.
        concurrency: most episodes open at once.
    """
    state = _State()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        session = (
            Rollouts.in_process(env, concurrency=concurrency)
            if servers is None
            else Rollouts.over_http(*servers, concurrency=concurrency)
        )
        async with session as ro, anyio.create_task_group() as tg:
            state.rollouts, state.tg = ro, tg
            driver = ro.driver
            # Both sessions above drive MCP episodes (never `Rollouts.direct`).
            assert isinstance(driver, EpisodeDriver)
            state.lock = (await driver.server_info()).lock
            if ro.env_app is not None:
                mount.app = ro.env_app
            try:
                yield
            finally:
                for ep in list(state.episodes.values()):
                    with anyio.CancelScope(shield=True):
                        await ep.finish()
                tg.cancel_scope.cancel()

    def episode_of(request: Request, body: dict[str, Any]) -> SteeredEpisode | None:
        eid = body.get("episode_id") or request.cookies.get(COOKIE)
        return state.episodes.get(eid) if isinstance(eid, str) else None

    async def body_of(request: Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    async def seed_session(request: Request) -> Response:
        body = await body_of(request)
        try:
            task, band, seed = str(body["task"]), str(body["band"]), int(body["seed"])
        except (KeyError, TypeError, ValueError):
            return JSONResponse(
                {"error": "the row needs `task`, `band` and `seed` (an mcpgym variant)"},
                status_code=422,
            )
        if task not in env.families or band not in env.families[task].bands:
            return JSONResponse({"error": f"no variant {task}@{band} in {env.name}"}, 404)
        variant_id = f"{env.name}/{task}@{band}#{seed}"
        row = TrainingRow(variant_id, env.name, task, band, seed, "", split_of(variant_id))
        assert state.tg is not None and state.rollouts is not None
        ep = SteeredEpisode(row)
        state.tg.start_soon(ep.run, state.rollouts)
        await ep.wait_started()
        ctx = ep.context
        if ctx is None:
            await ep.finish()
            reason = ep.rollout.error if ep.rollout is not None else "the episode did not open"
            return JSONResponse({"error": reason, "failure_kind": "infra_error"}, 503)
        state.episodes[ctx.episode_id] = ep
        state.stats["seeded"] += 1
        if servers is None:
            mcp_url = f"{str(request.base_url).rstrip('/')}/env/episodes/{ctx.episode_id}/mcp"
        else:
            mcp_url = f"{servers[0].rstrip('/')}/episodes/{ctx.episode_id}/mcp"
        resp = JSONResponse(
            {
                "episode_id": ctx.episode_id,
                "mcp_url": mcp_url,
                "variant_id": ctx.variant_id,
                "instruction": ctx.instruction,
                "lock": state.lock,
                "tools": [
                    {"name": t.name, "description": t.description, "parameters": t.input_schema}
                    for t in ctx.tools
                ],
            }
        )
        resp.set_cookie(COOKIE, ctx.episode_id, httponly=True, samesite="strict")
        return resp

    async def call_tool(request: Request) -> Response:
        name = request.path_params["tool"]
        body = await body_of(request)
        ep = episode_of(request, {})
        if ep is None:
            return PlainTextResponse("Error: no episode for this session; POST /seed_session", 404)
        outcome = await ep.call(name, body)
        return PlainTextResponse(text_of(outcome))

    async def verify(request: Request) -> Response:
        body = await body_of(request)
        ep = episode_of(request, body)
        if ep is None:
            return JSONResponse({"error": "no episode for this session; POST /seed_session"}, 404)
        rollout: Rollout | None = await ep.finish(_answer(body.get("response")))
        state.episodes.pop(ep.context.episode_id if ep.context else "", None)
        state.stats["verified"] += 1
        if rollout is None or not rollout.scored:
            state.stats["dropped"] += 1
            kind = rollout.termination if rollout is not None else "infra_error"
            if rollout is not None and rollout.grade and rollout.grade.get("status") == "error":
                kind = "grade_error"
            reason = (rollout.error if rollout else None) or (
                (rollout.grade or {}).get("error") if rollout else None
            )
            return JSONResponse(
                {**body, "mask_sample": True, "failure_kind": kind, "failure_reason": reason},
                status_code=503,
            )
        state.stats["scored"] += 1
        return JSONResponse(
            {
                **body,
                "reward": rollout.score,
                "reward_components": rollout.check_rewards(),
                "passed": rollout.passed,
                "episode_id": rollout.episode_id,
                "variant_id": rollout.row.variant_id,
                "lock": rollout.lock,
                "mask_sample": False,
            }
        )

    async def stats(request: Request) -> Response:
        return JSONResponse(dict(state.stats))

    mount = Mount("/env", app=PlainTextResponse("not in process", 404))
    routes = [
        Route("/seed_session", seed_session, methods=["POST"]),
        Route("/verify", verify, methods=["POST"]),
        Route("/stats", stats, methods=["GET"]),
        mount,
        Route("/{tool}", call_tool, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.mcpgym = state
    return app


def serve(env: Environment, *, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the resources server with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(env), host=host, port=port)


__all__ = ["COOKIE", "create_app", "serve"]
